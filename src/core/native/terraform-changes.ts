/**
 * What a Terraform plan does to the live lists (`terraform show -json PLANFILE`): each
 * `alertrules_rule_user_list` change, with the users and aliases it adds and removes, read from the
 * plan's `resource_changes` (before: the state as refreshed, which the provider reads live; after:
 * the planned value) and the `removes` the provider shows for a create or a mode switch. A merge
 * job's summary and the HCL drift report are made of it (src/core/render/terraform-changes.ts).
 * Pure: no files.
 */
import { z } from "zod";
import { ConfigError } from "../../errors";
import { compareStrings } from "../engine/canonical";
import { NATIVE_RESOURCE_TYPE } from "./native-provider";

/** One user and the aliases a change adds or removes for them (`userId` null: an entry without a user ID). */
export interface UserAliases {
  readonly userId: string | null;
  readonly aliases: readonly string[];
}

export type NativeAction = "create" | "update" | "delete" | "replace";

/** One resource's change. */
export interface NativeChange {
  readonly address: string;
  readonly action: NativeAction;
  readonly ruleId: string | null;
  readonly ruleName: string | null;
  readonly mode: string | null;
  /** Users that are not in the list and will be, with their aliases. */
  readonly addUsers: readonly UserAliases[];
  /** Users that stay and gain aliases. */
  readonly addAliases: readonly UserAliases[];
  /** Users that stay and lose aliases. */
  readonly removeAliases: readonly UserAliases[];
  /** Users that leave the list, with their aliases. */
  readonly removeUsers: readonly UserAliases[];
  /** What the provider says apply removes from the live list where the state does not show it (a create, a mode switch); null when unknown until apply. */
  readonly removes: readonly UserAliases[] | null;
  /** For a delete: "keep" (the live list stays) or "clear" (what the resource manages is removed). */
  readonly onDestroy: string | null;
}

const changeSchema = z.looseObject({
  address: z.string(),
  mode: z.string(),
  type: z.string(),
  change: z.looseObject({
    actions: z.array(z.string()),
    before: z.record(z.string(), z.unknown()).nullable().optional(),
    after: z.record(z.string(), z.unknown()).nullable().optional(),
    after_unknown: z.unknown().optional(),
  }),
});

const showSchema = z.looseObject({ format_version: z.string(), resource_changes: z.array(changeSchema).optional() });

const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/** `users` of a value: user ID → its aliases (lowercase key → spelling), from the map the resource holds. */
function usersOf(value: unknown): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  if (typeof value !== "object" || value === null || Array.isArray(value)) return out;
  for (const [userId, user] of Object.entries(value as Record<string, unknown>)) {
    const aliases = (user as { aliases?: unknown } | null)?.aliases;
    const map = new Map<string, string>();
    if (Array.isArray(aliases)) for (const a of aliases) if (typeof a === "string") map.set(a.trim().toLowerCase(), a);
    out.set(userId, map);
  }
  return out;
}

function removesOf(value: unknown): UserAliases[] | null {
  if (!Array.isArray(value)) return null;
  return value.map((r) => {
    const entry = r as { user_id?: unknown; aliases?: unknown } | null;
    return { userId: str(entry?.user_id), aliases: Array.isArray(entry?.aliases) ? entry.aliases.filter((a): a is string => typeof a === "string") : [] };
  });
}

const sorted = (rows: UserAliases[]): UserAliases[] => rows.sort((a, b) => compareStrings(a.userId ?? "", b.userId ?? ""));

/** The users and aliases between two `users` values. */
function diffUsers(before: unknown, after: unknown): Pick<NativeChange, "addUsers" | "addAliases" | "removeAliases" | "removeUsers"> {
  const was = usersOf(before);
  const now = usersOf(after);
  const addUsers: UserAliases[] = [];
  const addAliases: UserAliases[] = [];
  const removeAliases: UserAliases[] = [];
  const removeUsers: UserAliases[] = [];
  for (const [userId, aliases] of now) {
    const old = was.get(userId);
    if (old === undefined) {
      addUsers.push({ userId, aliases: [...aliases.values()] });
      continue;
    }
    const added = [...aliases].filter(([k]) => !old.has(k)).map(([, a]) => a);
    const removed = [...old].filter(([k]) => !aliases.has(k)).map(([, a]) => a);
    if (added.length > 0) addAliases.push({ userId, aliases: added });
    if (removed.length > 0) removeAliases.push({ userId, aliases: removed });
  }
  for (const [userId, aliases] of was) if (!now.has(userId)) removeUsers.push({ userId, aliases: [...aliases.values()] });
  return { addUsers: sorted(addUsers), addAliases: sorted(addAliases), removeAliases: sorted(removeAliases), removeUsers: sorted(removeUsers) };
}

function actionOf(actions: readonly string[]): NativeAction | null {
  if (actions.includes("create") && actions.includes("delete")) return "replace";
  if (actions.includes("create")) return "create";
  if (actions.includes("delete")) return "delete";
  if (actions.includes("update")) return "update";
  return null;
}

/** Every `alertrules_rule_user_list` change of a plan's JSON (no-ops left out), by address. `where` names the input in errors. */
export function nativeChangesOf(json: unknown, where: string): NativeChange[] {
  const parsed = showSchema.safeParse(json);
  if (!parsed.success) throw new ConfigError(`${where} is not the JSON of a Terraform plan (terraform show -json PLANFILE):\n${z.prettifyError(parsed.error)}`);
  const out: NativeChange[] = [];
  for (const rc of parsed.data.resource_changes ?? []) {
    if (rc.mode !== "managed" || rc.type !== NATIVE_RESOURCE_TYPE) continue;
    const action = actionOf(rc.change.actions);
    if (action === null) continue;
    const before = rc.change.before ?? null;
    const after = rc.change.after ?? null;
    const shown = after ?? before ?? {};
    const unknownRemoves = typeof rc.change.after_unknown === "object" && rc.change.after_unknown !== null && (rc.change.after_unknown as Record<string, unknown>)["removes"] === true;
    const users = action === "delete" ? diffUsers(before?.["users"], before?.["on_destroy"] === "clear" ? {} : before?.["users"]) : diffUsers(action === "create" || action === "replace" ? {} : before?.["users"], after?.["users"]);
    out.push({
      address: rc.address,
      action,
      ruleId: str(shown["rule_id"]) ?? str(shown["id"]),
      ruleName: str(shown["rule_name"]),
      mode: str(shown["mode"]),
      ...users,
      removes: action === "delete" ? [] : unknownRemoves ? null : (removesOf(after?.["removes"]) ?? []),
      onDestroy: action === "delete" ? (str(before?.["on_destroy"]) ?? "keep") : null,
    });
  }
  return out.sort((a, b) => compareStrings(a.address, b.address));
}
