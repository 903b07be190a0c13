/**
 * Every command that talks to the service takes the same connection and pacing flags (issue 25):
 * `import`, the first command run against a real tenant, takes `--max-rps` and `--timeout` as
 * plan and apply do, and so do `rules list`, `who` and the triage commands. Each says so in its
 * help, and accepts them.
 */
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";
import { runMain } from "../support/run-main";

/** Each command that sends requests, with arguments that make it run against the sample tenant. */
const COMMANDS: Record<string, string[]> = {
  plan: ["plan"],
  apply: ["apply"],
  import: ["import", "--rule", RULES.legal],
  "rules list": ["rules", "list", "--format", "json"],
  who: ["who", "nobody@example.com", "--no-app", "--format", "json"],
  "alerts search": ["alerts", "search", "--format", "json"],
  "alerts show": ["alerts", "show"],
  "alerts note": ["alerts", "note"],
  "cases create": ["cases", "create"],
  "cases add-file-events": ["cases", "add-file-events"],
  "file-events search": ["file-events", "search", "--format", "json"],
};

/** Commands cheap to run for real here (the others need an app or their own arguments). */
const RUNNABLE = ["import", "rules list", "who", "alerts search", "file-events search"];

describe("connection and pacing flags on every command that talks to the service", () => {
  const sim = useSimulator();

  async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    return runMain(args, process.cwd(), { ALERTS_API_TOKEN: sim.token });
  }

  it.each(Object.entries(COMMANDS))("%s --help names --max-rps, --timeout and the connection flags", async (_name, args) => {
    // when
    const help = await run([...args.slice(0, args[0] === "rules" || args[0] === "alerts" || args[0] === "cases" || args[0] === "file-events" ? 2 : 1), "--help"]);
    // then
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/--max-rps N\s/);
    expect(help.stdout).toMatch(/--timeout SECONDS\s/);
    expect(help.stdout).toContain("--base-url URL, --tenant-id ID, --token-file FILE");
  });

  it.each(RUNNABLE)("%s accepts --max-rps, --timeout, --base-url and --tenant-id", async (name) => {
    // when
    const result = await run([...COMMANDS[name]!, "--max-rps", "1000", "--timeout", "20", "--base-url", sim.url, "--tenant-id", sim.tenantId]);
    // then
    expect(result.stderr).not.toMatch(/Unknown option/);
    expect(result.code).toBe(0);
  });

  it("a --timeout out of range is refused by import as by plan", async () => {
    const result = await run(["import", "--all", "--timeout", "0", "--base-url", sim.url, "--tenant-id", sim.tenantId]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--timeout must be between 1 and 3600, got 0/);
  });
});
