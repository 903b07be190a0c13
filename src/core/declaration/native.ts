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
import { canonicalUsers } from "../engine/canonical";
import type { DesiredUser, ListDeclaration, ListMode } from "../engine/desired";
import type { ListPolicy } from "../engine/policy-schema";
import type { OnDestroy } from "../native/native-provider";
import { ON_DESTROY_VALUES } from "../native/native-provider";
import { escapeTemplate, unescapeTemplate } from "./triggers";
import { validateDeclaration } from "./validate";

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
  const text = (value: string | null | undefined): string | undefined => (value === null || value === undefined ? undefined : unescapeTemplate(value));
  // the users as given, key by key (a parsed record would take a `__proto__` key as its prototype)
  const given = Object.entries((attributes as { users: Record<string, unknown> }).users).map(([userId, user]) => [userId, nativeUser.parse(user)] as const);
  const users = given.map(([userId, user]) => {
    const expiresAt = text(user.expires_at);
    return { userId: unescapeTemplate(userId), aliases: user.aliases.map(unescapeTemplate), ...(expiresAt === undefined ? {} : { expiresAt }) };
  });
  const ruleId = text(a.rule_id);
  const ruleName = text(a.rule_name);
  const mode = text(a.mode) ?? "authoritative";
  const allowMassRemoval = a.allow_mass_removal ?? false;
  const failures = validateDeclaration({ ruleId, ruleName, mode, allowMassRemoval, users });
  if (failures.length > 0) fail(failures);
  const policies = (a.policies ?? []).map(
    (p, i): ListPolicy => ({
      path: text(p.name) ?? `${where} policies[${i}]`,
      ...(p.max_users === null || p.max_users === undefined ? {} : { maxUsers: p.max_users }),
      ...(p.allowed_alias_domains === null || p.allowed_alias_domains === undefined ? {} : { allowedAliasDomains: p.allowed_alias_domains.map(unescapeTemplate) }),
      ...(p.exclusion_lists_require_expiry_max_days === null || p.exclusion_lists_require_expiry_max_days === undefined
        ? {}
        : { exclusionListsRequireExpiry: { maxDays: p.exclusion_lists_require_expiry_max_days } }),
      ...(p.forbid_removals_from_inclusion_lists === null || p.forbid_removals_from_inclusion_lists === undefined
        ? {}
        : { forbidRemovalsFromInclusionLists: p.forbid_removals_from_inclusion_lists }),
    }),
  );
  return {
    declaration: {
      ruleId: ruleId ?? null,
      ruleName: ruleId === undefined ? (ruleName ?? null) : null,
      mode: mode as ListMode,
      allowMassRemoval,
      users: canonicalUsers(users),
    },
    policies,
  };
}

/** The part of a policy's check a list's declaration alone decides. */
function domainOf(alias: string): string | null {
  const key = alias.trim().toLowerCase();
  const at = key.lastIndexOf("@");
  return at < 0 || at === key.length - 1 ? null : key.slice(at + 1);
}

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
      const bad = active.flatMap((u) => u.aliases.filter((a) => !allowed.has(domainOf(a) ?? "")).map((a) => `${u.userId} (${a})`));
      if (bad.length > 0) {
        out.push(`policy ${policy.path}: allowedAliasDomains [${[...allowed].join(", ")}]: ${bad.join(", ")}; use an alias of an allowed domain`);
      }
    }
    return out;
  });
}
