/**
 * Real Terraform with the native provider (issue 30): the environment that proves `terraform init`
 * finds the provider in the directory's implied local mirror with no network and no CLI
 * configuration (an empty CLI configuration file, and every HTTPS request sent to a closed port),
 * and the app files of a cdktf or cdktn app on `alertrules_rule_user_list`.
 */
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/cli";

/** The provider's entry in the build (src/release/executable.ts: the provider when Terraform starts it). */
export const PROVIDER_MAIN = join(REPO, "dist", "src", "release", "executable.js");

/** Fails with a sentence when the provider is not built: every native test needs it. */
export function requireProvider(): void {
  if (!existsSync(PROVIDER_MAIN)) {
    throw new Error(`the native provider is not built: ${PROVIDER_MAIN} is missing (src/release/executable.ts, then npm run build)`);
  }
}

/**
 * The environment for terraform in `dir`: an empty CLI configuration (no ~/.terraformrc, no
 * provider_installation: the implied local mirror decides), any HTTPS request to a closed port
 * (the registry is unreachable: a download would fail), no checkpoint call, no prompts.
 */
export function nativeTerraformEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const rc = join(dir, "empty.terraformrc");
  writeFileSync(rc, "");
  return {
    ...extra,
    TF_CLI_CONFIG_FILE: rc,
    HTTPS_PROXY: "http://127.0.0.1:9",
    https_proxy: "http://127.0.0.1:9",
    NO_PROXY: "127.0.0.1,localhost",
    no_proxy: "127.0.0.1,localhost",
    CHECKPOINT_DISABLE: "1",
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
  };
}

/** A list of an app: its construct id and RuleUserList props. */
export interface AppList {
  readonly id: string;
  readonly props: Record<string, unknown>;
}

/**
 * `app.js` of a cdktf (`alert-rule-users`) or cdktn (`alert-rule-users/cdktn`) app with one stack,
 * loading the built constructs as a user's app does.
 */
export function appSource(framework: "cdktf" | "cdktn", stack: string, lists: readonly AppList[], policies: readonly AppList[] = []): string {
  const entry = framework === "cdktf" ? join(REPO, "dist", "src", "index.js") : join(REPO, "dist", "src", "constructs", "cdktn.js");
  return `const { App, TerraformStack } = require(${JSON.stringify(require.resolve(framework, { paths: [REPO] }))});
const { RuleUserList, RuleUserListPolicy } = require(${JSON.stringify(entry)});
const app = new App();
const stack = new TerraformStack(app, ${JSON.stringify(stack)});
for (const policy of ${JSON.stringify(policies)}) new RuleUserListPolicy(stack, policy.id, policy.props);
for (const list of ${JSON.stringify(lists)}) new RuleUserList(stack, list.id, list.props);
app.synth();
`;
}

/** The user IDs a resource change adds and removes (from `terraform show -json` of a saved plan). */
export function userChanges(change: { before: { users?: Record<string, unknown> } | null; after: { users?: Record<string, unknown> } | null }): { add: string[]; remove: string[] } {
  const before = Object.keys(change.before?.users ?? {});
  const after = Object.keys(change.after?.users ?? {});
  return { add: after.filter((u) => !before.includes(u)).sort(), remove: before.filter((u) => !after.includes(u)).sort() };
}
