/**
 * The write operations, one row each: everything the tool knows about an operation besides how it
 * is sent (src/io/execute.ts keeps that as an exhaustive record of the same keys): which calls of
 * it a rule's changes need, where it stands in the monitoring-safe order, the users it carries, how
 * plans and reports name it, and which users it adds or which user IDs it removes (the admission's
 * expired-user check, the read-back's kept entries). A new write operation is added to the plan
 * schema's `plannedCall` union, the api's wire table (src/api/rules/schemas.ts RULE_OPERATIONS)
 * and here; the compiler then names every other place that must handle it: the sender, the
 * simulator's routes, and the client method the sender calls.
 */
import type { WriteOperation as WireWriteOperation } from "../api/rules/schemas";
import type { UsersToAlertOn } from "../api/rules/schemas";
import { compareStrings } from "./canonical";
import type { PlannedCall, PlannedUser, RuleChanges } from "./plan-schema";

/** The write operations of a plan: the operation union of its planned calls. */
export type WriteOperation = PlannedCall["operation"];

/** The planned call of one operation. */
export type CallOf<K extends WriteOperation> = Extract<PlannedCall, { operation: K }>;

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

export interface WriteOperationSpec<K extends WriteOperation> {
  /** The calls of this operation the rule's changes need, in batch order; none when it has no part in them. */
  readonly calls: (source: CallSource) => CallOf<K>[];
  readonly phase: Phase;
  /** Order inside its phase (remove-user-aliases before remove-users). */
  readonly rank: number;
  /** The users (or user IDs) the call carries; 0 for remove-all-users. Apply records the same count. */
  readonly size: (call: CallOf<K>) => number;
  /** How plans and reports name a call: `add-users (2 users)`, `remove-all-users`. */
  readonly describe: (users: number) => string;
  /** The users the call puts in the list (the admission refuses a plan adding an expired user). */
  readonly usersAdded: (call: CallOf<K>) => readonly PlannedUser[];
  /** The user IDs the call names to take out of the list (a read back names the entries the service kept). */
  readonly userIdsRemoved: (call: CallOf<K>) => readonly string[];
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const withUsers = (operation: string) => (users: number) => `${operation} (${plural(users, "user")})`;

export const WRITE_OPERATIONS: { readonly [K in WriteOperation]: WriteOperationSpec<K> } = {
  "remove-all-users": {
    calls: ({ changes }) => (changes.removeAll ? [{ operation: "remove-all-users" }] : []),
    phase: "empty",
    rank: 0,
    size: () => 0,
    describe: () => "remove-all-users",
    usersAdded: () => [],
    userIdsRemoved: () => [],
  },
  "add-users": {
    // a rebuild adds every declared user again, with all declared aliases, once the list is empty
    calls: ({ changes, users, batchSize }) =>
      (changes.removeAll ? (changes.rebuild ? chunk(users, batchSize) : []) : chunk(mergeAdds(changes), batchSize)).map((userList) => ({
        operation: "add-users",
        userList,
      })),
    phase: "add",
    rank: 0,
    size: (call) => call.userList.length,
    describe: withUsers("add-users"),
    usersAdded: (call) => call.userList,
    userIdsRemoved: () => [],
  },
  "remove-user-aliases": {
    calls: ({ changes, batchSize }) => (changes.removeAll ? [] : chunk(changes.removeAliases, batchSize)).map((userList) => ({ operation: "remove-user-aliases", userList })),
    phase: "remove",
    rank: 0,
    size: (call) => call.userList.length,
    describe: withUsers("remove-user-aliases"),
    usersAdded: () => [],
    userIdsRemoved: () => [],
  },
  "remove-users": {
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
    size: (call) => call.userIdList.length,
    describe: withUsers("remove-users"),
    usersAdded: () => [],
    userIdsRemoved: (call) => call.userIdList,
  },
};

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** New users and new aliases of present users, in one add-users list ordered by user ID. */
function mergeAdds(changes: RuleChanges): PlannedUser[] {
  return [...changes.addUsers, ...changes.addAliases].sort((a, b) => compareStrings(a.userId, b.userId));
}

/** The plan's operations are exactly the wire's write operations: a new one must be added to both. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const planAndWireAgree: Same<WriteOperation, WireWriteOperation> = true;
void planAndWireAgree;

function spec(operation: WriteOperation): WriteOperationSpec<WriteOperation> {
  return WRITE_OPERATIONS[operation] as WriteOperationSpec<WriteOperation>;
}

const OPERATIONS = Object.keys(WRITE_OPERATIONS) as WriteOperation[];

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

/** The users a call puts in the list. */
export function usersAdded(call: PlannedCall): readonly PlannedUser[] {
  return spec(call.operation).usersAdded(call);
}

/** The user IDs a call names to take out of the list. */
export function userIdsRemoved(call: PlannedCall): readonly string[] {
  return spec(call.operation).userIdsRemoved(call);
}
