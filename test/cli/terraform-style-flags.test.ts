/**
 * What a platform team used to Terraform types (issue 25, "also from a new user's run"): long
 * options written with one dash (`-out`, `-detailed-exitcode`, `-auto-approve`, `-no-color`) are
 * aliases of the two-dash ones; real short flags (`-h`) keep their meaning; an unknown one-dash
 * word is named whole, not as its first letter. `--no-color`, `--version` in the help, and the
 * simulator's exit codes in its help.
 */
import { main } from "../../src/cli/main";
import type { Io } from "../../src/cli/io";
import { parse } from "../../src/cli/args";
import { simulatorCommand } from "../../src/cli/commands/simulator";
import { UsageError } from "../../src/errors";
import { workspace, type Workspace } from "../support/cli";
import { RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { captureStream } from "../support/capture-stream";

const OPTIONS = {
  out: { type: "string" },
  "detailed-exitcode": { type: "boolean" },
  "auto-approve": { type: "boolean" },
  stack: { type: "string", multiple: true },
  help: { type: "boolean", short: "h" },
} as const;

describe("one-dash long options", () => {
  it("-out FILE, -out=FILE, -detailed-exitcode and -auto-approve read as their two-dash forms", () => {
    // when
    const spaced = parse("plan", ["-out", "plan.json", "-detailed-exitcode"], OPTIONS);
    const joined = parse("apply", ["-out=plan.json", "-auto-approve", "-stack", "a", "-stack=b"], OPTIONS);

    // then
    expect(spaced.values).toEqual({ out: "plan.json", "detailed-exitcode": true });
    expect(joined.values).toEqual({ out: "plan.json", "auto-approve": true, stack: ["a", "b"] });
  });

  it("leaves real short flags, values and everything after -- alone", () => {
    // a value that looks like a one-dash option stays a value; -h stays help
    expect(parse("plan", ["-h"], OPTIONS).values).toEqual({ help: true });
    expect(parse("plan", ["--out=-out"], OPTIONS).values).toEqual({ out: "-out" });
    expect(parse("plan", ["--", "-out"], OPTIONS, true).positionals).toEqual(["-out"]);
  });

  it("names an unknown one-dash word whole, and suggests the two-dash option it resembles", () => {
    expect(() => parse("plan", ["-frobnicate"], OPTIONS)).toThrow(UsageError);
    expect(() => parse("plan", ["-frobnicate"], OPTIONS)).toThrow(/plan: Unknown option '-frobnicate'\./);
    expect(() => parse("plan", ["-detailed-exit-code"], OPTIONS)).toThrow(/Unknown option '-detailed-exit-code'\. Did you mean --detailed-exitcode\?/);
  });

  it("an unknown two-dash option near one the command takes gets a suggestion too (issue 32)", () => {
    expect(() => parse("plan", ["--detailed-exit-code"], OPTIONS)).toThrow(/plan: Unknown option '--detailed-exit-code'\. Did you mean --detailed-exitcode\? Run/);
    expect(() => parse("plan", ["--frobnicate"], OPTIONS)).toThrow(/plan: Unknown option '--frobnicate'\. Run/);
  });

  it("the simulator takes them too", () => {
    const sim = captureStream();
    return simulatorCommand.run(["-help"], { stdout: sim.stream, stderr: captureStream().stream, env: {} }).then((code) => {
      expect(code).toBe(0);
      expect(sim.text()).toMatch(/^Usage: alert-rule-users simulator/);
    });
  });
});

describe("help", () => {
  async function run(args: string[]): Promise<{ code: number; stdout: string }> {
    const out = captureStream();
    const code = await main(args, { stdout: out.stream, stderr: captureStream().stream, stdin: process.stdin, env: {}, cwd: process.cwd() });
    return { code, stdout: out.text() };
  }

  it("the top-level help names --version and --no-color", async () => {
    const help = await run(["--help"]);
    expect(help.stdout).toMatch(/--version\s+print the version/);
    expect(help.stdout).toMatch(/--no-color\s+/);
  });

  it("simulator --help gives its exit codes", async () => {
    const help = await run(["simulator", "--help"]);
    expect(help.stdout).toMatch(/Exit codes: 0 .*interrupted.*1 /s);
  });
});

describe("--no-color", () => {
  const sim = useSimulator();
  let ws: Workspace;
  beforeAll(() => {
    ws = workspace([{ name: "rules", lists: [{ id: "legal", props: { ruleId: RULES.legal, users: [{ userId: "1", aliases: ["new.person@example.com"] }] } }] }]);
  });
  afterAll(() => ws.cleanup());

  async function planOnTerminal(...flags: string[]): Promise<string> {
    const out = captureStream(true);
    const io: Io = {
      stdout: out.stream,
      stderr: captureStream().stream,
      stdin: process.stdin,
      env: { ...process.env, NO_COLOR: "", ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId },
      cwd: ws.dir,
    };
    expect(await main(["plan", ...flags], io)).toBe(0);
    return out.text();
  }

  it("colours the plan on a terminal, and not with --no-color or -no-color", async () => {
    const ANSI = /\u001b\[[0-9;]*m/;
    expect(await planOnTerminal()).toMatch(ANSI);
    const plain = await planOnTerminal("--no-color", "--skip-synth");
    expect(plain).not.toMatch(ANSI);
    expect(plain).toContain("Plan: 1 rule to update");
    expect(await planOnTerminal("-no-color", "--skip-synth")).not.toMatch(ANSI);
  }, 240_000);
});
