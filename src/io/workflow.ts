/**
 * The part plan and apply share: resolve the connection, synthesize the app (or read what is
 * already synthesized), read the declarations, observe and build the plan.
 */
import { isAbsolute, resolve } from "node:path";
import { RuleListClient, resolveConnection } from "../api";
import type { ConnectionConfig } from "../api";
import { readDeclarations, toDesiredList } from "./read-synth-output";
import type { Plan } from "../core/plan-schema";
import type { DesiredList } from "../core/observation";
import { observe } from "./observe";
import { buildPlan } from "../core/build-plan";
import { readAppCommand, runSynth } from "./synth";
import { intFlag } from "../cli/args";
import type { Io } from "../cli/io";
import { progress } from "../cli/progress";

export const SYNTH_OPTIONS = {
  app: { type: "string" },
  output: { type: "string" },
  "skip-synth": { type: "boolean" },
  stack: { type: "string", multiple: true },
} as const;

export const ENGINE_OPTIONS = {
  parallelism: { type: "string" },
  "batch-size": { type: "string" },
  "page-size": { type: "string" },
  timeout: { type: "string" },
} as const;

export interface SynthFlags {
  readonly app?: string | undefined;
  readonly output?: string | undefined;
  readonly "skip-synth"?: boolean | undefined;
  readonly stack?: string[] | undefined;
}

export interface ConnectionFlags {
  readonly "base-url"?: string | undefined;
  readonly "tenant-id"?: string | undefined;
  readonly "token-file"?: string | undefined;
}

export interface EngineSettings {
  readonly parallelism: number;
  readonly batchSize: number;
  readonly pageSize: number;
}

export function engineSettings(
  command: string,
  flags: { parallelism?: string | undefined; "batch-size"?: string | undefined; "page-size"?: string | undefined },
): EngineSettings {
  return {
    parallelism: intFlag(command, "parallelism", flags.parallelism, 4, 1, 64),
    batchSize: intFlag(command, "batch-size", flags["batch-size"], 100, 1, 10_000),
    pageSize: intFlag(command, "page-size", flags["page-size"], 100, 1, 500),
  };
}

/** Default of --timeout: how long one HTTP attempt may take, in seconds. */
export const DEFAULT_TIMEOUT_SECONDS = 30;

/**
 * Resolves the connection and builds the client. `timeout` (--timeout SECONDS) bounds each HTTP
 * attempt; an attempt that takes longer is abandoned and retried like a 5xx.
 */
export function connect(
  flags: ConnectionFlags & { readonly timeout?: string | undefined },
  io: Io,
): { connection: ConnectionConfig; client: RuleListClient } {
  const timeoutSeconds = intFlag("alert-rule-users", "timeout", flags.timeout, DEFAULT_TIMEOUT_SECONDS, 1, 3600);
  const connection = resolveConnection({
    env: io.env,
    baseUrl: flags["base-url"],
    tenantId: flags["tenant-id"],
    tokenFile: flags["token-file"] === undefined ? undefined : resolve(io.cwd, flags["token-file"]),
  });
  return { connection, client: new RuleListClient({ ...connection, timeoutMs: timeoutSeconds * 1000 }) };
}

/** Synthesizes (unless --skip-synth) and reads the declared lists. */
export async function declarations(flags: SynthFlags, io: Io): Promise<DesiredList[]> {
  const output = flags.output ?? "cdktf.out";
  const outdir = isAbsolute(output) ? output : resolve(io.cwd, output);
  if (flags["skip-synth"] !== true) {
    const app = flags.app ?? readAppCommand(io.cwd);
    await runSynth({ app, outdir, cwd: io.cwd, env: io.env });
  }
  const stacks = flags.stack ?? [];
  return readDeclarations(outdir, stacks.length > 0 ? { stacks } : {}).map(toDesiredList);
}

/** Observes the declared rules and builds the plan. */
export async function planFor(
  desired: readonly DesiredList[],
  client: RuleListClient,
  connection: ConnectionConfig,
  settings: EngineSettings,
  io: Io,
): Promise<Plan> {
  const bar = progress(io.stderr, "Reading rule lists");
  try {
    const observations = await observe(client, desired, {
      parallelism: settings.parallelism,
      pageSize: settings.pageSize,
      onProgress: (done, total) => bar.update(done, total),
    });
    return buildPlan({
      declarations: desired,
      observations,
      connection: { baseUrl: connection.baseUrl, tenantId: connection.tenantId },
      createdAt: new Date().toISOString(),
      batchSize: settings.batchSize,
    });
  } finally {
    bar.done();
  }
}
