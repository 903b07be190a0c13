/**
 * The six rule operations of docs/interface.md: rule metadata search and the user-list operations.
 */
import {
  RULE_OPERATIONS,
  addUsersRequestSchema,
  queryUsersRequestSchema,
  removeAllUsersRequestSchema,
  removeUserAliasesRequestSchema,
  removeUsersRequestSchema,
  searchRequestSchema,
  type RuleMetadataSearchResponse,
  type RuleOperation,
} from "../api/rules/schemas";
import { SimHttpError } from "./http-error";
import { routeDefiner, type RouteDefinition, type RouteResponse } from "./routes";
import { RULE_METADATA_SEARCH, search } from "./search";
import type { ReadOutcome, TenantStore, WriteOutcome } from "./state";

const defineRoute = routeDefiner<TenantStore>();

/** The type$ of the (small) body answering a successful user-list write. */
export const RULE_USERS_UPDATED = "RULE_USERS_UPDATED";

const STATUS_OF_REFUSAL = { RULE_NOT_FOUND: 404, RULE_IS_SYSTEM: 400, RULE_MONITORS_ALL_USERS: 400 } as const;

function answerWrite(outcome: WriteOutcome): RouteResponse {
  if (!outcome.ok) throw new SimHttpError(STATUS_OF_REFUSAL[outcome.reason], outcome.reason, outcome.message);
  return { body: { type$: RULE_USERS_UPDATED, ruleId: outcome.ruleId, userCount: outcome.userCount } };
}

function answerRead<T>(outcome: ReadOutcome<T>): RouteResponse {
  if (!outcome.ok) throw new SimHttpError(404, outcome.reason, outcome.message);
  return { body: outcome.value };
}

export const ruleRoutes: Readonly<Record<RuleOperation, RouteDefinition>> = {
  "query-rule-metadata": defineRoute({
    path: RULE_OPERATIONS["query-rule-metadata"],
    write: false,
    body: searchRequestSchema,
    handle: ({ body, store }) => {
      const result = search(
        // metadata only: copying every rule's user list for each search page made large tenants slow
        store.ruleMetadata(),
        body,
        RULE_METADATA_SEARCH,
      );
      if (!result.ok) throw new SimHttpError(400, "INVALID_FILTER", result.message);
      const response: RuleMetadataSearchResponse = {
        type$: "RULE_METADATA_SEARCH_RESPONSE",
        ruleMetadata: result.page,
        totalCount: result.totalCount,
        problems: [],
      };
      return { body: response };
    },
  }),
  "query-users": defineRoute({
    path: RULE_OPERATIONS["query-users"],
    write: false,
    body: queryUsersRequestSchema,
    handle: ({ body, store }) => answerRead(store.queryUsers(body.ruleId)),
  }),
  "add-users": defineRoute({
    path: RULE_OPERATIONS["add-users"],
    write: true,
    responseType: RULE_USERS_UPDATED,
    body: addUsersRequestSchema.superRefine((request, ctx) => {
      request.userList.forEach((entry, index) => {
        if (entry.userAliasList.length === 0) {
          ctx.addIssue({ code: "custom", path: ["userList", index, "userAliasList"], message: "at least one alias is needed" });
        }
        entry.userAliasList.forEach((alias, a) => {
          if (alias.trim() === "") ctx.addIssue({ code: "custom", path: ["userList", index, "userAliasList", a], message: "an alias must not be empty" });
        });
      });
    }),
    handle: ({ body, store }) => answerWrite(store.addUsers(body.ruleId, body.userList)),
  }),
  "remove-users": defineRoute({
    path: RULE_OPERATIONS["remove-users"],
    write: true,
    responseType: RULE_USERS_UPDATED,
    body: removeUsersRequestSchema,
    handle: ({ body, store }) => answerWrite(store.removeUsers(body.ruleId, body.userIdList)),
  }),
  "remove-user-aliases": defineRoute({
    path: RULE_OPERATIONS["remove-user-aliases"],
    write: true,
    responseType: RULE_USERS_UPDATED,
    body: removeUserAliasesRequestSchema,
    handle: ({ body, store }) => answerWrite(store.removeUserAliases(body.ruleId, body.userList)),
  }),
  "remove-all-users": defineRoute({
    path: RULE_OPERATIONS["remove-all-users"],
    write: true,
    responseType: RULE_USERS_UPDATED,
    body: removeAllUsersRequestSchema,
    handle: ({ body, store }) => answerWrite(store.removeAllUsers(body.ruleId)),
  }),
};
