/**
 * What to do next, by error code: the hints that name commands and flags live here, in the CLI,
 * so the core and io layers say what happened and the CLI says how to go on.
 */
import { ApiError } from "../io/workflow";
import type { AlertRuleUsersError, ErrorCode } from "../errors";

const HINTS: Partial<Record<ErrorCode, string>> = {
  STALE_PLAN: "Plan again ('alert-rule-users plan --out FILE', or 'apply' without a file), review it, and apply the new plan.",
  CONNECTION_MISMATCH:
    "Plan again against this service and tenant, or point ALERTS_API_URL / ALERTS_TENANT_ID (or --base-url / --tenant-id) at the planned one.",
  MASS_REMOVAL: "If this is intended, apply again with --allow-mass-removal (on the Terraform path: set allowMassRemoval: true on the RuleUserList).",
  CHANGED_SINCE: "Nothing was read from the service. Fix the cause above, or drop --changed-since for a full plan that reads every rule.",
  PLAN_FILE: "Plan again with 'alert-rule-users plan --out FILE' and apply the new file unmodified.",
};

/** Nothing listens at the address: the usual cause when trying the tool, said in CI logs too. */
const REFUSED_HINT =
  "Nothing accepted the connection: is the service, or the simulator ('npx alert-rule-users simulator'), running at ALERTS_API_URL (or --base-url)?";

/** The hint line for an error, or null when the message says all there is. */
export function hintFor(error: AlertRuleUsersError): string | null {
  if (error instanceof ApiError && error.networkCode === "ECONNREFUSED") return REFUSED_HINT;
  return HINTS[error.code] ?? null;
}
