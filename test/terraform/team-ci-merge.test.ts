/**
 * A Terraform team's CI from the release alone (design §13.1, docs/provider-workflows.md): the HCL
 * workflows that `init --hcl alert-rules --workflows` writes, run step by step on runners without
 * Node.js (test/terraform/team-ci.ts), the provider installed from the release's HTTPS mirror and
 * checked against the committed locks, the team's state in a real PostgreSQL (Terraform's `pg`
 * backend). Pull request → comment → merge → `terraform apply` into the backend →
 * `terraform plan -detailed-exitcode` on main exits 0; with the HCL a team writes: `timeouts`, a CSV
 * `for_each`, a local module, a data source feeding a resource; then a change to only `users.csv`,
 * and a change to only the lock file. Needs terraform, PostgreSQL and the build (dist/).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO } from "../support/cli";
import { startPostgres, type Postgres } from "../support/postgres";
import { RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { explain, secretFoundIn, startListener, type Listener } from "../ci/planted-token";
import { MINUTES } from "./support";
import { buildRelease, serveRelease, type ServedRelease } from "./support-release";
import { TeamCi, type Commit } from "./team-ci";

const TOKEN = "planted-team-ci-token-5d0c2a97e4b1";
const PLAN_KEY = "planted-team-ci-plan-key-0a93f1c64e27";
const sim = useSimulator({ token: TOKEN });

let root: string;
let release: ServedRelease;
let pg: Postgres;
let listener: Listener;
let ci: TeamCi;
let main: Commit;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), "aru-team-ci-"));
  await buildRelease(join(REPO, ".tmp", "team-ci-release"));
  release = await serveRelease(join(REPO, ".tmp", "team-ci-release"), join(root, "pki"));
  pg = await startPostgres();
  listener = await startListener();
  ci = new TeamCi({ root, release, pg, sim, token: TOKEN, planKey: PLAN_KEY, env: { PATH: process.env["PATH"], HOME: root, CHECKPOINT_DISABLE: "1" } });
  main = await ci.initialCommit();
}, 15 * MINUTES);

afterAll(async () => {
  await listener?.close();
  await release?.close();
  pg?.stop();
  rmSync(root, { recursive: true, force: true });
});

/** Neither secret in any comment, artifact, step output or request to another host. */
function expectNoSecretIn(...runs: { comments: string[]; artifacts: Record<string, string>; steps: { output: string }[] }[]): void {
  for (const run of runs) {
    for (const secret of [TOKEN, PLAN_KEY, pg.connStr]) {
      expect(secretFoundIn(run as never, listener.received, secret)).toEqual([]);
      for (const step of run.steps) expect(step.output.includes(secret)).toBe(false);
    }
  }
}

/** The live aliases of a rule, as the simulator holds them. */
const aliasesOf = (ruleId: string): string[] => (sim.rule(ruleId)?.users ?? []).flatMap((u) => u.userAliasList);

const users = (...ids: [string, string][]) => `{\n${ids.map(([id, alias]) => `    ${JSON.stringify(id)} = { aliases = [${JSON.stringify(alias)}] }`).join("\n")}\n  }`;

/** The HCL a team writes: timeouts, a CSV for_each, a local module, a data source feeding a resource. */
const ORDINARY: Record<string, string> = {
  "alert-rules/finance.tf": `locals {\n  finance_people = csvdecode(file("\${path.module}/users.csv"))\n}\n\nresource "alertrules_rule_user_list" "finance" {\n  rule_id = "${RULES.finance}"\n  mode    = "additive"\n  users   = { for p in local.finance_people : p.user_id => { aliases = [p.alias] } }\n\n  timeouts {\n    create = "5m"\n    update = "5m"\n  }\n}\n`,
  "alert-rules/users.csv": "user_id,alias\n7100001,frank.finance@example.com\n7100002,fiona.finance@example.com\n",
  "alert-rules/modules/list/main.tf": `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nvariable "rule_id" {\n  type = string\n}\n\nvariable "users" {\n  type = map(object({ aliases = list(string) }))\n}\n\nresource "alertrules_rule_user_list" "this" {\n  rule_id = var.rule_id\n  mode    = "additive"\n  users   = var.users\n}\n`,
  "alert-rules/sales.tf": `module "sales" {\n  source  = "./modules/list"\n  rule_id = "${RULES.sales}"\n  users   = ${users(["7200001", "sam.sales@example.com"])}\n}\n`,
  "alert-rules/legal.tf": `data "alertrules_rule" "legal" {\n  rule_name = "Legal hold file type mismatch"\n}\n\nresource "alertrules_rule_user_list" "legal" {\n  rule_id = data.alertrules_rule.legal.rule_id\n  mode    = "additive"\n  users   = ${users(["7300001", "lee.legal@example.com"])}\n}\n`,
};

describe("a Terraform team's CI from the release alone, state in PostgreSQL", () => {
  it("pull request with ordinary HCL → comment → merge → terraform apply into the pg backend → the next plan on main is empty", async () => {
    // given a pull request that adds timeouts, a CSV for_each, a local module and a data source
    const head = ci.commit("pr-ordinary", main, ORDINARY);
    // when it is planned and reviewed
    const pr = await ci.pullRequest(7, head, main);
    // then: the configuration read data sources, answered by the trusted job, then planned
    expect(`${JSON.stringify(pr.review.jobs)}\n${explain(pr.review)}\n${JSON.stringify(pr.review.outputs)}\n${explain(pr.plan)}\n${pr.comment ?? ""}`).toMatch(/^\{"check":"success","data":"success","evaluate":"success","plan":"success"\}/);
    expect(pr.plan.checkouts).toEqual({ evaluate: ["head"] });
    // the jobs that hold secrets checked out the default branch only; the pull request only where no secret is
    expect(pr.review.checkouts).toEqual({ check: [], data: ["head"], evaluate: ["head", head.sha], plan: ["head"] });
    const comment = pr.comment ?? "";
    for (const alias of ["erin.walker@example.com", "frank.finance@example.com", "fiona.finance@example.com", "sam.sales@example.com", "lee.legal@example.com"]) expect(comment).toContain(alias);
    expect(comment).toMatch(/lists read \d{4}-\d\d-\d\d \d\d:\d\d UTC; on merge Terraform reads them again and applies this plan, or nothing/);
    // when it is merged and pushed
    const merged = ci.commit("main-1", main, ORDINARY);
    ci.merge(7, head.sha, merged);
    const applied = await ci.push(merged);
    // then Terraform applied the reviewed plan into the pg backend
    expect(`${applied.jobs["apply"]}\n${explain(applied)}`).toMatch(/^success/);
    expect(applied.summaries["apply"]).toContain("what this merge applies");
    expect(applied.summaries["apply"]).toContain("frank.finance@example.com");
    expect(aliasesOf(RULES.finance)).toEqual(expect.arrayContaining(["frank.finance@example.com", "fiona.finance@example.com"]));
    const list = await ci.terraformOn(merged, ["state", "list"]);
    expect(list.stdout.split("\n").filter((l) => l !== "").sort()).toEqual([
      "alertrules_rule_user_list.engineering_exfiltration",
      "alertrules_rule_user_list.finance",
      "alertrules_rule_user_list.legal",
      "data.alertrules_rule.legal",
      "module.sales.alertrules_rule_user_list.this",
    ]);
    const after = await ci.terraformOn(merged, ["plan", "-detailed-exitcode"]);
    expect(`${after.code}\n${after.stdout}${after.stderr}`).toMatch(/^0\n/);
    expectNoSecretIn(pr.plan, pr.review, applied);
    main = merged;
  }, 30 * MINUTES);

  it("a change to only users.csv is planned and applied; a re-run of that merge says it was applied already", async () => {
    const edit = { "alert-rules/users.csv": "user_id,alias\n7100001,frank.finance@example.com\n7100002,fiona.finance@example.com\n7100003,fatima.finance@example.com\n" };
    const head = ci.commit("pr-csv", main, edit);
    const pr = await ci.pullRequest(8, head, main);
    expect(`${pr.review.jobs["plan"]}\n${explain(pr.review)}`).toMatch(/^success/);
    expect(pr.comment).toContain("fatima.finance@example.com");
    const merged = ci.commit("main-2", main, edit);
    ci.merge(8, head.sha, merged);
    const applied = await ci.push(merged);
    expect(`${applied.jobs["apply"]}\n${explain(applied)}`).toMatch(/^success/);
    expect(aliasesOf(RULES.finance)).toContain("fatima.finance@example.com");
    // the same push again: nothing left to apply, and it says so
    const again = await ci.push(merged);
    expect(`${again.jobs["apply"]}\n${explain(again)}`).toMatch(/^success/);
    expect(again.summaries["apply"]).toContain("nothing to apply");
    main = merged;
  }, 20 * MINUTES);

  it("a change to only the lock file: planned (no change to any list: no comment), and a lock whose hash is not the release's is refused with why", async () => {
    const lockPath = "alert-rules/.terraform.lock.hcl";
    const lock = readFileSync(join(main.dir, lockPath), "utf8");
    const reordered = ci.commit("pr-lock", main, { [lockPath]: `${lock}\n` });
    const pr = await ci.pullRequest(9, reordered, main);
    expect(`${pr.review.jobs["plan"]}\n${explain(pr.review)}`).toMatch(/^success/);
    expect(pr.comment).toBeUndefined();
    // every hash replaced by one that no package of the release has
    const forged = ci.commit("pr-lock-forged", main, { [lockPath]: lock.replace(/"(h1|zh):[^"]+"/g, (_m, scheme: string) => (scheme === "h1" ? '"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="' : `"zh:${"0".repeat(64)}"`)) });
    const bad = await ci.pullRequest(10, forged, main);
    expect(bad.review.jobs["plan"]).toBe("failure");
    expect(bad.comment).toContain("could not be planned");
    expect(bad.comment).toMatch(/checksum|lock file/i);
  }, 20 * MINUTES);
});
