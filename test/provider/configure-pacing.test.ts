/**
 * The provider block's pacing arguments and their environment variables (max_rps /
 * ALERT_RULE_USERS_MAX_RPS, request_timeout / ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS, run_timeout /
 * ALERT_RULE_USERS_RUN_DEADLINE_SECONDS), and connection messages in the block's words: a
 * token_command set in the block is named token_command, never ALERTS_API_TOKEN_COMMAND.
 */
import { pacingOf, sessionRequest } from "../../src/provider/configure";
import { providerSchema } from "../../src/provider/schema";
import { providerModel } from "../../src/provider/provider-model";
import type { SessionRequest } from "../../src/io/workflow/session/connect";
import type { Value } from "../../src/provider/protocol";
import { useSimulator } from "../support/simulator";
import { configuredProvider, decoded, errorsOf } from "./support";

const sim = useSimulator();
const block = (values: Record<string, Value>) => providerModel.decode(decoded(providerSchema, values));
const request = (values: Record<string, Value>, env: NodeJS.ProcessEnv = {}): SessionRequest => {
  const made = sessionRequest(block(values), env, "/tmp", () => undefined, () => undefined);
  if (Array.isArray(made)) throw new Error(JSON.stringify(made));
  return made;
};

describe("the provider's pacing arguments", () => {
  it("take durations for the deadlines and hand them on as the CLI's variables, in seconds; a value in the block wins over the environment", () => {
    const made = request({ request_timeout: "90s", run_timeout: "2h" }, { ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS: "30" });
    expect(made.env["ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS"]).toBe("90");
    expect(made.env["ALERT_RULE_USERS_RUN_DEADLINE_SECONDS"]).toBe("7200");
    // unset in the block: the environment's value is the session's
    expect(request({}, { ALERT_RULE_USERS_RUN_DEADLINE_SECONDS: "600" }).env["ALERT_RULE_USERS_RUN_DEADLINE_SECONDS"]).toBe("600");
  });

  it("read max_rps from ALERT_RULE_USERS_MAX_RPS when the block does not set it", () => {
    expect(request({}, { ALERT_RULE_USERS_MAX_RPS: "2.5" }).maxRps).toEqual({ rps: 2.5, given: "ALERT_RULE_USERS_MAX_RPS=2.5" });
    expect(request({ max_rps: 4 }, { ALERT_RULE_USERS_MAX_RPS: "2.5" }).maxRps).toEqual({ rps: 4, given: "max_rps = 4" });
    expect(request({}).maxRps).toBeUndefined();
  });

  it("refuse every invalid value at once, each naming where it came from", () => {
    const problems = pacingOf(block({ request_timeout: "soon", run_timeout: "100d" }), { ALERT_RULE_USERS_MAX_RPS: "fast" });
    expect(Array.isArray(problems) && problems.map((p) => [p.summary, p.attribute])).toEqual([
      ["Invalid max_rps", undefined],
      ["Invalid request_timeout", ["request_timeout"]],
      ["Invalid run_timeout", ["run_timeout"]],
    ]);
    expect(Array.isArray(problems) && problems[0]!.detail).toContain("ALERT_RULE_USERS_MAX_RPS=fast");
  });

  it("say in the block's words when the pace cannot fit in the request deadline", async () => {
    const { diagnostics } = await configuredProvider(sim, { request_timeout: "10s" }, { ALERT_RULE_USERS_MAX_RPS: "0.01" });
    expect(errorsOf(diagnostics)).toHaveLength(1);
    expect(diagnostics[0]!.detail).toMatch(/ALERT_RULE_USERS_MAX_RPS=0\.01 sends one request every 100 s.*Use max_rps = 0\.1 or more, or raise request_timeout/s);
    expect(diagnostics[0]!.detail).not.toContain("--max-rps");
  });
});

describe("connection messages in the provider block's words", () => {
  it("name token_command, set in the block, as token_command (not ALERTS_API_TOKEN_COMMAND)", async () => {
    const { diagnostics } = await configuredProvider(sim, { token_command: "exit 3" }, { ALERTS_API_TOKEN: "" });
    const detail = errorsOf(diagnostics).map((d) => d.detail ?? "").join("\n");
    expect(detail).toContain("token_command");
    expect(detail).not.toContain("ALERTS_API_TOKEN_COMMAND");
    expect(detail).not.toContain("--token-command");
  });

  it("name url, set in the block, as url", async () => {
    const { diagnostics } = await configuredProvider(sim, { url: "ftp://example.com" });
    const detail = errorsOf(diagnostics).map((d) => d.detail ?? "").join("\n");
    expect(detail).toMatch(/\burl is invalid/);
    expect(detail).not.toContain("ALERTS_API_URL is invalid");
  });

  it("keep the environment's token command when the block sets none", () => {
    expect(request({}, { ALERTS_API_TOKEN_COMMAND: "print-token" }).env["ALERTS_API_TOKEN_COMMAND"]).toBe("print-token");
    expect(request({ token_command: "mine" }, { ALERTS_API_TOKEN_COMMAND: "print-token", ALERTS_API_TOKEN: "t" })).toMatchObject({ tokenCommand: "mine" });
  });
});
