/**
 * Synth scaling (docs/contract.md §10.1): a cdktf app of N RuleUserLists (5 users each), for
 * N = 1,000 / 5,000 / 10,000 and each resource type, beside a bare cdktf app that builds the same
 * resources with cdktf's own classes (same construct tree, same triggers and provisioner: the
 * scenario checks the `resource` blocks of both stacks are identical) in the same run. Each app is
 * its own `node app.js` process, timed whole (what `cdktf synth` or `plan` waits for). The bare app
 * skips cdktf's validations (its DataResource would run `terraform version` once per resource);
 * ours runs them, its own checks included. Each app runs 3 times, alternating with the other, and its
 * fastest run counts (on a shared machine the other load only adds time). Writes
 * docs/synth-scaling.svg.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { canonicalUsers } from "../../src/core/engine/canonical";
import { DEFAULT_CLI_COMMAND, encodeTriggerFields, provisionerCommand, provisionerEnvironment } from "../../src/core/declaration";
import { repoRoot } from "../lib/machine";
import { person } from "../lib/people";
import { check, fmt, sizedCheck, type Check, type Scenario, type ScenarioContext, type ScenarioResult } from "../lib/report";
import { MB } from "../lib/timing";
import { xySvg } from "../lib/xy-plot";

export const SYNTH_SIZES_FULL = [1_000, 5_000, 10_000] as const;
export const SYNTH_SIZES_QUICK = [200, 1_000] as const;
export const USERS_PER_LIST = 5;
/** Ours against bare cdktf at the largest size, each resource type. */
export const SYNTH_RATIO_TARGET = 1.5;
/** Runs of each app at each size; the fastest counts (see measurePair). */
export const SYNTH_REPEATS = 3;
/** Growth from the smallest to the largest size, against linear. */
export const SYNTH_GROWTH_TARGET = 1.3;

type ResourceType = "terraform_data" | "null_resource";
const TYPES: readonly ResourceType[] = ["terraform_data", "null_resource"];
const STACK = "bench";

export interface SynthRun {
  readonly lists: number;
  readonly resourceType: ResourceType;
  readonly app: "alert-rule-users" | "bare cdktf";
  /** The whole `node app.js` process. */
  readonly wallMs: number;
  /** From after the requires to after app.synth(), as the app measured it. */
  readonly synthMs: number;
  readonly stackJsonBytes: number;
}

const MARK = "BENCH_SYNTH=";

/** The lists: the same rules and users for both apps and every resource type. */
function listsOf(count: number) {
  return Array.from({ length: count }, (_, r) => ({
    id: `rule-${r}`,
    ruleId: `00000000-0000-4000-8000-${String(r).padStart(12, "0")}`,
    users: Array.from({ length: USERS_PER_LIST }, (_, u) => person(r * USERS_PER_LIST + u, 1)),
  }));
}

function oursApp(repo: string): string {
  return `const started = performance.now();
const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [repo] }))});
const { RuleUserList } = require(${JSON.stringify(join(repo, "dist", "src", "index.js"))});
const { lists, resourceType } = require("./data.json");
const loaded = performance.now();
const app = new App({ outdir: "cdktf.out" });
const stack = new TerraformStack(app, ${JSON.stringify(STACK)});
for (const list of lists) new RuleUserList(stack, list.id, { ruleId: list.ruleId, resourceType, users: list.users });
app.synth();
process.stderr.write(${JSON.stringify(MARK)} + JSON.stringify({ loadMs: loaded - started, synthMs: performance.now() - loaded }) + "\\n");
`;
}

function bareApp(repo: string): string {
  const resolve = (name: string) => JSON.stringify(require.resolve(name, { paths: [repo] }));
  return `const started = performance.now();
const { App, TerraformStack, DataResource } = require(${resolve("cdktf")});
const { Construct } = require(${resolve("constructs")});
const { NullProvider } = require(${resolve("@cdktf/provider-null/lib/provider")});
const { Resource } = require(${resolve("@cdktf/provider-null/lib/resource")});
const { resources, resourceType } = require("./data.json");
const loaded = performance.now();
const app = new App({ outdir: "cdktf.out", skipValidation: true });
const stack = new TerraformStack(app, ${JSON.stringify(STACK)});
if (resourceType === "null_resource") new NullProvider(stack, "alert-rule-users-null");
for (const r of resources) {
  const scope = new Construct(stack, r.id);
  if (resourceType === "null_resource") new Resource(scope, "resource", { triggers: r.triggers, provisioners: [r.provisioner] });
  else new DataResource(scope, "resource", { triggersReplace: r.triggers, provisioners: [r.provisioner] });
}
app.synth();
process.stderr.write(${JSON.stringify(MARK)} + JSON.stringify({ loadMs: loaded - started, synthMs: performance.now() - loaded }) + "\\n");
`;
}

/** What the bare app builds for each list: the triggers and provisioner a RuleUserList synthesizes. */
function bareResources(lists: ReturnType<typeof listsOf>, resourceType: ResourceType) {
  const attribute = resourceType === "terraform_data" ? "triggers_replace" : "triggers";
  return lists.map((list) => {
    const triggers = encodeTriggerFields({ ruleId: list.ruleId, ruleName: "", mode: "authoritative", allowMassRemoval: false, users: canonicalUsers(list.users) });
    return {
      id: list.id,
      triggers,
      provisioner: { type: "local-exec", command: provisionerCommand(DEFAULT_CLI_COMMAND), environment: provisionerEnvironment(`${STACK}/${list.id}`, STACK, triggers, attribute) },
    };
  });
}

function runApp(dir: string): Promise<{ wallMs: number; synthMs: number }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    execFile(process.execPath, ["app.js"], { cwd: dir, maxBuffer: 16 * MB, timeout: 30 * 60_000 }, (error, _stdout, stderr) => {
      const wallMs = performance.now() - started;
      if (error !== null) {
        reject(new Error(`synth in ${dir} failed: ${error.message}\n${stderr.slice(-2000)}`));
        return;
      }
      const marked = new RegExp(`${MARK}(.+)`).exec(stderr);
      const reported = marked?.[1] === undefined ? null : (JSON.parse(marked[1]) as { synthMs: number });
      resolve({ wallMs, synthMs: reported?.synthMs ?? Number.NaN });
    });
  });
}

/** The `resource` blocks of a synthesized stack, as text (cdktf writes keys sorted). */
function resourceBlocks(dir: string): { text: string; bytes: number } {
  const raw = readFileSync(join(dir, "cdktf.out", "stacks", STACK, "cdk.tf.json"), "utf8");
  return { text: JSON.stringify((JSON.parse(raw) as { resource: unknown }).resource), bytes: Buffer.byteLength(raw) };
}

export async function measurePair(repo: string, count: number, resourceType: ResourceType, repeats = 1): Promise<{ ours: SynthRun; bare: SynthRun; sameResources: boolean }> {
  const lists = listsOf(count);
  const oursDir = mkdtempSync(join(tmpdir(), "aru-bench-synth-ours-"));
  const bareDir = mkdtempSync(join(tmpdir(), "aru-bench-synth-bare-"));
  try {
    writeFileSync(join(oursDir, "data.json"), JSON.stringify({ lists, resourceType }));
    writeFileSync(join(oursDir, "app.js"), oursApp(repo));
    writeFileSync(join(bareDir, "data.json"), JSON.stringify({ resources: bareResources(lists, resourceType), resourceType }));
    writeFileSync(join(bareDir, "app.js"), bareApp(repo));
    // alternate the two apps and keep each one's fastest run: the machine's other load only adds time
    let bareTime = { wallMs: Infinity, synthMs: Infinity };
    let oursTime = { wallMs: Infinity, synthMs: Infinity };
    for (let i = 0; i < repeats; i += 1) {
      const bare = await runApp(bareDir);
      const ours = await runApp(oursDir);
      if (bare.wallMs < bareTime.wallMs) bareTime = bare;
      if (ours.wallMs < oursTime.wallMs) oursTime = ours;
    }
    const oursJson = resourceBlocks(oursDir);
    const bareJson = resourceBlocks(bareDir);
    return {
      ours: { lists: count, resourceType, app: "alert-rule-users", ...oursTime, stackJsonBytes: oursJson.bytes },
      bare: { lists: count, resourceType, app: "bare cdktf", ...bareTime, stackJsonBytes: bareJson.bytes },
      sameResources: oursJson.text === bareJson.text,
    };
  } finally {
    rmSync(oursDir, { recursive: true, force: true });
    rmSync(bareDir, { recursive: true, force: true });
  }
}

export const synthScaling: Scenario = {
  name: "synth-scaling",
  title: "Synth scaling: RuleUserList against bare cdktf",
  async run(ctx: ScenarioContext): Promise<ScenarioResult> {
    const sizes: readonly number[] = ctx.quick ? SYNTH_SIZES_QUICK : SYNTH_SIZES_FULL;
    const repo = repoRoot();
    const pairs: { ours: SynthRun; bare: SynthRun; sameResources: boolean }[] = [];
    for (const count of sizes) {
      for (const resourceType of TYPES) {
        ctx.log(`synth-scaling: ${fmt.int(count)} lists as ${resourceType}, bare cdktf then alert-rule-users`);
        pairs.push(await measurePair(repo, count, resourceType, ctx.quick ? 1 : SYNTH_REPEATS));
      }
    }

    const plotFile = join(repo, "docs", ctx.quick ? "synth-scaling.quick.svg" : "synth-scaling.svg");
    const colors: Record<ResourceType, string> = { terraform_data: "#1f6feb", null_resource: "#d1242f" };
    writeFileSync(
      plotFile,
      xySvg(
        TYPES.flatMap((type) => [
          { label: `alert-rule-users, ${type}`, color: colors[type], points: pairs.filter((p) => p.ours.resourceType === type).map((p) => ({ x: p.ours.lists, y: p.ours.wallMs / 1000 })) },
          { label: `bare cdktf, ${type}`, color: colors[type], dashed: true, points: pairs.filter((p) => p.bare.resourceType === type).map((p) => ({ x: p.bare.lists, y: p.bare.wallMs / 1000 })) },
        ]),
        { title: `Synth time against list count (${USERS_PER_LIST} users a list; whole app process)`, xLabel: "RuleUserLists (or bare resources) in one stack", yLabel: "seconds" },
      ),
    );
    ctx.log(`synth-scaling: plot written to ${plotFile}`);

    const largest = Math.max(...sizes);
    const smallest = Math.min(...sizes);
    const checks: Check[] = TYPES.flatMap((type) => {
      const at = (n: number) => pairs.find((p) => p.ours.resourceType === type && p.ours.lists === n)!;
      const top = at(largest);
      const low = at(smallest);
      const ratio = top.ours.wallMs / top.bare.wallMs;
      const growth = top.ours.wallMs / low.ours.wallMs / (largest / smallest);
      return [
        sizedCheck(
          ctx.quick,
          `synth of ${fmt.int(largest)} ${type} lists within ${SYNTH_RATIO_TARGET}× of bare cdktf`,
          ratio <= SYNTH_RATIO_TARGET,
          `${fmt.s(top.ours.wallMs)} s against ${fmt.s(top.bare.wallMs)} s (${fmt.ratio(ratio)})`,
        ),
        sizedCheck(
          ctx.quick,
          `synth of ${type} lists grows within ${SYNTH_GROWTH_TARGET}× of linear from ${fmt.int(smallest)} to ${fmt.int(largest)}`,
          growth <= SYNTH_GROWTH_TARGET,
          `${fmt.s(low.ours.wallMs)} s → ${fmt.s(top.ours.wallMs)} s for ${fmt.int(largest / smallest)}× the lists (${fmt.ratio(growth)} of linear)`,
        ),
      ];
    });
    const different = pairs.filter((p) => !p.sameResources);
    checks.push(
      check(
        "synth scaling: both apps synthesize the same resources",
        different.length === 0,
        different.length === 0 ? `identical resource blocks in all ${pairs.length} pairs` : `different at ${different.map((p) => `${p.ours.lists} ${p.ours.resourceType}`).join(", ")}`,
      ),
    );
    return {
      name: this.name,
      title: this.title,
      tables: [
        {
          title: `Synth of N lists × ${USERS_PER_LIST} users in one stack, whole app process, fastest of ${ctx.quick ? 1 : SYNTH_REPEATS} runs each (bare cdktf: the same resources built with cdktf's classes, validations skipped)`,
          columns: ["lists", "resource type", "ours s", "bare cdktf s", "ratio", "ours synth s", "bare synth s", "stack JSON MB", "same resources"],
          rows: pairs.map((p) => [
            fmt.int(p.ours.lists),
            p.ours.resourceType,
            fmt.s(p.ours.wallMs),
            fmt.s(p.bare.wallMs),
            fmt.ratio(p.ours.wallMs / p.bare.wallMs),
            fmt.s(p.ours.synthMs),
            fmt.s(p.bare.synthMs),
            fmt.mb(p.ours.stackJsonBytes),
            p.sameResources ? "yes" : "NO",
          ]),
        },
      ],
      checks,
      data: { sizes, usersPerList: USERS_PER_LIST, pairs, plot: plotFile.slice(repo.length + 1) },
    };
  },
};
