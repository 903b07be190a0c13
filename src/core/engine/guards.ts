/**
 * The checks that decide whether a plan may be applied at all (docs/contract.md §5): no request, no
 * clock. Each refuses the whole plan by throwing; the caller sends nothing when one throws.
 */
import { ConnectionMismatchError, MassRemovalError, StalePlanError, UnresolvedRulesError } from "../../errors";
import type { Plan, RulePlan } from "./plan-schema";

/** Errors that forbid applying anything: the declaration itself cannot be trusted. */
export function blockingErrors(plan: Plan): readonly RulePlan[] {
  return plan.rules.filter((r) => r.action === "error" && r.errorKind !== "observe-failed");
}

export interface GuardOptions {
  /** Lets every rule pass the mass-removal guard (the CLI's --allow-mass-removal). */
  readonly allowMassRemoval?: boolean;
  /** Honour each rule's own allowMassRemoval (the construct prop; the Terraform path). */
  readonly honourRuleMassRemovalFlag?: boolean;
}

/** Checks that need no request: declarations in error and the mass-removal guard. Throws when refused. */
export function checkPlanIsApplicable(plan: Plan, options: GuardOptions): void {
  const blocking = blockingErrors(plan);
  if (blocking.length > 0) {
    throw new UnresolvedRulesError(
      "nothing was applied: the declaration has errors that must be fixed first:\n" +
        blocking.map((r) => `  ${r.constructPath}: ${r.reason ?? r.errorKind ?? "error"}`).join("\n"),
    );
  }
  const guarded = plan.rules.filter(
    (r) =>
      r.action === "update" &&
      r.massRemoval.triggered &&
      !(options.allowMassRemoval === true || (options.honourRuleMassRemovalFlag === true && r.allowMassRemoval)),
  );
  if (guarded.length > 0) {
    throw new MassRemovalError(
      "nothing was applied: the mass-removal guard refused the plan:\n" +
        guarded
          .map(
            (r) =>
              `  ${r.constructPath} (rule ${r.ruleId ?? "?"}): ${r.massRemoval.lost} of ${r.massRemoval.entries} entries would leave the list (counted by user ID and by alias)`,
          )
          .join("\n"),
    );
  }
}

/** A saved plan applies only to the service and tenant it was made against. */
export function checkSameConnection(plan: Plan, connection: { readonly baseUrl: string; readonly tenantId: string }): void {
  if (plan.connection.baseUrl === connection.baseUrl && plan.connection.tenantId === connection.tenantId) return;
  throw new ConnectionMismatchError(
    `nothing was applied: the plan was made against ${plan.connection.baseUrl} (tenant ${plan.connection.tenantId}), ` +
      `but this run is configured for ${connection.baseUrl} (tenant ${connection.tenantId}).`,
  );
}

/** What a fresh read of a planned rule found: its list's fingerprint, or why it could not be read. */
export type FreshRead = { readonly ok: true; readonly fingerprint: string } | { readonly ok: false; readonly message: string };

/**
 * The staleness comparison of a saved plan (or of a plan that waited for confirmation, `when:
 * "confirmed"`): each rule it changes against a fresh read of that rule. Throws a StalePlanError
 * naming every rule whose list differs (or could not be read), with `notes[i]` beside the i-th rule.
 */
export function checkFresh(rules: readonly RulePlan[], reads: readonly FreshRead[], when: "saved" | "confirmed" = "saved", notes: readonly (string | null)[] = []): void {
  const changed = rules.flatMap((rule, i) => {
    const read = reads[i];
    if (read === undefined || !read.ok) return [`${rule.constructPath}: could not be read again (${read?.message ?? "not read"})`];
    const note = notes[i] ?? null;
    return read.fingerprint === rule.fingerprint ? [] : [`${rule.constructPath} (rule ${rule.ruleId ?? "?"})${note === null ? "" : `: ${note}`}`];
  });
  if (changed.length > 0) {
    throw new StalePlanError(
      (when === "saved"
        ? "nothing was applied: the saved plan is stale, these lists changed since it was made:\n"
        : "nothing was applied: these lists changed while the plan waited for confirmation (run apply again to see the new plan):\n") +
        changed.map((s) => `  ${s}`).join("\n"),
      changed,
    );
  }
}
