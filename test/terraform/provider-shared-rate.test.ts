/**
 * One rate for the run, with real Terraform (design §13.2): `max_rps` bounds every provider process
 * of one Terraform command together. Two provider configurations (two processes in each walk) under
 * ALERT_RULE_USERS_MAX_RPS=2 each create lists; the simulator's log of arrivals shows requests
 * 500 ms apart whichever process sent them, through the plan and the apply (before: each process
 * kept its own 2 a second, and the service saw 4). Run by `npm run test:terraform`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { CLI, runCommand } from "../support/cli";
import { RULES } from "../support/sample";
import { MINUTES, explain, providerTestEnv, tfIn } from "./support";

const TOKEN = "provider-shared-rate-token-5d1c";
const sim = useSimulator({ token: TOKEN });
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "alertrules-shared-rate-"));
  writeFileSync(join(dir, "terraform.rc"), "disable_checkpoint = true\n");
  const done = await runCommand(process.execPath, [CLI, "provider", "install", dir], { cwd: dir, env: { PATH: process.env["PATH"], HOME: process.env["HOME"] }, timeoutMs: 2 * MINUTES });
  if (done.code !== 0) throw new Error(explain("alert-rule-users provider install", done));
}, 3 * MINUTES);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const tf = tfIn({ cwd: () => dir, env: () => ({ ...providerTestEnv(dir, sim, TOKEN), ALERT_RULE_USERS_MAX_RPS: "2" }), noColor: true });

/** The most requests that arrived in any window of `ms`. */
function mostInWindow(times: readonly number[], ms: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (sorted[i]! - sorted[j]! >= ms) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}
const mostInASecond = (times: readonly number[]): number => mostInWindow(times, 1_000);

const list = (name: string, ruleId: string, provider: string | null, userId: string): string =>
  `resource "alertrules_rule_user_list" ${JSON.stringify(name)} {\n${provider === null ? "" : `  provider = ${provider}\n`}  rule_id = ${JSON.stringify(ruleId)}\n  mode = "additive"\n  users = {\n    ${JSON.stringify(userId)} = { aliases = [${JSON.stringify(`${userId}@example.com`)}] }\n  }\n}\n`;

describe("max_rps across the provider processes of one Terraform command", () => {
  it("two provider configurations under ALERT_RULE_USERS_MAX_RPS=2: requests reach the simulator about 500 ms apart whichever process sends them, plan and apply", async () => {
    // given two configurations of the same tenant, each with three lists
    const rules = [RULES.engineering, RULES.finance, RULES.sales, RULES.legal, RULES.cloudSharing, RULES.research];
    writeFileSync(
      join(dir, "main.tf"),
      `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nprovider "alertrules" {}\nprovider "alertrules" {\n  alias = "second"\n}\n\n` +
        rules.map((ruleId, i) => list(`l${i}`, ruleId, i % 2 === 0 ? null : "alertrules.second", `77${i}`)).join(""),
    );
    await tf(["init"], 0);
    sim.resetCounts();
    // when
    await tf(["apply", "-auto-approve"], 0);
    // then
    // (each request is sent 500 ms after the one before, whichever process sends it; it arrives
    // a few tens of ms later, more on a loaded machine: two processes at 2 a second each would
    // often arrive closer than 250 ms, and 4 in a second)
    const arrivals = sim.requestLog().map((e) => e.atMs);
    expect(arrivals.length).toBeGreaterThan(12);
    const gaps = arrivals.slice(1).map((at, i) => at - arrivals[i]!);
    expect(Math.min(...gaps)).toBeGreaterThan(350);
    expect(mostInASecond(arrivals)).toBeLessThanOrEqual(3);
    expect(mostInWindow(arrivals, 5_000)).toBeLessThanOrEqual(11);
  }, 10 * MINUTES);
});
