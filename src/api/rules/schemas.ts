/**
 * zod schemas of the rule resources and request bodies of docs/interface.md.
 *
 * Responses are parsed with these at the boundary (src/api/rules/client.ts); the simulator uses the
 * request schemas to validate what it receives. Unknown extra fields are allowed (the service may
 * add fields); missing or mistyped documented fields are errors naming the field.
 */
import { z } from "zod";

/** The explanatory text the service returns in place of a user ID for entries added without one. */
export const NULL_USER_ID_SENTENCE = "Null UserIdFromAuthority.  These usernames must be edited in the web app.";

export const USERS_TO_ALERT_ON = ["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED", "ALL_USERS"] as const;
export type UsersToAlertOn = (typeof USERS_TO_ALERT_ON)[number];

export const RULE_TYPES = ["FED_CLOUD_SHARE_PERMISSIONS", "FED_ENDPOINT_EXFILTRATION", "FED_FILE_TYPE_MISMATCH"] as const;
export const RULE_SOURCES = ["Alerting", "Departing Employee", "High Risk Employee"] as const;

export { filterGroupSchema, filterSchema, searchRequestSchema } from "../search/schemas";
export type { Filter, FilterGroup, SearchRequest } from "../search/schemas";

export const ruleMetadataSchema = z.object({
  type$: z.literal("RULE_METADATA"),
  id: z.string(),
  observerRuleId: z.string(),
  tenantId: z.string(),
  name: z.string(),
  description: z.string(),
  severity: z.string(),
  type: z.string(),
  isSystem: z.boolean(),
  isEnabled: z.boolean(),
  ruleSource: z.string(),
  createdAt: z.string(),
  modifiedAt: z.string(),
  createdBy: z.string(),
  modifiedBy: z.string(),
});
export type RuleMetadata = z.infer<typeof ruleMetadataSchema>;

export const ruleMetadataSearchResponseSchema = z.object({
  type$: z.literal("RULE_METADATA_SEARCH_RESPONSE"),
  ruleMetadata: z.array(ruleMetadataSchema),
  totalCount: z.number().int().nonnegative(),
  problems: z.array(z.unknown()),
});
export type RuleMetadataSearchResponse = z.infer<typeof ruleMetadataSearchResponseSchema>;

export const userBagSchema = z.object({
  type$: z.literal("USER_BAG"),
  userIdFromAuthority: z.string().nullable(),
  userAliasList: z.array(z.string()),
});
export type UserBag = z.infer<typeof userBagSchema>;

export const usersInRuleResponseSchema = z.object({
  type$: z.literal("USERS_IN_RULE_RESPONSE"),
  users: z.array(userBagSchema),
  usersToAlertOn: z.enum(USERS_TO_ALERT_ON),
});
export type UsersInRuleResponse = z.infer<typeof usersInRuleResponseSchema>;

/** A user as sent in add-users and remove-user-aliases. */
export const userListEntrySchema = z.object({
  userIdFromAuthority: z.string(),
  userAliasList: z.array(z.string()),
});
export type UserListEntry = z.infer<typeof userListEntrySchema>;

export const queryUsersRequestSchema = z.object({ tenantId: z.string(), ruleId: z.string() });
export const addUsersRequestSchema = z.object({
  tenantId: z.string(),
  ruleId: z.string(),
  userList: z.array(
    // The console and the vendor's command-line tool can add users without an ID.
    z.object({ userIdFromAuthority: z.string().nullable(), userAliasList: z.array(z.string()) }),
  ),
});
export const removeUsersRequestSchema = z.object({
  tenantId: z.string(),
  ruleId: z.string(),
  userIdList: z.array(z.string()),
});
export const removeUserAliasesRequestSchema = z.object({
  tenantId: z.string(),
  ruleId: z.string(),
  userList: z.array(userListEntrySchema),
});
export const removeAllUsersRequestSchema = z.object({ tenantId: z.string(), ruleId: z.string() });

export type QueryUsersRequest = z.infer<typeof queryUsersRequestSchema>;
export type AddUsersRequest = z.infer<typeof addUsersRequestSchema>;
export type RemoveUsersRequest = z.infer<typeof removeUsersRequestSchema>;
export type RemoveUserAliasesRequest = z.infer<typeof removeUserAliasesRequestSchema>;
export type RemoveAllUsersRequest = z.infer<typeof removeAllUsersRequestSchema>;

/** The rule-list operations, by the last path segment the interface gives them. */
export const RULE_OPERATIONS = {
  "query-rule-metadata": "/v1/alerts/rules/query-rule-metadata",
  "query-users": "/v1/alert-rules/query-users",
  "add-users": "/v1/alert-rules/add-users",
  "remove-users": "/v1/alert-rules/remove-users",
  "remove-user-aliases": "/v1/alert-rules/remove-user-aliases",
  "remove-all-users": "/v1/alert-rules/remove-all-users",
} as const;
export type RuleOperation = keyof typeof RULE_OPERATIONS;
/** Every operation of the wire table but its two reads. */
export type WriteOperation = Exclude<RuleOperation, "query-rule-metadata" | "query-users">;

/**
 * The request body of each write operation, a record over every write of RULE_OPERATIONS: a new
 * write is its path above and its request schema here (the compiler names this record).
 */
export const WRITE_REQUESTS = {
  "add-users": addUsersRequestSchema,
  "remove-users": removeUsersRequestSchema,
  "remove-user-aliases": removeUserAliasesRequestSchema,
  "remove-all-users": removeAllUsersRequestSchema,
} as const satisfies { readonly [K in WriteOperation]: z.ZodType<{ tenantId: string; ruleId: string }> };

/** What a write of `K` carries besides tenantId and ruleId (the client adds those). */
export type WriteFields<K extends WriteOperation> = K extends WriteOperation ? Omit<z.infer<(typeof WRITE_REQUESTS)[K]>, "tenantId" | "ruleId"> : never;

/** One write as the client sends it: the operation and what its body carries. */
export type WireWrite = { readonly [K in WriteOperation]: { readonly operation: K; readonly fields: WriteFields<K> } }[WriteOperation];

export { errorBodySchema } from "../http/error-body";
export type { ErrorBody } from "../http/error-body";

/**
 * The texts a service writes where an entry has no ID (docs/interface.md: "null or a fixed explanatory
 * text"): null spelt out (`NULL`, `(null)`, `<null>`, `None`, `nil`, `undefined`, `N/A`), or a text
 * that names the field (`Null UserIdFromAuthority...`). A sentence is caught by its whitespace.
 */
const ID_LESS_MARKER = /^[([<{]?(?:null|none|nil|undefined|n\/a)[)\]>}]?$|useridfromauthority/i;

/**
 * True when a `userIdFromAuthority` does not identify a user (docs/contract.md §4): null, empty, a text
 * with whitespace (the service's explanatory sentence), or one of the {@link ID_LESS_MARKER}s.
 */
export function isMissingUserId(userId: string | null | undefined): boolean {
  return userId === null || userId === undefined || userId.trim() === "" || /\s/.test(userId) || ID_LESS_MARKER.test(userId);
}
