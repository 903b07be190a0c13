/**
 * The commands that read the service and write nothing to it, composed: `rules list`, `who`,
 * `import` and `report`. Each opens the session, reads, closes it, writes its files when asked,
 * and returns what the front door prints.
 */
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { isDrift, isNotManaged, type AccessReport } from "../../../core/report/access-report";
import type { DesiredList } from "../../../core/engine/desired";
import { importAppCommand, type ImportCode } from "../../../core/import/import-code";
import { providerConfigured, type ProviderConfigured } from "../../../core/import/import-hcl";
import type { RuleRow, WhoMatch } from "../../../core/live/who";
import { staleSynthOutput } from "../../stale-output";
import type { InvalidSettings, SessionSettings } from "../session/connect";
import { readDesired } from "../steps/declared";
import { findPeopleLive, importRules, importRulesHcl, listRules } from "../steps/live";
import { readAccessReport, writeAccessReport, type AccessReportFiles } from "../steps/access-report";
import { writeImportModule } from "../steps/output-files";
import { withSession } from "../session/reported-session";
import type { RunReporter } from "../session/reporter";
import type { SynthSettings } from "../session/session";

/** `rules list`: every rule of the tenant, live. */
export async function rulesRun(request: { readonly session: SessionSettings | InvalidSettings }, reporter: RunReporter): Promise<RuleRow[]> {
  return withSession(request.session, reporter, (session) => listRules(session));
}

export interface WhoRunRequest {
  readonly session: SessionSettings | InvalidSettings;
  /** Aliases or user IDs, trimmed. */
  readonly queries: readonly string[];
  /** The app whose declarations are joined, or undefined (no app here, or `--no-app`). */
  readonly synth: SynthSettings | undefined;
}

/** `who`: where each query is, live; with the app, which constructs declare it. */
export async function whoRun(request: WhoRunRequest, reporter: RunReporter): Promise<WhoMatch[]> {
  return withSession(request.session, reporter, async (session) => {
    const declared: DesiredList[] | undefined = request.synth === undefined ? undefined : await readDesired(request.synth);
    return findPeopleLive(request.queries, session, declared);
  });
}

export interface ImportRunRequest {
  readonly session: SessionSettings | InvalidSettings;
  /** The rules to import; null for every rule of the tenant. */
  readonly ruleIds: readonly string[] | null;
  readonly format: "ts" | "hcl";
  /** The generated function's name (ts). */
  readonly functionName: string;
  /** The file to write, absolute and as the user named it; undefined for the door to print the source. */
  readonly out: { readonly path: string; readonly name: string } | undefined;
}

export interface ImportRunResult extends ImportCode {
  /** The command that runs a written TypeScript module as an app by itself; null for hcl or stdout. */
  readonly appCommand: string | null;
}

/**
 * `import`: reads the rules and generates their declarations; the lines that need attention go
 * to `reporter` as they are, then the module is written (redacted) when `out` is given.
 */
export async function importRun(request: ImportRunRequest, reporter: RunReporter): Promise<ImportRunResult> {
  const ruleIds = request.ruleIds;
  const { code, secrets } = await withSession(request.session, reporter, async (session) => ({
    code: await (request.format === "hcl" ? importRulesHcl(session, ruleIds, request.out === undefined ? undefined : configuredBeside(request.out.path)) : importRules(session, ruleIds, request.functionName, request.out?.name)),
    secrets: session.secrets,
  }));
  for (const warning of code.warnings) reporter.say(warning);
  // Aliases and names come from the service, which may echo the token: the file is redacted as stdout is.
  if (request.out !== undefined) await writeImportModule(request.out.path, code.source, secrets);
  return { ...code, appCommand: request.out !== undefined && request.format === "ts" ? importAppCommand(request.out.name) : null };
}

/**
 * What the other `.tf` files of the directory `out` goes to declare of the provider (`import
 * --format hcl --out FILE` into a configured directory writes resources and import blocks only).
 */
function configuredBeside(out: string): ProviderConfigured {
  const dir = dirname(out);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => name.endsWith(".tf") && join(dir, name) !== out);
  } catch {
    // a directory that does not exist yet declares nothing
  }
  return providerConfigured(names.flatMap((name) => {
    try {
      return [readFileSync(join(dir, name), "utf8")];
    } catch {
      return [];
    }
  }));
}

export interface ReportRunRequest {
  readonly session: SessionSettings | InvalidSettings;
  /** The app whose declarations are joined, or undefined (no app here, or `--no-app`). */
  readonly synth: SynthSettings | undefined;
  /** The report's clock (`yyyy-MM-ddTHH:mm:ssZ`). */
  readonly now: string;
  /** `now` was given (`--now`): the page then also says when it was made. */
  readonly nowGiven: boolean;
  /** Absolute paths. */
  readonly files: AccessReportFiles;
}

/** What the report counts, for the door's summary line. */
export interface AccessReportCounts {
  readonly entries: number;
  readonly rules: number;
  /** The app's declarations were read (the counts below are then meaningful). */
  readonly withDeclarations: boolean;
  readonly drift: number;
  readonly expiring: number;
  readonly expired: number;
  /** Entries of rules the app declares nothing for, and those rules. */
  readonly unmanaged: number;
  readonly unmanagedRules: number;
}

/** `report`: reads every editable list (and the app), writes the HTML page and/or the CSV, and counts. */
export async function reportRun(request: ReportRunRequest, reporter: RunReporter): Promise<AccessReportCounts> {
  const stale = request.synth?.skipSynth === true ? staleSynthOutput(request.synth.cwd, request.synth.outdir) : null;
  if (stale !== null) reporter.say(stale);
  const report = await withSession(request.session, reporter, (session) => readAccessReport(session, request.synth, request.now));
  // One time on the page: the report's clock, unless --now set another (then also when it was made).
  await writeAccessReport(report, request.files, request.nowGiven ? `${new Date().toISOString().slice(0, 19)}Z` : report.now);
  return countsOf(report);
}

function countsOf(report: AccessReport): AccessReportCounts {
  return {
    entries: report.entries.length,
    rules: report.rules.length,
    withDeclarations: report.withDeclarations,
    drift: report.entries.filter(isDrift).length,
    expiring: report.entries.filter((e) => e.expiry === "expiring").length,
    expired: report.entries.filter((e) => e.expiry === "expired").length,
    unmanaged: report.entries.filter(isNotManaged).length,
    unmanagedRules: report.rules.filter((r) => !r.managed).length,
  };
}
