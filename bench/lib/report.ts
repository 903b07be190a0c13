/** What a scenario returns, and the plain-text tables main.ts prints. */

export interface Check {
  readonly name: string;
  readonly pass: boolean;
  /** The measured value against the target, in words. */
  readonly detail: string;
  /**
   * False when the run's sizes cannot show the target (`--quick`): printed, never a FAIL.
   * @default true
   */
  readonly judged?: boolean;
}

export interface Table {
  readonly title: string;
  readonly columns: readonly string[];
  readonly rows: ReadonlyArray<readonly string[]>;
}

export interface ScenarioResult {
  readonly name: string;
  readonly title: string;
  readonly tables: readonly Table[];
  readonly checks: readonly Check[];
  /** Everything measured, for results.json. */
  readonly data: unknown;
}

export interface ScenarioContext {
  readonly quick: boolean;
  readonly latencyMs: number;
  /** Progress lines (stderr). */
  readonly log: (line: string) => void;
}

export interface Scenario {
  readonly name: string;
  readonly title: string;
  run(ctx: ScenarioContext): Promise<ScenarioResult>;
}

export function renderTable(table: Table): string {
  const widths = table.columns.map((c, i) => Math.max(c.length, ...table.rows.map((r) => (r[i] ?? "").length)));
  const numeric = table.columns.map((_, i) => table.rows.every((r) => /^[-+]?[\d.,]+(?:\s?[a-zA-Z×%]*)?$|^-$/.test(r[i] ?? "")));
  const cell = (text: string, i: number) => (numeric[i] === true ? text.padStart(widths[i] ?? 0) : text.padEnd(widths[i] ?? 0));
  const line = (cells: readonly string[]) => `| ${cells.map((c, i) => cell(c, i)).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] === true ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [`${table.title}`, "", line(table.columns), rule, ...table.rows.map(line)].join("\n");
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString("en-US"),
  s: (ms: number) => (ms / 1000).toFixed(ms < 10_000 ? 2 : 1),
  ms: (ms: number) => ms.toFixed(ms < 100 ? 1 : 0),
  mb: (bytes: number | null) => (bytes === null ? "n/a" : (bytes / (1024 * 1024)).toFixed(0)),
  ratio: (x: number) => `${x.toFixed(x < 10 ? 2 : 1)}×`,
};

export function check(name: string, pass: boolean, detail: string): Check {
  return { name, pass, detail };
}

/**
 * A check of a target the sizes of a `--quick` run cannot show: judged on a full run, only
 * reported (never a FAIL) on a quick one.
 */
export function sizedCheck(quick: boolean, name: string, pass: boolean, detail: string): Check {
  return quick ? { name: `${name} (not judged at --quick sizes)`, pass, detail, judged: false } : { name, pass, detail };
}
