/**
 * RuleUserListPolicy as data (docs/contract.md §9.1): the props of a policy, how they are validated at
 * synth, and how they travel in the synthesized JSON. Each RuleUserList writes the policies that
 * apply to it (those declared on a scope above it) into its resource's `//` comment block, under
 * {@link POLICIES_KEY}; Terraform ignores `//` keys, `plan` decodes them (decode-stack.ts) and
 * evaluates them purely (policy.ts). Plain TypeScript and zod: no cdktf, no constructs.
 */
import { z } from "zod";
import { DeclarationError } from "../../errors";
import { PROP_WORDS, problemText, ref, type FieldProblem, type FieldStep, type Part } from "../../shared/field-names";

/** The key, inside a resource's `"//"` object, that carries the policies of its list. */
export const POLICIES_KEY = "alert_rule_users_policies";

/** The names of the checks, as the props name them (and as violations report them). */
export const POLICY_CHECKS = ["maxUsers", "allowedAliasDomains", "exclusionListsRequireExpiry", "forbidRemovalsFromInclusionLists"] as const;

/** One policy as the synthesized JSON carries it: where it is declared, and its checks. */
export const listPolicySchema = z.object({
  /** Construct path of the RuleUserListPolicy. */
  path: z.string(),
  maxUsers: z.number().int().nonnegative().optional(),
  allowedAliasDomains: z.array(z.string()).optional(),
  exclusionListsRequireExpiry: z.object({ maxDays: z.number().int().nonnegative() }).optional(),
  forbidRemovalsFromInclusionLists: z.boolean().optional(),
});

export type ListPolicy = z.infer<typeof listPolicySchema>;

/**
 * The policies carried beside a list (`"//"` of its resource, or the provisioner's environment);
 * [] when none. `where` names the list (a construct path), `source` the field that carried them.
 */
export function decodePolicies(raw: unknown, where: string, source: string): ListPolicy[] {
  if (raw === undefined) return [];
  const parsed = z.array(listPolicySchema).safeParse(raw);
  if (!parsed.success) {
    throw new DeclarationError([
      { path: where, message: `${source}: is not a list of RuleUserListPolicy checks; synthesize again with this version of alert-rule-users:\n${z.prettifyError(parsed.error)}` },
    ]);
  }
  return parsed.data;
}

/** The props of a policy as given (from TypeScript or plain JavaScript). */
export interface PolicyPropsInput {
  readonly maxUsers?: unknown;
  readonly allowedAliasDomains?: unknown;
  readonly exclusionListsRequireExpiry?: unknown;
  readonly forbidRemovalsFromInclusionLists?: unknown;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "object") return "an object";
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `${typeof value} ${String(value)}`;
  return typeof value;
}

const isNonNegativeInteger = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;

/** Every problem of a policy's props, as data (src/shared/field-names.ts); empty when valid. */
export function policyPropProblems(props: PolicyPropsInput): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const problem = (code: string, at: readonly FieldStep[], ...text: Part[]) => problems.push({ code, at, text });
  const { maxUsers, allowedAliasDomains, exclusionListsRequireExpiry, forbidRemovalsFromInclusionLists } = props;
  if (maxUsers === undefined && allowedAliasDomains === undefined && exclusionListsRequireExpiry === undefined && forbidRemovalsFromInclusionLists === undefined) {
    problem("no-check", [], "the policy sets no check; set at least one of ", ...POLICY_CHECKS.flatMap((check, i): Part[] => (i === 0 ? [ref(check)] : [", ", ref(check)])));
  }
  if (maxUsers !== undefined && !isNonNegativeInteger(maxUsers)) {
    problem("not-a-count", ["maxUsers"], `must be a whole number of users, 0 or more, got ${describe(maxUsers)}`);
  }
  if (allowedAliasDomains !== undefined) {
    if (!Array.isArray(allowedAliasDomains) || allowedAliasDomains.length === 0) {
      problem("not-a-list", ["allowedAliasDomains"], `must be a non-empty array of domains such as "example.com", got ${describe(allowedAliasDomains)}`);
    } else {
      (allowedAliasDomains as unknown[]).forEach((domain, i) => {
        if (typeof domain !== "string" || domain.trim() === "" || domain.includes("@") || /\s/.test(domain.trim())) {
          problem("not-a-domain", ["allowedAliasDomains", i], `must be a domain without "@" or spaces, such as "example.com", got ${describe(domain)}`);
        }
      });
    }
  }
  if (exclusionListsRequireExpiry !== undefined) {
    const maxDays = typeof exclusionListsRequireExpiry === "object" && exclusionListsRequireExpiry !== null ? (exclusionListsRequireExpiry as { maxDays?: unknown }).maxDays : undefined;
    if (!isNonNegativeInteger(maxDays)) {
      problem("not-a-count", ["exclusionListsRequireExpiry.maxDays"], `must be a whole number of days, 0 or more (e.g. { maxDays: 90 }), got ${describe(maxDays)}`);
    }
  }
  if (forbidRemovalsFromInclusionLists !== undefined && typeof forbidRemovalsFromInclusionLists !== "boolean") {
    problem("not-a-boolean", ["forbidRemovalsFromInclusionLists"], `must be true or false, got ${describe(forbidRemovalsFromInclusionLists)}`);
  }
  return problems;
}

/** Every failure of a policy's props in the construct's words, each starting with the prop; empty when valid. */
export function validatePolicyProps(props: PolicyPropsInput): string[] {
  return policyPropProblems(props).map((p) => problemText(p, PROP_WORDS));
}

/**
 * The policy as data for the synthesized JSON: only the checks that are set, domains trimmed.
 * Call it with props that passed {@link validatePolicyProps}; invalid props fail synth anyway.
 */
export function encodePolicy(path: string, props: PolicyPropsInput): ListPolicy {
  const policy: { -readonly [K in keyof ListPolicy]: ListPolicy[K] } = { path };
  if (isNonNegativeInteger(props.maxUsers)) policy.maxUsers = props.maxUsers;
  if (Array.isArray(props.allowedAliasDomains)) {
    policy.allowedAliasDomains = (props.allowedAliasDomains as unknown[]).filter((d): d is string => typeof d === "string").map((d) => d.trim());
  }
  const expiry = props.exclusionListsRequireExpiry as { maxDays?: unknown } | undefined;
  if (typeof expiry === "object" && expiry !== null && isNonNegativeInteger(expiry.maxDays)) {
    policy.exclusionListsRequireExpiry = { maxDays: expiry.maxDays };
  }
  if (typeof props.forbidRemovalsFromInclusionLists === "boolean") policy.forbidRemovalsFromInclusionLists = props.forbidRemovalsFromInclusionLists;
  return policy;
}
