/**
 * What real Terraform writes to terraform.tfstate for one alertrules_rule_user_list (issue 51): a
 * list of 20 users with two aliases each, after a refresh, within 3.5 KB as compact JSON; the
 * live list kept once (private data holds its fingerprint); `users` typed once; and the plans
 * around it unchanged: no change shown after the apply, after the refresh, nor for the same users
 * written in another order; a user added in the console still shown, and still refused at apply
 * when it arrives after the plan. Run by `npm run test:terraform`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, runCommand } from "../support/cli";
import { RULES } from "../support/sample";
import { isWrite } from "../support/write-operations";
import { MINUTES, explain, providerTestEnv, tfIn } from "./support";

const TOKEN = "provider-state-size-token-5e1c0a77";
const sim = useSimulator({ token: TOKEN });
let dir: string;
let env: NodeJS.ProcessEnv;

/** Issue 51's limit: one refreshed instance of 20 users with two aliases each, compact JSON. */
const INSTANCE_LIMIT_BYTES = 3_500;

type User = { userId: string; aliases: readonly string[] };
const TWENTY: User[] = Array.from({ length: 20 }, (_, i) => ({
  userId: String(908_712_000_000_000_000n + BigInt(i) * 7919n),
  aliases: [`person.number${i}@example.com`, `person_number${i}@corp.example.com`],
}));

function configure(users: readonly User[]): void {
  const lines = users.map((u) => `    ${JSON.stringify(u.userId)} = { aliases = ${JSON.stringify(u.aliases)} }`).join("\n");
  writeFileSync(
    join(dir, "main.tf"),
    `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nprovider "alertrules" {}\n\nresource "alertrules_rule_user_list" "eng" {\n  rule_id = ${JSON.stringify(RULES.engineering)}\n  users = {\n${lines}\n  }\n}\n`,
  );
}

const tf = tfIn({ cwd: () => dir, env: () => env, noColor: true });

/** The one instance in terraform.tfstate. */
function instance(): { attributes: Record<string, unknown>; private?: string } {
  const state = JSON.parse(readFileSync(join(dir, "terraform.tfstate"), "utf8")) as { resources: { instances: { attributes: Record<string, unknown>; private?: string }[] }[] };
  return state.resources[0]!.instances[0]!;
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "alertrules-state-size-"));
  writeFileSync(join(dir, "terraform.rc"), "disable_checkpoint = true\n");
  const done = await runCommand(process.execPath, [CLI, "provider", "install", dir], { cwd: dir, env: { PATH: process.env["PATH"], HOME: process.env["HOME"] }, timeoutMs: 2 * MINUTES });
  if (done.code !== 0) throw new Error(explain("alert-rule-users provider install", done));
  env = providerTestEnv(dir, sim, TOKEN);
  sim.setUsers(RULES.engineering, TWENTY.map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
  configure(TWENTY);
  await tf(["init"], 0);
}, 3 * MINUTES);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("a refreshed alertrules_rule_user_list in terraform.tfstate", () => {
  it("holds 20 users with two aliases each within 3.5 KB: the list once, users typed once, and no change shown around it", async () => {
    // given the list applied (nothing to write: the live list is the declared one)
    await tf(["apply", "-auto-approve"], 0);
    await tf(["plan", "-detailed-exitcode"], 0);
    // when Terraform refreshes it into state
    await tf(["apply", "-refresh-only", "-auto-approve"], 0);
    // then the instance is within the limit, its private data names no alias, and users is a map of one type
    const refreshed = instance();
    expect(JSON.stringify(refreshed).length).toBeLessThanOrEqual(INSTANCE_LIMIT_BYTES);
    expect(Buffer.from(refreshed.private ?? "", "base64").toString("utf8")).not.toContain("@example.com");
    expect((refreshed.attributes["users"] as { type: unknown }).type).toEqual(["map", ["object", { aliases: ["list", "string"] }]]);
    // and neither the plan nor the same users written in another order shows a change, with one read and no search
    sim.resetCounts();
    await tf(["plan", "-detailed-exitcode"], 0);
    expect(sim.requestCounts()).toEqual({ "query-users": 1 });
    configure(TWENTY.map((u) => ({ ...u, aliases: [...u.aliases].reverse() })));
    await tf(["plan", "-detailed-exitcode"], 0);
  }, 5 * MINUTES);

  it("shows a user added in the console, and refuses the saved plan's apply when another arrives after it", async () => {
    configure(TWENTY);
    sim.setUsers(RULES.engineering, [...TWENTY, { userId: "4242", aliases: ["console@example.com"] }].map((u) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] })));
    const planned = await tf(["plan", "-detailed-exitcode", "-out=p"], 2);
    expect(planned.stdout).toMatch(/4242/);
    sim.setUsers(RULES.engineering, [...sim.rule(RULES.engineering)!.users, { userIdFromAuthority: "31337", userAliasList: ["later@example.com"] }]);
    sim.resetCounts();
    const applied = await tf(["apply", "p"], 1);
    expect(applied.stdout + applied.stderr).toMatch(/The live list changed since the plan/);
    expect(sim.requestLog().filter((e) => isWrite(e.operation))).toEqual([]);
  }, 5 * MINUTES);
});
