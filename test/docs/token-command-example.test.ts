/**
 * The README's token-command example runs as written in an app (issue 32, wrong turn 1): the
 * script's path is the installed package's copy (`node_modules/alert-rule-users/...`), not a
 * checkout's `$PWD/examples/...` (status 127 in an app), and the CLI runs as `npx --no`. The block
 * is read from README.md; only the line that starts a simulator is left to the test's own.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, runCommand } from "../support/cli";
import { useSimulator } from "../support/simulator";

const sim = useSimulator({ token: "local-simulator-token", tokenTtlSeconds: 60 });
const CLI_TIMEOUT_MS = 120_000;

/** The shell block of README.md that contains `needle`, as lines. */
function readmeBlock(needle: string): string[] {
  const blocks = readFileSync(join(REPO, "README.md"), "utf8").split(/^```sh\n/m).slice(1).map((b) => b.split(/^```$/m)[0] ?? "");
  const block = blocks.find((b) => b.includes(needle));
  if (block === undefined) throw new Error(`README.md has no sh block with ${needle}`);
  return block.split("\n").filter((line) => line.trim() !== "");
}

it("the README's OAuth token-command block lists the rules, in an app that installed the package", async () => {
  // given an app directory as npm install leaves it (the package and its bin)
  const app = mkdtempSync(join(tmpdir(), "aru-token-example-"));
  try {
    mkdirSync(join(app, "node_modules", ".bin"), { recursive: true });
    symlinkSync(REPO, join(app, "node_modules", "alert-rule-users"));
    symlinkSync(CLI, join(app, "node_modules", ".bin", "alert-rule-users"));
    // and the block, against this test's simulator in place of the one it starts on port 8080
    const lines = readmeBlock("ALERTS_API_TOKEN_COMMAND=");
    expect(lines[0]).toMatch(/^npx --no alert-rule-users simulator --port 8080 --token-ttl 60 &/);
    expect(lines.join("\n")).toContain("ALERTS_API_TOKEN_COMMAND=node_modules/alert-rule-users/examples/token-command/oauth-client-credentials.sh");
    const script = ["set -e", ...lines.slice(1).map((line) => line.replaceAll("http://127.0.0.1:8080", sim.url))].join("\n");

    // when run by a shell in the app
    const result = await runCommand("sh", ["-c", script], { cwd: app, timeoutMs: CLI_TIMEOUT_MS });

    // then the rules are listed with a minted token, which shows nowhere
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Endpoint exfiltration - Engineering");
    expect(sim.mintedTokens()).toBeGreaterThan(0);
  } finally {
    rmSync(app, { recursive: true, force: true });
  }
}, 2 * CLI_TIMEOUT_MS);
