/**
 * The files GitHub reads: the example workflows (examples/github-actions/*.yml) and the composite
 * action (action.yml). Each is checked with a real schema validator (action-validator: SchemaStore's
 * workflow and action schemas, compiled in, no network), every `run:` block parses with `bash -n`,
 * and the action's script does what its inputs say, run with bash against the simulator.
 * (shellcheck on the same blocks: `npm run lint:workflows`, where shellcheck is installed.)
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parse } from "yaml";
import { REPO, connectionEnv, runCommand } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { ACTION_FILE, actionFiles, asBashFile, runBlocks } from "./run-blocks";

const VALIDATOR = join(dirname(require.resolve("@action-validator/cli/package.json")), "cli.mjs");

/** action-validator on one file: it takes `action.yml`/`action.yaml` as an action, anything else as a workflow. */
function validate(file: string): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [VALIDATOR, file], { encoding: "utf8" });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe("the workflow and action files", () => {
  let scratch: string;
  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), "aru-workflow-files-"));
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it("are the four example workflows and action.yml", () => {
    expect(actionFiles()).toEqual(["examples/github-actions/apply.yml", "examples/github-actions/drift.yml", "examples/github-actions/plan.yml", "examples/github-actions/review.yml", "action.yml"]);
  });

  it.each(actionFiles())("%s passes action-validator (GitHub's workflow / action schema)", (file) => {
    const { status, output } = validate(join(REPO, file));
    if (status !== 0) throw new Error(`action-validator refused ${file}:\n${output}`);
    expect(output).not.toMatch(/"errors"/);
  });

  it("the validator refuses what GitHub would: an unknown step key in a workflow, a composite run step without shell", () => {
    const workflow = join(scratch, "broken.yml");
    writeFileSync(workflow, "name: x\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo hi\n        bogus: 1\n");
    const badWorkflow = validate(workflow);
    expect(badWorkflow.status).toBe(1);
    expect(badWorkflow.output).toContain("Additional property 'bogus' is not allowed");

    mkdirSync(join(scratch, "action"));
    const action = join(scratch, "action", "action.yml");
    writeFileSync(action, "name: x\ndescription: y\nruns:\n  using: composite\n  steps:\n    - run: echo hi\n");
    const badAction = validate(action);
    expect(badAction.status).toBe(1);
    expect(badAction.output).toContain('"path": "/runs/steps/0/shell"');
  });

  const blocks = actionFiles().flatMap(runBlocks);
  it("have run: blocks (each checked below)", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(10);
    expect(blocks.every((b) => b.shell === "bash")).toBe(true);
  });

  it.each(blocks.map((b) => [`${b.file} ${b.where}`, b] as const))("%s parses with bash -n", (_name, block) => {
    const file = join(scratch, "block.sh");
    writeFileSync(file, asBashFile(block));
    const result = spawnSync("bash", ["-n", file], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});

describe("action.yml, the composite action", () => {
  interface ActionStep {
    id?: string;
    uses?: string;
    run?: string;
    shell?: string;
    if?: string;
    env?: Record<string, string>;
    with?: Record<string, string>;
  }
  const action = parse(readFileSync(ACTION_FILE, "utf8")) as {
    inputs: Record<string, { required?: boolean; default?: string }>;
    outputs: Record<string, { value: string }>;
    runs: { using: string; steps: ActionStep[] };
  };
  const step = action.runs.steps.find((s) => s.id === "run");
  const sim = useSimulator();

  it("takes command (plan or apply), args, node-version, working-directory, token-command and install; never a token", () => {
    expect(Object.keys(action.inputs)).toEqual(["command", "args", "node-version", "working-directory", "token-command", "install"]);
    expect(action.inputs["command"]?.default).toBe("plan");
    expect(action.inputs["node-version"]?.default).toBe("24");
    expect(action.inputs["token-command"]?.default).toBe("");
    // a command that prints the token, never the token itself
    expect(JSON.stringify(action).replace(/token-command|TOKEN_COMMAND|prints the token|gives the token/g, "")).not.toMatch(/secrets\.|token/i);
    expect(action.outputs["exitcode"]?.value).toBe("${{ steps.run.outputs.exitcode }}");
  });

  it("sets up Node, installs the app with npm ci unless install is 'false', then runs the command with the inputs in its environment", () => {
    expect(action.runs.using).toBe("composite");
    expect(action.runs.steps[0]?.uses).toBe("actions/setup-node@v4");
    expect(action.runs.steps[0]?.with?.["node-version"]).toBe("${{ inputs.node-version }}");
    expect(action.runs.steps[1]).toMatchObject({ if: "inputs.install == 'true'", run: "npm ci --no-audit --no-fund" });
    // the inputs reach the script through the environment, never spliced into its text
    expect(step?.env).toEqual({ COMMAND: "${{ inputs.command }}", ARGS: "${{ inputs.args }}", TOKEN_COMMAND: "${{ inputs.token-command }}" });
    expect(step?.run).not.toContain("${{");
  });

  /** Runs the action's script as the runner would, in the repository root (its cdktf.json is the example app). */
  async function runStep(command: string, args: string, env: NodeJS.ProcessEnv = connectionEnv(sim)) {
    const dir = mkdtempSync(join(tmpdir(), "aru-action-"));
    try {
      const script = join(dir, "step.sh");
      const output = join(dir, "github-output");
      writeFileSync(script, step?.run ?? "exit 99");
      writeFileSync(output, "");
      const result = await runCommand("bash", ["--noprofile", "--norc", "-eo", "pipefail", script], {
        cwd: REPO,
        env: { ...env, COMMAND: command, ARGS: args, GITHUB_OUTPUT: output },
        timeoutMs: 120_000,
      });
      return { ...result, outputs: readFileSync(output, "utf8") };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it("plan --detailed-exitcode with changes: the step passes and outputs.exitcode is 2; args split into flags", async () => {
    const run = await runStep("plan", "--format json --output .tmp/action.out --detailed-exitcode");
    expect(run.outputs).toBe("exitcode=2\n");
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { summary: { toUpdate: number } }).summary.toUpdate).toBeGreaterThan(0);
  });

  it("with token-command, runs the command for the token (ALERTS_API_TOKEN unset)", async () => {
    const { ALERTS_API_TOKEN: _unused, ...noToken } = connectionEnv(sim);
    void _unused;
    const run = await runStep("plan", "--format json --output .tmp/action.out", {
      ...noToken,
      TOKEN_COMMAND: `"${process.execPath}" "${join(REPO, "dist", "src", "cli", "main.js")}" simulator token --url ${sim.url}`,
    });
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/Error/);
    expect(run.outputs).toBe("exitcode=0\n");
    expect(sim.mintedTokens()).toBe(1);
  });

  it("an error fails the step and is in outputs.exitcode; a command other than plan or apply is refused", async () => {
    const failed = await runStep("plan", "--output .tmp/action.out --tenant-id no-such-tenant");
    expect(failed.code).toBe(1);
    expect(failed.outputs).toBe("exitcode=1\n");

    const refused = await runStep("deploy", "");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("::error::alert-rule-users action: command must be plan or apply, got 'deploy'");
    expect(refused.outputs).toBe("");
  });
});
