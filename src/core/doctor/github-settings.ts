/**
 * `doctor --github OWNER/REPO`: where the workflows' secrets are, judged from what GitHub's API says
 * of the repository (design §13.1, docs/provider-workflows.md "Settings"). Repository and
 * organization secrets reach every workflow that any branch pushes; only an environment whose
 * deployment branches are the default branch keeps a secret out of a branch's reach. Pure: the
 * API's answers come in as data.
 */

/** The secrets the workflows read (the token, the token command's client secret, the plan key, a backend's credentials). */
export const WORKFLOW_SECRETS = ["ALERTS_API_TOKEN", "ALERTS_CLIENT_SECRET", "ALERT_RULE_USERS_PLAN_KEY", "PG_CONN_STR", "AWS_SECRET_ACCESS_KEY", "ARM_CLIENT_SECRET"] as const;

/** What the API said of the repository and its environment. */
export interface GithubSettings {
  readonly repository: string;
  readonly defaultBranch: string;
  /** Names of the repository's secrets (null: the token may not list them). */
  readonly repositorySecrets: readonly string[] | null;
  /** Names of the organization's secrets this repository gets (null: not readable). */
  readonly organizationSecrets: readonly string[] | null;
  readonly environment: string;
  /** The environment, or null when the repository has none of that name. */
  readonly environmentFound: {
    /** null: any branch may deploy. */
    readonly policy: { readonly protectedBranches: boolean; readonly customBranchPolicies: boolean } | null;
    /** The custom branch policies' names (with customBranchPolicies). */
    readonly branches: readonly string[];
    /** Names of the environment's secrets (null: not readable). */
    readonly secrets: readonly string[] | null;
  } | null;
}

export type GithubCheck = { readonly check: "github-secrets" | "github-environment"; readonly status: "pass" | "fail" | "skip"; readonly message: string; readonly fix?: string };

const inWorkflows = (names: readonly string[]): string[] => names.filter((n) => (WORKFLOW_SECRETS as readonly string[]).includes(n));

/** The verdicts: no workflow secret outside the environment; the environment deploys from the default branch only and holds the secrets. */
export function githubChecks(s: GithubSettings): GithubCheck[] {
  const out: GithubCheck[] = [];
  const exposed = [...inWorkflows(s.repositorySecrets ?? []).map((n) => `${n} (repository)`), ...inWorkflows(s.organizationSecrets ?? []).map((n) => `${n} (organization)`)];
  if (exposed.length > 0) {
    out.push({
      check: "github-secrets",
      status: "fail",
      message: `${exposed.join(", ")}: ${exposed.length === 1 ? "a secret" : "secrets"} that every workflow any branch pushes can read`,
      fix: `Move ${exposed.length === 1 ? "it" : "them"} into the environment ${s.environment} (Settings, Environments, ${s.environment}, Environment secrets) and delete the repository or organization ${exposed.length === 1 ? "secret" : "secrets"}.`,
    });
  } else if (s.repositorySecrets === null) {
    out.push({ check: "github-secrets", status: "skip", message: "the repository's secrets could not be listed", fix: "Give doctor a token that may read the repository's secrets (a fine-grained token with Secrets: read), as GITHUB_TOKEN." });
  } else {
    out.push({ check: "github-secrets", status: "pass", message: `no workflow secret is a repository${s.organizationSecrets === null ? "" : " or organization"} secret of ${s.repository}` });
  }
  const env = s.environmentFound;
  if (env === null) {
    out.push({ check: "github-environment", status: "fail", message: `${s.repository} has no environment ${s.environment}`, fix: `Create it (Settings, Environments, New environment: ${s.environment}), limit its deployment branches to ${s.defaultBranch}, and put the workflows' secrets there.` });
    return out;
  }
  const onlyDefault = env.policy !== null && env.policy.customBranchPolicies && env.branches.length > 0 && env.branches.every((b) => b === s.defaultBranch);
  if (!onlyDefault) {
    const now = env.policy === null ? "every branch may deploy to it" : env.policy.protectedBranches ? "every protected branch may deploy to it" : `the branches ${env.branches.join(", ") || "(none)"} may deploy to it`;
    out.push({ check: "github-environment", status: "fail", message: `${s.environment}: ${now}`, fix: `Settings, Environments, ${s.environment}, Deployment branches and tags: "Selected branches and tags", with the one rule ${s.defaultBranch}. A branch that may deploy to it can push a workflow that reads its secrets.` });
    return out;
  }
  const missing = env.secrets === null ? [] : ["ALERT_RULE_USERS_PLAN_KEY"].filter((n) => !env.secrets!.includes(n));
  const token = env.secrets === null || env.secrets.includes("ALERTS_API_TOKEN") || env.secrets.includes("ALERTS_CLIENT_SECRET");
  if (missing.length > 0 || !token) {
    const absent = [...(token ? [] : ["ALERTS_API_TOKEN (or ALERTS_CLIENT_SECRET with a token command)"]), ...missing];
    out.push({ check: "github-environment", status: "fail", message: `${s.environment} deploys from ${s.defaultBranch} only, but holds no ${absent.join(" and no ")}`, fix: `Add ${absent.join(" and ")} to the environment's secrets.` });
    return out;
  }
  out.push({ check: "github-environment", status: "pass", message: `${s.environment} deploys from ${s.defaultBranch} only${env.secrets === null ? "" : ` and holds ${inWorkflows(env.secrets).join(", ")}`}` });
  return out;
}
