/**
 * A user as a plan names it: a user ID and aliases. The plan's changes, its desired lists and the
 * calls of the operation table (src/core/engine/operations.ts) carry users of this one schema.
 */
import { z } from "zod";
import type { DeepReadonly } from "./deep-readonly";

export const plannedUser = z.object({ userId: z.string().min(1), aliases: z.array(z.string()) });

export type PlannedUser = DeepReadonly<z.infer<typeof plannedUser>>;
