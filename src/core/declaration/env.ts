/**
 * The environment contract of the `local-exec` provisioner of a RuleUserList: Terraform runs
 * `alert-rule-users apply --from-env --auto-approve` with these variables set, and the CLI turns
 * them back into a DesiredList with {@link declarationFromEnv}.
 *
 * Every variable that carries part of the declaration is set to `${self.<attribute>.<name>}` only
 * (`triggers` of a null_resource, `triggers_replace` of a terraform_data), so the provisioner
 * applies exactly what the triggers (the Terraform state) say. A big users list comes in chunks
 * (`ALERT_RULE_USERS_USERS_COUNT`, `ALERT_RULE_USERS_USERS_0`.., see chunks.ts), reassembled here. The construct path
 * and stack name are literals (for messages only): they are not triggers, so moving a construct
 * does not re-apply its rule.
 */
import { ConfigError, DeclarationError } from "../../errors";
import { escapeTemplate, TRIGGERS, USERS_TRIGGER_CHUNKS, decodeDeclarationValues, withUsers } from "./triggers";
import type { TriggerField, Triggers } from "./triggers";
import { chunkNaming } from "./chunks";
import type { DesiredList } from "../engine/desired";
import { decodePolicies } from "../engine/policy-schema";
import { DECLARED_RULES_FILE, ENV_DECLARED_RULES } from "../engine/declared-rules-file";

/** The environment variable of each trigger field. */
export const ENV_VARS: Readonly<Record<TriggerField, string>> = {
  format: "ALERT_RULE_USERS_FORMAT",
  ruleId: "ALERT_RULE_USERS_RULE_ID",
  ruleName: "ALERT_RULE_USERS_RULE_NAME",
  mode: "ALERT_RULE_USERS_MODE",
  allowMassRemoval: "ALERT_RULE_USERS_ALLOW_MASS_REMOVAL",
  users: "ALERT_RULE_USERS_USERS",
};

/** The environment variables of a users list in chunks. */
export const ENV_USERS_CHUNKS = chunkNaming(ENV_VARS.users, `${ENV_VARS.users}_COUNT`);

/** The construct path of the list (literal, for messages; optional when reading). */
export const ENV_CONSTRUCT_PATH = "ALERT_RULE_USERS_CONSTRUCT_PATH";
/** The stack of the list (literal, for messages; optional when reading). */
export const ENV_STACK = "ALERT_RULE_USERS_STACK";
/**
 * The RuleUserListPolicy checks of the list, JSON (a literal written at synth; optional when
 * reading). Not a trigger: a changed policy does not re-run the rule, but every run checks the
 * policies of the app it was synthesized from, as `plan` does.
 */
export const ENV_POLICIES = "ALERT_RULE_USERS_POLICIES";

/** The arguments the provisioner passes to the CLI after the CLI command itself. */
export const PROVISIONER_ARGS = "apply --from-env --auto-approve";

/** The default command that runs the CLI from the provisioner (resolved from the project's node_modules). */
export const DEFAULT_CLI_COMMAND = "npx --no -- alert-rule-users";

/** The attribute of the resource that holds the triggers: `triggers` (null_resource) or `triggers_replace` (terraform_data). */
export type TriggerAttribute = "triggers" | "triggers_replace";

/** The environment variable of each trigger field, by trigger name. */
const ENV_VAR_OF_TRIGGER = new Map((Object.keys(TRIGGERS) as TriggerField[]).map((field) => [TRIGGERS[field] as string, ENV_VARS[field]]));

/** The environment variable that carries a trigger. */
function envVarOf(trigger: string): string | undefined {
  const named = ENV_VAR_OF_TRIGGER.get(trigger);
  if (named !== undefined) return named;
  if (trigger === USERS_TRIGGER_CHUNKS.count) return ENV_USERS_CHUNKS.count;
  const index = USERS_TRIGGER_CHUNKS.indexOf(trigger);
  return index === undefined ? undefined : ENV_USERS_CHUNKS.chunk(index);
}

/**
 * The `environment` of the provisioner for a trigger map: each declaration variable refers only to
 * `${self.<attribute>.<trigger>}`; the construct path and stack are escaped literals, and the
 * app's rule declarations are named by their file (declared-rules-file.ts).
 */
export function provisionerEnvironment(
  constructPath: string,
  stack: string,
  triggers: Triggers,
  attribute: TriggerAttribute = "triggers",
): Record<string, string> {
  const environment: Record<string, string> = {};
  for (const trigger of Object.keys(triggers)) {
    const name = envVarOf(trigger);
    if (name !== undefined) environment[name] = `\${self.${attribute}.${trigger}}`;
  }
  environment[ENV_CONSTRUCT_PATH] = escapeTemplate(constructPath);
  environment[ENV_STACK] = escapeTemplate(stack);
  environment[ENV_DECLARED_RULES] = DECLARED_RULES_FILE;
  return environment;
}

/** The provisioner `command` for a CLI command (escaped for Terraform). */
export function provisionerCommand(cliCommand: string = DEFAULT_CLI_COMMAND): string {
  return escapeTemplate(`${cliCommand} ${PROVISIONER_ARGS}`);
}

/**
 * The declaration the provisioner passed in the environment. Throws a ConfigError naming the
 * variables that are missing, and a DeclarationError naming the variables whose value is invalid.
 */
export function declarationFromEnv(env: Readonly<Record<string, string | undefined>>): DesiredList {
  const missing = (Object.keys(ENV_VARS) as TriggerField[])
    .filter((field) => field !== "users" && env[ENV_VARS[field]] === undefined)
    .map((field) => ENV_VARS[field]);
  if (env[ENV_VARS.users] === undefined && env[ENV_USERS_CHUNKS.count] === undefined) missing.push(ENV_VARS.users);
  if (missing.length > 0) {
    throw new ConfigError(
      `--from-env: ${missing.join(", ")} ${missing.length === 1 ? "is" : "are"} not set. ` +
        "This mode is run by the local-exec provisioner of a RuleUserList (terraform apply); to apply by hand, run `alert-rule-users apply` without --from-env.",
    );
  }
  const constructPath = env[ENV_CONSTRUCT_PATH] ?? "(environment)";
  const stack = env[ENV_STACK] ?? "";
  const values = Object.fromEntries(
    (Object.keys(ENV_VARS) as TriggerField[]).map((field) => [field, env[ENV_VARS[field]]]),
  ) as Record<TriggerField, string | undefined>;
  const declaration = decodeDeclarationValues(withUsers(values, env, ENV_USERS_CHUNKS, constructPath, (name) => name), constructPath, (field) => ENV_VARS[field]);
  const policies = policiesFromEnv(env[ENV_POLICIES], constructPath);
  return { constructPath, stack, ...declaration, ...(policies.length > 0 ? { policies } : {}) };
}

/** The policies the provisioner passed in {@link ENV_POLICIES}; [] when unset. */
function policiesFromEnv(raw: string | undefined, constructPath: string) {
  if (raw === undefined || raw === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new DeclarationError([
      { path: constructPath, message: `${ENV_POLICIES} is not JSON; synthesize again with this version of alert-rule-users (cdktf synth) and run terraform apply again` },
    ]);
  }
  return decodePolicies(parsed, constructPath, ENV_POLICIES);
}
