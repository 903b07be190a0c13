/**
 * The declaration of rule user lists as Terraform carries it, shared by the RuleUserList construct
 * (writer) and plan/apply (readers): validation, the trigger encoding and the provisioner's
 * environment. Plain TypeScript and zod: never imports cdktf.
 */
export { DECLARATION_RULES, validateDeclaration } from "./validate";
export type { DeclarationInput } from "./validate";
export {
  CHUNKED_TRIGGER_FORMAT,
  RESOURCE_CHILD_ID,
  TRIGGERS,
  TRIGGER_FORMAT,
  TRIGGER_NAMES,
  POLICIES_TRIGGER,
  USERS_TRIGGER_CHUNKS,
  decodeDeclarationValues,
  decodeTriggers,
  encodeTriggerFields,
  encodeTriggers,
  escapeTemplate,
  isRuleUserListTriggers,
  unescapeTemplate,
  usersJson,
} from "./triggers";
export type { TriggerField, TriggerFields, TriggerName, Triggers } from "./triggers";
export {
  DEFAULT_CLI_COMMAND,
  ENV_CONSTRUCT_PATH,
  ENV_POLICIES,
  ENV_STACK,
  ENV_USERS_CHUNKS,
  ENV_VARS,
  PROVISIONER_ARGS,
  declarationFromEnv,
  provisionerCommand,
  provisionerEnvironment,
} from "./env";
export type { TriggerAttribute } from "./env";
export { MAX_USERS_BYTES, USERS_CHUNK_BYTES, chunkNaming, readChunked, splitUtf8, usersSizeFailures, utf8Length } from "./chunks";
export type { ChunkNaming } from "./chunks";
export {
  DECLARED_RULES_FILE,
  DECLARED_RULES_FORMAT,
  ENV_DECLARED_RULES,
  declaredAgain,
  decodeDeclaredRules,
  duplicateKey,
  encodeDeclaredRules,
} from "../engine/declared-rules-file";
export type { RuleReference } from "../engine/declared-rules-file";
