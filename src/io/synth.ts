/**
 * Runs the user's cdktf app, like `cdktf synth`: the app command through the shell, in the project
 * directory, with `CDKTF_OUTDIR` set. Never imports cdktf: the app loads its own.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { ConfigError, SynthError } from "../errors";
import { SYNTH_ALLOW_LIST, childEnvironment } from "../shared/child-env";
import { messageOf } from "../shared/text";

export interface RunSynthOptions {
  /** The app command, run through the shell (the `app` of cdktf.json, or `--app`). */
  readonly app: string;
  /** Where the app writes manifest.json and stacks/ (relative to `cwd` unless absolute). */
  readonly outdir: string;
  /** The project directory the app runs in. */
  readonly cwd: string;
  /** The environment to start from (its secrets are withheld from the app). @default - process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Receives the app's stdout and stderr as they come (e.g. to show progress on stderr). @default - kept only for error messages */
  readonly onOutput?: (chunk: string) => void;
  /** Stops the app (SIGTERM) when aborted, e.g. at an interrupt. @default - runs to its end */
  readonly signal?: AbortSignal;
}

/** How many lines of the app's output an error message shows. */
const TAIL_LINES = 40;
/** How much output is kept for the error message. */
const KEEP_CHARS = 64 * 1024;

const cdktfJsonSchema = z.looseObject({
  app: z.string().min(1, "must be the command that runs your cdktf app, e.g. \"npx ts-node main.ts\""),
  context: z.record(z.string(), z.unknown()).optional(),
});

function readCdktfJson(cwd: string): z.infer<typeof cdktfJsonSchema> {
  const file = path.join(cwd, "cdktf.json");
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    throw new ConfigError(`No cdktf.json in ${cwd}: run in the directory of your cdktf project, or give the app command with --app.`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`${file} is not valid JSON (${messageOf(error)}).`);
  }
  const parsed = cdktfJsonSchema.safeParse(json);
  if (!parsed.success) {
    throw new ConfigError(`${file}: "app" is missing or invalid; set it, or give the app command with --app:\n${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/** The `app` command of `<cwd>/cdktf.json`. Throws a ConfigError when the file or the field is missing. */
export function readAppCommand(cwd: string): string {
  return readCdktfJson(cwd).app;
}

/** The directory of this package (holding its package.json), found from this file. */
function nearestPackageDir(): string | undefined {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    if (path.dirname(dir) === dir) return undefined;
  }
}

/**
 * PATH for the app, as npm builds it for scripts: `node_modules/.bin` of `cwd` and of each of its
 * ancestors, then this package's own `node_modules/.bin`, then the inherited PATH.
 */
export function synthPath(cwd: string, inherited: string | undefined): string {
  const dirs: string[] = [];
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    dirs.push(path.join(dir, "node_modules", ".bin"));
    if (path.dirname(dir) === dir) break;
  }
  const own = nearestPackageDir();
  if (own !== undefined) dirs.push(path.join(own, "node_modules", ".bin"));
  const unique = [...new Set(dirs)];
  return [...unique, ...(inherited ? [inherited] : [])].join(path.delimiter);
}

/**
 * The environment of the app: `CDKTF_OUTDIR`, JSON output, all stacks, and error annotations
 * fatal; without the token, the plan key and the other secrets (src/shared/secret-variables.ts):
 * the app is the user's code (in a pull-request job, the pull request's), and needs none of them.
 * It reads the user's own variables, so it gets every other one (src/shared/child-env.ts). It can
 * still read the CLI's environment through /proc/<pid>/environ as the same user: in CI the job
 * boundary is the defence (docs/guarantees.md, docs/ci.md: the plan workflow synthesizes in a job
 * that holds no secret).
 */
export function synthEnvironment(options: RunSynthOptions, outdir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = childEnvironment(SYNTH_ALLOW_LIST, {}, options.env ?? process.env);
  const pathKey = Object.keys(env).find((k) => k.toUpperCase() === "PATH") ?? "PATH";
  env[pathKey] = synthPath(options.cwd, env[pathKey]);
  env["CDKTF_OUTDIR"] = outdir;
  env["SYNTH_HCL_OUTPUT"] = "false";
  // With this set, cdktf writes error annotations to the manifest and exits 0 (the cdktf CLI reads
  // them itself); without it, the app fails with the messages, which is what we report.
  delete env["CDKTF_CONTINUE_SYNTH_ON_ERROR_ANNOTATIONS"];
  delete env["CDKTF_TARGET_STACK_ID"];
  if (env["CDKTF_CONTEXT_JSON"] === undefined) {
    const context = fs.existsSync(path.join(options.cwd, "cdktf.json")) ? safeContext(options.cwd) : undefined;
    if (context !== undefined) env["CDKTF_CONTEXT_JSON"] = JSON.stringify(context);
  }
  return env;
}

function safeContext(cwd: string): Record<string, unknown> | undefined {
  try {
    return readCdktfJson(cwd).context;
  } catch {
    return undefined; // the app command came from --app; a broken cdktf.json is not ours to report
  }
}

/**
 * cdktf ends a failed validation with "If you wish to ignore these validations, pass
 * 'skipValidation: true' to your App configuration." That would turn off the RuleUserList checks
 * (one list per rule, modes, aliases) that keep a plan safe: the line is never passed on, and the
 * message says to fix the declaration instead.
 */
const SKIP_VALIDATION_ADVICE = /^.*skipValidation.*$/gm;
const KEEP_VALIDATION_ADVICE =
  "These are the declarations' safety checks (one RuleUserList per rule, valid modes and aliases): fix the declaration; do not turn the checks off with skipValidation.";

/** The end of the app's output without JavaScript stack frames, so the error messages stay visible. */
export function outputTail(output: string, lines = TAIL_LINES): string {
  const kept = output
    .split(/\r?\n/)
    .filter((line) => !/^\s+at\s/.test(line) && !/^Node\.js v\d/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
    .split("\n");
  return kept.slice(-lines).join("\n");
}

/**
 * Runs the app and waits for it. Throws a SynthError with the command, the exit code and the end
 * of its stderr (or stdout when stderr is empty) when it fails or writes no manifest.json.
 */
export async function runSynth(options: RunSynthOptions): Promise<void> {
  const outdir = path.resolve(options.cwd, options.outdir);
  const manifest = path.join(outdir, "manifest.json");
  try {
    fs.mkdirSync(outdir, { recursive: true });
    fs.rmSync(manifest, { force: true }); // a stale manifest must not pass for this run's
  } catch (error) {
    throw new SynthError(`Cannot prepare the output directory ${outdir}: ${messageOf(error)}`, undefined, { cause: error });
  }

  let stdout = "";
  let stderr = "";
  const keep = (kept: string, chunk: string): string => (kept + chunk).slice(-KEEP_CHARS);

  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    const child = spawn(options.app, {
      cwd: options.cwd,
      env: synthEnvironment(options, outdir),
      shell: true,
      stdio: ["ignore", "pipe", "pipe"],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout = keep(stdout, chunk);
      options.onOutput?.(chunk);
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr = keep(stderr, chunk);
      options.onOutput?.(chunk);
    });
    child.on("error", reject);
    child.on("close", (exitCode, exitSignal) => resolve({ code: exitCode, signal: exitSignal }));
  }).catch((error: unknown) => {
    throw new SynthError(`Could not run the app command \`${options.app}\`: ${messageOf(error)}`, undefined, { cause: error });
  });

  const output = outputTail(stderr.trim() !== "" ? stderr : stdout);
  const tail = output.replace(SKIP_VALIDATION_ADVICE, "").trim();
  const advice = tail !== output ? ` ${KEEP_VALIDATION_ADVICE}` : "";
  const details = { command: options.app, exitCode: code, signal, stderrTail: tail };
  if (code !== 0) {
    const how = signal !== null ? `was killed by ${signal}` : `exited with code ${String(code)}`;
    throw new SynthError(
      `Synth failed: \`${options.app}\` (in ${options.cwd}) ${how}.${tail === "" ? "" : `\n${tail}`}\nFix the errors above and run again.${advice}`,
      details,
    );
  }
  if (!fs.existsSync(manifest)) {
    throw new SynthError(
      `Synth failed: \`${options.app}\` exited 0 but wrote no manifest.json to ${outdir}. Does the app call app.synth(), and does it honour CDKTF_OUTDIR (no fixed outdir in new App({...}))?`,
      details,
    );
  }
}
