/**
 * The names of the native provider (docs/contract.md §11.1) that the synthesizer, the HCL
 * generators and the installer share. Fixed by the contract: an address Terraform resolves, a
 * resource type, and where the implied local mirror keeps an unpacked provider.
 */
import { escapeInvisible } from "../../shared/invisible";
import type { ObservedList } from "../engine/observation";
import type { RuleChanges } from "../engine/rule-changes";
import { suggest } from "../engine/suggest";
import { planSchema, type Plan } from "../engine/plan-schema";

/** The provider's local name in `required_providers` and its provider block. */
export const PROVIDER_LOCAL_NAME = "alertrules";

/** The provider's source address (on the default registry host). */
export const PROVIDER_SOURCE = "alert-rule-users/alertrules";

/** The registry host Terraform gives a source address without one. */
export const PROVIDER_HOST = "registry.terraform.io";

/**
 * The registry host OpenTofu gives the same address: it reads the same implied local mirror
 * (`terraform.d/plugins`), under its own host, so an install writes the provider under both.
 */
export const OPENTOFU_PROVIDER_HOST = "registry.opentofu.org";

/** The resource type of one rule's list. */
export const NATIVE_RESOURCE_TYPE = "alertrules_rule_user_list";

/** The data source of every rule. */
export const RULES_DATA_SOURCE = "alertrules_rules";

/** The two `on_destroy` behaviours of the native resource. */
export const ON_DESTROY_VALUES = ["keep", "clear"] as const;
export type OnDestroy = (typeof ON_DESTROY_VALUES)[number];

/**
 * The path, relative to the directory `terraform init` runs in, of the provider executable in the
 * implied local mirror's unpacked layout (what `provider install` wrote before 0.1.0 took the
 * packed layout, {@link packedMirrorPath}): `terraform.d/plugins/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH/terraform-provider-TYPE_vVERSION`.
 */
export function mirrorPath(version: string, target: string, host: string = PROVIDER_HOST): string {
  const [namespace, type] = PROVIDER_SOURCE.split("/");
  return `terraform.d/plugins/${host}/${namespace ?? ""}/${type ?? ""}/${version}/${target}/terraform-provider-${type ?? ""}_v${version}${target.startsWith("windows_") ? ".exe" : ""}`;
}

/**
 * The path, relative to the directory `terraform init` runs in, of the release's zip in the
 * implied local mirror's packed layout: `terraform.d/plugins/HOST/NAMESPACE/TYPE/terraform-provider-TYPE_VERSION_OS_ARCH.zip`.
 * Terraform unpacks a zip into `.terraform/providers` (and into a plugin cache), so neither is
 * ever a link into the project (an unpacked directory there is linked instead).
 */
export function packedMirrorPath(version: string, target: string, host: string = PROVIDER_HOST): string {
  const [namespace, type] = PROVIDER_SOURCE.split("/");
  return `terraform.d/plugins/${host}/${namespace ?? ""}/${type ?? ""}/terraform-provider-${type ?? ""}_${version}_${target}.zip`;
}

/** Where `terraform init` put the provider it chose, relative to its directory: `.terraform/providers/HOST/NAMESPACE/TYPE/VERSION/OS_ARCH`. */
export function initializedProviderDir(version: string, target: string, host: string = PROVIDER_HOST): string {
  return `.terraform/providers/${host}/${PROVIDER_SOURCE}/${version}/${target}`;
}

/** Terraform's `OS_ARCH` for a Node.js platform and architecture; null where there is none. */
export function terraformTarget(platform: string, arch: string): string | null {
  const os = ({ linux: "linux", darwin: "darwin", freebsd: "freebsd", openbsd: "openbsd", netbsd: "netbsd", sunos: "solaris", win32: "windows" } as Record<string, string>)[platform];
  const cpu = ({ x64: "amd64", arm64: "arm64", ia32: "386", arm: "arm" } as Record<string, string>)[arch];
  return os === undefined || cpu === undefined ? null : `${os}_${cpu}`;
}

/** A native list as its import ID names it: the rule (by ID or by exact name) and the mode. */
export interface NativeImport {
  readonly ruleId: string | null;
  readonly ruleName: string | null;
  readonly mode: "authoritative" | "additive";
}

const ADDITIVE_PREFIX = "additive:";
const NAME_PREFIX = "name:";

/**
 * The import ID of a native list (`terraform import`, `import` blocks): `RULE_ID`, or `name:RULE
 * NAME` for a list declared by name, each prefixed by `additive:` for an additive list. The
 * imported state then declares the rule as the configuration does, so the first plan after an
 * import shows the import and no change.
 */
export function nativeImportId(list: NativeImport): string {
  const rule = list.ruleId !== null ? list.ruleId : `${NAME_PREFIX}${list.ruleName ?? ""}`;
  return list.mode === "additive" ? `${ADDITIVE_PREFIX}${rule}` : rule;
}

/** Reads an import ID ({@link nativeImportId}); null when it names no rule. */
export function parseNativeImportId(id: string): NativeImport | null {
  let rest = id.trim();
  const additive = rest.startsWith(ADDITIVE_PREFIX);
  if (additive) rest = rest.slice(ADDITIVE_PREFIX.length);
  const mode = additive ? "additive" : "authoritative";
  if (rest.startsWith(NAME_PREFIX)) {
    const name = rest.slice(NAME_PREFIX.length);
    return name.trim() === "" ? null : { ruleId: null, ruleName: name, mode };
  }
  return rest === "" ? null : { ruleId: rest, ruleName: null, mode };
}

/** The forms an import ID takes, for messages. */
export const NATIVE_IMPORT_FORMS =
  'RULE_ID (the rule\'s observerRuleId), "name:" and the rule\'s exact name, and either with "additive:" in front for an additive list (additive:RULE_ID, additive:name:RULE NAME)';

/**
 * Why an import ID is not one {@link parseNativeImportId} reads as meant, or null when it is: empty,
 * a `word:` prefix that is not one of the forms (`nmae:…`, with the one it likely meant), the
 * prefixes in the wrong order, or spaces in what would be a rule ID (a name without `name:`). Each
 * reason names the accepted forms. A well-formed ID may still name no rule: the import's read says so.
 */
export function nativeImportIdProblem(id: string): string | null {
  const forms = `Accepted forms: ${NATIVE_IMPORT_FORMS}.`;
  const quoted = JSON.stringify(id);
  let rest = id.trim();
  if (rest === "") return `The import ID is empty. ${forms}`;
  if (rest.startsWith(ADDITIVE_PREFIX)) rest = rest.slice(ADDITIVE_PREFIX.length);
  if (rest.startsWith(NAME_PREFIX)) {
    const name = rest.slice(NAME_PREFIX.length);
    if (name.trim() === "") return `The import ID ${quoted} has "name:" without a rule name after it. ${forms}`;
    if (name.startsWith(ADDITIVE_PREFIX)) return `The import ID ${quoted} has "additive:" after "name:": it comes first (additive:name:${name.slice(ADDITIVE_PREFIX.length)}). ${forms}`;
    return null;
  }
  const prefix = /^([A-Za-z][A-Za-z_-]*):/.exec(rest);
  if (prefix !== null) {
    const word = prefix[1]!.toLowerCase();
    const meant = ["name", "additive"].find((known) => known === word) ?? suggest(word, ["name", "additive"]);
    const hint = meant === undefined ? "" : ` Did you mean "${meant}:"?`;
    return `The import ID ${quoted} starts with "${prefix[1]!}:", which is not a form of this provider's import IDs.${hint} ${forms}`;
  }
  if (/\s/.test(rest)) return `The import ID ${quoted} has spaces, which a rule ID never has: to import by the rule's name, write "name:${rest}". ${forms}`;
  return null;
}

/** One entry a plan takes off a live list: a user's aliases (all of them when the user leaves), or an entry without a user ID. */
export interface PlannedRemoval {
  readonly userId: string | null;
  readonly aliases: readonly string[];
}

/**
 * Everything a rule's plan removes from its live list, as the native resource shows it (`removes`,
 * design §12.1): users removed whole, aliases removed from users who stay, and entries without a
 * user ID that a rebuild takes away; by user ID, then alias.
 */
export function plannedRemovals(changes: RuleChanges): PlannedRemoval[] {
  const out: PlannedRemoval[] = [
    ...changes.removeUsers.map((u) => ({ userId: u.userId, aliases: [...u.aliases].sort() })),
    ...changes.removeAliases.map((u) => ({ userId: u.userId, aliases: [...u.aliases].sort() })),
    ...changes.removeEntriesWithoutId.map((e) => ({ userId: null, aliases: [...e.aliases].sort() })),
  ];
  return out.sort((a, b) => compareKeys(a.userId ?? "", b.userId ?? "") || compareKeys(a.aliases.join("\n"), b.aliases.join("\n")));
}

const compareKeys = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * What differs between the list a plan read and the list read now, in a sentence each: users and
 * aliases added or removed elsewhere, and a change of the list's type. Empty when they are the same.
 */
export function describeListChange(before: ObservedList, after: ObservedList): string[] {
  const out: string[] = [];
  if (before.usersToAlertOn !== after.usersToAlertOn) out.push(`the list's type changed from ${before.usersToAlertOn} to ${after.usersToAlertOn}`);
  const aliasesOf = (list: ObservedList) => {
    const map = new Map<string, Set<string>>();
    for (const e of list.entries) {
      const key = e.userId ?? "";
      const set = map.get(key) ?? new Set<string>();
      for (const a of e.aliases) set.add(a.toLowerCase());
      map.set(key, set);
    }
    return map;
  };
  const was = aliasesOf(before);
  const now = aliasesOf(after);
  // the service's values, escaped: each sentence is one line, and nothing in it draws
  const name = (key: string) => (key === "" ? "entries without a user ID" : `user "${escapeInvisible(key)}"`);
  for (const [key, aliases] of now) {
    const old = was.get(key);
    if (old === undefined) out.push(`${name(key)} was added elsewhere`);
    else {
      const added = [...aliases].filter((a) => !old.has(a));
      if (added.length > 0) out.push(`${name(key)} gained ${added.map((a) => escapeInvisible(a)).join(", ")} elsewhere`);
    }
  }
  for (const [key, aliases] of was) {
    const fresh = now.get(key);
    if (fresh === undefined) out.push(`${name(key)} was removed elsewhere`);
    else {
      const gone = [...aliases].filter((a) => !fresh.has(a));
      if (gone.length > 0) out.push(`${name(key)} lost ${gone.map((a) => escapeInvisible(a)).join(", ")} elsewhere`);
    }
  }
  return out;
}

/** A one-rule plan the provider kept in Terraform's private data, read back: null when it is not one (another version, edited). */
export function parseKeptPlan(value: unknown): Plan | null {
  const parsed = planSchema.safeParse(value);
  return parsed.success && parsed.data.rules.length === 1 ? parsed.data : null;
}
