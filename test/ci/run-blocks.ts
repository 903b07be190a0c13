/**
 * The shell scripts of the GitHub workflows (examples/github-actions/*.yml) and of the composite
 * action (action.yml): every `run:` block, as the runner would hand it to bash, for `bash -n`
 * (test/ci/workflow-files.test.ts) and shellcheck (test/ci/shellcheck-workflows.ts).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";

export const REPO_ROOT = join(__dirname, "..", "..");
export const WORKFLOW_DIR = join(REPO_ROOT, "examples", "github-actions");
export const ACTION_FILE = join(REPO_ROOT, "action.yml");

/** Every file GitHub reads: the example workflows and the composite action, relative to the repository. */
export function actionFiles(): string[] {
  const workflows = readdirSync(WORKFLOW_DIR)
    .filter((f) => f.endsWith(".yml") || f.endsWith(".yaml"))
    .sort()
    .map((f) => join("examples", "github-actions", f));
  return [...workflows, "action.yml"];
}

export interface RunBlock {
  /** The file, relative to the repository. */
  readonly file: string;
  /** Where in the file: `jobs.<job>.steps[<i>]` (workflows) or `runs.steps[<i>]` (action.yml), with the step's name or id. */
  readonly where: string;
  readonly shell: string;
  /** The script with every `${{ expression }}` replaced by a plain word (GitHub substitutes them before the shell runs). */
  readonly script: string;
}

interface Step {
  name?: string;
  id?: string;
  run?: string;
  shell?: string;
}

/** `${{ ... }}` → a placeholder word, as the runner substitutes the value before bash sees the script. */
export function withoutExpressions(script: string): string {
  return script.replace(/\$\{\{[\s\S]*?\}\}/g, "GITHUB_EXPRESSION");
}

function blocksOf(file: string, steps: readonly Step[], prefix: string, defaultShell: string): RunBlock[] {
  return steps.flatMap((step, i) =>
    step.run === undefined
      ? []
      : [
          {
            file,
            where: `${prefix}.steps[${i}]${step.name !== undefined ? ` "${step.name}"` : step.id !== undefined ? ` (${step.id})` : ""}`,
            shell: step.shell ?? defaultShell,
            script: withoutExpressions(step.run),
          },
        ],
  );
}

/** Every `run:` block of one file. */
export function runBlocks(file: string): RunBlock[] {
  const doc = parse(readFileSync(join(REPO_ROOT, file), "utf8")) as {
    defaults?: { run?: { shell?: string } };
    jobs?: Record<string, { steps?: Step[]; defaults?: { run?: { shell?: string } } }>;
    runs?: { using?: string; steps?: Step[] };
  };
  if (doc.jobs !== undefined) {
    return Object.entries(doc.jobs).flatMap(([name, job]) =>
      blocksOf(file, job.steps ?? [], `jobs.${name}`, job.defaults?.run?.shell ?? doc.defaults?.run?.shell ?? "bash"),
    );
  }
  return blocksOf(file, doc.runs?.steps ?? [], "runs", "bash");
}

/**
 * The script as GitHub runs a `bash` step on Linux (`bash --noprofile --norc -eo pipefail {0}`),
 * with a shebang so shellcheck knows the dialect.
 */
export function asBashFile(block: RunBlock): string {
  return `#!/usr/bin/env bash\n# ${block.file}: ${block.where}\nset -eo pipefail\n${block.script}\n`;
}
