/**
 * Real Terraform for the tests of test/terraform: a CLI configuration that allows no provider
 * download (so a passing `terraform init` proves the stack needs none) and a runner.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCommand } from "../support/cli";
import type { CliResult } from "../support/cli";

export const MINUTES = 60_000;

/**
 * The environment of the provider's Terraform tests: `dir/terraform.rc` as the CLI configuration
 * (written by the caller: with no provider_installation, Terraform uses the implied local mirror
 * `dir/terraform.d`), no prompts, and the connection to `sim`.
 */
export function providerTestEnv(dir: string, sim: { readonly url: string; readonly tenantId: string }, token: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env["PATH"],
    HOME: process.env["HOME"],
    TF_CLI_CONFIG_FILE: join(dir, "terraform.rc"),
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    ALERTS_API_URL: sim.url,
    ALERTS_API_TOKEN: token,
    ALERTS_TENANT_ID: sim.tenantId,
  };
}

/**
 * The environment for terraform in `dir`: `TF_CLI_CONFIG_FILE` names a configuration that installs
 * providers only from an empty local mirror, no checkpoint call, no prompts; plus `extra`.
 */
export function offlineTerraformEnv(dir: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const mirror = join(dir, "empty-provider-mirror");
  mkdirSync(mirror, { recursive: true });
  const rc = join(dir, "terraform.rc");
  writeFileSync(rc, `provider_installation {\n  filesystem_mirror {\n    path    = ${JSON.stringify(mirror)}\n    include = ["*/*/*"]\n  }\n}\n`);
  return { ...extra, TF_CLI_CONFIG_FILE: rc, CHECKPOINT_DISABLE: "1", TF_IN_AUTOMATION: "1", TF_INPUT: "0" };
}

/**
 * The binary the tests drive: `terraform`, or what TERRAFORM_TEST_BINARY names (`npm run
 * test:opentofu` sets `tofu`: OpenTofu speaks the same plugin protocol and reads the same implied
 * local mirror).
 */
export const TERRAFORM = process.env["TERRAFORM_TEST_BINARY"] ?? "terraform";

/** Runs `terraform ARGS` (or the TERRAFORM_TEST_BINARY) in `cwd`. */
export function terraform(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<CliResult> {
  return runCommand(TERRAFORM, args, { cwd, env, timeoutMs: 10 * MINUTES });
}

export interface TfOptions {
  /** The folder terraform runs in, read at each call (made in a hook). */
  readonly cwd: () => string;
  /** Its environment, read at each call. */
  readonly env: () => NodeJS.ProcessEnv;
  /** `-no-color` after the arguments. @default false */
  readonly noColor?: boolean;
  /** Every stdout and stderr is pushed here (a test checks no token leaked). @default - not kept */
  readonly outputs?: string[];
}

/** A run of terraform: `expected` exit codes (another fails the test, explained), `extraEnv` added to the environment. */
export type Tf = (args: string[], expected?: number | number[], extraEnv?: NodeJS.ProcessEnv) => Promise<CliResult>;

/** `terraform` bound to a test's folder and environment. @default expected - any exit code */
export function tfIn(options: TfOptions): Tf {
  return async (args, expected, extraEnv = {}) => {
    const result = await terraform(options.noColor === true ? [...args, "-no-color"] : args, options.cwd(), { ...options.env(), ...extraEnv });
    options.outputs?.push(result.stdout, result.stderr);
    const codes = expected === undefined ? undefined : Array.isArray(expected) ? expected : [expected];
    if (codes !== undefined && !codes.includes(result.code ?? -1)) throw new Error(explain(`terraform ${args.join(" ")}`, result));
    return result;
  };
}

export function explain(step: string, result: CliResult): string {
  return `${step} exited ${String(result.code)}:\n--- stdout\n${result.stdout.slice(-6000)}\n--- stderr\n${result.stderr.slice(-6000)}`;
}

/** How many provisioners ran, as terraform reports them. */
export const provisionerRuns = (output: string): number => output.split("\n").filter((line) => /\(local-exec\): Executing:/.test(line)).length;
