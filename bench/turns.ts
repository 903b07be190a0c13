/**
 * `npm run bench:turns -- VARIANT...`: `terraform plan` of N unchanged lists through each variant
 * (the floor provider, or a provider bundle), in turns, for comparing two builds of the provider on
 * one machine in one hour. The full provider scenario (`npm run bench -- --scenario provider`) is
 * what the targets are judged on; this is how a change is measured before it (docs/performance.md,
 * "In turns"). Its arguments and report are read and made in bench/lib/turns.ts.
 */
import { copyFileSync, existsSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { CPU_FILE_VARIABLE } from "../src/provider/main";
import { devOverride } from "./lib/dev-override";
import { floorPlanSetup, type FloorPlanSetup } from "./lib/floor-plan";
import { repoRoot } from "./lib/machine";
import { providerRuntime } from "./lib/provider-runtime";
import { hostSimulator } from "./lib/simulator-host";
import { expectExit, installProvider, terraformEnv, timedCommand, timedCommandCpu, writeHcl } from "./lib/terraform-dir";
import { generateTenant } from "./lib/tenant";
import { TURNS_HELP, parseTurnsArgs, summarizeTurns, turnLine, type TurnRun, type TurnsSettings } from "./lib/turns";
import { REFRESH_ALIASES, REFRESH_SEED, processesCpu } from "./scenarios/provider-steps";

const USERS_PER_RULE = 20;

async function run(settings: TurnsSettings): Promise<void> {
  const top = resolve(settings.dir ?? join(tmpdir(), `alert-rule-users-turns-${settings.lists}`));
  const bundles = settings.variants.filter((v) => v !== "floor").map((v) => resolve(v));
  const missing = bundles.find((b) => !existsSync(b));
  if (missing !== undefined) throw new Error(`${missing}: no such bundle; give the path of a provider bundle (npm run build makes dist/provider/alertrules-provider.js)`);
  // fetched into an empty directory each time (from npm's cache: the version is pinned)
  rmSync(join(top, "runtime"), { recursive: true, force: true });
  const runtime = await providerRuntime(join(top, "runtime"));
  if (runtime.fallback !== null) process.stdout.write(`note: ${runtime.fallback}\n`);
  const tenant = generateTenant({ rules: settings.lists, usersPerRule: USERS_PER_RULE, change: { kind: "none" }, seed: REFRESH_SEED, aliasesPerUser: REFRESH_ALIASES });
  const sim = await hostSimulator(tenant.seed, settings.latencyMs);
  let floor: FloorPlanSetup | null = null;
  try {
    if (settings.variants.includes("floor")) floor = await floorPlanSetup(join(top, "floor"), runtime.node);
    const dir = join(top, "terraform");
    const refreshed = join(top, "refreshed.tfstate");
    const making = settings.fresh || !existsSync(refreshed);
    if (making) rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    const env = terraformEnv(dir, sim);
    if (making) {
      process.stdout.write(`making the state: ${settings.lists} lists, one terraform apply and one refresh (kept in ${top})\n`);
      await installProvider(join(repoRoot(), "dist", "src", "cli", "main.js"), dir, env);
      writeHcl(dir, tenant.declarations);
      expectExit("terraform init", await timedCommand("terraform", ["init", "-no-color"], dir, env));
      expectExit("terraform apply", await timedCommand("terraform", ["apply", "-auto-approve", "-no-color"], dir, env));
      expectExit("terraform apply -refresh-only", await timedCommand("terraform", ["apply", "-refresh-only", "-auto-approve", "-no-color"], dir, env));
      copyFileSync(join(dir, "terraform.tfstate"), refreshed);
    }
    const overrides = new Map(bundles.map((bundle, i) => [bundle, devOverride(join(top, `variant-${i}`), runtime.node, [...settings.nodeFlags, bundle])]));
    const planArgs = ["plan", "-detailed-exitcode", "-no-color", ...(settings.parallelism === null ? [] : [`-parallelism=${settings.parallelism}`])];
    const runs: TurnRun[] = [];
    for (let round = 0; round < settings.rounds; round++) {
      for (const variant of settings.variants) {
        const extra = variant === "floor" ? floor!.env : overrides.get(resolve(variant))!;
        copyFileSync(refreshed, join(dir, "terraform.tfstate"));
        const cpuFile = join(top, ".cpu");
        rmSync(cpuFile, { force: true });
        const timed = await timedCommandCpu("terraform", planArgs, dir, { ...env, ...extra, [CPU_FILE_VARIABLE]: cpuFile }, join(top, ".time"));
        expectExit(`terraform plan through ${variant}`, timed, [0]);
        const turn: TurnRun = { variant, round, wallMs: timed.wallMs, cpuMs: timed.cpuMs, providerMs: processesCpu(cpuFile) };
        runs.push(turn);
        process.stdout.write(`${turnLine(turn, settings.lists)}\n`);
      }
    }
    process.stdout.write(`\nprovider CPU a resource, best and worst of ${settings.rounds} round(s), on Node.js ${runtime.version}:\n`);
    for (const s of summarizeTurns(runs, settings.lists)) {
      process.stdout.write(`  ${s.variant}: ${s.bestPerResourceMs.toFixed(2)}–${s.worstPerResourceMs.toFixed(2)} ms${s.ratioToFloor === null || s.variant === "floor" ? "" : ` (best ${s.ratioToFloor.toFixed(2)}× the floor's best)`}\n`);
    }
  } finally {
    await floor?.stop();
    await sim.stop();
  }
}

const args = parseTurnsArgs(process.argv.slice(2));
if (args.kind === "help") process.stdout.write(`${TURNS_HELP}\n`);
else if (args.kind === "invalid") {
  process.stderr.write(`bench:turns: ${args.message}\n`);
  process.exitCode = 2;
} else {
  run(args.settings).catch((error: unknown) => {
    process.stderr.write(`bench:turns: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
