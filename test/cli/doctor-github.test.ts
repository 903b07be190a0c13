/**
 * `doctor --github OWNER/REPO` (src/core/doctor/github-settings.ts, src/io/github-settings.ts):
 * where the workflows' secrets are, read from GitHub's API (here a stand-in on 127.0.0.1 that
 * answers as the REST API documents): a workflow secret kept as a repository or organization
 * secret fails (every branch's workflows read those), an environment any branch may deploy to
 * fails, the environment limited to the default branch and holding the secrets passes. The token
 * doctor reads with is never printed.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runMain } from "../support/run-main";

const GH_TOKEN = "ghp_plantedDoctorToken0123456789abcdef";

interface Fake {
  repositorySecrets: string[];
  orgSecrets: string[] | null;
  environment: null | { policy: null | { protected_branches: boolean; custom_branch_policies: boolean }; branches: string[]; secrets: string[] };
}

let server: Server;
let api: string;
let dir: string;
const fake: Fake = { repositorySecrets: [], orgSecrets: [], environment: null };
const seenAuth: string[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "aru-doctor-github-"));
  server = createServer((req, res) => {
    seenAuth.push(req.headers.authorization ?? "");
    const send = (status: number, body: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
    const path = req.url ?? "";
    const env = fake.environment;
    const secrets = (names: string[]) => ({ total_count: names.length, secrets: names.map((name) => ({ name, created_at: "2026-01-01T00:00:00Z", updated_at: "2026-01-01T00:00:00Z" })) });
    if (path === "/repos/acme/lists") return send(200, { full_name: "acme/lists", default_branch: "main" });
    if (path === "/repos/acme/lists/actions/secrets") return send(200, secrets(fake.repositorySecrets));
    if (path === "/repos/acme/lists/actions/organization-secrets") return fake.orgSecrets === null ? send(403, { message: "Resource not accessible" }) : send(200, secrets(fake.orgSecrets));
    if (path === "/repos/acme/lists/environments/alert-rules") return env === null ? send(404, { message: "Not Found" }) : send(200, { name: "alert-rules", deployment_branch_policy: env.policy });
    if (path === "/repos/acme/lists/environments/alert-rules/deployment-branch-policies") return send(200, { total_count: env?.branches.length ?? 0, branch_policies: (env?.branches ?? []).map((name, id) => ({ id, name, type: "branch" })) });
    if (path === "/repos/acme/lists/environments/alert-rules/secrets") return send(200, secrets(env?.secrets ?? []));
    return send(404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

async function doctor(): Promise<{ checks: { check: string; status: string; message: string; fix?: string }[]; out: string }> {
  const { stdout, out } = await runMain(["doctor", "--format", "json", "--github", "acme/lists"], dir, { PATH: process.env["PATH"], GITHUB_TOKEN: GH_TOKEN, GITHUB_API_URL: api });
  const parsed = JSON.parse(stdout) as { checks: { check: string; status: string; message: string; fix?: string }[] };
  return { checks: parsed.checks.filter((c) => c.check.startsWith("github-")), out };
}

describe("doctor --github: where the workflows' secrets are", () => {
  it("a token kept as a repository secret, and an environment any branch may deploy to: both fail, saying what to click", async () => {
    // given
    Object.assign(fake, { repositorySecrets: ["ALERTS_API_TOKEN", "UNRELATED"], orgSecrets: ["ALERT_RULE_USERS_PLAN_KEY"], environment: { policy: null, branches: [], secrets: ["ALERTS_API_TOKEN"] } });
    // when
    const { checks, out } = await doctor();
    // then
    expect(checks.map((c) => [c.check, c.status])).toEqual([
      ["github-secrets", "fail"],
      ["github-environment", "fail"],
    ]);
    expect(checks[0]!.message).toBe("ALERTS_API_TOKEN (repository), ALERT_RULE_USERS_PLAN_KEY (organization): secrets that every workflow any branch pushes can read");
    expect(checks[1]!.message).toBe("alert-rules: every branch may deploy to it");
    expect(checks[1]!.fix).toContain('"Selected branches and tags", with the one rule main');
    expect(out).not.toContain(GH_TOKEN);
    expect(seenAuth.every((a) => a === `Bearer ${GH_TOKEN}`)).toBe(true);
  });

  it("no environment of that name: fails, saying how to make it", async () => {
    Object.assign(fake, { repositorySecrets: [], orgSecrets: null, environment: null });
    const { checks } = await doctor();
    expect(checks.map((c) => [c.check, c.status, c.message])).toEqual([
      ["github-secrets", "pass", "no workflow secret is a repository secret of acme/lists"],
      ["github-environment", "fail", "acme/lists has no environment alert-rules"],
    ]);
  });

  it("protected branches, or the default branch without the plan key: fail", async () => {
    Object.assign(fake, { environment: { policy: { protected_branches: true, custom_branch_policies: false }, branches: [], secrets: ["ALERTS_API_TOKEN", "ALERT_RULE_USERS_PLAN_KEY"] } });
    expect((await doctor()).checks[1]!.message).toBe("alert-rules: every protected branch may deploy to it");
    Object.assign(fake, { environment: { policy: { protected_branches: false, custom_branch_policies: true }, branches: ["main"], secrets: ["ALERTS_API_TOKEN"] } });
    expect((await doctor()).checks[1]).toMatchObject({ status: "fail", message: "alert-rules deploys from main only, but holds no ALERT_RULE_USERS_PLAN_KEY" });
  });

  it("the secrets in an environment that deploys from the default branch only: both pass", async () => {
    Object.assign(fake, { repositorySecrets: ["UNRELATED"], orgSecrets: [], environment: { policy: { protected_branches: false, custom_branch_policies: true }, branches: ["main"], secrets: ["ALERTS_API_TOKEN", "ALERT_RULE_USERS_PLAN_KEY", "PG_CONN_STR"] } });
    const { checks } = await doctor();
    expect(checks.map((c) => [c.check, c.status, c.message])).toEqual([
      ["github-secrets", "pass", "no workflow secret is a repository or organization secret of acme/lists"],
      ["github-environment", "pass", "alert-rules deploys from main only and holds ALERTS_API_TOKEN, ALERT_RULE_USERS_PLAN_KEY, PG_CONN_STR"],
    ]);
  });

  it("without a token: one failure that says which token to give", async () => {
    const { stdout } = await runMain(["doctor", "--format", "json", "--github", "acme/lists"], dir, { PATH: process.env["PATH"], GITHUB_API_URL: api });
    const github = (JSON.parse(stdout) as { checks: { check: string; message: string }[] }).checks.filter((c) => c.check.startsWith("github-"));
    expect(github).toEqual([expect.objectContaining({ check: "github-secrets", message: expect.stringContaining("set GITHUB_TOKEN") })]);
  });
});
