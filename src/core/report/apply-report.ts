/**
 * The apply report (`apply --report-json FILE`): what one apply run did, per rule, for audit
 * trails and CI job summaries. Plain, versioned data built by a small recorder the CLI feeds as
 * the run goes; written also when the run is refused or fails part-way. Format: docs/ci.md.
 * Never carries the token: only the base URL and tenant ID of the connection.
 */
import type { ErrorCode } from "../../errors";
import { AlertRuleUsersError, StalePlanError } from "../../errors";
import type { ApplyResult, RuleResult } from "../engine/apply-results";
import { countOutcomes, interruptedBeforeApply, notApplied } from "../engine/apply-results";
import type { Plan } from "../engine/plan-schema";
import { planChecksum } from "../engine/plan-schema";
import { messageOf } from "../../shared/text";

export const APPLY_REPORT_VERSION = 1 as const;

/**
 * `applied`: every changed rule applied and verified; `no-changes`: nothing to send;
 * `already-applied`: a saved plan whose every list is already as it leaves them (a re-run of its
 * apply): nothing sent, each rule read and matched;
 * `failed`: some rule did not converge (or the plan has rules in error); `refused`: a safety
 * rule refused the run before anything was sent (stale plan, other connection, mass removal,
 * unresolved rules, a plan file that is not valid); `cancelled`: not confirmed; `error`: the
 * run stopped on another error (usage, configuration, synth, the service); `interrupted`: SIGINT or
 * SIGTERM stopped the run (no call started after it; rules not done have outcome `interrupted`).
 */
export type ApplyReportStatus = "applied" | "no-changes" | "already-applied" | "failed" | "refused" | "cancelled" | "error" | "interrupted";

export type ApplyReportSource =
  | { readonly kind: "plan-file"; readonly path: string }
  | { readonly kind: "declaration" }
  | { readonly kind: "environment" };

export interface ApplyReport {
  readonly reportVersion: typeof APPLY_REPORT_VERSION;
  readonly tool: { readonly name: "alert-rule-users"; readonly version: string };
  readonly status: ApplyReportStatus;
  /** The exit code of the run: 0 only when status is applied, no-changes or already-applied. */
  readonly exitCode: number;
  readonly startedAt: string;
  readonly finishedAt: string;
  /** Where the run applied (never the token); null when the run stopped before resolving it. */
  readonly connection: { readonly baseUrl: string; readonly tenantId: string } | null;
  readonly source: ApplyReportSource;
  /** The applied plan: its checksum (as in the saved plan file) and when it was made; null before a plan existed. */
  readonly plan: { readonly checksum: string; readonly createdAt: string } | null;
  /** Why nothing (or not everything) was applied; null when the run completed. */
  readonly refusal: {
    readonly code: ErrorCode | "INTERNAL" | "CANCELLED" | "INTERRUPTED";
    readonly message: string;
    /** Rules whose lists changed since a saved plan (STALE_PLAN). */
    readonly staleRules: readonly string[];
  } | null;
  readonly summary: ApplyResult["summary"] | null;
  /** One entry per rule of the plan: calls sent, outcome, verification. */
  readonly rules: readonly RuleResult[];
}

const REFUSALS: ReadonlySet<ErrorCode> = new Set([
  "STALE_PLAN",
  "CONNECTION_MISMATCH",
  "MASS_REMOVAL",
  "UNRESOLVED_RULES",
  "PLAN_FILE",
  "PLAN_TOO_OLD",
  "EXPIRED_USERS",
  "TIP_MISMATCH",
  "UNREVIEWED_DECLARATIONS",
]);

/** Rule results of a plan that was not applied (no changes, cancelled, refused after planning). */
export function resultsWithoutApply(plan: Plan): RuleResult[] {
  return plan.rules.map(notApplied);
}

/** Collects what an apply run did; `finish`/`fail` return the report. The clock is passed in. */
export class ApplyReportRecorder {
  private connection: ApplyReport["connection"] = null;
  private planned: Plan | null = null;
  private result: ApplyResult | null = null;
  private cancelledRun = false;
  private alreadyAppliedRun = false;
  private interruption: string | null = null;

  constructor(
    private readonly startedAt: string,
    private readonly source: ApplyReportSource,
    private readonly toolVersion: string,
  ) {}

  connected(connection: { readonly baseUrl: string; readonly tenantId: string }): void {
    this.connection = { baseUrl: connection.baseUrl, tenantId: connection.tenantId };
  }

  planReady(plan: Plan): void {
    this.planned = plan;
  }

  applied(result: ApplyResult): void {
    this.result = result;
  }

  /** A saved plan found already applied: nothing was sent (`result`: each rule read and matched). */
  alreadyApplied(result: ApplyResult): void {
    this.result = result;
    this.alreadyAppliedRun = true;
  }

  cancelled(): void {
    this.cancelledRun = true;
  }

  /** The run was stopped by a signal; `message` says what was done and what to do next. */
  interrupted(message: string): void {
    this.interruption = message;
  }

  /** The report of a run that returned `exitCode`. */
  finish(exitCode: number, finishedAt: string): ApplyReport {
    if (this.interruption !== null) {
      const rules = this.result?.rules ?? (this.planned === null ? [] : interruptedBeforeApply(this.planned.rules));
      this.result = { ok: false, rules, summary: countOutcomes(rules) };
      return this.build(finishedAt, exitCode, "interrupted", { code: "INTERRUPTED", message: this.interruption, staleRules: [] });
    }
    if (this.cancelledRun) {
      return this.build(finishedAt, exitCode, "cancelled", { code: "CANCELLED", message: "Apply cancelled at the confirmation prompt: nothing was sent.", staleRules: [] });
    }
    const rules = this.result?.rules ?? (this.planned === null ? [] : resultsWithoutApply(this.planned));
    const status: ApplyReportStatus = exitCode !== 0 ? "failed" : this.alreadyAppliedRun ? "already-applied" : rules.some((r) => r.outcome === "applied") ? "applied" : "no-changes";
    return this.build(finishedAt, exitCode, status, null);
  }

  /** The report of a run that stopped on `error` (exit code 1). */
  fail(error: unknown, finishedAt: string): ApplyReport {
    if (error instanceof AlertRuleUsersError) {
      const staleRules = error instanceof StalePlanError ? [...error.staleRules] : [];
      return this.build(finishedAt, 1, REFUSALS.has(error.code) ? "refused" : "error", { code: error.code, message: error.message, staleRules });
    }
    const message = messageOf(error);
    return this.build(finishedAt, 1, "error", { code: "INTERNAL", message: `internal error (a bug in alert-rule-users): ${message}`, staleRules: [] });
  }

  private build(finishedAt: string, exitCode: number, status: ApplyReportStatus, refusal: ApplyReport["refusal"]): ApplyReport {
    const rules = this.result?.rules ?? (this.planned === null ? [] : resultsWithoutApply(this.planned));
    return {
      reportVersion: APPLY_REPORT_VERSION,
      tool: { name: "alert-rule-users", version: this.toolVersion },
      status,
      exitCode,
      startedAt: this.startedAt,
      finishedAt,
      connection: this.connection,
      source: this.source,
      plan: this.planned === null ? null : { checksum: planChecksum(this.planned), createdAt: this.planned.createdAt },
      refusal,
      summary: this.result?.summary ?? (this.planned === null ? null : countOutcomes(rules)),
      rules,
    };
  }
}
