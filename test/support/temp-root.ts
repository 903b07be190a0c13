/**
 * One temporary directory per test run (jest's globalSetup and globalTeardown, temp-root-setup.ts
 * and temp-root-teardown.ts): every test file, and every CLI, provider, terraform and PostgreSQL it
 * starts, writes its temporary files under it (TMPDIR, which os.tmpdir() reads and child
 * processes inherit), and it is removed when the run ends. Without it a run left some 200
 * directories behind (cdktf's Testing.app() makes an outdir per app, and nothing removes them),
 * and a machine that runs the suite again and again filled up.
 */
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const VARIABLE = "ALERT_RULE_USERS_TEST_TMPDIR";

/** The run's directory, made under the system's, and TMPDIR pointed at it. */
export function makeRunTemp(): void {
  const dir = mkdtempSync(join(tmpdir(), "aru-jest-"));
  // searchable by other users, as /tmp is (writable by none): where the tests run as root, the
  // PostgreSQL of the team CI tests runs as its own user in a directory made under this one
  // (test/support/postgres.ts); what each test makes inside keeps its own mode
  chmodSync(dir, 0o755);
  process.env[VARIABLE] = dir;
  process.env["TMPDIR"] = dir;
}

/** The run's directory removed, whatever the tests left in it. */
export function removeRunTemp(): void {
  const dir = process.env[VARIABLE];
  if (dir !== undefined && dir !== "") rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}
