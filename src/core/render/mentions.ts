/**
 * Markdown that notifies nobody: GitHub turns `@name` and `@org/team` into mentions after the
 * markdown is parsed, so a backslash before the `@` does not stop it (github/markup#1168). A zero-
 * width joiner after the `@` does, and the text still reads `@org/team`. E-mail addresses
 * (`bob@example.com`, an `@` after a letter or digit) are not mentions and are left as they are.
 * Pure.
 */

/** U+200D ZERO WIDTH JOINER: invisible, and breaks GitHub's `@name` pattern. */
const JOINER = "\u200d";

/** `s` with a zero-width joiner after every `@` that GitHub could read as a mention. */
export function noMentions(s: string): string {
  return s.replace(/(^|[^A-Za-z0-9_])@(?=[A-Za-z0-9])/g, `$1@${JOINER}`);
}
