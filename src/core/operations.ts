/**
 * The write operations, one row each: everything the tool knows about an operation besides how it
 * is sent (src/io/execute.ts keeps that as an exhaustive record of the same keys). A new write
 * operation is added to the plan schema's `plannedCall` union, the api's wire table
 * (src/api/rules/schemas.ts RULE_OPERATIONS) and here; the compiler then names every other place
 * that must handle it: the sender, the simulator's routes, and the client method the sender calls.
 */
import type { WriteOperation } from "../api/rules/schemas";
import { RULE_OPERATIONS } from "../api/rules/schemas";
import type { UsersToAlertOn } from "../api/rules/schemas";
import type { PlannedCall } from "./plan-schema";

/** The planned call of one operation. */
export type CallOf<K extends PlannedCall["operation"]> = Extract<PlannedCall, { operation: K }>;

/**
 * Where an operation stands in the monitoring-safe order (docs/contract.md §4): `empty` first (a
 * rebuild's remove-all-users), then inclusion lists gain before they lose (`add` before `remove`)
 * and exclusion lists lose before they gain.
 */
export type Phase = "empty" | "add" | "remove";

export interface WriteOperationSpec<K extends PlannedCall["operation"]> {
  /** The wire path (the api's table). */
  readonly path: string;
  readonly phase: Phase;
  /** Order inside its phase (remove-user-aliases before remove-users). */
  readonly rank: number;
  /** The users (or user IDs) the call carries; 0 for remove-all-users. Apply records the same count. */
  readonly size: (call: CallOf<K>) => number;
  /** How plans and reports name a call: `add-users (2 users)`, `remove-all-users`. */
  readonly describe: (users: number) => string;
  /** What it does, for the legend of the renderers. */
  readonly meaning: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const withUsers = (operation: string) => (users: number) => `${operation} (${plural(users, "user")})`;

export const WRITE_OPERATIONS: { readonly [K in PlannedCall["operation"]]: WriteOperationSpec<K> } = {
  "remove-all-users": {
    path: RULE_OPERATIONS["remove-all-users"],
    phase: "empty",
    rank: 0,
    size: () => 0,
    describe: () => "remove-all-users",
    meaning: "empties the list (alone, or as the first step of a rebuild)",
  },
  "add-users": {
    path: RULE_OPERATIONS["add-users"],
    phase: "add",
    rank: 0,
    size: (call) => call.userList.length,
    describe: withUsers("add-users"),
    meaning: "adds users, and aliases of users already in the list",
  },
  "remove-user-aliases": {
    path: RULE_OPERATIONS["remove-user-aliases"],
    phase: "remove",
    rank: 0,
    size: (call) => call.userList.length,
    describe: withUsers("remove-user-aliases"),
    meaning: "removes some aliases of users who stay in the list",
  },
  "remove-users": {
    path: RULE_OPERATIONS["remove-users"],
    phase: "remove",
    rank: 1,
    size: (call) => call.userIdList.length,
    describe: withUsers("remove-users"),
    meaning: "removes users, with all their aliases, by user ID",
  },
};

/** The plan's operations are exactly the wire's write operations: a new one must be added to both. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const planAndWireAgree: Same<PlannedCall["operation"], WriteOperation> = true;
void planAndWireAgree;

function spec(operation: PlannedCall["operation"]): WriteOperationSpec<PlannedCall["operation"]> {
  return WRITE_OPERATIONS[operation] as WriteOperationSpec<PlannedCall["operation"]>;
}

/** Users (or user IDs) a call carries; 0 for remove-all-users. The one count of plans, renderers and apply records. */
export function callSize(call: PlannedCall): number {
  return spec(call.operation).size(call);
}

/** `add-users (2 users)`; `remove-all-users` alone. */
export function describeCall(operation: PlannedCall["operation"], users: number): string {
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
