/**
 * What to do next, by error code: the hints that name commands and flags live here, in the CLI,
 * so the core and io layers say what happened and the CLI says how to go on.
 */
import { ApiError } from "../io/door-words";
import type { AlertRuleUsersError, ErrorCode } from "../errors";

/**
 * The CLI as a command that runs in an app, where alert-rule-users is a dependency and not on
 * PATH: every hint that names a command to run uses it. `--no`: never download a package of that
 * name from the registry (outside the app, npx would otherwise fetch and run whatever is published
 * under it, with the token in its environment).
 */
export const CLI_IN_APP = "npx --no alert-rule-users";

const HINTS: Partial<Record<ErrorCode, string>> = {
  STALE_PLAN: `Plan again ('${CLI_IN_APP} plan --out FILE', or 'apply' without a file), review it, and apply the new plan.`,
  CONNECTION_MISMATCH:
    "Plan again against this service and tenant, or point ALERTS_API_URL / ALERTS_TENANT_ID (or --base-url / --tenant-id) at the planned one.",
  MASS_REMOVAL: "If this is intended, apply again with --allow-mass-removal (on the Terraform path: set allowMassRemoval: true on the RuleUserList).",
  CHANGED_SINCE: "Nothing was read from the service. Fix the cause above, or drop --changed-since for a full plan that reads every rule.",
  PLAN_FILE: `Plan again with '${CLI_IN_APP} plan --out FILE' and apply the new file unmodified.`,
};

/** Nothing listens at the address: the usual cause when trying the tool, said in CI logs too. */
const REFUSED_HINT =
  `Nothing accepted the connection: is the service, or the simulator ('${CLI_IN_APP} simulator'), running at ALERTS_API_URL (or --base-url)?`;

/**
 * The same hints where the run is a CI job (GitHub Actions, or any CI that sets CI=true): there a
 * person reads the log after the fact and acts through the workflows, not by typing a command.
 */
const CI_HINTS: Partial<Record<ErrorCode, string>> = {
  STALE_PLAN:
    "A list changed since the reviewed plan was made: nothing was sent. Re-run the pull request's plan (push a commit, or re-run its plan workflow), review the new comment, then run this workflow again; or run the apply workflow by hand (workflow_dispatch).",
  MASS_REMOVAL: "If this is intended, run the apply workflow by hand with its allow-mass-removal input (workflow_dispatch), or set allowMassRemoval: true on the RuleUserList in a reviewed pull request.",
  PLAN_FILE: "The plan artifact is not the one the plan workflow wrote (or its key differs): re-run the pull request's plan workflow, then run this workflow again.",
};

/** Nothing listens at the address, said for a CI job: the repository variable is what to check. */
const CI_REFUSED_HINT = "Nothing accepted the connection at ALERTS_API_URL: check the repository (or environment) variable ALERTS_API_URL and that the service is reachable from the runner.";

/** Whether the run is a CI job (GitHub Actions sets both; most CIs set CI=true). */
export function inCi(env: NodeJS.ProcessEnv): boolean {
  const ci = (env["CI"] ?? "").trim().toLowerCase();
  return env["GITHUB_ACTIONS"] === "true" || ci === "true" || ci === "1";
}

/** The hint line for an error, or null when the message says all there is; in CI, the workflow's words. */
export function hintFor(error: AlertRuleUsersError, env: NodeJS.ProcessEnv = {}): string | null {
  const ci = inCi(env);
  if (error instanceof ApiError && error.networkCode === "ECONNREFUSED") return ci ? CI_REFUSED_HINT : REFUSED_HINT;
  return (ci ? CI_HINTS[error.code] : undefined) ?? HINTS[error.code] ?? null;
}
