/**
 * The write operations, one row each: everything the tool knows about an operation besides its
 * wire path and request schema (RULE_OPERATIONS and WRITE_REQUESTS in src/api/rules/schemas.ts):
 * what a planned call of it carries (the plan schema's planned call is built from the rows), which
 * calls of it a rule's changes need, where it stands in the monitoring-safe order, the users it
 * carries, how plans and reports name it, which users it adds or which user IDs it removes (the
 * admission's expired-user check, the read-back's kept entries), and what its request body
 * carries (the sender, src/io/execute.ts, sends every call from it). The table is a record over
 * the wire's write operations, so a new one there does not compile until its row is here
 * (docs/architecture.md, "Adding a write operation").
 */
import { z } from "zod";
import type { UsersToAlertOn, WireWrite, WriteFields, WriteOperation } from "../../api/rules/schemas";
import { plural } from "../../shared/text";
import { compareStrings } from "./canonical";
import { CHANGE_KIND_LIST, CHANGE_KINDS, type ChangeItem } from "./change-kinds";
import type { DeepReadonly } from "./deep-readonly";
import { plannedUser, type PlannedUser } from "./planned-user";
import type { RuleChanges } from "./rule-changes";

/** The write operations: those of the wire table (its reads aside), each a row below. */
export type { WriteOperation };

/** The fields of the zod shape `S` as parsed (none for an empty shape, where zod's own type would forbid every key). */
type Fields<S extends z.ZodRawShape> = keyof S extends never ? Record<never, never> : z.infer<z.ZodObject<S>>;

/** A planned call of operation `K` that carries the fields of the zod shape `S`. */
type Call<K extends WriteOperation, S extends z.ZodRawShape> = DeepReadonly<{ operation: K } & Fields<S>>;

/**
 * Where an operation stands in the monitoring-safe order (docs/contract.md §4): `empty` first (a
 * rebuild's remove-all-users), then inclusion lists gain before they lose (`add` before `remove`)
 * and exclusion lists lose before they gain.
 */
export type Phase = "empty" | "add" | "remove";

/** What a rule's calls are built from: its changes, its declared users, and the batch size. */
export interface CallSource {
  readonly changes: RuleChanges;
  /** The declared users (a rebuild adds them all again, once the list is empty). */
  readonly users: readonly PlannedUser[];
  /** Most users in one call, a whole number of at least 1: larger changes take several calls of the operation. */
  readonly batchSize: number;
}

export interface WriteOperationSpec<K extends WriteOperation, S extends z.ZodRawShape> {
  readonly operation: K;
  /** What a planned call carries besides its operation, as plans save it (docs/plan-format.md). */
  readonly carries: S;
  /** The calls of this operation the rule's changes need, in batch order; none when it has no part in them. */
  readonly calls: (source: CallSource) => Call<K, S>[];
  readonly phase: Phase;
  /** Order inside its phase (remove-user-aliases before remove-users). */
  readonly rank: number;
  /**
   * The rule is read again right before each attempt, and nothing is sent when it changed (the
   * sender, src/io/execute.ts, reads this): for a call that takes away what the plan did not see.
   */
  readonly guarded: boolean;
  /** The users (or user IDs) the call carries; 0 for remove-all-users. Apply records the same count. */
  readonly size: (call: Call<K, S>) => number;
  /** How plans and reports name a call: `add-users (2 users)`, `remove-all-users`. */
  readonly describe: (users: number) => string;
  /** The users the call puts in the list (the admission refuses a plan adding an expired user). */
  readonly usersAdded: (call: Call<K, S>) => readonly PlannedUser[];
  /** The user IDs the call names to take out of the list (a read back names the entries the service kept). */
  readonly userIdsRemoved: (call: Call<K, S>) => readonly string[];
  /** What the call's request body carries besides tenantId and ruleId (the client adds those). */
  readonly request: (call: Call<K, S>) => WriteFields<K>;
}

/** One row, its call type inferred from what it `carries`. */
function row<K extends WriteOperation, S extends z.ZodRawShape>(spec: WriteOperationSpec<K, S>): WriteOperationSpec<K, S> {
  return spec;
}

/** add-users calls that put `users` in a list, `batchSize` at a time, in order. */
const addUsersCalls = (users: readonly PlannedUser[], batchSize: number) => chunk(users, batchSize).map((userList) => ({ operation: "add-users" as const, userList }));

const withUsers = (operation: string) => (users: number) => `${operation} (${plural(users, "user")})`;
const toEntry = (u: PlannedUser) => ({ userIdFromAuthority: u.userId, userAliasList: [...u.aliases] });

export const WRITE_OPERATIONS = {
  "add-users": row({
    operation: "add-users",
    carries: { userList: z.array(plannedUser) },
    // a rebuild adds every declared user again, with all declared aliases, once the list is empty
    calls: ({ changes, users, batchSize }) => addUsersCalls(changes.removeAll ? (changes.rebuild ? users : []) : mergeAdds(changes), batchSize),
    phase: "add",
    rank: 0,
    guarded: false,
    size: (call) => call.userList.length,
    describe: withUsers("add-users"),
    usersAdded: (call) => call.userList,
    userIdsRemoved: () => [],
    request: (call) => ({ userList: call.userList.map(toEntry) }),
  }),
  "remove-user-aliases": row({
    operation: "remove-user-aliases",
    carries: { userList: z.array(plannedUser) },
    calls: ({ changes, batchSize }) => (changes.removeAll ? [] : chunk(changes.removeAliases, batchSize)).map((userList) => ({ operation: "remove-user-aliases", userList })),
    phase: "remove",
    rank: 0,
    guarded: false,
    size: (call) => call.userList.length,
    describe: withUsers("remove-user-aliases"),
    usersAdded: () => [],
    userIdsRemoved: () => [],
    request: (call) => ({ userList: call.userList.map(toEntry) }),
  }),
  "remove-users": row({
    operation: "remove-users",
    carries: { userIdList: z.array(z.string()) },
    calls: ({ changes, batchSize }) =>
      (changes.removeAll
        ? []
        : chunk(
            changes.removeUsers.map((u) => u.userId),
            batchSize,
          )
      ).map((userIdList) => ({ operation: "remove-users", userIdList })),
    phase: "remove",
    rank: 1,
    guarded: false,
    size: (call) => call.userIdList.length,
    describe: withUsers("remove-users"),
    usersAdded: () => [],
    userIdsRemoved: (call) => call.userIdList,
    request: (call) => ({ userIdList: [...call.userIdList] }),
  }),
  "remove-all-users": row({
    operation: "remove-all-users",
    carries: {},
    calls: ({ changes }) => (changes.removeAll ? [{ operation: "remove-all-users" }] : []),
    phase: "empty",
    rank: 0,
    guarded: true,
    size: () => 0,
    describe: () => "remove-all-users",
    usersAdded: () => [],
    userIdsRemoved: () => [],
    request: () => ({}),
  }),
} satisfies { readonly [K in WriteOperation]: { readonly operation: K } };

type Carries<K extends WriteOperation> = (typeof WRITE_OPERATIONS)[K]["carries"];

/** The planned call of one operation. */
export type CallOf<K extends WriteOperation> = Call<K, Carries<K>>;

/** One write call of a plan, exactly as it will be sent (minus tenantId and ruleId, which the rule carries). */
export type PlannedCall = { [K in WriteOperation]: CallOf<K> }[WriteOperation];

/** A planned call as zod parses it (the plan schema makes it read-only with the rest of the plan). */
type ParsedCall = { [K in WriteOperation]: { operation: K } & Fields<Carries<K>> }[WriteOperation];

const OPERATIONS = Object.keys(WRITE_OPERATIONS) as WriteOperation[];

/** Every write operation, in the table's order (tests and the bench list them from here). */
export const WRITE_OPERATION_LIST: readonly WriteOperation[] = OPERATIONS;

/**
 * The plan schema's planned call (src/core/engine/plan-schema.ts): one member per row, its operation and
 * what the row `carries`, in the table's order. The members are built from the table at run time,
 * which zod's types cannot follow; `ParsedCall` is the same union spelt from the table's types.
 */
export const plannedCall = z.discriminatedUnion(
  "operation",
  OPERATIONS.map((operation) => z.object({ operation: z.literal(operation), ...WRITE_OPERATIONS[operation].carries })) as unknown as [z.ZodObject, ...z.ZodObject[]],
) as unknown as z.ZodType<ParsedCall>;

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * What add-users carries: the changes of every kind the change-kind table says adds a user or
 * aliases (src/core/engine/change-kinds.ts: new users, new aliases of present users), in one list
 * ordered by user ID.
 */
function mergeAdds(changes: RuleChanges): PlannedUser[] {
  return ADDING_KINDS.flatMap((kind) => CHANGE_KINDS[kind].items(changes).filter(isPlannedUser)).sort((a, b) => compareStrings(a.userId, b.userId));
}

/** The change kinds that put a user or aliases in the list (an entry without a user ID is never added). */
const ADDING_KINDS = CHANGE_KIND_LIST.filter((kind) => CHANGE_KINDS[kind].direction === "add" && CHANGE_KINDS[kind].unit !== "entry");

function isPlannedUser(item: ChangeItem): item is PlannedUser {
  return typeof item.userId === "string";
}

/** A row seen over every operation at once: what the functions below ask of any call. */
interface AnyRow {
  readonly calls: (source: CallSource) => PlannedCall[];
  readonly phase: Phase;
  readonly rank: number;
  readonly guarded: boolean;
  readonly size: (call: PlannedCall) => number;
  readonly describe: (users: number) => string;
  readonly usersAdded: (call: PlannedCall) => readonly PlannedUser[];
  readonly userIdsRemoved: (call: PlannedCall) => readonly string[];
  readonly request: (call: PlannedCall) => WriteFields<WriteOperation>;
}

/** The row of an operation; its functions are given only calls of that operation. */
function spec(operation: WriteOperation): AnyRow {
  return WRITE_OPERATIONS[operation] as unknown as AnyRow;
}

/** Users (or user IDs) a call carries; 0 for remove-all-users. The one count of plans, renderers and apply records. */
export function callSize(call: PlannedCall): number {
  return spec(call.operation).size(call);
}

/** `add-users (2 users)`; `remove-all-users` alone. */
export function describeCall(operation: WriteOperation, users: number): string {
  return spec(operation).describe(users);
}

const PHASES: Readonly<Record<"inclusion" | "exclusion", readonly Phase[]>> = {
  inclusion: ["empty", "add", "remove"],
  exclusion: ["empty", "remove", "add"],
};

/**
 * The calls in monitoring-safe order for the list type: by phase, then rank; calls of one
 * operation keep their order (batches). Never modifies the input.
 */
export function inSafeOrder(calls: readonly PlannedCall[], listType: UsersToAlertOn): PlannedCall[] {
  const phases = PHASES[listType === "ALL_USERS_NOT_SPECIFIED" ? "exclusion" : "inclusion"];
  const key = (call: PlannedCall) => phases.indexOf(spec(call.operation).phase) * 100 + spec(call.operation).rank;
  return [...calls].sort((a, b) => key(a) - key(b));
}

/**
 * The fewest calls for a rule's changes, in monitoring-safe order: each operation's calls as its
 * row builds them, ordered by inSafeOrder (a rebuild empties first, the one exception, warned about).
 */
export function planCalls(source: CallSource, listType: UsersToAlertOn): PlannedCall[] {
  return inSafeOrder(
    OPERATIONS.flatMap((operation): PlannedCall[] => spec(operation).calls(source)),
    listType,
  );
}

/** Whether the rule is read again right before each attempt of the call (the row's `guarded`). */
export function isGuarded(call: PlannedCall): boolean {
  return spec(call.operation).guarded;
}

/**
 * Where an operation stands in the monitoring-safe order (its row's phase): `empty` is the call
 * that empties a list (a rebuild's first), `add` the one that puts users in it.
 */
export function phaseOf(operation: WriteOperation): Phase {
  return WRITE_OPERATIONS[operation].phase;
}

/**
 * The calls that put `users` in a list, at most `batchSize` users each (the executor's restore of
 * what a failed rebuild emptied, src/io/restore-after-wipe.ts).
 */
export function callsAdding(users: readonly PlannedUser[], batchSize: number): PlannedCall[] {
  return addUsersCalls(users, batchSize);
}

/** The users a call puts in the list. */
export function usersAdded(call: PlannedCall): readonly PlannedUser[] {
  return spec(call.operation).usersAdded(call);
}

/** The user IDs a call names to take out of the list. */
export function userIdsRemoved(call: PlannedCall): readonly string[] {
  return spec(call.operation).userIdsRemoved(call);
}

/** The call as the client sends it (src/io/execute.ts): its operation and what its request body carries. */
export function wireWrite(call: PlannedCall): WireWrite {
  return { operation: call.operation, fields: spec(call.operation).request(call) } as WireWrite;
}
