/**
 * A person at a terminal sees each retry on stderr (a closed port used to leave the screen blank
 * for the whole backoff); logs and CI output (not a TTY) stay as they were.
 */
import { main } from "../../src/cli/main";
import type { Io } from "../../src/cli/io";
import { describeRetry, retryNotice } from "../../src/cli/retry-notice";
import { DEFAULT_RETRY_POLICY } from "../../src/api/http/retry";
import { useSimulator } from "../support/simulator";
import { captureStream } from "../support/capture-stream";


describe("describeRetry", () => {
  it.each([
    [{ failure: "ECONNREFUSED" }, "query-rule-metadata: connection refused (is the service, or the simulator, running at that address?) at http://127.0.0.1:1; retrying in 0.4 s (attempt 2 of at most 10)"],
    [{ failure: "timeout" }, "query-rule-metadata: no answer within the timeout at http://127.0.0.1:1; retrying in 0.4 s (attempt 2 of at most 10)"],
    [{ status: 503 }, "query-rule-metadata: HTTP 503; retrying in 0.4 s (attempt 2 of at most 10)"],
    [{ status: 429 }, "query-rule-metadata: the service asked to slow down (429); retrying in 0.4 s (attempt 2 of at most 21)"],
    [{ status: 401, retryInMs: 0 }, "query-rule-metadata: the token was refused (401); sending it again, once, with a new token from the token command"],
  ])("says what failed, when the next try comes and how many are left: %j", (extra, expected) => {
    // given / when
    const line = describeRetry(
      { operation: "query-rule-metadata", attempt: 1, outcome: "retry", durationMs: 3, retryInMs: 400, ...extra },
      "http://127.0.0.1:1",
      DEFAULT_RETRY_POLICY,
    );

    // then
    expect(line).toBe(expected);
  });

  it("writes one line per retry, and never shows credentials of the base URL", () => {
    // given
    const tty = captureStream(true);

    // when
    const hook = retryNotice(tty.stream, "https://me:pw@alerts.example.com/api?key=k", DEFAULT_RETRY_POLICY);
    hook?.({ operation: "query-users", attempt: 1, outcome: "retry", durationMs: 1, failure: "ECONNRESET", retryInMs: 100 });
    hook?.({ operation: "query-users", attempt: 2, outcome: "ok", durationMs: 1, status: 200 });

    // then
    expect(tty.text()).toBe("\r\x1b[2Kquery-users: connection reset at https://alerts.example.com/api; retrying in 0.1 s (attempt 2 of at most 10)\n");
  });

  it("in CI too (stderr not a TTY): the same line, without the terminal's line clearing (issue 25)", () => {
    // given
    const log = captureStream(false);

    // when
    const hook = retryNotice(log.stream, "http://127.0.0.1:1", DEFAULT_RETRY_POLICY);
    hook?.({ operation: "query-rule-metadata", attempt: 1, outcome: "retry", durationMs: 1, failure: "ECONNREFUSED", retryInMs: 400 });

    // then
    expect(log.text()).toBe(
      "query-rule-metadata: connection refused (is the service, or the simulator, running at that address?) at http://127.0.0.1:1; retrying in 0.4 s (attempt 2 of at most 10)\n",
    );
  });
});

describe("retries on the terminal, end to end", () => {
  // A service that fails a third of the requests with 503 (seeded: the same faults every run).
  const sim = useSimulator({ faults: { failRate: 0.34, seed: 7 } });

  async function importAll(isTTY: boolean): Promise<{ code: number; stderr: string }> {
    const stderr = captureStream(isTTY);
    const io: Io = {
      stdout: captureStream(false).stream,
      stderr: stderr.stream,
      stdin: process.stdin,
      env: { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId },
      cwd: process.cwd(),
    };
    const code = await main(["import", "--all"], io);
    return { code, stderr: stderr.text() };
  }

  it("shows each retry on stderr when stderr is a TTY", async () => {
    // given the flaky service / when
    const run = await importAll(true);

    // then
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/: HTTP 503; retrying in \d+\.\d s \(attempt 2 of at most 10\)\n/);
    expect(run.stderr).not.toContain(sim.token);
  });

  it("shows each retry on stderr in CI too (not a TTY), one plain line each (issue 25)", async () => {
    // given the flaky service / when
    const run = await importAll(false);

    // then
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/(^|\n)[a-z-]+: HTTP 503; retrying in \d+\.\d s \(attempt 2 of at most 10\)\n/);
    expect(run.stderr).not.toContain("\x1b[");
  });
});

describe("a refused connection, without a terminal (issue 25)", () => {
  it("prints each retry and ends with the hint to start the service or the simulator", async () => {
    // given nothing listening on the port, and stderr a log file (not a TTY)
    const stderr = captureStream(false);
    const io: Io = {
      stdout: captureStream(false).stream,
      stderr: stderr.stream,
      stdin: process.stdin,
      env: { ALERTS_API_URL: "http://127.0.0.1:9", ALERTS_API_TOKEN: "t0ken-never-shown", ALERTS_TENANT_ID: "t" },
      cwd: process.cwd(),
    };

    // when
    const code = await main(["rules", "list", "--format", "json"], io);

    // then
    expect(code).toBe(1);
    expect(stderr.text()).toMatch(/query-rule-metadata: connection refused .* retrying in \d+\.\d s \(attempt 2 of at most 10\)\n/);
    expect(stderr.text()).toMatch(/\nNothing accepted the connection: is the service, or the simulator \('npx --no alert-rule-users simulator'\), running at ALERTS_API_URL \(or --base-url\)\?\n$/);
  });
});
