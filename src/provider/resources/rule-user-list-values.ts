/**
 * The resource's values to and from the engine's: the declared `users` (a dynamic value, typed as
 * the configuration wrote it) and what the provider keeps beside a state (its private data).
 * Checked here, so nothing deeper sees a Terraform value or an unknown.
 */
import { z } from "zod";
import type { DesiredUser } from "../../core/engine/desired";
import type { ObservedList, RuleFacts } from "../../core/engine/observation";
import type { Plan } from "../../core/engine/plan-schema";
import { parseKeptPlan } from "../../io/workflow";
import { redactStrings } from "../../io/door-words";
import { elementType, plain, setOwn, typedLiteral } from "../framework/dynamic";
import { stringValue } from "../framework/values";
import { Typed, UNKNOWN, type ObjectValue, type Value } from "../protocol";

/** The declared users of a configuration or state (`users` map), sorted by user ID. */
export function usersOf(typed: Value | undefined): DesiredUser[] | null {
  const value = plain(typed);
  if (value === null || value === UNKNOWN || typeof value !== "object" || Array.isArray(value) || value instanceof Typed) return null;
  return Object.entries(value)
    .map(([userId, user]): DesiredUser => {
      const u = (user ?? {}) as ObjectValue;
      const aliases = Array.isArray(u["aliases"]) ? u["aliases"].filter((a): a is string => typeof a === "string") : [];
      const expiresAt = stringValue(u["expires_at"]);
      return expiresAt === null ? { userId, aliases } : { userId, aliases, expiresAt };
    })
    .sort((a, b) => (a.userId < b.userId ? -1 : a.userId > b.userId ? 1 : 0));
}

/** Two declarations of a user say the same (aliases compared case-insensitively, as the service does). */
function sameUser(a: DesiredUser, b: DesiredUser): boolean {
  const set = (u: DesiredUser) => [...new Set(u.aliases.map((x) => x.toLowerCase()))].sort().join("\n");
  return a.userId === b.userId && (a.expiresAt ?? null) === (b.expiresAt ?? null) && set(a) === set(b);
}

/**
 * The `users` value of state from users. A user the prior value declares the same keeps the prior
 * value and type exactly (as the configuration wrote it: no change shown where nothing changed);
 * a user new or changed is written as its HCL literal would be.
 */
export function usersValue(users: readonly DesiredUser[], prior: Value | undefined = null): Typed {
  const priorUsers = usersOf(prior ?? null);
  if (prior instanceof Typed && priorUsers !== null && priorUsers.length === users.length && priorUsers.every((u, i) => sameUser(u, users[i]!))) return prior;
  const priorInner = prior instanceof Typed ? (plain(prior) as ObjectValue) : null;
  const types: Record<string, ReturnType<typeof typedLiteral>["type"]> = {};
  const values: ObjectValue = {};
  for (const u of users) {
    const before = priorUsers?.find((p) => p.userId === u.userId);
    const keptType = prior instanceof Typed && before !== undefined && sameUser(before, u) ? elementType(prior.type, u.userId) : null;
    if (keptType !== null && priorInner !== null) {
      setOwn(types, u.userId, keptType);
      setOwn(values, u.userId, (prior as Typed).value !== null ? ((prior as Typed).value as ObjectValue)[u.userId]! : null);
      continue;
    }
    const literal = typedLiteral(u.expiresAt === undefined ? { aliases: [...u.aliases] } : { aliases: [...u.aliases], expires_at: u.expiresAt });
    setOwn(types, u.userId, literal.type);
    setOwn(values, u.userId, literal.value);
  }
  return new Typed(["object", types], values);
}

/**
 * What the provider keeps beside a resource's state (Terraform's private data): the rule's facts,
 * the list as last read, and in a plan's private data the plan itself (design §12.1: its apply
 * sends that plan's calls, or nothing).
 */
const privateSchema = z.object({
  v: z.union([z.literal(1), z.literal(2)]),
  rule: z.object({ observerRuleId: z.string(), name: z.string(), isSystem: z.boolean(), ruleSource: z.string() }),
  list: z
    .object({
      usersToAlertOn: z.enum(["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED", "ALL_USERS"]),
      entries: z.array(z.object({ userId: z.string().nullable(), aliases: z.array(z.string()) })),
    })
    .nullable(),
  plan: z.unknown().optional(),
});
export interface PrivateData {
  readonly rule: RuleFacts;
  readonly list: ObservedList | null;
  /** The plan an apply sends (planned private data only). */
  readonly plan?: Plan;
}

/** The private data as Terraform stores it (with the state): every secret the service may have echoed removed. */
export function encodePrivate(data: PrivateData): Buffer {
  return Buffer.from(JSON.stringify(redactStrings({ v: 2, ...data })), "utf8");
}

/** The private data, or null when there is none or it is not ours (read again). A kept plan that is not one is dropped. */
export function decodePrivate(bytes: Buffer): PrivateData | null {
  if (bytes.length === 0) return null;
  try {
    const parsed = privateSchema.safeParse(JSON.parse(bytes.toString("utf8")));
    if (!parsed.success) return null;
    const plan = parsed.data.plan === undefined ? null : parseKeptPlan(parsed.data.plan);
    return { rule: parsed.data.rule, list: parsed.data.list, ...(plan === null ? {} : { plan }) };
  } catch {
    return null;
  }
}
