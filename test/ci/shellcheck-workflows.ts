/**
 * `npm run lint:workflows`: shellcheck on every `run:` block of the example workflows and of
 * action.yml (test/ci/run-blocks.ts). shellcheck is a Debian package (`apt-get install shellcheck`),
 * not an npm one: where it is not on PATH this says so plainly and exits 0, so `npm test` and CI
 * still pass on a machine without it; `bash -n` on the same blocks always runs (in the jest tests).
 *
 * Exit codes: 0 every block passed (or shellcheck is not installed: said on stdout), 1 findings.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { actionFiles, asBashFile, runBlocks } from "./run-blocks";

function main(): number {
  const version = spawnSync("shellcheck", ["--version"], { encoding: "utf8" });
  if (version.error !== undefined || version.status !== 0) {
    console.log("shellcheck NOT run: shellcheck is not on PATH (Debian: apt-get install shellcheck). The run: blocks were only checked with bash -n (npm test).");
    return 0;
  }
  const blocks = actionFiles().flatMap(runBlocks).filter((b) => b.shell === "bash" || b.shell === "sh");
  const dir = mkdtempSync(join(tmpdir(), "aru-shellcheck-"));
  let failed = 0;
  try {
    blocks.forEach((block, i) => {
      const file = join(dir, `block-${i}.sh`);
      writeFileSync(file, asBashFile(block));
      const result = spawnSync("shellcheck", ["--shell=bash", "--severity=style", "--format=gcc", file], { encoding: "utf8" });
      if (result.status !== 0) {
        failed += 1;
        console.log(`FAIL ${block.file} ${block.where}\n${(result.stdout + result.stderr).replaceAll(file, "script")}`);
      }
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const shellcheckVersion = /version: (\S+)/.exec(version.stdout)?.[1] ?? "?";
  console.log(`shellcheck ${shellcheckVersion}: ${blocks.length - failed} passed, ${failed} failed (run: blocks of ${actionFiles().join(", ")})`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = main();
