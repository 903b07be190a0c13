/**
 * A provider Terraform runs from a given bundle instead of the installed one: an executable that
 * runs `node` on the bundle, in a directory a CLI configuration's `dev_overrides` entry points at.
 * The floor provider's plans (floor-plan.ts) and `npm run bench:turns` (bench/turns.ts) run their
 * providers so, in the same working directory, configuration and state as the installed one.
 */
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Writes the executable and the CLI configuration under `dir`; the environment that makes Terraform use them. */
export function devOverride(dir: string, node: string, args: readonly string[]): { readonly TF_CLI_CONFIG_FILE: string } {
  const bin = join(dir, "bin");
  mkdirSync(bin, { recursive: true });
  const executable = join(bin, "terraform-provider-alertrules");
  writeFileSync(executable, `#!/bin/sh\nexec ${[node, ...args].map((part) => JSON.stringify(part)).join(" ")} "$@"\n`);
  chmodSync(executable, 0o755);
  const rc = join(dir, "override.rc");
  writeFileSync(rc, `disable_checkpoint = true\nprovider_installation {\n  dev_overrides {\n    "alert-rule-users/alertrules" = ${JSON.stringify(bin)}\n  }\n  direct {}\n}\n`);
  return { TF_CLI_CONFIG_FILE: rc };
}
