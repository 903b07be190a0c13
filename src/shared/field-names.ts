/**
 * The fields the tool's problems are about, as data, and each door's one table of their names.
 * The core and the client report a problem as its field and its sentence's parts (`FieldProblem`:
 * a code, where, and text with the fields it names); a door renders it with its table:
 *
 *   field               the construct's props   the CLI's flags        the provider's attributes
 *   allowMassRemoval    allowMassRemoval        --allow-mass-removal   allow_mass_removal
 *   baseUrl             -                       --base-url             url
 *   users[2].expiresAt  users[2].expiresAt      -                      users["9102"].expires_at
 *
 * No sentence is made in one door's words and rewritten into another's. Pure, importing nothing.
 */

/** A declaration's fields: the RuleUserList's props, and a user's. */
export const DECLARATION_FIELDS = ["ruleId", "ruleName", "mode", "allowMassRemoval", "users", "userId", "aliases", "expiresAt"] as const;
/** A RuleUserListPolicy's props (its checks, and the one nested field a check has). */
export const POLICY_FIELDS = ["maxUsers", "allowedAliasDomains", "exclusionListsRequireExpiry", "exclusionListsRequireExpiry.maxDays", "forbidRemovalsFromInclusionLists"] as const;
/** The connection's settings, as the client names them. */
export const SETTING_FIELDS = ["baseUrl", "tenantId", "token", "tokenCommand", "maxRps", "requestDeadline", "runDeadline"] as const;

export type DeclarationField = (typeof DECLARATION_FIELDS)[number];
export type PolicyField = (typeof POLICY_FIELDS)[number];
export type SettingField = (typeof SETTING_FIELDS)[number];
export type CoreField = DeclarationField | PolicyField | SettingField;

/** A door's name for each field of `F`. */
export type FieldNames<F extends CoreField> = { readonly [K in F]: string };

/** The construct's props: a declaration's and a policy's fields are named as the core names them. */
export const PROP_NAMES: FieldNames<DeclarationField | PolicyField> = {
  ruleId: "ruleId",
  ruleName: "ruleName",
  mode: "mode",
  allowMassRemoval: "allowMassRemoval",
  users: "users",
  userId: "userId",
  aliases: "aliases",
  expiresAt: "expiresAt",
  maxUsers: "maxUsers",
  allowedAliasDomains: "allowedAliasDomains",
  exclusionListsRequireExpiry: "exclusionListsRequireExpiry",
  "exclusionListsRequireExpiry.maxDays": "exclusionListsRequireExpiry.maxDays",
  forbidRemovalsFromInclusionLists: "forbidRemovalsFromInclusionLists",
};

/** The provider's attributes (the resource's, a policy's, the provider block's; docs/contract.md §11.1). */
export const ATTRIBUTE_NAMES: FieldNames<CoreField> = {
  ruleId: "rule_id",
  ruleName: "rule_name",
  mode: "mode",
  allowMassRemoval: "allow_mass_removal",
  users: "users",
  // as `removes` names it; in `users` a user is keyed by its ID: `users["9102"]` (FieldWords.key)
  userId: "user_id",
  aliases: "aliases",
  expiresAt: "expires_at",
  maxUsers: "max_users",
  allowedAliasDomains: "allowed_alias_domains",
  exclusionListsRequireExpiry: "exclusion_lists_require_expiry_max_days",
  "exclusionListsRequireExpiry.maxDays": "exclusion_lists_require_expiry_max_days",
  forbidRemovalsFromInclusionLists: "forbid_removals_from_inclusion_lists",
  baseUrl: "url",
  tenantId: "tenant_id",
  token: "token",
  tokenCommand: "token_command",
  maxRps: "max_rps",
  requestDeadline: "request_timeout",
  runDeadline: "run_timeout",
};

/** A door's words for the connection's settings: their names, how a value is written, how a missing one is given. */
export interface SettingWords {
  readonly names: FieldNames<SettingField>;
  /** Between a setting and its value: `--max-rps 2`, `max_rps = 2`. */
  readonly assign: string;
  /** After "set the environment variable …": how else a missing setting is given (the token: a file or a command). */
  readonly give: { readonly [K in "baseUrl" | "tenantId" | "token"]: string };
  /** The ways of giving the token, where it was given more than one way. */
  readonly oneToken: string;
  /** What to raise where the request deadline is too short (the environment variable behind it, where the door has one). */
  readonly raiseRequestDeadline: string;
}

/** The CLI's flags (and, where a setting has no flag, its environment variable). */
export const FLAG_WORDS: SettingWords = {
  names: {
    baseUrl: "--base-url",
    tenantId: "--tenant-id",
    token: "--token-file",
    tokenCommand: "--token-command",
    maxRps: "--max-rps",
    requestDeadline: "ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS",
    runDeadline: "--run-deadline",
  },
  assign: " ",
  give: {
    baseUrl: "pass --base-url URL",
    tenantId: "pass --tenant-id ID",
    token: "pass --token-file FILE, or give a command that prints one (ALERTS_API_TOKEN_COMMAND or --token-command CMD)",
  },
  oneToken: "--token-file FILE, or ALERTS_API_TOKEN, or a token command (ALERTS_API_TOKEN_COMMAND or --token-command CMD)",
  raiseRequestDeadline: "ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS",
};

/** The provider block's arguments. */
export const BLOCK_WORDS: SettingWords = {
  names: { baseUrl: ATTRIBUTE_NAMES.baseUrl, tenantId: ATTRIBUTE_NAMES.tenantId, token: ATTRIBUTE_NAMES.token, tokenCommand: ATTRIBUTE_NAMES.tokenCommand, maxRps: ATTRIBUTE_NAMES.maxRps, requestDeadline: ATTRIBUTE_NAMES.requestDeadline, runDeadline: ATTRIBUTE_NAMES.runDeadline },
  assign: " = ",
  give: {
    baseUrl: `set ${ATTRIBUTE_NAMES.baseUrl} in the provider block`,
    tenantId: `set ${ATTRIBUTE_NAMES.tenantId} in the provider block`,
    token: `set ${ATTRIBUTE_NAMES.tokenCommand} (ALERTS_API_TOKEN_COMMAND) to a command that prints one`,
  },
  oneToken: `${ATTRIBUTE_NAMES.token} or ${ATTRIBUTE_NAMES.tokenCommand} in the provider block, or one of ALERTS_API_TOKEN and ALERTS_API_TOKEN_COMMAND`,
  raiseRequestDeadline: `${ATTRIBUTE_NAMES.requestDeadline} (ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS)`,
};

/** A step of where a problem is: a field, or an element's index. */
export type FieldStep = DeclarationField | PolicyField | number;

/** A part of a problem's sentence: its own text, or a field (by its path) that each door names. */
export type Part = string | { readonly path: readonly FieldStep[] };

/** A field as a part of a sentence: `ref("users", 0)`. */
export const ref = (...path: FieldStep[]): Part => ({ path });

/**
 * A problem as data: a code a test or a door can tell apart, where it is (`at`: the field's path;
 * empty for the whole), what it is about when that is not one field (`subject`), and its sentence.
 */
export interface FieldProblem {
  readonly code: string;
  readonly at: readonly FieldStep[];
  /** @default - the field at `at`; none (the sentence alone) where `at` is empty */
  readonly subject?: readonly Part[];
  readonly text: readonly Part[];
}

/** How a door writes a path: its names, and (the provider) a user by its ID rather than its index. */
export interface FieldWords {
  readonly names: FieldNames<DeclarationField | PolicyField>;
  /** The key a list's element is written by (`users[2]` → `users["9102"]`); undefined: by its index. */
  readonly key?: (field: FieldStep, index: number) => string | undefined;
}

/** A path in a door's words: `users[2].aliases[0]`, `users["9102"].aliases[0]`. */
export function pathText(path: readonly FieldStep[], words: FieldWords): string {
  let out = "";
  let field: FieldStep | undefined;
  let keyed = false;
  for (const step of path) {
    if (typeof step === "number") {
      const key = field === undefined ? undefined : words.key?.(field, step);
      out += key === undefined ? `[${step}]` : `[${JSON.stringify(key)}]`;
      keyed = key !== undefined;
    } else if (!(keyed && step === "userId")) {
      // (a user keyed by its ID: the key is the ID)
      out += `${out === "" ? "" : "."}${words.names[step]}`;
      field = step;
      keyed = false;
    }
  }
  return out;
}

/** A sentence's parts in a door's words. */
export function partsText(parts: readonly Part[], words: FieldWords): string {
  return parts.map((part) => (typeof part === "string" ? part : pathText(part.path, words))).join("");
}

/** A problem in a door's words: "users[2].aliases[0]: is empty…", or the sentence alone. */
export function problemText(problem: FieldProblem, words: FieldWords): string {
  const subject = problem.subject ?? (problem.at.length === 0 ? [] : [ref(...problem.at)]);
  const text = partsText(problem.text, words);
  return subject.length === 0 ? text : `${partsText(subject, words)}: ${text}`;
}

/** The construct's words: its props, elements by index. */
export const PROP_WORDS: FieldWords = { names: PROP_NAMES };
