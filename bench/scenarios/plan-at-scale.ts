/**
 * Scenario 4, plan at scale: 1,000 rules × 1,000 users (one million aliases). The pure diff
 * (buildPlan over in-memory declarations and observations) and synth plus reading the synthesized
 * JSON, each in a child process so its memory is its own.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "../lib/machine";
import type { DiffChildInput, DiffChildOutput } from "../lib/diff-child";
import { fmt, sizedCheck, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import type { SynthChildInput, SynthChildOutput } from "../lib/synth-child";
import { MB } from "../lib/timing";

export interface ScaleSizes {
  readonly diffRules: number;
  readonly synthRules: number;
  readonly usersPerRule: number;
}

export const SCALE_FULL: ScaleSizes = { diffRules: 1_000, synthRules: 1_000, usersPerRule: 1_000 };
export const SCALE_QUICK: ScaleSizes = { diffRules: 200, synthRules: 50, usersPerRule: 1_000 };
export const DIFF_TIME_TARGET_MS = 2_000;
export const DIFF_MEMORY_TARGET_BYTES = 512 * MB;

function runChild<T>(script: string, nodeArgs: string[], input: unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...nodeArgs, join(__dirname, "..", "lib", script), JSON.stringify(input)],
      { maxBuffer: 16 * MB, timeout: 30 * 60_000 },
      (error, stdout, stderr) => {
        if (error !== null) {
          reject(new Error(`${script} failed: ${error.message}\n${stderr.slice(-2000)}`));
          return;
        }
        try {
          resolve(JSON.parse(stdout.trim().split("\n").pop() ?? "") as T);
        } catch {
          reject(new Error(`${script} printed no result:\n${stdout.slice(-2000)}\n${stderr.slice(-2000)}`));
        }
      },
    );
  });
}

export const planAtScale: Scenario = {
  name: "plan-at-scale",
  title: "4. Plan at scale",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes = ctx.quick ? SCALE_QUICK : SCALE_FULL;
    ctx.log(`plan-at-scale: diff of ${sizes.diffRules} rules x ${sizes.usersPerRule} users in a child process`);
    const diffInput: DiffChildInput = { rules: sizes.diffRules, usersPerRule: sizes.usersPerRule };
    const diff = await runChild<DiffChildOutput>("diff-child.js", ["--expose-gc"], diffInput);
    ctx.log(`plan-at-scale: synth + read of ${sizes.synthRules} RuleUserList x ${sizes.usersPerRule} users`);
    const synthInput: SynthChildInput = { rules: sizes.synthRules, usersPerRule: sizes.usersPerRule, repo: repoRoot() };
    const synth = await runChild<SynthChildOutput>("synth-child.js", [], synthInput);

    const diffPeak = diff.peakRssDuringDiff ?? diff.lifetimeMaxRss;
    const aliasesLabel = `${fmt.int(diff.declaredAliases)} declared / ${fmt.int(diff.observedAliases)} observed aliases`;
    return {
      name: this.name,
      title: this.title,
      tables: [
        {
          title: `Plan at scale: ${fmt.int(sizes.diffRules)} rules × ${fmt.int(sizes.usersPerRule)} users for the diff (${aliasesLabel}); ${fmt.int(sizes.synthRules)} × ${fmt.int(sizes.usersPerRule)} for synth`,
          columns: ["step", "time s", "RSS before MB", "peak RSS MB", "growth MB", "notes"],
          rows: [
            [
              "diff (buildPlan)",
              fmt.s(diff.diffMs),
              fmt.mb(diff.rssBeforeDiff),
              fmt.mb(diffPeak),
              diff.rssBeforeDiff === null ? "n/a" : fmt.mb(diffPeak - diff.rssBeforeDiff),
              `CPU ${fmt.s(diff.diffCpuMs)} s; heap ${fmt.mb(diff.heapUsedBeforeDiff)} → ${fmt.mb(diff.heapUsedAfterDiff)} MB, ${fmt.mb(diff.heapRetainedWithPlan)} MB after GC with the plan`,
            ],
            ["synth (the cdktf app)", fmt.s(synth.synthMs), "-", fmt.mb(synth.appPeakRss), "-", `stack JSON ${fmt.mb(synth.stackJsonBytes)} MB`],
            [
              "readDeclarations",
              fmt.s(synth.readMs),
              fmt.mb(synth.rssBeforeRead),
              fmt.mb(synth.peakRssDuringRead),
              synth.rssBeforeRead === null || synth.peakRssDuringRead === null ? "n/a" : fmt.mb(synth.peakRssDuringRead - synth.rssBeforeRead),
              `${fmt.int(synth.declarationsRead)} lists`,
            ],
          ],
        },
      ],
      checks: [
        sizedCheck(ctx.quick, `plan at scale: diff under ${DIFF_TIME_TARGET_MS / 1000} s`, diff.diffMs < DIFF_TIME_TARGET_MS, `${fmt.s(diff.diffMs)} s (CPU ${fmt.s(diff.diffCpuMs)} s) for ${aliasesLabel}`),
        sizedCheck(
          ctx.quick,
          `plan at scale: diff peak RSS under ${DIFF_MEMORY_TARGET_BYTES / MB} MB`,
          diffPeak < DIFF_MEMORY_TARGET_BYTES,
          `${fmt.mb(diffPeak)} MB peak RSS of the diff process, inputs included (${fmt.mb(diff.rssBeforeDiff)} MB before the diff, heap ${fmt.mb(diff.heapUsedBeforeDiff)} MB of inputs; ${diff.peakRssDuringDiff === null ? "lifetime peak: the peak could not be reset" : "VmHWM reset just before buildPlan"})`,
        ),
      ],
      data: { sizes, diff, synth },
    };
  },
};
