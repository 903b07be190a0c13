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
 * | `policies` (optional)    | the RuleUserListPolicy checks that apply, as the native resource's `policies` (JSON), when some do |
 *
 * `policies` is not part of the declaration a reader decodes (`plan` reads the policies from the
 * resource's `//` block): it is there so that a `moved` block onto `alertrules_rule_user_list`
 * carries the policies into the new state (the provider's MoveResourceState), and the first plan
 * after the move shows no change.
 *
 * A users JSON over {@link USERS_CHUNK_BYTES} is written in chunks instead (format `"2"`):
 * `users_chunks` (their number) and `users_0`..`users_<n-1>` replace `users` (see chunks.ts), so
 * the provisioner can pass each in its own environment variable.
 *
 * Terraform reads every string of a `.tf.json` file as a template, so values are written with
 * `${` and `%{` escaped as `$${` and `%%{` ({@link escapeTemplate}); Terraform, and
 * {@link decodeTriggers}, see the declared text.
 */
import { z } from "zod";
import { DeclarationError } from "../../errors";
import { canonicalUsers } from "../engine/canonical";
import type { DesiredUser, ListDeclaration, ListMode } from "../engine/desired";
import { validateDeclaration } from "./validate";
import { USERS_CHUNK_BYTES, chunkNaming, readChunked, splitUtf8 } from "./chunks";
import type { ChunkNaming } from "./chunks";
import { messageOf } from "../../shared/text";

/** The id of the RuleUserList's `null_resource` child: its path is `<construct path>/resource`. */
export const RESOURCE_CHILD_ID = "resource";

/** The trigger format of a list whose users JSON is carried whole. */
export const TRIGGER_FORMAT = "1";

/** The trigger format of a list whose users JSON is carried in chunks (a big list). */
export const CHUNKED_TRIGGER_FORMAT = "2";

/** The formats this version reads. */
const SUPPORTED_FORMATS: readonly string[] = [TRIGGER_FORMAT, CHUNKED_TRIGGER_FORMAT];

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
/** A trigger map: the names of {@link TRIGGERS}, with `users` replaced by its chunks for a big list. */
export type Triggers = Readonly<Record<string, string>>;

/** The optional trigger of the policies that apply to a list (see the module's comment). */
export const POLICIES_TRIGGER = "policies";

/** Every trigger name of a list carried whole, in the order of {@link TRIGGERS}. */
export const TRIGGER_NAMES: readonly TriggerName[] = Object.values(TRIGGERS);

/** The trigger names of a users list in chunks: `users_chunks`, `users_0`, `users_1`, ... */
export const USERS_TRIGGER_CHUNKS = chunkNaming(TRIGGERS.users, "users_chunks");

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

/**
 * The trigger map of raw fields (canonical users, escaped for Terraform; chunked when big). `json`
 * is `usersJson(fields.users)`, for a caller that has it already.
 */
export function encodeTriggerFields(fields: TriggerFields, json: string = usersJson(fields.users)): Triggers {
  const chunks = splitUtf8(json, USERS_CHUNK_BYTES);
  const common = {
    [TRIGGERS.ruleId]: escapeTemplate(fields.ruleId),
    [TRIGGERS.ruleName]: escapeTemplate(fields.ruleName),
    [TRIGGERS.mode]: escapeTemplate(fields.mode),
    [TRIGGERS.allowMassRemoval]: fields.allowMassRemoval ? "true" : "false",
  };
  if (chunks.length === 1) {
    return { [TRIGGERS.format]: TRIGGER_FORMAT, ...common, [TRIGGERS.users]: escapeTemplate(json) };
  }
  // each chunk is escaped on its own: a `${` split across two chunks is two literals, as intended
  return {
    [TRIGGERS.format]: CHUNKED_TRIGGER_FORMAT,
    ...common,
    [USERS_TRIGGER_CHUNKS.count]: String(chunks.length),
    ...Object.fromEntries(chunks.map((chunk, i) => [USERS_TRIGGER_CHUNKS.chunk(i), escapeTemplate(chunk)])),
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
  const format = values.format;
  if (format !== undefined && !SUPPORTED_FORMATS.includes(format)) {
    fail([
      `${nameOf("format")}: format ${JSON.stringify(format)} is not supported (this alert-rule-users reads formats ${SUPPORTED_FORMATS.join(" and ")}); use the alert-rule-users version that synthesized it, or synthesize again`,
    ]);
  }
  const missing = (Object.keys(TRIGGERS) as TriggerField[]).filter((field) => values[field] === undefined);
  if (missing.length > 0) {
    fail(missing.map((field) => `${nameOf(field)}: is missing; synthesize again with this version of alert-rule-users`));
  }
  const value = (field: TriggerField): string => values[field] ?? "";
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
    failures.push(`${nameOf("users")}: is not valid JSON (${messageOf(error)})`);
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
 * names the resource in errors, e.g. the stack and construct path; `attribute` the map
 * (`triggers` of a null_resource, `triggers_replace` of a terraform_data).
 */
export function decodeTriggers(triggers: unknown, where: string, attribute = "triggers"): ListDeclaration {
  const shape = z.record(z.string(), z.string()).safeParse(triggers);
  if (!shape.success) {
    throw new DeclarationError([{ path: where, message: `${attribute}: must be an object of strings:\n${z.prettifyError(shape.error)}` }]);
  }
  const raw = shape.data;
  const unescaped = Object.fromEntries(Object.entries(raw).map(([name, v]) => [name, unescapeTemplate(v)]));
  const values = Object.fromEntries(
    (Object.entries(TRIGGERS) as [TriggerField, TriggerName][]).map(([field, name]) => [field, unescaped[name]]),
  ) as Record<TriggerField, string | undefined>;
  return decodeDeclarationValues(
    withUsers(values, unescaped, USERS_TRIGGER_CHUNKS, where, (name) => `${attribute}.${name}`),
    where,
    (field) => `${attribute}.${TRIGGERS[field]}`,
  );
}

/**
 * `values` with `users` read whole (format 1) or joined from its chunks (format 2) of `source`.
 * Throws a DeclarationError at `where` naming each missing or extra chunk.
 */
export function withUsers(
  values: Readonly<Record<TriggerField, string | undefined>>,
  source: Readonly<Record<string, string | undefined>>,
  naming: ChunkNaming,
  where: string,
  label: (name: string) => string,
): Record<TriggerField, string | undefined> {
  const { value, failures } = readChunked(source, naming, values.format === CHUNKED_TRIGGER_FORMAT, label);
  if (failures.length > 0) throw new DeclarationError(failures.map((message) => ({ path: where, message })));
  return { ...values, users: value };
}

/** True when a trigger map was written by a RuleUserList (of any format). */
export function isRuleUserListTriggers(triggers: unknown): boolean {
  return typeof triggers === "object" && triggers !== null && TRIGGERS.format in triggers;
}
