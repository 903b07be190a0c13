/**
 * An apply that outlives its tokens (docs/contract.md §10.2): the simulator accepts only tokens it
 * minted, each for 5 s, and rate limits the run (a token bucket of 2 requests a second: about 80 requests, 40 s) so that
 * applying 25 rules takes several token lifetimes. The token command is `simulator token` (each
 * run counted in a file; each token kept outside the workspace, so the secret scan can look for
 * it). Counts, not times, are asserted:
 * - with `expiresAt` given, no request is answered 401 (every token is renewed ahead);
 * - with a bare token, at most one request per token is answered 401 (the one that renews it);
 * - the command runs at most once per token lifetime the run spanned, plus 2;
 * - the apply converges, and no token (nor the client secret) is in any output, plan or report.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, runCli } from "../support/cli";
import { REPORTS, SecretScan, TENANT, TOKEN, chaosCase, listKey, withChaosRun } from "./support";

const TTL_SECONDS = 5;
/**
 * How long the apply may take before it is killed: idle it takes about 45 s, but each of its ~10-30
 * token command runs starts a Node.js process, and on a loaded machine the run took 223 s (over the
 * 240 s limit this test had with the rest). Generous: the test asserts counts, not durations.
 */
const APPLY_TIMEOUT_MS = 600_000;
const TEST_TIMEOUT_MS = APPLY_TIMEOUT_MS + 60_000;
const scan = new SecretScan();
const minted: string[] = [];

afterAll(() => {
  // the client secret (the simulator's --token) and every token the command ever printed
  scan.expectNoLeaks(TOKEN);
  expect(minted.length).toBeGreaterThan(0);
  for (const token of minted) expect(scan.leaks(token).found).toEqual([]);
});

/** What one run of the apply gave: its exit, the command's runs, and the simulator's log. */
interface Figures {
  readonly code: number | null;
  readonly runs: number;
  readonly lifetimes: number;
  readonly requests: number;
  readonly refused401: number;
  readonly most401PerToken: number;
  readonly throttled429: number;
  readonly tokensUsed: number;
}

async function applyOutlivingTokens(form: "expiresAt" | "bare", seed: number): Promise<Figures> {
  const chaos = chaosCase(seed, 25);
  const kept = mkdtempSync(join(tmpdir(), "aru-lifetimes-"));
  const tokens = join(kept, "minted.jsonl");
  const runsFile = join(kept, "runs");
  const mint = `echo run >> '${runsFile}'; "${process.execPath}" "${CLI}" simulator token --url "$ALERTS_API_URL" | tee -a '${tokens}'`;
  const command = form === "expiresAt" ? mint : `${mint} | jq -r .token`;
  let figures: Figures | undefined;
  try {
    await withChaosRun(scan, chaos, { tokenTtlSeconds: TTL_SECONDS, faults: { rateLimitRps: 2 } }, async (sim, ws) => {
      // when the declaration is applied with the token command
      const env = {
        ALERTS_API_URL: sim.url,
        ALERTS_TENANT_ID: TENANT,
        ALERTS_API_TOKEN_COMMAND: command,
        ALERTS_CLIENT_SECRET: TOKEN,
        SIM_URL: sim.url,
      };
      const applied = await runCli(["apply", "--auto-approve", ...REPORTS], { cwd: ws.dir, env, timeoutMs: APPLY_TIMEOUT_MS });
      scan.add(`apply (${form})`, applied.stdout, applied.stderr);
      minted.push(...(existsSync(tokens) ? readFileSync(tokens, "utf8").split("\n").filter(Boolean).map((l) => (JSON.parse(l) as { token: string }).token) : []));

      // then every list equals the declaration
      for (const [ruleId, expected] of chaos.expected) expect([ruleId, listKey(sim.rule(ruleId)!.users)]).toEqual([ruleId, expected]);

      const log = sim.requestLog().filter((e) => e.operation !== "oauth-token");
      const spanMs = log[log.length - 1]!.atMs - log[0]!.atMs;
      const perToken = new Map<number, number>();
      for (const e of log) if (e.status === 401) perToken.set(e.tokenSerial ?? 0, (perToken.get(e.tokenSerial ?? 0) ?? 0) + 1);
      figures = {
        code: applied.code,
        runs: readFileSync(runsFile, "utf8").split("\n").filter(Boolean).length,
        lifetimes: spanMs / (TTL_SECONDS * 1000),
        requests: log.length,
        refused401: log.filter((e) => e.status === 401).length,
        most401PerToken: Math.max(0, ...perToken.values()),
        throttled429: log.filter((e) => e.status === 429).length,
        tokensUsed: new Set(log.map((e) => e.tokenSerial)).size,
      };
      // (figures for the record: the test asserts counts, never durations)
      process.stderr.write(`token lifetimes (${form}): ${JSON.stringify(figures)}\n`);
    });
  } finally {
    rmSync(kept, { recursive: true, force: true });
  }
  return figures!;
}

/** What both forms must show: converged, over six token lifetimes or more, the command run at most once a lifetime plus 2. */
function expectConvergedOverLifetimes(figures: Figures): void {
  expect(figures.code).toBe(0);
  expect(figures.tokensUsed).toBeGreaterThanOrEqual(6);
  expect(figures.runs).toBeLessThanOrEqual(Math.ceil(figures.lifetimes) + 2);
}

describe("an apply that lasts many token lifetimes (tokens of 5 s, a service limited to 2 requests a second)", () => {
  it("converges with expiresAt given: no request refused, the command run at most once a lifetime plus 2", async () => {
    const figures = await applyOutlivingTokens("expiresAt", 5);
    expectConvergedOverLifetimes(figures);
    // rate limited, and every token renewed ahead of its expiry
    expect(figures.throttled429).toBeGreaterThan(0);
    expect(figures.refused401).toBe(0);
  }, TEST_TIMEOUT_MS);

  it("converges with a bare token: at most one request refused per token, the command run at most once a lifetime plus 2", async () => {
    const figures = await applyOutlivingTokens("bare", 6);
    expectConvergedOverLifetimes(figures);
    // each token renewed by the one 401 that found it expired
    expect(figures.refused401).toBeGreaterThan(0);
    expect(figures.most401PerToken).toBeLessThanOrEqual(1);
  }, TEST_TIMEOUT_MS);
});
