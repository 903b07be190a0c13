import { readFileSync } from "node:fs";
import { join } from "node:path";

function findVersion(): string {
  // src/io (ts-jest) and dist/src/io (built) both sit below the package root.
  for (const up of ["../..", "../../.."]) {
    try {
      const pkg = JSON.parse(readFileSync(join(__dirname, up, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "alert-rule-users" && typeof pkg.version === "string") return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return "0.0.0";
}

/** The package version, recorded in every plan. */
export const TOOL_VERSION: string = findVersion();
