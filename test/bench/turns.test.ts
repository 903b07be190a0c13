/**
 * `npm run bench:turns` (bench/turns.ts): its arguments read into settings, every wrong one named
 * by its flag, and each variant's best round set against the floor provider's best.
 */
import { parseTurnsArgs, perResourceMs, summarizeTurns, turnLine, type TurnRun } from "../../bench/lib/turns";

describe("bench:turns' arguments", () => {
  it("takes the variants in the order given, with the defaults of the provider scenario's step 2", () => {
    const args = parseTurnsArgs(["floor", "a/alertrules-provider.js", "b.js"]);
    expect(args).toEqual({
      kind: "run",
      settings: { lists: 1000, rounds: 2, latencyMs: 20, parallelism: null, nodeFlags: [], dir: null, fresh: false, variants: ["floor", "a/alertrules-provider.js", "b.js"] },
    });
  });

  it("reads every option", () => {
    const args = parseTurnsArgs(["--lists", "40", "--rounds", "3", "--latency-ms", "0", "--parallelism", "1", "--node-flags", " --cpu-prof  --cpu-prof-dir=p ", "--dir", "/tmp/t", "--fresh", "floor"]);
    expect(args).toEqual({ kind: "run", settings: { lists: 40, rounds: 3, latencyMs: 0, parallelism: 1, nodeFlags: ["--cpu-prof", "--cpu-prof-dir=p"], dir: "/tmp/t", fresh: true, variants: ["floor"] } });
  });

  it.each([
    [["--lists", "0", "floor"], "--lists takes a whole number of at least 1, got \"0\""],
    [["--rounds", "two", "floor"], "--rounds takes a whole number of at least 1, got \"two\""],
    [["--latency-ms=-5", "floor"], "--latency-ms takes a whole number of at least 0, got \"-5\""],
    [["--parallelism", "1.5", "floor"], "--parallelism takes a whole number of at least 1, got \"1.5\""],
  ])("names the flag at fault: %j", (argv, message) => {
    expect(parseTurnsArgs(argv)).toEqual({ kind: "invalid", message });
  });

  it("asks for a variant when none is given, and says how to read the usage on an unknown flag", () => {
    expect(parseTurnsArgs([])).toEqual({ kind: "invalid", message: expect.stringContaining("name at least one VARIANT") as unknown });
    const unknown = parseTurnsArgs(["--list", "5", "floor"]);
    expect(unknown.kind).toBe("invalid");
    expect(unknown.kind === "invalid" && unknown.message).toMatch(/--list.*see --help$/);
  });

  it("answers --help before anything else is checked", () => {
    expect(parseTurnsArgs(["--lists", "0", "--help"])).toEqual({ kind: "help" });
  });
});

describe("bench:turns' summary", () => {
  const run = (variant: string, round: number, providerMs: number[]): TurnRun => ({ variant, round, wallMs: 9000, cpuMs: 14_000, providerMs });

  it("sets each variant's best round against the floor's best round, the provider's CPU a resource over its processes", () => {
    const runs = [run("floor", 0, [200, 400, 1800]), run("new.js", 0, [160, 800, 3700]), run("floor", 1, [190, 380, 1700]), run("new.js", 1, [150, 780, 3500])];
    const summary = summarizeTurns(runs, 1000);
    expect(summary.map((s) => s.variant)).toEqual(["floor", "new.js"]);
    expect(summary[0]).toMatchObject({ bestPerResourceMs: 2.27, worstPerResourceMs: 2.4 });
    expect(summary[1]!.bestPerResourceMs).toBeCloseTo(4.43, 10);
    expect(summary[1]!.worstPerResourceMs).toBeCloseTo(4.66, 10);
    expect(summary[1]!.ratioToFloor).toBeCloseTo(4.43 / 2.27, 10);
  });

  it("gives no ratio where the floor did not run", () => {
    expect(summarizeTurns([run("a.js", 0, [100]), run("b.js", 0, [200])], 10).map((s) => s.ratioToFloor)).toEqual([null, null]);
  });

  it("reports a run's Terraform CPU as the whole less the provider's processes", () => {
    const turn = run("new.js", 0, [160, 800, 3700]);
    expect(perResourceMs(turn, 1000)).toBeCloseTo(4.66, 10);
    expect(turnLine(turn, 1000)).toBe("round 1  new.js: wall 9.00 s, CPU 14.00 s, provider 4.66 ms a resource (processes 160 / 800 / 3700 ms), Terraform 9.34 s");
  });
});
