/**
 * Values at the edge: the resource's configuration and state (plain values decoded by the protocol
 * room) to and from the engine's declarations and views. Checked here, so nothing deeper sees a
 * Terraform value or an unknown.
 */
import { z } from "zod";
import type { DesiredList, DesiredUser } from "../../core/engine/desired";
import type { ListView, ObservedList, RuleFacts } from "../../io/workflow/provider/rule-lookup";
import type { NativeProblem } from "../../core/declaration/native";
import type { OnDestroy } from "../../core/native/native-provider";
import type { Plan } from "../../core/engine/plan-schema";
import { parseKeptPlan } from "../../io/workflow";
import { redactStrings } from "../../io/door-words";
import { nativeListOf } from "../../core/declaration/native";
import { printableValues } from "../../core/render";
import { expectedShapeProblems, elementType, plain, setOwn, typedLiteral } from "../framework/dynamic";
import { Typed, UNKNOWN, type Diagnostic, type ObjectValue, type Value } from "../protocol";
import { valuesOf } from "../framework/resource";
import { ruleUserListSchema } from "../schema";

/** True when the value, or anything inside it, is not known yet. */
export function hasUnknown(value: Value): boolean {
  if (value === UNKNOWN) return true;
  if (value instanceof Typed) return hasUnknown(value.value);
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(hasUnknown);
  return false;
}

/** A string attribute's value, or null when it is null, unknown or not a string. */
export const stringValue = (v: Value | undefined): string | null => (typeof v === "string" ? v : null);

/** How the resource is named in messages: by the rule it declares. */
function resourceLabel(id: string | null, name: string | null): string {
  return id !== null ? `alertrules_rule_user_list for rule ${id}` : `alertrules_rule_user_list for rule "${name ?? "?"}"`;
}

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

/** The construct's prop names in a message, as the resource's attributes. */
function renameFields(message: string): string {
  return message
    .replace(/ruleId\/ruleName/g, "rule_id/rule_name")
    .replace(/allowMassRemoval/g, "allow_mass_removal")
    .replace(/\.expiresAt/g, ".expires_at")
    .replace(/exclusionListsRequireExpiry\.maxDays/g, "exclusion_lists_require_expiry_max_days")
    .replace(/maxUsers/g, "max_users")
    .replace(/allowedAliasDomains/g, "allowed_alias_domains")
    .replace(/forbidRemovalsFromInclusionLists/g, "forbid_removals_from_inclusion_lists");
}

/** `users[2]` in a message as `users["<id>"]`. */
function nameUsers(message: string, users: readonly DesiredUser[]): string {
  return message.replace(/users\[(\d+)\]/g, (whole, i: string) => {
    const id = users[Number(i)]?.userId;
    return id === undefined ? whole : `users[${JSON.stringify(id)}]`;
  });
}

export type Declared = { readonly kind: "declared"; readonly list: DesiredList; readonly onDestroy: OnDestroy } | { readonly kind: "unknown" } | { readonly kind: "invalid"; readonly diagnostics: Diagnostic[] };

/**
 * The declaration of a resource's configuration, with every failure at once (the construct's
 * rules, named by attribute), or `unknown` while a value is not known yet (Terraform validates
 * again once it is).
 */
export function declarationOf(config: ObjectValue): Declared {
  // Terraform validates a configuration, then plans it, each time sending the same value: the
  // second call in a process is the first's answer (a known value only: JSON drops an unknown)
  const key = hasUnknown(config) ? null : JSON.stringify(config);
  const kept = key === null ? undefined : declaredKept.get(key);
  if (kept !== undefined) return kept;
  const declared = declare(config);
  if (key !== null) {
    if (declaredKept.size >= DECLARED_KEPT) declaredKept.clear();
    declaredKept.set(key, declared);
  }
  return declared;
}

/** The declarations of the configurations this process has read, by their JSON (bounded: past it, forgotten). */
const declaredKept = new Map<string, Declared>();
const DECLARED_KEPT = 4096;

function declare(config: ObjectValue): Declared {
  const shapeProblems = ruleUserListSchema.attributes.flatMap((attribute) => expectedShapeProblems(attribute, config[attribute.name]));
  if (shapeProblems.length > 0) return { kind: "invalid", diagnostics: shapeProblems };
  const values = valuesOf(ruleUserListSchema, config);
  const settings: Value[] = [values.rule_id, values.rule_name, values.users, values.mode, values.policies, values.allow_mass_removal, values.on_destroy];
  if (settings.some(hasUnknown)) return { kind: "unknown" };
  const users = usersOf(values.users) ?? [];
  const ruleId = stringValue(values.rule_id);
  const ruleName = stringValue(values.rule_name);
  const policies = plain(values.policies);
  const read = nativeListOf(
    {
      rule_id: ruleId,
      rule_name: ruleName,
      mode: stringValue(values.mode),
      allow_mass_removal: values.allow_mass_removal,
      users,
      on_destroy: stringValue(values.on_destroy),
      policies: Array.isArray(policies) ? policies.map((raw) => (raw ?? {}) as ObjectValue) : null,
    },
    (index) => `policies[${index}]`,
  );
  if (!read.ok) return { kind: "invalid", diagnostics: read.problems.map((problem) => diagnosticOf(problem, users)) };
  return {
    kind: "declared",
    onDestroy: read.onDestroy ?? "keep",
    list: {
      constructPath: resourceLabel(ruleId, ruleName),
      stack: "terraform",
      ruleId,
      ruleName,
      mode: read.mode,
      allowMassRemoval: read.allowMassRemoval,
      users,
      ...(read.policies.length > 0 ? { policies: read.policies } : {}),
    },
  };
}

/** A problem of the attributes as Terraform shows it: named by attribute, in the resource's words. */
function diagnosticOf(problem: NativeProblem, users: readonly DesiredUser[]): Diagnostic {
  switch (problem.subject) {
    case "list":
      return { severity: "error", summary: "Invalid rule user list", detail: `${nameUsers(renameFields(problem.message), users)}.`, ...(problem.path.length === 0 ? {} : { attribute: problem.path }) };
    case "on_destroy":
      return { severity: "error", summary: "Invalid on_destroy", detail: problem.message, attribute: problem.path };
    case "policy":
      return { severity: "error", summary: "Invalid policy", detail: renameFields(problem.message), attribute: problem.path };
  }
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

/** The state of a resource: the declaration's settings, the view of the live list, and the rule's facts. */
export function stateOf(input: {
  readonly base: ObjectValue;
  readonly rule: RuleFacts;
  readonly listType: string | null;
  readonly view: Pick<ListView, "users" | "expiredOnList" | "aliasesWithoutUserId">;
}): ObjectValue {
  const { base, rule, view } = input;
  // aliases and names come from the service, which may echo a secret: state never holds one; and
  // Terraform prints attributes as they are: nothing in them may draw (escaped, design §13.2)
  const users = usersValue(printableValues(redactStrings(view.users)), base["users"]);
  return {
    ...printableValues(
      redactStrings({
        ...base,
        users: null,
        id: rule.observerRuleId,
        list_type: input.listType,
        expired_user_ids: [...view.expiredOnList],
        entries_without_user_id: [...view.aliasesWithoutUserId],
        removes: [],
      }),
    ),
    users,
  };
}
