/**
 * Terraform working directories for the provider scenario (bench/scenarios/provider.ts): the native
 * provider installed into a directory's implied local mirror by the built CLI (`provider install`),
 * generated declarations written as HCL, and the same declarations as a cdktf app for the CLI.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { packedMirrorPath, terraformTarget } from "../../src/core/native/native-provider";
import { executableName, readZip } from "../../src/io/provider-package";
import { TOOL_VERSION } from "../../src/io/version";
import type { DesiredList } from "../../src/core";

export interface TimedRun {
  readonly wallMs: number;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a command to its end; wall time from spawn to exit. */
export function timedCommand(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<TimedRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(file, [...args], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ wallMs: Number(process.hrtime.bigint() - started) / 1e6, code, stdout, stderr }));
  });
}

/**
 * Runs a command as {@link timedCommand} does, under `/usr/bin/time`, and adds its CPU (user +
 * system, ms): the command's own and that of every child it waited for (Terraform waits for its
 * provider processes, so their CPU is in it).
 */
export async function timedCommandCpu(file: string, args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, timeFile: string): Promise<TimedRun & { readonly cpuMs: number }> {
  const run = await timedCommand("/usr/bin/time", ["-f", "%U %S", "-o", timeFile, file, ...args], cwd, env);
  const [user, system] = readFileSync(timeFile, "utf8").trim().split("\n").pop()!.split(" ").map(Number);
  return { ...run, cpuMs: ((user ?? NaN) + (system ?? NaN)) * 1000 };
}

/** Fails with the end of the command's output unless it exited with one of `codes`. */
export function expectExit(step: string, run: TimedRun, codes: readonly number[] = [0]): TimedRun {
  if (!codes.includes(run.code ?? -1)) throw new Error(`${step} exited ${String(run.code)}:\n${run.stdout.slice(-3000)}\n${run.stderr.slice(-3000)}`);
  return run;
}

/** The connection of a simulator, as the provider block and the CLI read it from the environment. */
export interface Connection {
  readonly url: string;
  readonly token: string;
  readonly tenantId: string;
}

/**
 * The environment of terraform in `dir`: a CLI configuration without provider_installation (so the
 * implied local mirror, where `provider install` wrote the provider, is used), no prompts, the connection.
 */
export function terraformEnv(dir: string, connection: Connection): NodeJS.ProcessEnv {
  const rc = join(dir, "terraform.rc");
  writeFileSync(rc, "disable_checkpoint = true\n");
  return {
    PATH: process.env["PATH"],
    HOME: process.env["HOME"],
    TF_CLI_CONFIG_FILE: rc,
    TF_IN_AUTOMATION: "1",
    TF_INPUT: "0",
    NO_COLOR: "1",
    ALERTS_API_URL: connection.url,
    ALERTS_API_TOKEN: connection.token,
    ALERTS_TENANT_ID: connection.tenantId,
  };
}

/** `alert-rule-users provider install DIR` with the built CLI; returns the installed executable's path. */
export async function installProvider(cli: string, dir: string, env: NodeJS.ProcessEnv): Promise<string> {
  expectExit("alert-rule-users provider install", await timedCommand(process.execPath, [cli, "provider", "install", dir], dir, env));
  return unpackedProvider(dir);
}

/**
 * The executable of the provider `provider install` wrote into `dir` (the release's zip, in the
 * implied mirror's packed layout), unpacked as Terraform unpacks it, into `dir/.bench-provider`.
 */
export function unpackedProvider(dir: string): string {
  const target = terraformTarget(process.platform, process.arch) ?? "linux_amd64";
  const zip = join(dir, packedMirrorPath(TOOL_VERSION, target));
  if (!existsSync(zip)) throw new Error(`provider install wrote no ${zip}`);
  const out = join(dir, ".bench-provider");
  mkdirSync(out, { recursive: true });
  for (const file of readZip(readFileSync(zip))) writeFileSync(join(out, file.name), file.data, { mode: file.mode });
  return join(out, executableName(TOOL_VERSION));
}

const hclString = (s: string): string => JSON.stringify(s).replace(/\$\{/g, "$${").replace(/%\{/g, "%%{");

/** main.tf: the provider block (`providerBody` inside it) and one alertrules_rule_user_list per declaration. */
export function writeHcl(dir: string, declarations: readonly DesiredList[], providerBody = ""): void {
  const resources = declarations.map((d, i) => {
    const rule = d.ruleId !== null ? `  rule_id = ${hclString(d.ruleId)}\n` : `  rule_name = ${hclString(d.ruleName ?? "")}\n`;
    const users = d.users.map((u) => `    ${hclString(u.userId)} = { aliases = [${u.aliases.map(hclString).join(", ")}]${u.expiresAt === undefined || u.expiresAt === null ? "" : `, expires_at = ${hclString(u.expiresAt)}`} }`).join("\n");
    return `resource "alertrules_rule_user_list" "list_${i}" {\n${rule}  mode = ${hclString(d.mode)}\n  users = {\n${users}\n  }\n}\n`;
  });
  writeFileSync(
    join(dir, "main.tf"),
    `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nprovider "alertrules" {\n${providerBody}}\n\n${resources.join("\n")}`,
  );
}

/** A cdktf app in `dir` declaring the same lists as RuleUserList constructs (lists.json), for the CLI's plan. */
export function writeCdktfApp(dir: string, root: string, declarations: readonly DesiredList[]): void {
  writeFileSync(join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
  writeFileSync(
    join(dir, "app.js"),
    `const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [root] }))});
const { RuleUserList } = require(${JSON.stringify(join(root, "dist", "src", "index.js"))});
const app = new App();
const stack = new TerraformStack(app, "bench");
require("./lists.json").forEach((props, i) => new RuleUserList(stack, "list-" + i, props));
app.synth();
`,
  );
  writeFileSync(join(dir, "lists.json"), JSON.stringify(declarations.map(appProps)));
}

/** A declaration as the props of its RuleUserList in that app (one entry of lists.json). */
export function appProps(list: DesiredList): Record<string, unknown> {
  return { ...(list.ruleId !== null ? { ruleId: list.ruleId } : { ruleName: list.ruleName }), mode: list.mode, users: list.users };
}
