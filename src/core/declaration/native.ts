/**
 * A rule list as the native resource carries it (`alertrules_rule_user_list`, docs/contract.md
 * §11.1–11.2): the attributes a RuleUserList with `resourceType: "alertrules_rule_user_list"`
 * synthesizes (writer) and the ones plan/apply read back from the synthesized JSON (reader), so the
 * same declaration is the same {@link DesiredList} whichever resource carries it.
 *
 * | attribute            | value                                                          |
 * |----------------------|----------------------------------------------------------------|
 * | `rule_id`/`rule_name`| exactly one, as declared                                       |
 * | `mode`               | `"authoritative"` or `"additive"`                              |
 * | `allow_mass_removal` | boolean                                                        |
 * | `users`              | map keyed by user ID: `{ aliases = [..], expires_at = "..." }` |
 * | `on_destroy`         | `"keep"` or `"clear"`, only when declared                      |
 * | `policies`           | the RuleUserListPolicy checks that apply (see below)           |
 *
 * Terraform reads every string of a `.tf.json` file as a template, object keys included, so every
 * string is written escaped ({@link escapeTemplate}) and read unescaped.
 */
import { z } from "zod";
import { DeclarationError } from "../../errors";
import { aliasDomain, canonicalUsers } from "../engine/canonical";
import type { DesiredUser, ListDeclaration, ListMode } from "../engine/desired";
import type { ListPolicy, PolicyPropsInput } from "../engine/policy-schema";
import { encodePolicy, policyPropProblems } from "../engine/policy-schema";
import { PROP_WORDS, problemText, type FieldProblem } from "../../shared/field-names";
import type { OnDestroy } from "../native/native-provider";
import { ON_DESTROY_VALUES } from "../native/native-provider";
import { escapeTemplate, unescapeTemplate } from "./triggers";
import { declarationProblems } from "./validate";

/** One policy as the resource's `policies` attribute carries it. */
export interface NativePolicy {
  readonly name: string;
  readonly max_users?: number;
  readonly allowed_alias_domains?: readonly string[];
  readonly exclusion_lists_require_expiry_max_days?: number;
  readonly forbid_removals_from_inclusion_lists?: boolean;
}

/** The attributes of a native resource, as synthesized (strings escaped). */
export interface NativeAttributes {
  readonly rule_id?: string;
  readonly rule_name?: string;
  readonly mode: string;
  readonly allow_mass_removal: boolean;
  readonly users: Readonly<Record<string, { readonly aliases: readonly string[]; readonly expires_at?: string }>>;
  readonly on_destroy?: string;
  readonly policies?: readonly NativePolicy[];
}

/** The raw fields of a declaration (the construct may be invalid: failures are reported apart). */
export interface NativeFields {
  readonly ruleId: string | undefined;
  readonly ruleName: string | undefined;
  readonly mode: string;
  readonly allowMassRemoval: boolean;
  readonly users: readonly DesiredUser[];
  readonly onDestroy?: OnDestroy | undefined;
}

/** A policy for the `policies` attribute: its construct path as `name`, and the checks it sets. */
export function nativePolicy(policy: ListPolicy): NativePolicy {
  return {
    name: escapeTemplate(policy.path),
    ...(policy.maxUsers === undefined ? {} : { max_users: policy.maxUsers }),
    ...(policy.allowedAliasDomains === undefined ? {} : { allowed_alias_domains: policy.allowedAliasDomains.map(escapeTemplate) }),
    ...(policy.exclusionListsRequireExpiry === undefined ? {} : { exclusion_lists_require_expiry_max_days: policy.exclusionListsRequireExpiry.maxDays }),
    ...(policy.forbidRemovalsFromInclusionLists === undefined ? {} : { forbid_removals_from_inclusion_lists: policy.forbidRemovalsFromInclusionLists }),
  };
}

/**
 * The `policies` trigger of a provisioner resource (triggers.ts): the native `policies` value as
 * JSON (its strings escaped for Terraform's templates once, as in the resource's attribute).
 */
export function policiesTrigger(policies: readonly ListPolicy[]): string {
  return JSON.stringify(policies.map(nativePolicy));
}

/** The resource's attributes (users in canonical order, every string escaped); `policies` only when some apply. */
export function encodeNativeAttributes(fields: NativeFields, policies: readonly ListPolicy[]): NativeAttributes {
  const users: Record<string, { aliases: string[]; expires_at?: string }> = {};
  for (const user of canonicalUsers(fields.users)) {
    // a key such as `__proto__` is a key like any other (an assignment would set the prototype)
    Object.defineProperty(users, escapeTemplate(user.userId), {
      value: { aliases: user.aliases.map(escapeTemplate), ...(user.expiresAt === undefined ? {} : { expires_at: escapeTemplate(user.expiresAt) }) },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return {
    ...(fields.ruleId === undefined ? {} : { rule_id: escapeTemplate(fields.ruleId) }),
    ...(fields.ruleName === undefined ? {} : { rule_name: escapeTemplate(fields.ruleName) }),
    mode: escapeTemplate(fields.mode),
    allow_mass_removal: fields.allowMassRemoval,
    users,
    ...(fields.onDestroy === undefined ? {} : { on_destroy: fields.onDestroy }),
    ...(policies.length === 0 ? {} : { policies: policies.map(nativePolicy) }),
  };
}

const nativePolicySchema = z.object({
  name: z.string().nullish(),
  max_users: z.number().int().nonnegative().nullish(),
  allowed_alias_domains: z.array(z.string()).nullish(),
  exclusion_lists_require_expiry_max_days: z.number().int().nonnegative().nullish(),
  forbid_removals_from_inclusion_lists: z.boolean().nullish(),
});

const nativeUser = z.object({ aliases: z.array(z.string()), expires_at: z.string().nullish() });

const nativeSchema = z.looseObject({
  rule_id: z.string().nullish(),
  rule_name: z.string().nullish(),
  mode: z.string().nullish(),
  allow_mass_removal: z.boolean().nullish(),
  users: z.record(z.string(), nativeUser),
  on_destroy: z.enum(ON_DESTROY_VALUES).nullish(),
  policies: z.array(nativePolicySchema).nullish(),
});

/** A declaration read from a native resource, with the policies it carries. */
export interface NativeDeclaration {
  readonly declaration: ListDeclaration;
  readonly policies: readonly ListPolicy[];
}

/**
 * Decodes and validates the attributes of a native resource read from the synthesized JSON.
 * `where` names it in errors (the stack, construct path and address). Throws a DeclarationError
 * listing every failure.
 */
export function decodeNativeAttributes(attributes: unknown, where: string): NativeDeclaration {
  const parsed = nativeSchema.safeParse(attributes);
  const fail = (messages: readonly string[]): never => {
    throw new DeclarationError(messages.map((message) => ({ path: where, message })));
  };
  if (!parsed.success) {
    return fail([`is not an alertrules_rule_user_list as a RuleUserList writes it; synthesize again with this version of alert-rule-users:\n${z.prettifyError(parsed.error)}`]);
  }
  const a = parsed.data;
  const text = (value: string | null | undefined): string | null => (value === null || value === undefined ? null : unescapeTemplate(value));
  // the users as given, key by key (a parsed record would take a `__proto__` key as its prototype)
  const given = Object.entries((attributes as { users: Record<string, unknown> }).users).map(([userId, user]) => [userId, nativeUser.parse(user)] as const);
  const users = given.map(([userId, user]) => {
    const expiresAt = text(user.expires_at);
    return { userId: unescapeTemplate(userId), aliases: user.aliases.map(unescapeTemplate), ...(expiresAt === null ? {} : { expiresAt }) };
  });
  const list = nativeListOf(
    {
      rule_id: text(a.rule_id),
      rule_name: text(a.rule_name),
      mode: text(a.mode),
      allow_mass_removal: a.allow_mass_removal ?? null,
      users,
      on_destroy: a.on_destroy ?? null,
      policies: (a.policies ?? []).map((p) => ({ ...p, name: text(p.name), allowed_alias_domains: p.allowed_alias_domains?.map(unescapeTemplate) ?? null })),
    },
    (i) => `${where} policies[${i}]`,
  );
  if (!list.ok) return fail(list.problems.map(nativeProblemText));
  return {
    declaration: {
      ruleId: list.ruleId,
      ruleName: list.ruleId === null ? list.ruleName : null,
      mode: list.mode,
      allowMassRemoval: list.allowMassRemoval,
      users: canonicalUsers(users),
    },
    policies: list.policies,
  };
}

/**
 * A problem of a native list's attributes, as data: the list's (a declaration's field), a policy's
 * (by its index in `policies`), or `on_destroy`'s. Synth says it in the construct's words
 * ({@link nativeProblemText}); the provider names the attributes (src/provider/resources/rule-user-list-declaration.ts).
 */
export type NativeProblem =
  | { readonly subject: "list"; readonly problem: FieldProblem }
  | { readonly subject: "policy"; readonly policy: number; readonly problem: FieldProblem }
  | { readonly subject: "on_destroy"; readonly message: string };

/** A problem in the construct's words (`users[2].aliases[0]: …`, `policies[0]: maxUsers: …`). */
export function nativeProblemText(problem: NativeProblem): string {
  switch (problem.subject) {
    case "list":
      return problemText(problem.problem, PROP_WORDS);
    case "policy":
      return `policies[${problem.policy}]: ${problemText(problem.problem, PROP_WORDS)}`;
    case "on_destroy":
      return problem.message;
  }
}

/** The attributes of a native resource as plain values: strings as declared (unescaped), null where not set. */
export interface NativeValues {
  readonly rule_id: string | null;
  readonly rule_name: string | null;
  readonly mode: string | null;
  readonly allow_mass_removal: unknown;
  /** the `users` map's entries in the order given */
  readonly users: readonly DesiredUser[];
  readonly on_destroy: string | null;
  readonly policies: readonly Readonly<Record<string, unknown>>[] | null;
}

/** A native list read: its settings and policies, or every problem at once. */
export type NativeList =
  | {
      readonly ok: true;
      readonly ruleId: string | null;
      readonly ruleName: string | null;
      readonly mode: ListMode;
      readonly allowMassRemoval: boolean;
      readonly onDestroy: OnDestroy | null;
      readonly policies: ListPolicy[];
    }
  | { readonly ok: false; readonly problems: NativeProblem[] };

/** The policies of a `policies` attribute, or the problems of their fields. */
function nativePolicies(raw: readonly Readonly<Record<string, unknown>>[], fallbackName: (index: number) => string): { policies: ListPolicy[]; problems: NativeProblem[] } {
  const policies: ListPolicy[] = [];
  const problems: NativeProblem[] = [];
  raw.forEach((p, index) => {
    const given = (name: string): unknown => (Object.prototype.hasOwnProperty.call(p, name) ? (p[name] ?? null) : null);
    const days = given("exclusion_lists_require_expiry_max_days");
    const props: PolicyPropsInput = {
      ...(given("max_users") === null ? {} : { maxUsers: given("max_users") }),
      ...(given("allowed_alias_domains") === null ? {} : { allowedAliasDomains: given("allowed_alias_domains") }),
      ...(days === null ? {} : { exclusionListsRequireExpiry: { maxDays: days } }),
      ...(given("forbid_removals_from_inclusion_lists") === null ? {} : { forbidRemovalsFromInclusionLists: given("forbid_removals_from_inclusion_lists") }),
    };
    const name = given("name");
    const failures = policyPropProblems(props);
    if (failures.length === 0) policies.push(encodePolicy(typeof name === "string" ? name : fallbackName(index), props));
    for (const problem of failures) problems.push({ subject: "policy", policy: index, problem });
  });
  return { policies, problems };
}

/**
 * The one reading of a native list's attributes, for the provider (a resource's configuration) and
 * for synth (the synthesized JSON): the defaults (`mode` authoritative, `allow_mass_removal`
 * false), the construct's rules, `on_destroy` and the policies, every problem at once.
 * `policyName` names a policy that carries no `name`.
 */
export function nativeListOf(values: NativeValues, policyName: (index: number) => string): NativeList {
  const ruleId = values.rule_id;
  const ruleName = values.rule_name;
  const mode = values.mode ?? "authoritative";
  const allowMassRemoval = values.allow_mass_removal ?? false;
  const problems: NativeProblem[] = declarationProblems({ ruleId: ruleId ?? undefined, ruleName: ruleName ?? undefined, mode, allowMassRemoval, users: values.users }).map((problem) => ({ subject: "list", problem }));
  if (values.on_destroy !== null && !(ON_DESTROY_VALUES as readonly string[]).includes(values.on_destroy)) {
    problems.push({ subject: "on_destroy", message: `on_destroy: ${JSON.stringify(values.on_destroy)} is not one of "keep" (leave the live list as it is) or "clear" (remove what this resource manages).` });
  }
  const { policies, problems: policyProblems } = nativePolicies(values.policies ?? [], policyName);
  problems.push(...policyProblems);
  if (problems.length > 0) return { ok: false, problems };
  return { ok: true, ruleId, ruleName, mode: mode as ListMode, allowMassRemoval: allowMassRemoval === true, onDestroy: values.on_destroy as OnDestroy | null, policies };
}

/** The part of a policy's check a list's declaration alone decides. */

/**
 * The RuleUserListPolicy checks a native list fails by its declaration alone, each a sentence
 * naming the policy (its construct path): `allowedAliasDomains` for every alias of a user not
 * expired on `today`, and `maxUsers` for an authoritative list (its users not expired). The other
 * checks (and `maxUsers` of an additive list) need the live list: the provider's plan evaluates them
 * from the resource's `policies`.
 */
export function declarationPolicyFailures(
  list: { readonly mode: string; readonly users: readonly DesiredUser[] },
  policies: readonly ListPolicy[],
  today: string,
): string[] {
  const active = list.users.filter((u) => u.expiresAt === undefined || u.expiresAt > today);
  return policies.flatMap((policy) => {
    const out: string[] = [];
    if (policy.maxUsers !== undefined && list.mode === "authoritative" && active.length > policy.maxUsers) {
      out.push(`policy ${policy.path}: maxUsers ${policy.maxUsers}: the list declares ${active.length} users; remove users or raise maxUsers`);
    }
    if (policy.allowedAliasDomains !== undefined) {
      const allowed = new Set(policy.allowedAliasDomains.map((d) => d.trim().toLowerCase()));
      const bad = active.flatMap((u) => u.aliases.filter((a) => !allowed.has(aliasDomain(a) ?? "")).map((a) => `${u.userId} (${a})`));
      if (bad.length > 0) {
        out.push(`policy ${policy.path}: allowedAliasDomains [${[...allowed].join(", ")}]: ${bad.join(", ")}; use an alias of an allowed domain`);
      }
    }
    return out;
  });
}
