/**
 * `plan --changed-since REF` on an app whose lists move to the native resource (issue 30): the
 * resource that carries a declaration is not part of it, so switching `resourceType` to
 * `alertrules_rule_user_list` reads no rule, and a change of a native list's users reads that rule
 * only, as with the provisioner kinds.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { REPO, connectionEnv, runCli } from "../support/cli";
import type { ListDecl } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { listsRead } from "../support/request-log";

const sim = useSimulator({}, { perTest: true });
const GIT_ENV = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };
let top: string;

const git = (...args: string[]): string => execFileSync("git", args, { cwd: top, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
const declare = (lists: ListDecl[]): void => writeFileSync(join(top, "lists.json"), JSON.stringify(lists, null, 2));
const commit = (message: string): void => {
  git("add", "-A");
  git("commit", "-q", "-m", message);
};

const legal = (resourceType: string, extra: Array<{ userId: string; aliases: string[] }> = []): ListDecl => ({
  id: "legal",
  props: { ruleId: RULES.legal, resourceType, users: [{ userId: "908712345678909001", aliases: ["nina.petrova@example.com"] }, ...extra] },
});
const engineering = (resourceType: string): ListDecl => ({ id: "engineering", props: { ruleId: RULES.engineering, resourceType, users: ENGINEERING_USERS } });

beforeEach(() => {
  top = mkdtempSync(join(tmpdir(), "aru-native-changed-"));
  writeFileSync(join(top, ".gitignore"), "node_modules/\ncdktf.out/\n");
  writeFileSync(join(top, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
  writeFileSync(
    join(top, "app.js"),
    `const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [REPO] }))});
const { RuleUserList } = require(${JSON.stringify(join(REPO, "dist", "src", "index.js"))});
const app = new App();
const scope = new TerraformStack(app, "rules");
for (const list of require("./lists.json")) new RuleUserList(scope, list.id, list.props);
app.synth();
`,
  );
  git("init", "-q", "-b", "main");
  declare([engineering("terraform_data"), legal("terraform_data")]);
  commit("at REF: terraform_data");
});
afterEach(() => rmSync(top, { recursive: true, force: true }));

const rulesRead = (): string[] => listsRead(sim);

const plan = () => runCli(["plan", "--format", "json", "--changed-since", "HEAD"], { cwd: top, env: connectionEnv(sim), timeoutMs: 240_000 });

describe("plan --changed-since with native resources", () => {
  it("reads no rule when only the resource type changed to alertrules_rule_user_list", async () => {
    declare([engineering("alertrules_rule_user_list"), legal("alertrules_rule_user_list")]);
    const result = await plan();
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(rulesRead()).toEqual([]);
  }, 240_000);

  it("reads only the native list whose users changed", async () => {
    declare([engineering("alertrules_rule_user_list"), legal("alertrules_rule_user_list", [{ userId: "42", aliases: ["new.counsel@example.com"] }])]);
    const result = await plan();
    expect(result.code).toBe(0);
    expect(rulesRead()).toEqual([RULES.legal]);
    expect(result.stdout).toContain("new.counsel@example.com");
  }, 240_000);
});
