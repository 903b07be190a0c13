/**
 * `alert-rule-users init --hcl DIR`: writes the starter HCL configuration (src/core/init/init-hcl.ts)
 * into a new or empty directory, never over a file, and installs the native provider at hand there
 * (src/io/provider-install.ts: nothing is built or fetched), so `terraform init` in DIR works at
 * once and offline; `provider install` then writes the release's package where that one was not.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { InitFile } from "../core/init/init-files";
import { HCL_TOOL_DIR, hclWorkflowFiles, initHclFiles } from "../core/init/init-hcl";
import { packageRoot, writeInitFiles } from "./init-app";
import { installProviderAtHand } from "./provider-install";
import { lockProvider } from "./provider-package";
import type { ProviderInstall } from "./provider-install";
import { TOOL_VERSION } from "./version";
import { UsageError } from "../errors";

export interface InitHclRequest {
  /** The configuration's directory (absolute). */
  readonly dir: string;
  /** The directory as the user named it, for messages. */
  readonly shown: string;
  /** Also write the GitHub workflows for an HCL project. */
  readonly workflows: boolean;
  /** Where init runs (absolute): the workflows' root when no package.json is found above DIR. */
  readonly cwd: string;
  /** The environment (terraform on PATH writes the tool directory's lock). @default - process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/** The HCL workflows that `init --hcl --workflows` writes, by their name in examples/github-actions-hcl. */
export const HCL_WORKFLOWS = ["plan", "review", "apply", "drift"] as const;

/** The HCL project's workflows (examples/github-actions-hcl, shipped in the package), named as they go under .github/workflows. */
export function shippedHclWorkflows(): InitFile[] {
  const dir = path.join(packageRoot(), "examples", "github-actions-hcl");
  return HCL_WORKFLOWS.map((name) => ({ path: `alert-rule-users-terraform-${name}.yml`, content: fs.readFileSync(path.join(dir, `${name}.yml`), "utf8") }));
}

/** The tool directory's shipped files (examples/github-actions-hcl/alert-rule-users): ci.sh and versions.tf. */
export function shippedHclTool(): InitFile[] {
  const dir = path.join(packageRoot(), "examples", "github-actions-hcl", "alert-rule-users");
  return ["ci.sh", "versions.tf"].map((name) => ({ path: name, content: fs.readFileSync(path.join(dir, name), "utf8") }));
}

/**
 * Where the workflows go: the repository's root (GitHub reads .github/workflows/ only there): the
 * nearest directory at or above DIR that holds .git, else one that holds package.json, else the
 * directory init runs in.
 */
export function workflowRoot(dir: string, cwd: string): string {
  const nearest = (marker: string): string | null => {
    for (let at = dir; ; at = path.dirname(at)) {
      if (fs.existsSync(path.join(at, marker))) return at;
      if (path.dirname(at) === at) return null;
    }
  };
  return nearest(".git") ?? nearest("package.json") ?? cwd;
}

/**
 * Writes the configuration and installs the provider, and with `workflows` the HCL workflows at the
 * root (workflowRoot) with ALERT_RULES_DIR naming DIR; refuses (a UsageError, nothing written) when
 * DIR is a file or holds any of the files, or the root holds one of the workflows.
 */
export async function initHcl(request: InitHclRequest): Promise<{ files: readonly InitFile[]; workflows: { root: string; files: readonly InitFile[] } | null; provider: ProviderInstall | null; rootIgnore: string | null }> {
  const files = initHclFiles({ providerVersion: TOOL_VERSION });
  const root = workflowRoot(request.dir, request.cwd);
  const configDir = path.relative(root, request.dir).split(path.sep).join("/") || ".";
  const workflows = request.workflows ? hclWorkflowFiles(shippedHclWorkflows(), configDir, shippedHclTool(), TOOL_VERSION) : [];
  if (workflows.length > 0) {
    // Checked before the configuration is written: nothing is written when either is taken.
    const taken = workflows.filter((w) => fs.existsSync(path.join(root, w.path))).map((w) => w.path);
    if (taken.length > 0) throw new UsageError(`init: ${path.relative(request.cwd, root) || "."} already has ${taken.join(", ")}: nothing was written (init never overwrites a file). Move them away, or drop --workflows.`);
  }
  await writeInitFiles(request.dir, request.shown, files, "alert-rule-users init --hcl alert-rules");
  if (workflows.length > 0) {
    await writeInitFiles(root, path.relative(request.cwd, root) || ".", workflows, "alert-rule-users init --hcl alert-rules --workflows");
    fs.chmodSync(path.join(root, HCL_TOOL_DIR, "ci.sh"), 0o755);
    // the trusted pin of the workflows' tool: every platform's hash, as the configuration's own lock
    await lockProvider(path.join(root, HCL_TOOL_DIR), request.env ?? process.env);
  }
  const rootIgnore = await ignoreNodeModules(root, request.dir);
  return { files, workflows: workflows.length > 0 ? { root, files: workflows } : null, provider: installProviderAtHand({ dir: request.dir }), rootIgnore };
}

/** The `.gitignore` of the package above DIR: `node_modules/` of the package that holds alert-rule-users. */
const ROOT_GITIGNORE = "# the npm packages of package.json (npm ci installs them again)\nnode_modules/\n";

/**
 * Where alert-rule-users was installed into a package.json above DIR (the quick start's layout),
 * gives that package a `.gitignore` of `node_modules/` when it has none (never over a file): the
 * file written, or null.
 */
async function ignoreNodeModules(root: string, dir: string): Promise<string | null> {
  if (root === dir || !fs.existsSync(path.join(root, "package.json")) || fs.existsSync(path.join(root, ".gitignore"))) return null;
  await writeInitFiles(root, root, [{ path: ".gitignore", content: ROOT_GITIGNORE }], "alert-rule-users init --hcl alert-rules");
  return path.join(root, ".gitignore");
}
