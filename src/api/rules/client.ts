/**
 * The typed client of the rule operations of docs/interface.md: rule-metadata search (with paging)
 * and the five rule user-list operations. Alert, case and file-event operations are to be added
 * on the same {@link HttpTransport} (see `transport`).
 */
import { problemsError } from "../http/errors";
import type { ConnectionConfig } from "../http/config";
import type { RequestCounter, RequestHook } from "../http/counter";
import { pageRequestOptions, searchRequest, type Clause, type SearchPageOptions } from "../search/filters";
import type { RateLimiter } from "../http/rate-limiter";
import type { Random, RetryPolicy, Sleep } from "../http/retry";
import {
  RULE_OPERATIONS,
  ruleMetadataSearchResponseSchema,
  usersInRuleResponseSchema,
  type AddUsersRequest,
  type FilterGroup,
  type RemoveAllUsersRequest,
  type RemoveUserAliasesRequest,
  type RemoveUsersRequest,
  type RuleMetadata,
  type RuleMetadataSearchResponse,
  type UserListEntry,
  type UsersInRuleResponse,
  type WireWrite,
  type WriteOperation,
} from "./schemas";
import { collectPages } from "../http/paging";
import { HttpTransport, type GuardSlot, type RunDeadline } from "../http/transport";
import type { TokenSource } from "../http/credentials";

/** The page size of query-rule-metadata unless given. */
const DEFAULT_RULE_METADATA_PAGE_SIZE = 100;

export type ClientOptions = ConnectionConfig & {
  /** Where the token comes from before each attempt (a token command); wins over `token`. @default - the static `token` */
  readonly tokenSource?: TokenSource | undefined;
  /** Timeout of each HTTP attempt. @default 30000 */
  readonly timeoutMs?: number | undefined;
  /** @default - DEFAULT_RETRY_POLICY (10 attempts, 200 ms base, 5 s cap, Retry-After up to 30 s) */
  readonly retry?: Partial<RetryPolicy> | undefined;
  /** Called after every HTTP attempt (no headers or bodies in the event). */
  readonly onRequest?: RequestHook | undefined;
  /** @default - a real timer */
  readonly sleep?: Sleep | undefined;
  /** @default - Math.random */
  readonly random?: Random | undefined;
  /** Share a counter between clients. @default - a new counter */
  readonly counter?: RequestCounter | undefined;
  /** Gates every attempt; share one across a run (src/api/http/rate-limiter.ts). @default - none */
  readonly rateLimiter?: RateLimiter | undefined;
  /** Largest response body read. @default - 64 MiB (DEFAULT_READ_LIMITS) */
  readonly maxBodyBytes?: number | undefined;
  /** Overall deadline of one request, retries and waits included. @default - 5 minutes (DEFAULT_READ_LIMITS) */
  readonly requestDeadlineMs?: number | undefined;
  /** Most results one paged search may bring. @default - 20000 (DEFAULT_READ_LIMITS) */
  readonly maxSearchResults?: number | undefined;
  /** The deadline of the whole run, shared by every request (src/api/http/deadline.ts). @default - none */
  readonly runDeadline?: RunDeadline | undefined;
};

/** One page of query-rule-metadata (page size 100 unless given). */
export type RuleMetadataPageOptions = SearchPageOptions;

export interface RuleMetadataSearchOptions {
  /** @default "OR" */
  readonly groupClause?: Clause | undefined;
  /** @default 100 */
  readonly pageSize?: number | undefined;
}

export class RuleListClient {
  readonly tenantId: string;
  readonly baseUrl: string;
  readonly counter: RequestCounter;
  /** The transport, for operations added beside this class (alerts, cases, file events). */
  readonly transport: HttpTransport;

  constructor(options: ClientOptions) {
    this.transport = new HttpTransport(options);
    this.tenantId = options.tenantId;
    this.baseUrl = this.transport.baseUrl;
    this.counter = this.transport.counter;
  }

  /** One page of query-rule-metadata. A non-empty `problems` array is reported as an ApiError. */
  async queryRuleMetadataPage(
    groups: readonly FilterGroup[],
    options: RuleMetadataPageOptions = {},
  ): Promise<RuleMetadataSearchResponse> {
    const body = searchRequest(this.tenantId, groups, pageRequestOptions(options, DEFAULT_RULE_METADATA_PAGE_SIZE));
    const operation = "query-rule-metadata";
    const response = await this.transport.post(operation, RULE_OPERATIONS[operation], body, ruleMetadataSearchResponseSchema, {
      accept: "text/plain",
      idempotent: true,
    });
    if (response.problems.length > 0) throw problemsError(operation, response.problems);
    return response;
  }

  /**
   * Every rule matching the groups: reads page after page until `totalCount` rules are read or a
   * page comes back empty; a page with nothing new, or more than `maxSearchResults` rules, stops
   * with a ReadLimitError (src/api/http/paging.ts). Rules are returned once each, by `id`.
   */
  async searchRuleMetadata(
    groups: readonly FilterGroup[],
    options: RuleMetadataSearchOptions = {},
  ): Promise<RuleMetadata[]> {
    const pageSize = options.pageSize ?? 100;
    const { items } = await collectPages({
      operation: "query-rule-metadata",
      pageSize,
      maxResults: this.transport.maxSearchResults,
      keyOf: (rule: RuleMetadata) => rule.id,
      fetchPage: async (pageNumber) => {
        const page = await this.queryRuleMetadataPage(groups, { groupClause: options.groupClause, pageSize, pageNumber });
        return { items: page.ruleMetadata, totalCount: page.totalCount };
      },
    });
    return items;
  }

  /**
   * The users of a rule's inclusion or exclusion list. `ticket` and `token`: a rate-limiter ticket
   * already taken for it and the token to send it with (the read that guards remove-all-users,
   * sent right before it: its GuardSlot).
   */
  async queryUsers(ruleId: string, options: { readonly ticket?: number | undefined; readonly token?: string | undefined } = {}): Promise<UsersInRuleResponse> {
    return this.transport.post(
      "query-users",
      RULE_OPERATIONS["query-users"],
      { tenantId: this.tenantId, ruleId },
      usersInRuleResponseSchema,
      { accept: "text/plain", idempotent: true, ruleId, ticket: options.ticket, token: options.token },
    );
  }

  /** Adds users (with their aliases) to a rule's list. */
  async addUsers(ruleId: string, userList: readonly UserListEntry[]): Promise<void> {
    const body: AddUsersRequest = {
      tenantId: this.tenantId,
      ruleId,
      userList: userList.map((u) => ({ userIdFromAuthority: u.userIdFromAuthority, userAliasList: [...u.userAliasList] })),
    };
    await this.#write("add-users", ruleId, body);
  }

  /** Removes every alias of each given user ID from a rule's list. */
  async removeUsers(ruleId: string, userIdList: readonly string[]): Promise<void> {
    const body: RemoveUsersRequest = { tenantId: this.tenantId, ruleId, userIdList: [...userIdList] };
    await this.#write("remove-users", ruleId, body);
  }

  /** Removes only the listed aliases of the given users. */
  async removeUserAliases(ruleId: string, userList: readonly UserListEntry[]): Promise<void> {
    const body: RemoveUserAliasesRequest = {
      tenantId: this.tenantId,
      ruleId,
      userList: userList.map((u) => ({ userIdFromAuthority: u.userIdFromAuthority, userAliasList: [...u.userAliasList] })),
    };
    await this.#write("remove-user-aliases", ruleId, body);
  }

  /**
   * Empties a rule's list. `beforeAttempt` runs right before every attempt, retries included
   * (apply re-reads the rule there, sending the read on the slot's ticket and token, and throws
   * when it changed, so nothing is sent); the rate limiter's wait and the token come before it,
   * nothing between it and the attempt (src/api/http/turn.ts).
   */
  async removeAllUsers(ruleId: string, options: { readonly beforeAttempt?: (slot: GuardSlot) => Promise<void> } = {}): Promise<void> {
    const body: RemoveAllUsersRequest = { tenantId: this.tenantId, ruleId };
    await this.#write("remove-all-users", ruleId, body, options.beforeAttempt);
  }

  /**
   * Sends one write of the wire table (WRITE_REQUESTS in src/api/rules/schemas.ts) with what its
   * body carries; tenantId and ruleId are added here. Apply sends every planned call through it
   * (src/io/execute.ts); the named methods above send one operation each. `beforeAttempt`: as for
   * removeAllUsers.
   */
  async write(ruleId: string, write: WireWrite, options: { readonly beforeAttempt?: (slot: GuardSlot) => Promise<void> } = {}): Promise<void> {
    await this.#write(write.operation, ruleId, { tenantId: this.tenantId, ruleId, ...write.fields }, options.beforeAttempt);
  }

  /** Every rule-list write is safe to repeat, so it is retried; any 2xx is success, whatever the body. */
  async #write(operation: WriteOperation, ruleId: string, body: unknown, beforeAttempt?: (slot: GuardSlot) => Promise<void>): Promise<void> {
    await this.transport.post(operation, RULE_OPERATIONS[operation], body, null, {
      accept: "application/json",
      idempotent: true,
      write: true,
      ruleId,
      beforeAttempt,
    });
  }
}
