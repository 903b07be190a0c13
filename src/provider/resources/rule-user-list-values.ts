/**
 * The resource's values to and from the engine's: the declared `users` (a dynamic value, typed as
 * the configuration wrote it) and what the provider keeps beside a state (its private data).
 * Checked here, so nothing deeper sees a Terraform value or an unknown.
 */
import { z } from "zod";
import type { DesiredUser } from "../../core/engine/desired";
import type { ObservedList, RuleFacts } from "../../core/engine/observation";
import type { Plan } from "../../core/engine/plan-schema";
import { parseKeptPlan } from "../../core/native/native-provider";
import { redactStrings } from "../../io/door-words";
import { elementType, plain, setOwn, typedLiteral } from "../framework/dynamic";
import { keyedObject } from "../protocol";
import { stringValue } from "../framework/values";
import { Typed, UNKNOWN, type CtyType, type ObjectValue, type Value } from "../protocol";

/** Users read from a value already: a value (decoded once by the server) is read once, and the users are frozen. */
const read = new WeakMap<object, readonly DesiredUser[] | null>();

/** The declared users of a configuration or state (`users` map), sorted by user ID. */
export function usersOf(typed: Value | undefined): readonly DesiredUser[] | null {
  if (typed === null || typed === undefined || typeof typed !== "object") return readUsers(typed);
  const known = read.get(typed);
  if (known !== undefined) return known;
  const users = readUsers(typed);
  read.set(typed, users === null ? null : Object.freeze(users.map((u) => Object.freeze(u))));
  return read.get(typed)!;
}

/** A value with its type set aside where it carries one (what `plain` does, for the one value read, not copied). */
const bare = (value: Value | undefined): Value => {
  let inner = value ?? null;
  while (inner instanceof Typed) inner = inner.value;
  return inner;
};

function readUsers(typed: Value | undefined): DesiredUser[] | null {
  // read in place, each part as `plain` would give it (the value is not copied)
  const value = bare(typed);
  if (value === null || value === UNKNOWN || typeof value !== "object" || Array.isArray(value) || value instanceof Typed) return null;
  return Object.entries(value)
    .map(([userId, user]): DesiredUser => {
      const u = bare(user);
      const given = u !== null && typeof u === "object" && !Array.isArray(u) ? bare((u as ObjectValue)["aliases"]) : null;
      const aliases = Array.isArray(given) ? given.map(bare).filter((a): a is string => typeof a === "string") : [];
      const expiresAt = u !== null && typeof u === "object" && !Array.isArray(u) ? stringValue(bare((u as ObjectValue)["expires_at"])) : null;
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
  const types = keyedObject<ReturnType<typeof typedLiteral>["type"]>();
  const values = keyedObject<Value>();
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

/** A user's aliases as a sorted list (duplicates kept): two declarations with the same aliases in another order compare equal. */
const sortedAliases = (u: DesiredUser): string => JSON.stringify([...u.aliases].sort());

/**
 * Two `users` values declare exactly the same users: the same user IDs, each with the same aliases
 * (spelled the same, in any order) and the same `expires_at`. A plan keeps the prior value where
 * the configuration's is the same (Terraform allows a planned value equal to the prior one: "the
 * provider wishes to disregard the configuration value in favor of the prior"), so the state's
 * compact type ({@link compactUsersValue}) shows no change. Null when either is unknown or null.
 */
export function sameDeclaredUsers(a: Value | undefined, b: Value | undefined): boolean {
  const left = usersOf(a ?? null);
  const right = usersOf(b ?? null);
  if (left === null || right === null || left.length !== right.length) return false;
  return left.every((u, i) => {
    const v = right[i]!;
    return u.userId === v.userId && (u.expiresAt ?? null) === (v.expiresAt ?? null) && (sameInOrder(u.aliases, v.aliases) || sortedAliases(u) === sortedAliases(v));
  });
}

/** The same strings in the same order (then the same in any order too, without sorting either). */
function sameInOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/** The compact element types of `users`: one type for every user, written once. */
const ALIASES_ONLY: CtyType = ["object", { aliases: ["list", "string"] }];
const WITH_EXPIRY: CtyType = ["object", { aliases: ["list", "string"], expires_at: "string" }];

/**
 * The `users` value a refresh writes to state: a map of one object type, so Terraform's state
 * writes the type once instead of once per user (a 20-user list: about 50 bytes of type instead
 * of 1.7 KB). Where some users have `expires_at` and some do not, each user keeps its literal's
 * type ({@link usersValue}): a map would write `expires_at = null` into a generated configuration.
 */
export function compactUsersValue(users: readonly DesiredUser[]): Typed {
  const expiring = users.filter((u) => u.expiresAt !== undefined).length;
  if (expiring !== 0 && expiring !== users.length) return usersValue(users);
  const values = keyedObject<Value>();
  for (const u of users) setOwn(values, u.userId, u.expiresAt === undefined ? { aliases: [...u.aliases] } : { aliases: [...u.aliases], expires_at: u.expiresAt });
  return new Typed(["map", expiring === 0 ? ALIASES_ONLY : WITH_EXPIRY], values);
}

/**
 * What the provider keeps beside a resource's state (Terraform's private data): the rule's facts,
 * the live list as last read, and in a plan's private data the plan itself (design §12.1: its apply
 * sends that plan's calls, or nothing). Where the refreshed state shows the live list whole, the
 * private data of a read holds only the list's fingerprint (`fingerprint`, the list then null):
 * the list is rebuilt from the state and checked against it (rule-user-list-last-read.ts). That
 * form is written short, for it is in every resource's state: `{"r":[observerRuleId, name,
 * isSystem, ruleSource],"f":fingerprint}` (about 160 bytes in the state, 330 in the long form).
 */
const ruleSchema = z.object({ observerRuleId: z.string(), name: z.string(), isSystem: z.boolean(), ruleSource: z.string() });
const privateSchema = z.object({
  v: z.union([z.literal(1), z.literal(2), z.literal(3)]),
  rule: ruleSchema,
  list: z
    .object({
      usersToAlertOn: z.enum(["SPECIFIED_USERS", "ALL_USERS_NOT_SPECIFIED", "ALL_USERS"]),
      entries: z.array(z.object({ userId: z.string().nullable(), aliases: z.array(z.string()) })),
    })
    .nullable()
    .optional(),
  fingerprint: z.string().optional(),
  plan: z.unknown().optional(),
});
const shortSchema = z.object({ r: z.tuple([z.string(), z.string(), z.boolean(), z.string()]), f: z.string() }).strict();
export interface PrivateData {
  readonly rule: RuleFacts;
  readonly list: ObservedList | null;
  /** The fingerprint of the live list the state shows whole (a read's private data, the list then null). */
  readonly fingerprint?: string;
  /** The plan an apply sends (planned private data only). */
  readonly plan?: Plan;
}

/** The private data as Terraform stores it (with the state): every secret the service may have echoed removed. */
export function encodePrivate(data: PrivateData): Buffer {
  const { list, fingerprint, plan, rule } = data;
  if (list === null && fingerprint !== undefined && plan === undefined) {
    return Buffer.from(JSON.stringify(redactStrings({ r: [rule.observerRuleId, rule.name, rule.isSystem, rule.ruleSource], f: fingerprint })), "utf8");
  }
  return Buffer.from(JSON.stringify(redactStrings({ v: 3, rule, list, ...(plan === undefined ? {} : { plan }) })), "utf8");
}

/**
 * A read's short private data decoded, by its text: a walk decodes each resource's twice (its
 * read, then its plan, given the bytes the read answered). Frozen, as it is shared; bounded, the
 * oldest dropped first.
 */
const shortRead = new Map<string, PrivateData>();
const SHORT_READ_KEPT = 256;

/** The private data, or null when there is none or it is not ours (read again). A kept plan that is not one is dropped. */
export function decodePrivate(bytes: Buffer): PrivateData | null {
  if (bytes.length === 0) return null;
  try {
    const text = bytes.toString("utf8");
    const kept = shortRead.get(text);
    if (kept !== undefined) return kept;
    const json: unknown = JSON.parse(text);
    const short = shortSchema.safeParse(json);
    if (short.success) {
      const [observerRuleId, name, isSystem, ruleSource] = short.data.r;
      const data: PrivateData = Object.freeze({ rule: Object.freeze({ observerRuleId, name, isSystem, ruleSource }), list: null, fingerprint: short.data.f });
      if (shortRead.size >= SHORT_READ_KEPT) shortRead.delete(shortRead.keys().next().value!);
      shortRead.set(text, data);
      return data;
    }
    const parsed = privateSchema.safeParse(json);
    if (!parsed.success) return null;
    const plan = parsed.data.plan === undefined ? null : parseKeptPlan(parsed.data.plan);
    const { fingerprint } = parsed.data;
    return { rule: parsed.data.rule, list: parsed.data.list ?? null, ...(fingerprint === undefined ? {} : { fingerprint }), ...(plan === null ? {} : { plan }) };
  } catch {
    return null;
  }
}
