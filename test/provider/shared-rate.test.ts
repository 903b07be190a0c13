/**
 * The provider processes of one Terraform command share what they learned (src/io/terraform-run.ts):
 * a process configured after another measured the service's limit starts at that limit, with no
 * slow start and no 429s to learn it again (issue 39: a run learns a 429 limit once).
 */
import { configureRun } from "../../src/provider/configure";
import { RUN_SCOPE_VARIABLE, TerraformRun } from "../../src/io/terraform-run";
import { useSimulator } from "../support/simulator";

const sim = useSimulator();
const block = { url: null, tenant_id: null, token: null, token_command: null, max_rps: null, request_timeout: null, run_timeout: null };

describe("a Terraform command's provider processes", () => {
  it("start at the service's limit another process of the same command measured, and only that command's", async () => {
    const env = { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, [RUN_SCOPE_VARIABLE]: `shared-rate-${process.pid}` };
    const first = await configureRun(block, env, process.cwd(), new AbortController().signal, () => undefined);
    expect(first.run!.session.rateLimiter.state().throttled).toBe(false);
    // what the first process's 429 hook keeps once it has measured the limit
    TerraformRun.current(env).keepRate(JSON.stringify(first.run!.session.connection), 4.2);
    const lines: string[] = [];
    const second = await configureRun(block, env, process.cwd(), new AbortController().signal, (line) => lines.push(line));
    expect(second.run!.session.rateLimiter.state().rps).toBeCloseTo(0.99 * 4.2, 5);
    expect(lines.join("\n")).toMatch(/measured earlier in this Terraform command: 4\.20 requests\/s/);
    // another command (another scope) starts from scratch
    const other = await configureRun(block, { ...env, [RUN_SCOPE_VARIABLE]: `other-${process.pid}` }, process.cwd(), new AbortController().signal, () => undefined);
    expect(other.run!.session.rateLimiter.state().throttled).toBe(false);
  });
});
