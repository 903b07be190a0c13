/**
 * The pure half of `npm run bench:turns` (bench/turns.ts): its arguments read into plain settings,
 * and each variant's best round against the floor provider's. The runs themselves are I/O and live
 * in bench/turns.ts.
 */
import { parseArgs } from "node:util";

export const TURNS_HELP = `Usage: npm run bench:turns -- [--lists N] [--rounds K] [--latency-ms MS] [--parallelism P] [--node-flags FLAGS] [--dir DIR] [--fresh] VARIANT...

Runs \`terraform plan\` of N unchanged lists (20 users with two aliases each, the state refreshed once:
the provider scenario's step 2) through each VARIANT in turns, K rounds, and prints each run's wall
time, its CPU, the provider's CPU a resource over its processes and Terraform's own. Use it to
compare two builds of the provider on one machine in one hour (docs/performance.md, "In turns").

  VARIANT           floor: the bench's floor provider (echoes at the protobuf framing, one request
                    a read); or the path of a provider bundle (dist/provider/alertrules-provider.js
                    of a checkout, after npm run build), run as Terraform runs the provider;
                    dist/bench/client-only-provider.bundle.js is the client-only bound (the
                    provider validating and planning nothing: bench/lib/client-only-patches.ts)
  --lists N         lists in the state (default 1000)
  --rounds K        rounds of every variant (default 2)
  --latency-ms MS   latency the simulator adds to every request (default 20)
  --parallelism P   terraform plan -parallelism=P (default: Terraform's, 10)
  --node-flags F    flags for the node that runs each bundle (not the floor), e.g. "--cpu-prof"
  --dir DIR         where the state and the runs are kept between invocations
                    (default: alert-rule-users-turns-N in the system's temporary directory)
  --fresh           make the state again (one terraform apply and one refresh of N lists)

Every variant runs on the provider's own Node.js (the one its Linux executable embeds, fetched as
\`provider package\` fetches it). The state is made once by the installed provider of this checkout.`;

export interface TurnsSettings {
  readonly lists: number;
  readonly rounds: number;
  readonly latencyMs: number;
  readonly parallelism: number | null;
  readonly nodeFlags: readonly string[];
  readonly dir: string | null;
  readonly fresh: boolean;
  /** "floor", or a bundle's path as given. */
  readonly variants: readonly string[];
}

export type TurnsArgs = { readonly kind: "help" } | { readonly kind: "run"; readonly settings: TurnsSettings } | { readonly kind: "invalid"; readonly message: string };

/** A whole number ≥ `least` from a flag's text; the message names the flag and what it takes. */
function count(flag: string, text: string | undefined, fallback: number, least: number): number | string {
  if (text === undefined) return fallback;
  return /^\d+$/.test(text) && Number(text) >= least ? Number(text) : `--${flag} takes a whole number of at least ${least}, got ${JSON.stringify(text)}`;
}

/** The settings of `argv` (the arguments after the script), or the reason they are not. */
export function parseTurnsArgs(argv: readonly string[]): TurnsArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        lists: { type: "string" },
        rounds: { type: "string" },
        "latency-ms": { type: "string" },
        parallelism: { type: "string" },
        "node-flags": { type: "string" },
        dir: { type: "string" },
        fresh: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    return { kind: "invalid", message: `${error instanceof Error ? error.message : String(error)}; see --help` };
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: "help" };
  const lists = count("lists", values.lists, 1000, 1);
  const rounds = count("rounds", values.rounds, 2, 1);
  const latencyMs = count("latency-ms", values["latency-ms"], 20, 0);
  const parallelism = values.parallelism === undefined ? null : count("parallelism", values.parallelism, 10, 1);
  const wrong = [lists, rounds, latencyMs, parallelism].find((v): v is string => typeof v === "string");
  if (wrong !== undefined) return { kind: "invalid", message: wrong };
  if (positionals.length === 0) return { kind: "invalid", message: "name at least one VARIANT: floor, or the path of a provider bundle (dist/provider/alertrules-provider.js); see --help" };
  return {
    kind: "run",
    settings: {
      lists: lists as number,
      rounds: rounds as number,
      latencyMs: latencyMs as number,
      parallelism: parallelism as number | null,
      nodeFlags: (values["node-flags"] ?? "").split(/\s+/).filter((flag) => flag !== ""),
      dir: values.dir ?? null,
      fresh: values.fresh === true,
      variants: positionals,
    },
  };
}

/** One `terraform plan` of one variant. */
export interface TurnRun {
  readonly variant: string;
  readonly round: number;
  readonly wallMs: number;
  /** Terraform's and every provider process's CPU. */
  readonly cpuMs: number;
  /** Each provider process's own CPU, in the order they exited. */
  readonly providerMs: readonly number[];
}

/** A variant's best round (least provider CPU), and its ratio to the floor's best where the floor ran. */
export interface TurnsSummary {
  readonly variant: string;
  readonly bestPerResourceMs: number;
  readonly worstPerResourceMs: number;
  readonly ratioToFloor: number | null;
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);

/** The provider's CPU a resource in one run. */
export const perResourceMs = (run: TurnRun, lists: number): number => sum(run.providerMs) / lists;

/** Each variant's best and worst round, in the order the variants were given. */
export function summarizeTurns(runs: readonly TurnRun[], lists: number): TurnsSummary[] {
  const variants = [...new Set(runs.map((r) => r.variant))];
  const range = (variant: string): [number, number] => {
    const each = runs.filter((r) => r.variant === variant).map((r) => perResourceMs(r, lists));
    return [Math.min(...each), Math.max(...each)];
  };
  const floor = variants.includes("floor") ? range("floor")[0] : null;
  return variants.map((variant) => {
    const [best, worst] = range(variant);
    return { variant, bestPerResourceMs: best, worstPerResourceMs: worst, ratioToFloor: floor === null || floor === 0 ? null : best / floor };
  });
}

/** One run as a line of the report. */
export function turnLine(run: TurnRun, lists: number): string {
  const provider = sum(run.providerMs);
  return `round ${run.round + 1}  ${run.variant}: wall ${(run.wallMs / 1000).toFixed(2)} s, CPU ${(run.cpuMs / 1000).toFixed(2)} s, provider ${perResourceMs(run, lists).toFixed(2)} ms a resource (processes ${run.providerMs.map((ms) => ms.toFixed(0)).join(" / ")} ms), Terraform ${((run.cpuMs - provider) / 1000).toFixed(2)} s`;
}
