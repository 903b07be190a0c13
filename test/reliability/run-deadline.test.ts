/**
 * One deadline for the whole run (issue 25 item 10): `--run-deadline SECONDS` or
 * ALERT_RULE_USERS_RUN_DEADLINE_SECONDS bounds every request of a command that talks to the
 * service, retries and waits included. A service that answers 429 forever used to keep `rules
 * list` busy for minutes (20 waits per request, request after request); with a deadline the run
 * ends there, with a read-limit error that names the variable and the flag.
 */
import { HttpTransport, ReadLimitError, usersInRuleResponseSchema } from "../../src/api";
import { runCli, workspace, type Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { SAMPLE, ruleIdOf } from "../simulator/helpers";
import { env } from "./support";

const sim = useSimulator();
let ws: Workspace;
beforeAll(() => {
  ws = workspace([{ name: "s", lists: [{ id: "list", props: { ruleId: ruleIdOf(sim, SAMPLE.byName), users: [{ userId: "1", aliases: ["a@example.com"] }] } }] }]);
});
afterAll(() => ws.cleanup());
beforeEach(() => {
  // given a service that answers every request 429, Retry-After: 1
  sim.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 1 });
  sim.resetCounts();
});

const simEnv = (extra: NodeJS.ProcessEnv = {}) => ({ ...env(sim.url, sim.token, sim.tenantId), ...extra });

describe("a service that answers 429 forever", () => {
  it.each([
    ["rules list, deadline from the environment", ["rules", "list", "--format", "json"], { ALERT_RULE_USERS_RUN_DEADLINE_SECONDS: "2" }],
    ["rules list, deadline from --run-deadline", ["rules", "list", "--format", "json", "--run-deadline", "2"], {}],
    ["alerts search", ["alerts", "search", "--format", "json", "--run-deadline", "2"], {}],
    ["plan", ["plan", "--format", "json", "--run-deadline", "2"], {}],
    ["who", ["who", "a@example.com", "--no-app", "--format", "json", "--run-deadline", "2"], {}],
  ])("%s: the run ends at its deadline, naming the limit", async (_name, args, extra) => {
    // when
    const result = await runCli(args, { cwd: ws.dir, env: simEnv(extra) });
    // then it stopped at the run's deadline, saying which limit and how to raise it
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/stopped: the run's deadline of 2 s .*passed/);
    expect(result.stderr).toMatch(/ALERT_RULE_USERS_RUN_DEADLINE_SECONDS/);
    expect(result.stderr).toMatch(/--run-deadline/);
    // and far fewer requests were made than 20 waited-out 429s of one request
    expect(sim.requestLog().length).toBeLessThan(10);
  });
});

describe("the transport", () => {
  it("ends a request at the run's deadline when that comes before the request's own", async () => {
    // given a run deadline 1.5 s away and a request deadline of 5 minutes
    const transport = new HttpTransport({ baseUrl: sim.url, token: sim.token, runDeadline: { at: Date.now() + 1500, ms: 1500, source: "--run-deadline" } });
    // when
    const error = await transport
      .post("query-users", "/v1/alert-rules/query-users", { tenantId: sim.tenantId, ruleId: ruleIdOf(sim, SAMPLE.byName) }, usersInRuleResponseSchema, { accept: "text/plain", idempotent: true })
      .then(() => undefined, (e: unknown) => e);
    // then
    expect(error).toBeInstanceOf(ReadLimitError);
    expect(error).toMatchObject({ limit: "run-deadline" });
    expect((error as Error).message).toMatch(/the run's deadline of 1\.5 s \(--run-deadline\) passed/);
  });
});
