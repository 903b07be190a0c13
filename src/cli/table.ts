/**
 * A small renderer of aligned text tables and field lists, for the triage commands' TTY output.
 * Cells are single-line (newlines and tabs become spaces) and cut at a width with an ellipsis.
 */
import { printable as escapeInvisible } from "../core/render";

export interface TableOptions {
  /** The widest a cell may be before it is cut. @default 60 */
  readonly maxCellWidth?: number;
  /** Text for a table without rows. @default "(none)" */
  readonly empty?: string;
}

/**
 * One line, cut to `width` characters (the last one an ellipsis). Zero-width characters, bidi
 * controls and other control characters are shown escaped (`\u202e`), so what looks alike in a
 * table is told apart.
 */
export function cell(value: unknown, width = 60): string {
  const text = value === null || value === undefined ? "-" : typeof value === "string" ? value : (JSON.stringify(value) ?? "-");
  const flat = escapeInvisible(text.replace(/[\r\n\t]+/g, " "));
  return flat.length > width ? `${flat.slice(0, Math.max(0, width - 1))}…` : flat;
}

/** An aligned table: a header line, then one line per row; columns separated by two spaces. */
export function renderTable(headers: readonly string[], rows: ReadonlyArray<readonly unknown[]>, options: TableOptions = {}): string {
  const maxWidth = options.maxCellWidth ?? 60;
  if (rows.length === 0) return `${options.empty ?? "(none)"}\n`;
  const cells = rows.map((row) => headers.map((_, i) => cell(row[i], maxWidth)));
  const widths = headers.map((header, i) => Math.max(header.length, ...cells.map((row) => (row[i] ?? "").length)));
  const line = (values: readonly string[]): string =>
    values
      .map((value, i) => (i === values.length - 1 ? value : value.padEnd(widths[i] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(headers), ...cells.map(line)].map((l) => `${l}\n`).join("");
}

/** `Label:  value` lines, labels aligned. */
export function renderFields(fields: ReadonlyArray<readonly [string, unknown]>, maxWidth = 100): string {
  const width = Math.max(0, ...fields.map(([label]) => label.length + 1));
  return fields.map(([label, value]) => `${`${label}:`.padEnd(width)}  ${cell(value, maxWidth)}\n`).join("");
}
