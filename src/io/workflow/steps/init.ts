/** `init`: the files of a new app (src/core/init/init-files.ts) written into a new or empty directory, never over a file. */
import { basename } from "node:path";
import type { InitFile } from "../../../core/init/init-files";
import { initFiles } from "../../../core/init/init-files";
import { initVersions, shippedWorkflows, writeInitFiles } from "../../init-app";

export interface InitRequest {
  /** The app's directory (absolute). */
  readonly dir: string;
  /** The directory as the user named it, for messages. */
  readonly shown: string;
  /** The dependency spec of alert-rule-users in the app's package.json. @default - ^ this version */
  readonly packageSpec?: string;
  /** Also write the GitHub workflows. */
  readonly workflows: boolean;
  /** The CDK of the app (src/core/init/init-files.ts). @default "cdktf" */
  readonly framework?: "cdktf" | "cdktn";
}

/** Writes the app; refuses (a UsageError, nothing written) when the directory is a file or holds any of the files. */
export async function initApp(request: InitRequest): Promise<readonly InitFile[]> {
  const { toolVersion, versions } = initVersions();
  const files = initFiles({
    dirName: basename(request.dir),
    packageSpec: request.packageSpec ?? `^${toolVersion}`,
    versions,
    ...(request.framework === undefined ? {} : { framework: request.framework }),
    ...(request.workflows ? { workflows: shippedWorkflows() } : {}),
  });
  await writeInitFiles(request.dir, request.shown, files, "alert-rule-users init my-alert-rules");
  return files;
}
