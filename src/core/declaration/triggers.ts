/**
 * The trigger map of the `null_resource` a RuleUserList synthesizes: the whole desired state of one
 * rule list as `Record<string, string>`, so Terraform replaces the resource (and runs its
 * provisioner) exactly when the declaration changes. The construct path is not a trigger (a
 * refactor that moves the construct must not re-apply); readers take it from the resource's
 * `//.metadata.path`.
 *
 * | trigger                   | value                                                  |
 * |---------------------------|--------------------------------------------------------|
 * | `alert_rule_users_format` | `"1"`; readers refuse other values                     |
 * | `rule_id`                 | the rule's observerRuleId, `""` when declared by name  |
 * | `rule_name`               | the rule's exact name, `""` when declared by ID        |
 * | `mode`                    | `"authoritative"` or `"additive"`                      |
 * | `allow_mass_removal`      | `"true"` or `"false"`                                  |
 * | `users`                   | canonical JSON `[{"userId":..,"aliases":[..]}]`        |
 *
 * Terraform reads every string of a `.tf.json` file as a template, so values are written with
 * `${` and `%{` escaped as `$${` and `%%{` ({@link escapeTemplate}); Terraform, and
 * {@link decodeTriggers}, see the declared text.
 */
import { z } from "zod";
import { DeclarationError } from "../../errors";
import { canonicalUsers } from "../canonical";
import type { DesiredUser, ListDeclaration, ListMode } from "../desired";
import { validateDeclaration } from "./validate";

/** The id of the RuleUserList's `null_resource` child: its path is `<construct path>/resource`. */
export const RESOURCE_CHILD_ID = "resource";

/** The trigger format this version writes and reads. */
export const TRIGGER_FORMAT = "1";

/** The trigger names, by field. Letters, digits and underscores only. */
export const TRIGGERS = {
  format: "alert_rule_users_format",
  ruleId: "rule_id",
  ruleName: "rule_name",
  mode: "mode",
  allowMassRemoval: "allow_mass_removal",
  users: "users",
} as const;

export type TriggerField = keyof typeof TRIGGERS;
export type TriggerName = (typeof TRIGGERS)[TriggerField];
export type Triggers = Record<TriggerName, string>;

/** Every trigger name, in the order of {@link TRIGGERS}. */
export const TRIGGER_NAMES: readonly TriggerName[] = Object.values(TRIGGERS);

/** The raw fields written into the triggers, before any validation (the construct may be invalid). */
export interface TriggerFields {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly mode: string;
  readonly allowMassRemoval: boolean;
  readonly users: readonly { readonly userId: string; readonly aliases: readonly string[]; readonly expiresAt?: string }[];
}

/** Escapes a string for a Terraform template (`${` → `$${`, `%{` → `%%{`). */
export function escapeTemplate(value: string): string {
  return value.replace(/\$\{/g, () => "$${").replace(/%\{/g, () => "%%{");
}

/** Undoes {@link escapeTemplate}: what Terraform makes of an escaped template without interpolations. */
export function unescapeTemplate(value: string): string {
  return value.replace(/\$\$\{/g, () => "${").replace(/%%\{/g, () => "%{");
}

/** The canonical JSON of a user list, as written into the `users` trigger (unescaped). */
export function usersJson(users: TriggerFields["users"]): string {
  // expiresAt is written only when set, so lists without expiries keep their byte-identical JSON
  return JSON.stringify(
    canonicalUsers(users).map((u) => (u.expiresAt === undefined ? { userId: u.userId, aliases: u.aliases } : { userId: u.userId, aliases: u.aliases, expiresAt: u.expiresAt })),
  );
}

/** The trigger map of raw fields (canonical users, escaped for Terraform). */
export function encodeTriggerFields(fields: TriggerFields): Triggers {
  return {
    [TRIGGERS.format]: TRIGGER_FORMAT,
    [TRIGGERS.ruleId]: escapeTemplate(fields.ruleId),
    [TRIGGERS.ruleName]: escapeTemplate(fields.ruleName),
    [TRIGGERS.mode]: escapeTemplate(fields.mode),
    [TRIGGERS.allowMassRemoval]: fields.allowMassRemoval ? "true" : "false",
    [TRIGGERS.users]: escapeTemplate(usersJson(fields.users)),
  };
}

/** The trigger map of a valid declaration. */
export function encodeTriggers(list: ListDeclaration): Triggers {
  return encodeTriggerFields({
    ruleId: list.ruleId ?? "",
    ruleName: list.ruleName ?? "",
    mode: list.mode,
    allowMassRemoval: list.allowMassRemoval,
    users: list.users,
  });
}

const usersSchema = z.array(z.object({ userId: z.string(), aliases: z.array(z.string()), expiresAt: z.string().exactOptional() }));

/**
 * Decodes the (unescaped) field values of a declaration, wherever they come from: triggers of the
 * synthesized JSON, or the provisioner environment. `nameOf` names a field in messages.
 * Throws a DeclarationError at `where` listing every failure.
 */
export function decodeDeclarationValues(
  values: Readonly<Record<TriggerField, string | undefined>>,
  where: string,
  nameOf: (field: TriggerField) => string,
): ListDeclaration {
  const fail = (messages: string[]): never => {
    throw new DeclarationError(messages.map((message) => ({ path: where, message })));
  };
  const missing = (Object.keys(TRIGGERS) as TriggerField[]).filter((field) => values[field] === undefined);
  if (missing.length > 0) {
    fail(missing.map((field) => `${nameOf(field)}: is missing; synthesize again with this version of alert-rule-users`));
  }
  const value = (field: TriggerField): string => values[field] ?? "";
  if (value("format") !== TRIGGER_FORMAT) {
    fail([
      `${nameOf("format")}: format ${JSON.stringify(value("format"))} is not supported (this alert-rule-users reads format ${TRIGGER_FORMAT}); use the alert-rule-users version that synthesized it, or synthesize again`,
    ]);
  }
  const failures: string[] = [];
  const flag = value("allowMassRemoval");
  if (flag !== "true" && flag !== "false") {
    failures.push(`${nameOf("allowMassRemoval")}: must be "true" or "false", got ${JSON.stringify(flag)}`);
  }
  let users: readonly DesiredUser[] = [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value("users"));
  } catch (error) {
    failures.push(`${nameOf("users")}: is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  if (parsed !== undefined) {
    const result = usersSchema.safeParse(parsed);
    if (result.success) users = result.data;
    else failures.push(`${nameOf("users")}: must be a JSON array of {"userId": string, "aliases": [string], "expiresAt"?: "yyyy-MM-dd"}:\n${z.prettifyError(result.error)}`);
  }
  const ruleId = value("ruleId");
  const ruleName = value("ruleName");
  if (failures.length === 0) {
    failures.push(
      ...validateDeclaration({
        ruleId: ruleId === "" ? undefined : ruleId,
        ruleName: ruleName === "" ? undefined : ruleName,
        mode: value("mode"),
        allowMassRemoval: flag === "true",
        users,
      }),
    );
  }
  if (failures.length > 0) fail(failures);
  return { ruleId: ruleId !== "" ? ruleId : null, ruleName: ruleId !== "" ? null : ruleName, mode: value("mode") as ListMode, allowMassRemoval: flag === "true", users: canonicalUsers(users) };
}

/**
 * Decodes and validates a trigger map read from the synthesized JSON (escaped values). `where`
 * names the resource in errors, e.g. the stack and construct path.
 */
export function decodeTriggers(triggers: unknown, where: string): ListDeclaration {
  const shape = z.record(z.string(), z.string()).safeParse(triggers);
  if (!shape.success) {
    throw new DeclarationError([{ path: where, message: `triggers: must be an object of strings:\n${z.prettifyError(shape.error)}` }]);
  }
  const raw = shape.data;
  const values = Object.fromEntries(
    (Object.entries(TRIGGERS) as [TriggerField, TriggerName][]).map(([field, name]) => {
      const v = raw[name];
      return [field, v === undefined ? undefined : unescapeTemplate(v)];
    }),
  ) as Record<TriggerField, string | undefined>;
  return decodeDeclarationValues(values, where, (field) => `triggers.${TRIGGERS[field]}`);
}

/** True when a trigger map was written by a RuleUserList (of any format). */
export function isRuleUserListTriggers(triggers: unknown): boolean {
  return typeof triggers === "object" && triggers !== null && TRIGGERS.format in triggers;
}
