/**
 * Validation of one rule-list declaration, as data: each rule looks at the declaration and returns
 * its failures. {@link validateDeclaration} runs them all and returns every failure at once, each a
 * sentence that starts with the field (`users[1].aliases[0]: ...`) and says how to fix it.
 *
 * Used by the RuleUserList construct at synth time and by the reader of the synthesized JSON and
 * of the provisioner environment (defence against hand-edited files). Input fields are `unknown`
 * because the construct may be used from plain JavaScript and the JSON may have been edited.
 */
import { isMissingUserId } from "../../api/rules/schemas";
import { aliasKey } from "../engine/canonical";
import { isCalendarDate } from "../engine/expiry";
import { describeInvisible, escapeInvisible, shownJson } from "../../shared/invisible";
import { LIST_MODES } from "../engine/desired";

/** The fields of a declaration, as given (props of the construct, or decoded triggers). */
export interface DeclarationInput {
  readonly ruleId?: unknown;
  readonly ruleName?: unknown;
  readonly mode?: unknown;
  readonly allowMassRemoval?: unknown;
  readonly users?: unknown;
}

interface ValidationRule {
  /** What the rule checks, for readers of this table. */
  readonly checks: string;
  readonly validate: (input: DeclarationInput) => string[];
}

/** The key under which aliases compare: trimmed, lower case (docs/contract.md §4). */
function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return shownJson(value);
  if (typeof value === "object") return "an object";
  if (typeof value === "function") return "a function";
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean") {
    return `${typeof value} ${String(value)}`;
  }
  return "undefined";
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type UserEntry = { index: number; user: Record<string, unknown> };
type AliasEntry = { userIndex: number; aliasIndex: number; alias: string };

/**
 * The entries of the users list {@link validateDeclaration} is checking, computed once for all its
 * rules (each rule used to walk the users again: a tenth of the synth time of 10,000 lists).
 */
let current: { users: unknown; entries: UserEntry[] | undefined; aliases: AliasEntry[] | undefined } | undefined;

/** The users that are objects, with their index; shape errors are reported by their own rules. */
function userEntries(input: DeclarationInput): UserEntry[] {
  if (current !== undefined && current.users === input.users) return (current.entries ??= computeUserEntries(input));
  return computeUserEntries(input);
}

function computeUserEntries(input: DeclarationInput): UserEntry[] {
  if (!Array.isArray(input.users)) return [];
  return (input.users as unknown[]).flatMap((user, index) => (isRecord(user) ? [{ index, user }] : []));
}

/** The aliases that are strings, with their user and alias index. */
function aliasEntries(input: DeclarationInput): AliasEntry[] {
  if (current !== undefined && current.users === input.users) return (current.aliases ??= computeAliasEntries(input));
  return computeAliasEntries(input);
}

function computeAliasEntries(input: DeclarationInput): AliasEntry[] {
  return userEntries(input).flatMap(({ index, user }) =>
    Array.isArray(user["aliases"])
      ? (user["aliases"] as unknown[]).flatMap((alias, aliasIndex) =>
          typeof alias === "string" ? [{ userIndex: index, aliasIndex, alias }] : [],
        )
      : [],
  );
}

function ruleReferenceField(name: "ruleId" | "ruleName", value: unknown): string[] {
  if (value === undefined) return [];
  if (typeof value !== "string") return [`${name}: must be a string, got ${describe(value)}`];
  if (value.trim() === "") {
    return [
      name === "ruleId"
        ? "ruleId: is empty; set the rule's observerRuleId, or name the rule with ruleName instead"
        : "ruleName: is empty; set the rule's exact name, or give its observerRuleId as ruleId instead",
    ];
  }
  return [];
}

/** The validation rules of a declaration (docs/contract.md §2), in the order their failures are listed. */
export const DECLARATION_RULES: readonly ValidationRule[] = [
  {
    checks: "exactly one of ruleId and ruleName",
    validate: ({ ruleId, ruleName }) => {
      if (ruleId === undefined && ruleName === undefined) {
        return [
          "ruleId/ruleName: neither is set; set exactly one: ruleId (the rule's observerRuleId) or ruleName (its exact name)",
        ];
      }
      if (ruleId !== undefined && ruleName !== undefined) {
        return [
          `ruleId/ruleName: both are set (${describe(ruleId)} and ${describe(ruleName)}); set exactly one of them`,
        ];
      }
      return [];
    },
  },
  {
    checks: "ruleId and ruleName, when set, are non-empty strings",
    validate: ({ ruleId, ruleName }) => [
      ...ruleReferenceField("ruleId", ruleId),
      ...ruleReferenceField("ruleName", ruleName),
    ],
  },
  {
    checks: "mode is authoritative or additive",
    validate: ({ mode }) =>
      mode === undefined || (typeof mode === "string" && (LIST_MODES as readonly string[]).includes(mode))
        ? []
        : [
            `mode: ${describe(mode)} is not a list mode; use "authoritative" (the list becomes exactly the declaration) or "additive" (only adds)`,
          ],
  },
  {
    checks: "allowMassRemoval is a boolean",
    validate: ({ allowMassRemoval }) =>
      allowMassRemoval === undefined || typeof allowMassRemoval === "boolean"
        ? []
        : [`allowMassRemoval: must be true or false, got ${describe(allowMassRemoval)}`],
  },
  {
    checks: "users is an array of objects",
    validate: ({ users }) => {
      if (!Array.isArray(users)) {
        return [`users: must be an array of { userId, aliases } (an empty array declares an empty list), got ${describe(users)}`];
      }
      return (users as unknown[]).flatMap((user, index) =>
        isRecord(user) ? [] : [`users[${index}]: must be an object { userId, aliases }, got ${describe(user)}`],
      );
    },
  },
  {
    checks: "every userId is a non-empty string without whitespace",
    validate: (input) =>
      userEntries(input).flatMap(({ index, user }) => {
        const userId = user["userId"];
        if (typeof userId !== "string") {
          return [`users[${index}].userId: must be a string (the user's userIdFromAuthority), got ${describe(userId)}`];
        }
        if (userId.trim() === "") {
          return [`users[${index}].userId: is empty; set the user's ID (userIdFromAuthority)`];
        }
        if (isMissingUserId(userId)) {
          return [
            `users[${index}].userId: ${describe(userId)} contains whitespace; the service treats such IDs as missing, use the user's ID without spaces`,
          ];
        }
        return [];
      }),
  },
  {
    checks: "no userId twice in one list",
    validate: (input) => {
      const firstIndex = new Map<string, number>();
      return userEntries(input).flatMap(({ index, user }) => {
        const userId = user["userId"];
        if (typeof userId !== "string" || userId.trim() === "") return [];
        const first = firstIndex.get(userId);
        if (first === undefined) {
          firstIndex.set(userId, index);
          return [];
        }
        return [`users[${index}].userId: ${describe(userId)} is already declared at users[${first}]; merge the two entries into one user`];
      });
    },
  },
  {
    checks: "every user has at least one alias, each a non-empty string",
    validate: (input) =>
      userEntries(input).flatMap(({ index, user }) => {
        const aliases = user["aliases"];
        if (!Array.isArray(aliases)) {
          return [`users[${index}].aliases: must be an array of strings (email addresses or cloud aliases), got ${describe(aliases)}`];
        }
        if (aliases.length === 0) {
          return [`users[${index}].aliases: is empty; give the user at least one alias (email address or cloud alias), or remove the user`];
        }
        return (aliases as unknown[]).flatMap((alias, aliasIndex) => {
          if (typeof alias !== "string") {
            return [`users[${index}].aliases[${aliasIndex}]: must be a string, got ${describe(alias)}`];
          }
          return alias.trim() === ""
            ? [`users[${index}].aliases[${aliasIndex}]: is empty or whitespace; write the alias or remove the entry`]
            : [];
        });
      }),
  },
  {
    checks:
      "no userId or alias holds a character that draws or hides on a screen (C0 and C1 controls, DEL, line and paragraph separators, bidi controls, zero-width characters), and every alias is in Unicode normal form NFKC (no fullwidth or compatibility letters)",
    validate: (input) => {
      const drawing = (field: string, value: string, found: readonly string[]): string[] =>
        found.length === 0
          ? []
          : [
              `${field}: "${escapeInvisible(value)}" contains ${found.join(", ")}; such characters are invisible, move the cursor or reorder the text, so the value would read as something else in a review. Remove them`,
            ];
      return [
        ...userEntries(input).flatMap(({ index, user }) => {
          const userId = user["userId"];
          // whitespace (a line break, U+2028) has its own message: the service takes such an ID as none
          return typeof userId === "string" && !isMissingUserId(userId) ? drawing(`users[${index}].userId`, userId, describeInvisible(userId)) : [];
        }),
        ...aliasEntries(input).flatMap(({ userIndex, aliasIndex, alias }) => {
          const field = `users[${userIndex}].aliases[${aliasIndex}]`;
          const found = describeInvisible(alias);
          if (found.length > 0) return drawing(field, alias, found);
          const normal = alias.normalize("NFKC");
          return normal === alias ? [] : [`${field}: ${describe(alias)} has fullwidth or compatibility characters that read like others; write it as ${describe(normal)}`];
        }),
      ];
    },
  },
  {
    checks: "expiresAt, when set, is a real date written yyyy-MM-dd (UTC)",
    validate: (input) =>
      userEntries(input).flatMap(({ index, user }) => {
        const expiresAt = user["expiresAt"];
        if (expiresAt === undefined) return [];
        if (typeof expiresAt !== "string") {
          return [`users[${index}].expiresAt: must be a date string "yyyy-MM-dd" (UTC), got ${describe(expiresAt)}`];
        }
        if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) {
          return [`users[${index}].expiresAt: ${describe(expiresAt)} is not written yyyy-MM-dd; write the day the exception ends as e.g. "2026-12-31" (UTC)`];
        }
        if (!isCalendarDate(expiresAt)) {
          return [`users[${index}].expiresAt: ${describe(expiresAt)} is not a date (no such day in the calendar); write a real day as yyyy-MM-dd`];
        }
        return [];
      }),
  },
  {
    checks: "no alias twice in one list (case-insensitive, trimmed), under one user or two",
    validate: (input) => {
      const first = new Map<string, { userIndex: number; aliasIndex: number; alias: string }>();
      return aliasEntries(input).flatMap((entry) => {
        const key = aliasKey(entry.alias);
        if (key === "") return [];
        const seen = first.get(key);
        if (seen === undefined) {
          first.set(key, entry);
          return [];
        }
        return [
          `users[${entry.userIndex}].aliases[${entry.aliasIndex}]: ${describe(entry.alias)} repeats users[${seen.userIndex}].aliases[${seen.aliasIndex}] (${describe(seen.alias)}); aliases compare case-insensitively and trimmed, declare each alias once`,
        ];
      });
    },
  },
];

/** Every failure of a declaration, in rule order; empty when it is valid. */
export function validateDeclaration(input: DeclarationInput): string[] {
  current = { users: input.users, entries: undefined, aliases: undefined };
  try {
    return DECLARATION_RULES.flatMap((rule) => rule.validate(input));
  } finally {
    current = undefined;
  }
}
