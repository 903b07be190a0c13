/**
 * The rate-limits scenario's pieces at tiny sizes (no timing assertions: those belong to
 * `npm run bench`): our engine against a rate-limited simulator keeps its calls at the bound of
 * docs/contract.md §4 and converges; the per-user script retries its 429s and reaches the same state;
 * a prefix run says it was one; the plot counts requests per second.
 */
import { runEngine } from "../../bench/lib/engine-run";
import { binRequests, rpsSvg } from "../../bench/lib/rps-plot";
import { sizedCheck } from "../../bench/lib/report";
import { mixedTenant } from "../../bench/scenarios/mixed-change";
import { perUserAtLimit } from "../../bench/scenarios/rate-limits";

const LATENCY_MS = 1;

describe("rate-limits scenario at tiny sizes", () => {
  it("our engine under a limit of 20/s: calls equal the bound, 429s are retried apart, the tenant converges", async () => {
    // given 10 rules with mixed changes and a service of 20 requests a second (burst 20)
    const tenant = mixedTenant({ rules: 10, usersPerRule: 20, specialRules: 0 });
    // when
    const run = await runEngine(tenant, { parallelism: 4, latencyMs: LATENCY_MS, rateLimitRps: 20 });
    // then
    expect(run.calls).toEqual(run.bound.byOperation);
    expect(run.callsEqualBound).toBe(true);
    expect(run.converged).toBe(true);
    expect(run.rateLimited).toBeGreaterThan(0);
    expect(run.requestLog).toHaveLength(run.totalCalls + run.rateLimited);
    expect(run.limiter.cuts).toBeGreaterThan(0);
  });

  it("our engine with no limit: the limiter never cuts and attempts equal calls", async () => {
    const tenant = mixedTenant({ rules: 6, usersPerRule: 20, specialRules: 0 });
    const run = await runEngine(tenant, { parallelism: 4, latencyMs: LATENCY_MS });
    expect(run.callsEqualBound).toBe(true);
    expect(run.rateLimited).toBe(0);
    expect(run.limiter).toMatchObject({ cuts: 0, rps: undefined });
  });

  it("the per-user script at a limit retries each 429 and reaches the declared state", async () => {
    const tenant = mixedTenant({ rules: 3, usersPerRule: 20, specialRules: 0 });
    const p = await perUserAtLimit(tenant, LATENCY_MS, 20);
    expect(p.extrapolated).toBe(false);
    expect(p.run.failures).toBe(0);
    expect(p.mismatchedRules).toBe(0);
    expect(p.run.totalCalls).toBe(2 * tenant.rows.length);
    expect(p.log).toHaveLength(p.run.totalCalls + p.run.rateLimited);
  });

  it("a prefix run of the per-user script says so and scales its wall time by rows", async () => {
    const tenant = mixedTenant({ rules: 4, usersPerRule: 20, specialRules: 0 });
    const p = await perUserAtLimit(tenant, LATENCY_MS, 50, 6);
    expect(p.extrapolated).toBe(true);
    expect(p.run.rowsDone).toBe(6);
    expect(p.mismatchedRules).toBeNull();
    expect(p.wallMs).toBeCloseTo((p.run.wallMs * tenant.rows.length) / 6, 6);
  });
});

describe("the requests-per-second plot", () => {
  it("bins requests and 429s by second", () => {
    const log = [
      { atMs: 0, status: 200 },
      { atMs: 400, status: 429 },
      { atMs: 999, status: 200 },
      { atMs: 1000, status: 200 },
      { atMs: 2500, status: 429 },
    ];
    expect(binRequests(log, 1000, 3)).toEqual({ all: [3, 1, 1], refused: [1, 0, 1] });
  });

  it("draws each series, its 429s and the limit, in plain SVG", () => {
    const svg = rpsSvg(
      [
        { label: "ours", color: "#1f6feb", log: [{ atMs: 0, status: 200 }, { atMs: 600, status: 200 }] },
        { label: "per-user & co", color: "#d1242f", log: [{ atMs: 0, status: 429 }, { atMs: 1500, status: 200 }] },
      ],
      { title: "Mixed change at 2 requests/s", limitRps: 2 },
    );
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.trimEnd().endsWith("</svg>")).toBe(true);
    expect(svg.match(/<polyline/g)).toHaveLength(4);
    expect(svg).toContain("service limit 2/s");
    expect(svg).toContain("ours: 2 requests, 0 answered 429");
    expect(svg).toContain("per-user &amp; co: 2 requests, 1 answered 429");
  });
});

describe("checks at --quick sizes", () => {
  it("are reported, not judged, when the sizes cannot show the target", () => {
    expect(sizedCheck(true, "x", false, "d")).toEqual({ name: "x (not judged at --quick sizes)", pass: false, detail: "d", judged: false });
    expect(sizedCheck(false, "x", false, "d")).toEqual({ name: "x", pass: false, detail: "d" });
  });
});
