/**
 * What GitHub's API says of a repository's secrets and its workflows' environment, for
 * `doctor --github OWNER/REPO` (src/core/doctor/github-settings.ts decides). Reads only, with the
 * token of GITHUB_TOKEN (or GH_TOKEN), from GITHUB_API_URL (default https://api.github.com); every
 * answer checked with zod; a list the token may not read is null, never a guess.
 */
import { z } from "zod";
import { ConfigError } from "../errors";
import { registerSecret } from "../api/http/redact";
import type { GithubSettings } from "../core/doctor/github-settings";

const named = z.object({ secrets: z.array(z.object({ name: z.string() })) });

/** The repository's settings as doctor reads them; throws a ConfigError naming what is missing or what failed. */
export async function readGithubSettings(repository: string, environment: string, env: NodeJS.ProcessEnv): Promise<GithubSettings> {
  if (!/^[A-Za-z0-9_.-]+\/[A-Za-z0-9_.-]+$/.test(repository)) throw new ConfigError(`doctor: --github takes OWNER/REPO (e.g. acme/alert-rules), not ${JSON.stringify(repository)}.`);
  const token = env["GITHUB_TOKEN"] ?? env["GH_TOKEN"];
  if (token === undefined || token === "") throw new ConfigError("doctor --github reads the repository's settings with a token: set GITHUB_TOKEN (a fine-grained token of the repository with Administration, Environments and Secrets: read).");
  registerSecret(token);
  const api = (env["GITHUB_API_URL"] ?? "https://api.github.com").replace(/\/+$/, "");
  const get = async <T>(path: string, schema: z.ZodType<T>): Promise<T | null> => {
    let response: Response;
    try {
      response = await fetch(`${api}/repos/${repository}${path}`, { headers: { authorization: `Bearer ${token}`, accept: "application/vnd.github+json", "x-github-api-version": "2022-11-28" }, signal: AbortSignal.timeout(30_000) });
    } catch (err) {
      throw new ConfigError(`doctor --github: ${api} cannot be reached (${err instanceof Error ? err.message : String(err)}).`);
    }
    if (response.status === 404 || response.status === 403) return null;
    if (!response.ok) throw new ConfigError(`doctor --github: GitHub answered ${response.status} to GET /repos/${repository}${path}.`);
    const parsed = schema.safeParse(await response.json());
    if (!parsed.success) throw new ConfigError(`doctor --github: GitHub's answer to GET /repos/${repository}${path} is not what its API documents:\n${z.prettifyError(parsed.error)}`);
    return parsed.data;
  };
  const repo = await get("", z.object({ default_branch: z.string() }));
  if (repo === null) throw new ConfigError(`doctor --github: ${repository} cannot be read with this token (404 or 403): check the name and the token's repository access.`);
  const names = (answer: z.infer<typeof named> | null): string[] | null => (answer === null ? null : answer.secrets.map((s) => s.name));
  const environmentPath = `/environments/${encodeURIComponent(environment)}`;
  const found = await get(environmentPath, z.object({ deployment_branch_policy: z.object({ protected_branches: z.boolean(), custom_branch_policies: z.boolean() }).nullable().optional() }));
  const branches = found?.deployment_branch_policy?.custom_branch_policies === true ? await get(`${environmentPath}/deployment-branch-policies`, z.object({ branch_policies: z.array(z.object({ name: z.string() })) })) : null;
  return {
    repository,
    defaultBranch: repo.default_branch,
    repositorySecrets: names(await get("/actions/secrets", named)),
    organizationSecrets: names(await get("/actions/organization-secrets", named)),
    environment,
    environmentFound:
      found === null
        ? null
        : {
            policy: found.deployment_branch_policy === null || found.deployment_branch_policy === undefined ? null : { protectedBranches: found.deployment_branch_policy.protected_branches, customBranchPolicies: found.deployment_branch_policy.custom_branch_policies },
            branches: branches?.branch_policies.map((b) => b.name) ?? [],
            secrets: names(await get(`${environmentPath}/secrets`, named)),
          },
  };
}
