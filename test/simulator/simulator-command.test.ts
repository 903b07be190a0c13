/**
 * The `simulator` CLI command: flags, the connection hints it prints, and a clean stop on a signal.
 */
import { simulatorCommand, simulatorOptionsFromArgs } from "../../src/cli/commands/simulator";
import { redactingStream } from "../../src/cli/io";
import { main } from "../../src/cli/main";
import { UsageError } from "../../src/errors";
import { RULE_OPERATIONS } from "../../src/api/rules/schemas";
import { captureStream } from "../support/capture-stream";


async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe("simulator command", () => {
  it("serves until SIGTERM, printing the URL, the tenant and how to point the CLI at it, then exits 0", async () => {
    // given the command started with a token of its own
    const stdout = captureStream();
    const stderr = captureStream();
    const exit = simulatorCommand.run(["--port", "0", "--token", "cli-secret-token", "--tenant-id", "tenant-cli"], { stdout: stdout.stream, stderr: stderr.stream });
    await until(() => stderr.text().includes("Ctrl+C"));

    // when a request is sent to the printed URL
    const url = /export ALERTS_API_URL=(\S+)/.exec(stderr.text())?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${url}${RULE_OPERATIONS["query-users"]}`, {
      method: "POST",
      headers: { authorization: "Bearer cli-secret-token", "content-type": "application/json" },
      body: JSON.stringify({ tenantId: "tenant-cli", ruleId: "unknown" }),
    });
    expect(response.status).toBe(404);

    // then a signal stops it cleanly
    process.emit("SIGTERM");
    expect(await exit).toBe(0);
    expect(stderr.text()).toContain("export ALERTS_TENANT_ID=tenant-cli");
    expect(stderr.text()).toContain("query-users 404");
    expect(stderr.text()).not.toContain("cli-secret-token");
    expect(stdout.text()).toBe("");
  });

  it("prints the default token when none is given", async () => {
    const stderr = captureStream();
    const exit = simulatorCommand.run([], { stdout: captureStream().stream, stderr: stderr.stream });
    await until(() => stderr.text().includes("Ctrl+C"));
    process.emit("SIGINT");
    expect(await exit).toBe(0);
    expect(stderr.text()).toContain("export ALERTS_API_TOKEN=local-simulator-token");
  });

  it("prints help on stdout with --help", async () => {
    const stdout = captureStream();
    expect(await simulatorCommand.run(["--help"], { stdout: stdout.stream, stderr: captureStream().stream })).toBe(0);
    expect(stdout.text()).toContain("Usage: alert-rule-users simulator");
    expect(stdout.text()).toContain("--lost-response-rate");
  });

  it("names the default token in help without '[REDACTED]' when ALERTS_API_TOKEN holds it", async () => {
    // given the CLI's output, which redacts the value of ALERTS_API_TOKEN, and that variable set to the default token
    const env = { ALERTS_API_TOKEN: "local-simulator-token" };
    const stdout = captureStream();
    const io = { stdout: redactingStream(stdout.stream as never, () => ["local-simulator-token"]), stderr: captureStream().stream, stdin: process.stdin, env, cwd: process.cwd() };

    // when
    expect(await main(["simulator", "--help"], io)).toBe(0);

    // then help says where the default is, and prints neither the value nor the redaction mark
    expect(stdout.text()).toContain("(default: the built-in simulator token, which your ALERTS_API_TOKEN already holds)");
    expect(stdout.text()).toContain("# ALERTS_API_TOKEN: already set to the default simulator token");
    expect(stdout.text()).not.toContain("[REDACTED]");
    expect(stdout.text()).not.toContain("local-simulator-token");
  });

  it("shows the real default token in help when ALERTS_API_TOKEN holds another value or is unset", async () => {
    // given
    for (const env of [{ ALERTS_API_TOKEN: "a-real-token" }, {}]) {
      const stdout = captureStream();

      // when
      expect(await simulatorCommand.run(["--help"], { stdout: stdout.stream, stderr: captureStream().stream, env })).toBe(0);

      // then
      expect(stdout.text()).toContain("--token T                 bearer token to require (default: local-simulator-token)");
      expect(stdout.text()).toContain("export ALERTS_API_TOKEN=local-simulator-token   # or the token given with --token");
    }
  });

  it("turns flags into simulator options", () => {
    const parsed = simulatorOptionsFromArgs([
      "--port", "8080", "--data", "state.json", "--latency-ms", "5", "--fail-rate", "0.25", "--lost-response-rate", "0",
      "--rate-limit-every", "10", "--retry-after", "0", "--fault-seed", "42",
    ]);
    expect(parsed).toEqual({
      help: false,
      options: {
        port: 8080,
        dataFile: "state.json",
        faults: { latencyMs: 5, failRate: 0.25, lostResponseRate: 0, rateLimitEvery: 10, retryAfterSeconds: 0, seed: 42 },
      },
    });
  });

  it.each([
    [["--port", "abc"], "--port"],
    [["--port", "70000"], "--port"],
    [["--fail-rate", "2"], "--fail-rate"],
    [["--lost-response-rate", "x"], "--lost-response-rate"],
    [["--latency-ms", "-1"], "--latency-ms"],
    [["--rate-limit-every", "1.5"], "--rate-limit-every"],
    [["--retry-after", ""], "--retry-after"],
    [["--fault-seed", "seed"], "--fault-seed"],
    [["--token", ""], "--token"],
    [["--tenant-id", "a b"], "--tenant-id"],
    [["--seed-file", "/does/not/exist.json"], "--seed-file"],
    [["--colour"], "--colour"],
    [["extra"], "extra"],
  ])("refuses %j with a UsageError naming %s", (argv, flag) => {
    expect(() => simulatorOptionsFromArgs(argv)).toThrow(UsageError);
    expect(() => simulatorOptionsFromArgs(argv)).toThrow(flag);
  });
});
