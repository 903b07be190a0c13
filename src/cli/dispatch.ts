/**
 * One command line over a set of commands: the global flags, the dispatch to a command, and every
 * error mapped to an exit code in one place. Output goes through streams that redact the token,
 * whatever prints. Two programs stand on it: `alert-rule-users` (every command, src/cli/main.ts)
 * and the release's executable (the commands a team's CI runs without Node.js, src/release/executable.ts).
 */
import { hintFor } from "./hints";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { AlertRuleUsersError, ENV_BASE_URL, registerEnvironmentSecrets, registerSecret, registerUrlPassword, SECRET_VALUE_VARIABLES } from "../io/door-words";
import { didYouMean } from "../core/render";
import { TOOL_VERSION } from "../io/door-words";
import type { Command, Io } from "./io";
import { redactingStream } from "./io";
import { UNSAFE_NODE_DEBUG_FLAG, checkNodeDebug } from "./node-debug";

/** A command line: its name in the usage and its commands. */
export interface Program {
  readonly name: string;
  /** The usage's first paragraph, after the Usage line. */
  readonly about: string;
  readonly commands: readonly Command[];
}

function usage(program: Program): string {
  const width = Math.max(...program.commands.map((c) => c.name.length));
  return `Usage: ${program.name} <command> [flags]

${program.about}

Commands:
${program.commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join("\n")}

Run '${program.name} <command> --help' for a command's flags.

Global flags:
  --version                  print the version of alert-rule-users and exit
  ${NO_COLOR_FLAG}                 no colours in the output (as NO_COLOR=1; colours are on only when
                             stdout is a terminal)
  ${UNSAFE_NODE_DEBUG_FLAG}  run although NODE_DEBUG names http, net, tls, fetch, undici or
                             http2 (Node then prints request headers, the token included)

Long flags may be written with one dash, as Terraform's are: -out FILE, -auto-approve, -no-color.
`;
}

/**
 * Every value that must never be printed: the token from the environment or a --token-file, the
 * client secret of the token command (every token that command returns is registered as it
 * arrives, src/api/http/credentials.ts), and the password of a URL in ALERTS_API_URL or --base-url. Each is also registered, so that every
 * redaction in the process (reports, plan files, errors) removes it in every form.
 */
function secretsOf(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string): () => string[] {
  registerUrlPassword(env[ENV_BASE_URL]);
  const baseUrlAt = argv.findIndex((a) => a === "--base-url" || a.startsWith("--base-url="));
  if (baseUrlAt >= 0) {
    const arg = argv[baseUrlAt]!;
    registerUrlPassword(arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[baseUrlAt + 1]);
  }
  // ALERTS_API_TOKEN, and the OAuth client secret a token command may read (ALERTS_CLIENT_SECRET).
  const secrets = new Set<string>(registerEnvironmentSecrets(env));
  const at = argv.findIndex((a) => a === "--token-file" || a.startsWith("--token-file="));
  if (at >= 0) {
    const arg = argv[at]!;
    const file = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : argv[at + 1];
    try {
      if (file !== undefined) {
        const fileToken = readFileSync(resolve(cwd, file), "utf8").trim();
        if (fileToken) secrets.add(fileToken);
      }
    } catch {
      // an unreadable token file is reported by the command itself
    }
  }
  for (const secret of secrets) registerSecret(secret);
  return () => [...secrets];
}

/** `--no-color` (or Terraform's `-no-color`), anywhere on the line: as NO_COLOR=1 for the run. */
const NO_COLOR_FLAG = "--no-color";

/** Runs one command line of `program`; resolves to its exit code. */
export async function runCommandLine(program: Program, args: string[], given: Io): Promise<number> {
  // Every secret of the environment (the plan key too, which only some commands read) is masked
  // in every sink of every command from the start (src/shared/secret-variables.ts).
  for (const name of SECRET_VALUE_VARIABLES) {
    registerSecret(given.env[name]);
    registerSecret(given.env[name]?.trim());
  }
  const allowNodeDebug = args.includes(UNSAFE_NODE_DEBUG_FLAG) || args.includes(UNSAFE_NODE_DEBUG_FLAG.slice(1));
  const noColor = args.includes(NO_COLOR_FLAG) || args.includes(NO_COLOR_FLAG.slice(1));
  const global = new Set([UNSAFE_NODE_DEBUG_FLAG, UNSAFE_NODE_DEBUG_FLAG.slice(1), NO_COLOR_FLAG, NO_COLOR_FLAG.slice(1)]);
  const argv = args.filter((a) => !global.has(a));
  const io: Io = noColor ? { ...given, env: { ...given.env, NO_COLOR: "1" } } : given;
  const [name, ...rest] = argv;
  if (name === undefined || name === "--help" || name === "-h" || name === "help") {
    io.stdout.write(usage(program));
    return name === undefined ? 1 : 0;
  }
  if (name === "--version" || name === "-version" || name === "-v") {
    io.stdout.write(`${TOOL_VERSION}\n`);
    return 0;
  }
  const command = program.commands.find((c) => c.name === name);
  if (command === undefined) {
    io.stderr.write(`Error: unknown command '${name}'.${didYouMean(name, program.commands.map((c) => c.name))}\n\n${usage(program)}`);
    return 1;
  }
  const nodeDebug = checkNodeDebug(io.env["NODE_DEBUG"], allowNodeDebug);
  if (!nodeDebug.ok) {
    io.stderr.write(`Error: ${nodeDebug.message}\n`);
    return 1;
  }
  if (nodeDebug.warning !== null) io.stderr.write(`${nodeDebug.warning}\n`);
  try {
    return await command.run(rest, io);
  } catch (err) {
    if (err instanceof AlertRuleUsersError) {
      const hint = hintFor(err, io.env);
      io.stderr.write(`Error: ${err.message}\n${hint === null ? "" : `${hint}\n`}`);
      return 1;
    }
    const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
    io.stderr.write(`Internal error (a bug in alert-rule-users; please report it):\n${detail}\n`);
    return 1;
  }
}

/** Runs `program` as this process (its argv, streams, environment), then exits with its code. */
export function runAsProcess(program: Program): void {
  const argv = process.argv.slice(2);
  const secrets = secretsOf(argv, process.env, process.cwd());
  const io: Io = {
    stdout: redactingStream(process.stdout, secrets),
    stderr: redactingStream(process.stderr, secrets),
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  };
  void runCommandLine(program, argv, io).then((code) => {
    process.exitCode = code;
    // Let output drain; if a stray handle keeps the loop alive, leave anyway.
    setTimeout(() => process.exit(code), 2000).unref();
  });
}
