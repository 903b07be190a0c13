/**
 * The declaration of rule user lists, shared by the RuleUserList construct (writer) and the engine
 * and CLI (readers). Plain TypeScript and zod: never imports cdktf.
 */
export { LIST_MODES, describeRuleRef } from "./types";
export type { DeclaredList, DeclaredUser, ListMode, RuleRef } from "./types";
export { DECLARATION_RULES, aliasKey, validateDeclaration } from "./validate";
export type { DeclarationInput } from "./validate";
export { canonicalAliases, canonicalUsers, compareCodeUnits } from "./canonical";
export {
  RESOURCE_CHILD_ID,
  TRIGGERS,
  TRIGGER_FORMAT,
  TRIGGER_NAMES,
  decodeDeclarationValues,
  decodeTriggers,
  encodeTriggerFields,
  encodeTriggers,
  escapeTemplate,
  isRuleUserListTriggers,
  unescapeTemplate,
  usersJson,
} from "./triggers";
export type { ListDeclaration, TriggerField, TriggerFields, TriggerName, Triggers } from "./triggers";
export {
  DEFAULT_CLI_COMMAND,
  ENV_CONSTRUCT_PATH,
  ENV_STACK,
  ENV_VARS,
  PROVISIONER_ARGS,
  declarationFromEnv,
  provisionerCommand,
  provisionerEnvironment,
} from "./env";
export { DeclarationError, SynthError } from "./errors";
export type { DeclarationFailure, SynthFailure } from "./errors";
