/**
 * The provider keeps the CLI's promises (design §12.1), with real Terraform against the simulator:
 * an apply sends what its plan showed or nothing, every removal is in the plan, two resources for
 * one rule are refused across provider aliases, a destroy never acts on a bare state id, every
 * resource settles, and a misspelled key fails `terraform validate`. Each test has a directory
 * and a state of its own. Run by `npm run test:terraform`.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { connect, createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, runCommand } from "../support/cli";
import type { CliResult } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { isWrite } from "../support/write-operations";
import { MINUTES, explain, providerTestEnv, tfIn } from "./support";

const TOKEN = "provider-promises-token-0b7e51d9";
const sim = useSimulator({ token: TOKEN }, { perTest: true });
let installed: string;
let dir: string;
let env: NodeJS.ProcessEnv;

const writes = (): string[] => sim.requestLog().filter((e) => isWrite(e.operation)).map((e) => e.operation);
const liveIds = (ruleId: string): string[] => sim.rule(ruleId)!.users.map((u) => u.userIdFromAuthority ?? "-").sort();

type User = { userId: string; aliases: readonly string[] };
const live = (ruleId: string): User[] => sim.rule(ruleId)!.users.map((u) => ({ userId: u.userIdFromAuthority!, aliases: u.userAliasList }));
const hcl = (users: readonly User[]): string => users.map((u) => `    ${JSON.stringify(u.userId)} = { aliases = ${JSON.stringify(u.aliases)} }`).join("\n");
const resource = (name: string, ruleId: string, users: readonly User[], extra = ""): string =>
  `resource "alertrules_rule_user_list" ${JSON.stringify(name)} {\n  rule_id = ${JSON.stringify(ruleId)}\n${extra}  users = {\n${hcl(users)}\n  }\n}\n`;

function configure(resources: string, providers = 'provider "alertrules" {}\n'): void {
  writeFileSync(join(dir, "main.tf"), `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\n${providers}\n${resources}\n`);
}

const tfRun = tfIn({ cwd: () => dir, env: () => env, noColor: true });
/** terraform in the test's folder; any exit code but `expected` (0 unless given) fails the test. */
const tf = (args: string[], expected: number | number[] = 0): Promise<CliResult> => tfRun(args, expected);

/** `terraform show -json` of a saved plan: the change of one resource. */
async function changeOf(planFile: string, address: string): Promise<{ actions: string[]; after: Record<string, unknown> | null }> {
  const shown = await tf(["show", "-json", planFile]);
  const plan = JSON.parse(shown.stdout) as { resource_changes: Array<{ address: string; change: { actions: string[]; after: Record<string, unknown> | null } }> };
  const change = plan.resource_changes.find((c) => c.address === address);
  if (change === undefined) throw new Error(`no change of ${address} in the plan`);
  return change.change;
}

beforeAll(async () => {
  installed = mkdtempSync(join(tmpdir(), "alertrules-promises-install-"));
  writeFileSync(join(installed, "terraform.rc"), "disable_checkpoint = true\n");
  const done = await runCommand(process.execPath, [CLI, "provider", "install", installed], { cwd: installed, env: { PATH: process.env["PATH"], HOME: process.env["HOME"] }, timeoutMs: 2 * MINUTES });
  if (done.code !== 0) throw new Error(explain("alert-rule-users provider install", done));
}, 3 * MINUTES);

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), "alertrules-promises-"));
  cpSync(join(installed, "terraform.d"), join(dir, "terraform.d"), { recursive: true });
  writeFileSync(join(dir, "terraform.rc"), "disable_checkpoint = true\n");
  env = providerTestEnv(dir, sim, TOKEN);
  configure("");
  await tf(["init"]);
}, 3 * MINUTES);

afterEach(() => rmSync(dir, { recursive: true, force: true }));
afterAll(() => rmSync(installed, { recursive: true, force: true }));

describe("the provider applies what its plan showed, or nothing", () => {
  it("refuses a saved plan when a user was added in the console after it: nothing sent, the user kept", async () => {
    configure(resource("eng", RULES.engineering, ENGINEERING_USERS));
    await tf(["apply", "-auto-approve"]);
    configure(resource("eng", RULES.engineering, [...ENGINEERING_USERS, { userId: "4242", aliases: ["new@example.com"] }]));
    await tf(["plan", "-out=p"]);
    sim.setUsers(RULES.engineering, [...sim.rule(RULES.engineering)!.users, { userIdFromAuthority: "31337", userAliasList: ["console@example.com"] }]);
    sim.resetCounts();
    const applied = await tf(["apply", "p"], 1);
    expect(applied.stdout + applied.stderr).toMatch(/The live list changed since the plan/);
    expect(applied.stdout + applied.stderr).toMatch(/user "31337" was added elsewhere/);
    expect(writes()).toEqual([]);
    expect(liveIds(RULES.engineering)).toContain("31337");
    expect(liveIds(RULES.engineering)).not.toContain("4242");
  }, 5 * MINUTES);

  it("refuses a saved plan when the rule turned from inclusion to exclusion after it", async () => {
    configure(resource("eng", RULES.engineering, [...ENGINEERING_USERS, { userId: "4242", aliases: ["new@example.com"] }]));
    await tf(["plan", "-out=p"]);
    sim.setListType(RULES.engineering, "ALL_USERS_NOT_SPECIFIED");
    sim.resetCounts();
    const applied = await tf(["apply", "p"], 1);
    expect(applied.stdout + applied.stderr).toMatch(/type changed from SPECIFIED_USERS to ALL_USERS_NOT_SPECIFIED|inconsistent final plan/);
    expect(writes()).toEqual([]);
  }, 5 * MINUTES);

  it("names every user an additive-to-authoritative switch removes, in removes and a warning", async () => {
    const declared = ENGINEERING_USERS.slice(0, 2);
    configure(resource("eng", RULES.engineering, declared, '  mode = "additive"\n'));
    await tf(["apply", "-auto-approve"]);
    configure(resource("eng", RULES.engineering, declared, '  mode = "authoritative"\n'));
    const planned = await tf(["plan", "-out=p"]);
    const removed = ENGINEERING_USERS.slice(2).map((u) => u.userId);
    for (const id of removed) expect(planned.stdout).toContain(id);
    expect(planned.stdout + planned.stderr).toMatch(/2 entries leave the live list/);
    const change = await changeOf("p", "alertrules_rule_user_list.eng");
    expect((change.after?.["removes"] as Array<{ user_id: string }>).map((r) => r.user_id).sort()).toEqual(removed.sort());
    sim.resetCounts();
    await tf(["apply", "p"]);
    expect(liveIds(RULES.engineering)).toEqual(declared.map((u) => u.userId).sort());
  }, 5 * MINUTES);

  it("shows the users a create over a live list of 12 removes (8 declared + 1 new: 4 removed), and applies exactly that", async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => ({ userIdFromAuthority: `70${i + 10}`, userAliasList: [`u${i}@example.com`] }));
    sim.setUsers(RULES.sales, twelve);
    const declared = [...twelve.slice(0, 8).map((u) => ({ userId: u.userIdFromAuthority, aliases: u.userAliasList })), { userId: "7099", aliases: ["added@example.com"] }];
    configure(resource("sales", RULES.sales, declared));
    const planned = await tf(["plan", "-out=p"]);
    expect(planned.stdout + planned.stderr).toMatch(/4 entries leave the live list/);
    const change = await changeOf("p", "alertrules_rule_user_list.sales");
    expect((change.after?.["removes"] as Array<{ user_id: string }>).map((r) => r.user_id).sort()).toEqual(["7018", "7019", "7020", "7021"]);
    await tf(["apply", "p"]);
    expect(liveIds(RULES.sales)).toEqual(declared.map((u) => u.userId).sort());
  }, 5 * MINUTES);

  it("removes nothing a plan did not print: users known only at apply (keyed by another resource's output) promise removes = [], and the saved plan's apply is refused when they would remove a live user", async () => {
    // given a live list of ten, declared as nine of them and one user whose ID another resource
    // computes at apply: the tenth, b9, would leave
    const ten = Array.from({ length: 10 }, (_, i) => ({ userIdFromAuthority: `b${i}`, userAliasList: [`b${i}@example.com`] }));
    sim.setUsers(RULES.sales, ten);
    const later = (known: number, computed: string) =>
      `resource "terraform_data" "k" {\n  input = ${JSON.stringify(computed)}\n}\n` +
      `resource "alertrules_rule_user_list" "sales" {\n  rule_id = ${JSON.stringify(RULES.sales)}\n` +
      `  users = merge({ for i in range(${known}) : "b\${i}" => { aliases = ["b\${i}@example.com"] } }, { (terraform_data.k.output) = { aliases = ["\${terraform_data.k.output}@example.com"] } })\n}\n`;
    configure(later(9, "new1"));
    // when
    const planned = await tf(["plan", "-out=p"]);
    // then the plan promises that nothing leaves, and says how to see removals
    expect((await changeOf("p", "alertrules_rule_user_list.sales")).after?.["removes"]).toEqual([]);
    expect(planned.stdout + planned.stderr).toMatch(/Nothing leaves the list in this apply/);
    expect(planned.stdout + planned.stderr).toMatch(/terraform apply\s+-target=ADDRESS/);
    sim.resetCounts();
    const applied = await tf(["apply", "p"], 1);
    expect(applied.stdout + applied.stderr).toMatch(/inconsistent final plan[\s\S]*\.removes/);
    expect(applied.stdout + applied.stderr).toMatch(/user\s+"b9"\s+\(b9@example\.com\)/);
    expect(writes()).toEqual([]);
    expect(liveIds(RULES.sales)).toEqual(ten.map((u) => u.userIdFromAuthority).sort());
    // and when the values known at apply remove nothing (all ten declared, the eleventh's ID
    // computed again: a new input replaces terraform_data.k), the same kind of plan applies
    configure(later(10, "new2"));
    const again = await tf(["plan", "-out=q"]);
    expect(again.stdout + again.stderr).toMatch(/Nothing leaves the list in this apply/);
    await tf(["apply", "q"]);
    expect(liveIds(RULES.sales)).toEqual([...ten.map((u) => u.userIdFromAuthority), "new2"].sort());
  }, 5 * MINUTES);

  it("refuses a destroy with on_destroy = clear when a user was added after plan -destroy: the late user is kept", async () => {
    configure(resource("legal", RULES.legal, live(RULES.legal), '  on_destroy = "clear"\n'));
    await tf(["apply", "-auto-approve"]);
    const planned = await tf(["plan", "-destroy", "-out=d"]);
    expect(planned.stdout + planned.stderr).toMatch(/entr(y|ies) leaves? the live list/);
    sim.setUsers(RULES.legal, [...sim.rule(RULES.legal)!.users, { userIdFromAuthority: "5150", userAliasList: ["late@example.com"] }]);
    sim.resetCounts();
    const applied = await tf(["apply", "d"], 1);
    expect(applied.stdout + applied.stderr).toMatch(/user "5150" was added elsewhere/);
    expect(writes()).toEqual([]);
    expect(liveIds(RULES.legal)).toContain("5150");
  }, 5 * MINUTES);

  it("refuses two resources for one rule through two provider configurations (an alias)", async () => {
    configure(
      resource("one", RULES.finance, live(RULES.finance)) + resource("two", RULES.finance, [{ userId: "1", aliases: ["x@example.com"] }], "  provider = alertrules.second\n"),
      'provider "alertrules" {}\nprovider "alertrules" {\n  alias = "second"\n}\n',
    );
    sim.resetCounts();
    const planned = await tf(["plan"], 1);
    expect(planned.stdout + planned.stderr).toMatch(/Two resources for one rule/);
    expect(writes()).toEqual([]);
  }, 5 * MINUTES);

  it("refuses one rule through three provider configurations whose url is written differently (localhost, 127.0.0.1, [::1]): at plan, nothing written", async () => {
    // given the simulator reached three ways: by name with a trailing slash, by IPv4 address in
    // capitals, and by IPv6 loopback (a relay on [::1] to the simulator)
    const port = new URL(sim.url).port;
    const relay = createServer((socket) => socket.pipe(connect(Number(port), "127.0.0.1")).pipe(socket));
    await new Promise<void>((resolve) => relay.listen(0, "::1", resolve));
    try {
      const v6 = (relay.address() as AddressInfo).port;
      configure(
        resource("one", RULES.finance, live(RULES.finance)) +
          resource("two", RULES.finance, [...live(RULES.finance), { userId: "1", aliases: ["x@example.com"] }], "  provider = alertrules.v4\n") +
          resource("three", RULES.finance, [...live(RULES.finance), { userId: "2", aliases: ["y@example.com"] }], "  provider = alertrules.v6\n"),
        `provider "alertrules" {\n  url = "http://localhost:${port}/"\n}\nprovider "alertrules" {\n  alias = "v4"\n  url = "HTTP://127.0.0.1:${port}"\n}\nprovider "alertrules" {\n  alias = "v6"\n  url = "http://[::1]:${v6}/"\n}\n`,
      );
      const before = liveIds(RULES.finance);
      sim.resetCounts();
      // when
      const planned = await tf(["plan"], 1);
      // then
      expect(planned.stdout + planned.stderr).toMatch(/Two resources for one rule/);
      expect(planned.stdout + planned.stderr).toMatch(/reach the same tenant, however their url is written/);
      expect(writes()).toEqual([]);
      const applied = await tf(["apply", "-auto-approve"], 1);
      expect(applied.stdout + applied.stderr).toMatch(/Two resources for one rule/);
      expect(writes()).toEqual([]);
      expect(liveIds(RULES.finance)).toEqual(before);
    } finally {
      relay.close();
    }
  }, 5 * MINUTES);

  it("sends nothing to another rule when the state's id was edited (destroy with on_destroy = clear, -refresh=false)", async () => {
    configure(resource("legal", RULES.legal, live(RULES.legal), '  on_destroy = "clear"\n'));
    await tf(["apply", "-auto-approve"]);
    const statePath = join(dir, "terraform.tfstate");
    const state = JSON.parse(readFileSync(statePath, "utf8")) as { serial: number; resources: Array<{ instances: Array<{ attributes: Record<string, unknown>; private?: string }> }> };
    const instance = state.resources[0]!.instances[0]!;
    instance.attributes["id"] = RULES.finance;
    delete instance.private;
    state.serial += 1;
    writeFileSync(statePath, JSON.stringify(state));
    const financeBefore = liveIds(RULES.finance);
    sim.resetCounts();
    await tf(["destroy", "-auto-approve", "-refresh=false"], [0, 1]);
    expect(writes()).toEqual([]);
    expect(liveIds(RULES.finance)).toEqual(financeBefore);
  }, 5 * MINUTES);

  it("shows a live alias and user ID that would draw on the terminal escaped, in removes, in users and in the warning: nothing raw in terraform's output", async () => {
    // given a console user whose alias recolours and forges a line, and one whose ID holds a CSI
    const forged = "x\u001b[31m@x.com\nFAKE: Apply complete!";
    sim.setUsers(RULES.finance, [...sim.rule(RULES.finance)!.users, { userIdFromAuthority: "66\u009b2J", userAliasList: [forged] }, { userIdFromAuthority: "67", userAliasList: ["bidi\u202e@moc.x", "sep\u2028@x.com"] }]);
    const declared = live(RULES.finance).filter((u) => u.userId !== "66\u009b2J" && u.userId !== "67");
    // when a create (and then an update of the list in state) plans them away
    configure(resource("fin", RULES.finance, declared));
    const created = await tf(["plan", "-out=p"]);
    // then
    const output = created.stdout + created.stderr;
    expect(output).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    expect(output).not.toMatch(/^\s*FAKE: Apply complete!/m);
    expect(output).toContain("x\\u001b[31m@x.com\\u000aFAKE: Apply complete!");
    expect(output).toContain("66\\u009b2J");
    expect(output).toMatch(/2 entries leave the live list/);
    const removes = (await changeOf("p", "alertrules_rule_user_list.fin")).after?.["removes"] as Array<{ user_id: string; aliases: string[] }>;
    expect(removes).toEqual([
      { user_id: "66\\u009b2J", aliases: ["x\\u001b[31m@x.com\\u000aFAKE: Apply complete!"] },
      { user_id: "67", aliases: ["bidi\\u202e@moc.x", "sep\\u2028@x.com"] },
    ]);
    // the apply removes the real entries (what the service holds, not their escaped text)
    await tf(["apply", "p"]);
    expect(liveIds(RULES.finance)).toEqual(declared.map((u) => u.userId).sort());
    // a refresh that finds such an entry again shows it escaped in users, and the plan in removes
    sim.setUsers(RULES.finance, [...sim.rule(RULES.finance)!.users, { userIdFromAuthority: "68", userAliasList: [forged] }]);
    const refreshed = await tf(["plan"], [0, 2]);
    expect(refreshed.stdout + refreshed.stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
    // (Terraform writes a backslash of a string attribute as \\)
    expect(refreshed.stdout).toMatch(/"x\\{2}u001b\[31m@x\.com\\{2}u000aFAKE: Apply complete!"/);
  }, 5 * MINUTES);

  it('shows a live user whose ID is "__proto__", and keeps it when declared', async () => {
    sim.setUsers(RULES.finance, [...sim.rule(RULES.finance)!.users, { userIdFromAuthority: "__proto__", userAliasList: ["proto@example.com"] }]);
    configure(resource("fin", RULES.finance, live(RULES.finance).filter((u) => u.userId !== "__proto__")));
    const planned = await tf(["plan"], [0, 2]);
    expect(planned.stdout).toContain("__proto__");
    configure(resource("fin", RULES.finance, live(RULES.finance)));
    await tf(["apply", "-auto-approve"]);
    expect(liveIds(RULES.finance)).toContain("__proto__");
    await tf(["plan", "-detailed-exitcode"], 0);
  }, 5 * MINUTES);

  it("settles: the second plan is empty for a system rule, an all-users rule and an additive list with entries without a user ID", async () => {
    configure(
      resource("departing", RULES.departing, [{ userId: "1", aliases: ["x@example.com"] }]) +
        resource("all", RULES.allUsers, [{ userId: "2", aliases: ["y@example.com"] }]) +
        resource("research", RULES.research, [{ userId: "3", aliases: ["z@example.com"] }], '  mode = "additive"\n'),
    );
    await tf(["apply", "-auto-approve"]);
    const again = await tf(["plan", "-detailed-exitcode"], 0);
    expect(again.stdout + again.stderr).toMatch(/Rule skipped/);
  }, 5 * MINUTES);

  it.each(["expire_at", "expiresAt", "alias"])("fails validate on a misspelled key inside a user entry: %s", async (key) => {
    configure(`resource "alertrules_rule_user_list" "x" {\n  rule_id = ${JSON.stringify(RULES.finance)}\n  users = {\n    "1" = { aliases = ["a@example.com"], ${key} = "2026-12-31" }\n  }\n}\n`);
    const validated = await tf(["validate"], 1);
    expect(validated.stdout + validated.stderr).toContain(`"${key}" is not an argument of users`);
  }, 5 * MINUTES);
});
