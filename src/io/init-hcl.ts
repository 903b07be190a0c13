/**
 * `alert-rule-users init --hcl DIR`: writes the starter HCL configuration (src/core/init-hcl.ts)
 * into a new or empty directory, never over a file, and installs the native provider there
 * (src/io/provider-install.ts), so `terraform init` in DIR works at once and offline.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { InitFile } from "../core/init-files";
import { initHclFiles } from "../core/init-hcl";
import { packageRoot, writeInitFiles } from "./init-app";
import { installProvider } from "./provider-install";
import type { ProviderInstall } from "./provider-install";
import { TOOL_VERSION } from "./version";

export interface InitHclRequest {
  /** The configuration's directory (absolute). */
  readonly dir: string;
  /** The directory as the user named it, for messages. */
  readonly shown: string;
  /** Also write the GitHub workflows for an HCL project. */
  readonly workflows: boolean;
}

/** The HCL project's workflows (examples/github-actions-hcl, shipped in the package), named as they go under .github/workflows. */
export function shippedHclWorkflows(): InitFile[] {
  const dir = path.join(packageRoot(), "examples", "github-actions-hcl");
  return ["plan", "apply", "drift"].map((name) => ({ path: `alert-rule-users-terraform-${name}.yml`, content: fs.readFileSync(path.join(dir, `${name}.yml`), "utf8") }));
}

/** Writes the configuration and installs the provider; refuses (a UsageError, nothing written) when DIR is a file or holds any of the files. */
export async function initHcl(request: InitHclRequest): Promise<{ files: readonly InitFile[]; provider: ProviderInstall }> {
  const files = initHclFiles({ providerVersion: TOOL_VERSION, ...(request.workflows ? { workflows: shippedHclWorkflows() } : {}) });
  await writeInitFiles(request.dir, request.shown, files, "alert-rule-users init --hcl alert-rules");
  return { files, provider: installProvider({ dir: request.dir }) };
}
