/**
 * Validation of one rule-list declaration, as data: each rule looks at the declaration and returns
 * its problems, each a field, a code and a sentence that says how to fix it, naming fields as data
 * (src/shared/field-names.ts). {@link declarationProblems} runs them all and returns every problem
 * at once; {@link validateDeclaration} says them in the construct's words (`users[1].aliases[0]: ...`),
 * and the provider in its own (src/provider/resources/rule-user-list-declaration.ts).
 *
 * Used by the RuleUserList construct at synth time and by the reader of the synthesized JSON and
 * of the provisioner environment (defence against hand-edited files). Input fields are `unknown`
 * because the construct may be used from plain JavaScript and the JSON may have been edited.
 */
import { isMissingUserId } from "../../api/rules/schemas";
import { aliasKey } from "../engine/canonical";
import { isCalendarDate } from "../engine/expiry";
import { describeInvisible, escapeInvisible, shownJson } from "../../shared/invisible";
import { PROP_WORDS, problemText, ref, type FieldProblem, type FieldStep, type Part } from "../../shared/field-names";
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
  readonly validate: (input: DeclarationInput) => FieldProblem[];
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

function ruleReferenceField(name: "ruleId" | "ruleName", value: unknown): FieldProblem[] {
  if (value === undefined) return [];
  if (typeof value !== "string") return [problem("not-a-string", [name], `must be a string, got ${describe(value)}`)];
  if (value.trim() === "") {
    return [
      name === "ruleId"
        ? problem("empty", ["ruleId"], "is empty; set the rule's observerRuleId, or name the rule with ", ref("ruleName"), " instead")
        : problem("empty", ["ruleName"], "is empty; set the rule's exact name, or give its observerRuleId as ", ref("ruleId"), " instead"),
    ];
  }
  return [];
}

/** A problem of the field at `at`; its sentence's parts name other fields with {@link ref}. */
const problem = (code: string, at: readonly FieldStep[], ...text: Part[]): FieldProblem => ({ code, at, text });

/** The pair a declaration names its rule by, as a problem's subject (`ruleId/ruleName: …`). */
const RULE_REFERENCE: readonly Part[] = [ref("ruleId"), "/", ref("ruleName")];

/** The validation rules of a declaration (docs/contract.md §2), in the order their failures are listed. */
export const DECLARATION_RULES: readonly ValidationRule[] = [
  {
    checks: "exactly one of ruleId and ruleName",
    validate: ({ ruleId, ruleName }) => {
      if (ruleId === undefined && ruleName === undefined) {
        return [{ code: "rule-unnamed", at: [], subject: RULE_REFERENCE, text: ["neither is set; set exactly one: ", ref("ruleId"), " (the rule's observerRuleId) or ", ref("ruleName"), " (its exact name)"] }];
      }
      if (ruleId !== undefined && ruleName !== undefined) {
        return [{ code: "rule-named-twice", at: [], subject: RULE_REFERENCE, text: [`both are set (${describe(ruleId)} and ${describe(ruleName)}); set exactly one of them`] }];
      }
      return [];
    },
  },
  {
    checks: "ruleId and ruleName, when set, are non-empty strings",
    validate: ({ ruleId, ruleName }) => [...ruleReferenceField("ruleId", ruleId), ...ruleReferenceField("ruleName", ruleName)],
  },
  {
    checks: "mode is authoritative or additive",
    validate: ({ mode }) =>
      mode === undefined || (typeof mode === "string" && (LIST_MODES as readonly string[]).includes(mode))
        ? []
        : [problem("not-a-mode", ["mode"], `${describe(mode)} is not a list mode; use "authoritative" (the list becomes exactly the declaration) or "additive" (only adds)`)],
  },
  {
    checks: "allowMassRemoval is a boolean",
    validate: ({ allowMassRemoval }) =>
      allowMassRemoval === undefined || typeof allowMassRemoval === "boolean" ? [] : [problem("not-a-boolean", ["allowMassRemoval"], `must be true or false, got ${describe(allowMassRemoval)}`)],
  },
  {
    checks: "users is an array of objects",
    validate: ({ users }) => {
      if (!Array.isArray(users)) {
        return [problem("not-a-list", ["users"], `must be an array of { userId, aliases } (an empty array declares an empty list), got ${describe(users)}`)];
      }
      return (users as unknown[]).flatMap((user, index) => (isRecord(user) ? [] : [problem("not-an-object", ["users", index], `must be an object { userId, aliases }, got ${describe(user)}`)]));
    },
  },
  {
    checks: "every userId is a non-empty string without whitespace",
    validate: (input) =>
      userEntries(input).flatMap(({ index, user }) => {
        const userId = user["userId"];
        const at = ["users", index, "userId"] as const;
        if (typeof userId !== "string") return [problem("not-a-string", at, `must be a string (the user's userIdFromAuthority), got ${describe(userId)}`)];
        if (userId.trim() === "") return [problem("empty", at, "is empty; set the user's ID (userIdFromAuthority)")];
        if (isMissingUserId(userId)) return [problem("whitespace", at, `${describe(userId)} contains whitespace; the service treats such IDs as missing, use the user's ID without spaces`)];
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
        return [problem("duplicate-user", ["users", index, "userId"], `${describe(userId)} is already declared at `, ref("users", first), "; merge the two entries into one user")];
      });
    },
  },
  {
    checks: "every user has at least one alias, each a non-empty string",
    validate: (input) =>
      userEntries(input).flatMap(({ index, user }) => {
        const aliases = user["aliases"];
        if (!Array.isArray(aliases)) return [problem("not-a-list", ["users", index, "aliases"], `must be an array of strings (email addresses or cloud aliases), got ${describe(aliases)}`)];
        if (aliases.length === 0) return [problem("empty", ["users", index, "aliases"], "is empty; give the user at least one alias (email address or cloud alias), or remove the user")];
        return (aliases as unknown[]).flatMap((alias, aliasIndex) => {
          if (typeof alias !== "string") return [problem("not-a-string", ["users", index, "aliases", aliasIndex], `must be a string, got ${describe(alias)}`)];
          return alias.trim() === "" ? [problem("empty", ["users", index, "aliases", aliasIndex], "is empty or whitespace; write the alias or remove the entry")] : [];
        });
      }),
  },
  {
    checks:
      "no userId or alias holds a character that draws or hides on a screen (C0 and C1 controls, DEL, line and paragraph separators, bidi controls, zero-width characters), and every alias is in Unicode normal form NFKC (no fullwidth or compatibility letters)",
    validate: (input) => {
      const drawing = (at: readonly FieldStep[], value: string, found: readonly string[]): FieldProblem[] =>
        found.length === 0
          ? []
          : [problem("invisible", at, `"${escapeInvisible(value)}" contains ${found.join(", ")}; such characters are invisible, move the cursor or reorder the text, so the value would read as something else in a review. Remove them`)];
      return [
        ...userEntries(input).flatMap(({ index, user }) => {
          const userId = user["userId"];
          // whitespace (a line break, U+2028) has its own message: the service takes such an ID as none
          return typeof userId === "string" && !isMissingUserId(userId) ? drawing(["users", index, "userId"], userId, describeInvisible(userId)) : [];
        }),
        ...aliasEntries(input).flatMap(({ userIndex, aliasIndex, alias }) => {
          const at = ["users", userIndex, "aliases", aliasIndex] as const;
          const found = describeInvisible(alias);
          if (found.length > 0) return drawing(at, alias, found);
          const normal = alias.normalize("NFKC");
          return normal === alias ? [] : [problem("not-nfkc", at, `${describe(alias)} has fullwidth or compatibility characters that read like others; write it as ${describe(normal)}`)];
        }),
      ];
    },
  },
  {
    checks: "expiresAt, when set, is a real date written yyyy-MM-dd (UTC)",
    validate: (input) =>
      userEntries(input).flatMap(({ index, user }) => {
        const expiresAt = user["expiresAt"];
        const at = ["users", index, "expiresAt"] as const;
        if (expiresAt === undefined) return [];
        if (typeof expiresAt !== "string") return [problem("not-a-string", at, `must be a date string "yyyy-MM-dd" (UTC), got ${describe(expiresAt)}`)];
        if (!/^\d{4}-\d{2}-\d{2}$/.test(expiresAt)) return [problem("not-a-date", at, `${describe(expiresAt)} is not written yyyy-MM-dd; write the day the exception ends as e.g. "2026-12-31" (UTC)`)];
        if (!isCalendarDate(expiresAt)) return [problem("not-a-date", at, `${describe(expiresAt)} is not a date (no such day in the calendar); write a real day as yyyy-MM-dd`)];
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
          problem(
            "duplicate-alias",
            ["users", entry.userIndex, "aliases", entry.aliasIndex],
            `${describe(entry.alias)} repeats `,
            ref("users", seen.userIndex, "aliases", seen.aliasIndex),
            ` (${describe(seen.alias)}); aliases compare case-insensitively and trimmed, declare each alias once`,
          ),
        ];
      });
    },
  },
];

/** Every problem of a declaration, as data, in rule order; empty when it is valid. */
export function declarationProblems(input: DeclarationInput): FieldProblem[] {
  current = { users: input.users, entries: undefined, aliases: undefined };
  try {
    return DECLARATION_RULES.flatMap((rule) => rule.validate(input));
  } finally {
    current = undefined;
  }
}

/** Every failure of a declaration in the construct's words (its props), in rule order; empty when it is valid. */
export function validateDeclaration(input: DeclarationInput): string[] {
  return declarationProblems(input).map((p) => problemText(p, PROP_WORDS));
}
