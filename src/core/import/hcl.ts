/**
 * Writing HCL (Terraform's native syntax) safely: string literals that read back as the exact
 * value and never run as a template, comments that stay one line, and names that are valid
 * identifiers. Pure.
 */

/**
 * Characters written as `\uNNNN` in a string: controls (HCL takes none raw), line separators,
 * and the invisible bidirectional controls that make a reviewer read something else than what is
 * there. The value read back is the same.
 */
const ESCAPED = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;

const hex4 = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * An HCL quoted string whose value is exactly `value`: `\` and `"` escaped, newlines, tabs and
 * other controls as escapes, and the template sequences `${` and `%{` doubled (`$${`, `%%{`) so
 * nothing in it is interpolated or run as a directive. Other Unicode is kept as is.
 */
export function hclString(value: string): string {
  const body = value
    .replace(/\\/g, () => "\\\\")
    .replace(/"/g, () => '\\"')
    .replace(/\n/g, () => "\\n")
    .replace(/\r/g, () => "\\r")
    .replace(/\t/g, () => "\\t")
    .replace(ESCAPED, hex4)
    .replace(/\$\{/g, () => "$${")
    .replace(/%\{/g, () => "%%{");
  return `"${body}"`;
}

/** Text safe in a `#` comment: one line, no controls, no bidirectional overrides. */
export function hclComment(value: string): string {
  return value.replace(ESCAPED, hex4);
}

/** Words HCL gives a meaning of their own in expressions; never used as a generated name. */
export const HCL_KEYWORDS: readonly string[] = ["for", "in", "if", "else", "endif", "endfor", "null", "true", "false"];

/** Whether `name` is an HCL identifier that Terraform takes as a resource name. */
export function isResourceName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name) && !HCL_KEYWORDS.includes(name);
}
