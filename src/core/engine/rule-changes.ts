/**
 * A rule's changes as a plan records them (docs/plan-format.md): what the diff (src/core/engine/diff.ts)
 * found, what the operation table (src/core/engine/operations.ts) builds the calls from, and what the
 * change kinds (src/core/engine/change-kinds.ts) show and count.
 */
import { z } from "zod";
import type { DeepReadonly } from "./deep-readonly";
import { plannedUser } from "./planned-user";

/**
 * A user removed with all their aliases. `reason: "expired"` (with the date) when the user is
 * still declared but their `expiresAt` has come; absent when the user is simply not declared.
 */
export const removedUser = plannedUser.extend({ reason: z.literal("expired").optional(), expiresAt: z.string().optional() });
/** An observed entry as the service returned it (userId null when the entry has no usable ID). */
export const observedEntry = z.object({ userId: z.string().nullable(), aliases: z.array(z.string()) });

export const ruleChanges = z.object({
  /** Users not in the list yet, with all their declared aliases. */
  addUsers: z.array(plannedUser),
  /** Users already in the list that gain aliases. */
  addAliases: z.array(plannedUser),
  /** Users that stay but lose aliases. */
  removeAliases: z.array(plannedUser),
  /** Users removed with all their aliases (`reason: "expired"` on those whose expiresAt has come). */
  removeUsers: z.array(removedUser),
  /** Entries without a user ID that a remove-all-users takes away. */
  removeEntriesWithoutId: z.array(observedEntry),
  /** The whole list is emptied (remove-all-users), alone or as the first step of a rebuild. */
  removeAll: z.boolean(),
  /** remove-all-users then add-users of the whole declaration (entries without IDs present). */
  rebuild: z.boolean(),
});

export type RemovedUser = DeepReadonly<z.infer<typeof removedUser>>;
export type ObservedEntry = DeepReadonly<z.infer<typeof observedEntry>>;
export type RuleChanges = DeepReadonly<z.infer<typeof ruleChanges>>;
