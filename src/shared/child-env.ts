/**
 * The environment of a child process the CLI starts that runs none of the user's code (git, the
 * token command): built from an allow-list, so a secret the tool does not know of (a CI's other
 * secrets, a cloud credential) does not reach it either, and Node's NODE_DEBUG=child_process,
 * which prints the environment of every child it starts, prints nothing secret.
 *
 * The synth app is the user's code and reads the user's own variables: it gets the user's
 * environment minus every secret the tool knows of (src/shared/secret-variables.ts), not this.
 */
import { CHILD_WITHHELD_VARIABLES } from "./secret-variables";

/** One name, or every name that starts with a prefix (`"LC_*"`). Names compare without case (Windows). */
export type AllowedVariable = string;

/** What any program needs to start and to behave as the user expects: where programs and home are, locale, temp, terminal. */
export const BASE_ALLOW_LIST: readonly AllowedVariable[] = [
  "PATH",
  "PATHEXT", // Windows: which extensions PATH finds
  "SYSTEMROOT", // Windows: needed by most programs to start
  "COMSPEC",
  "WINDIR",
  "HOME",
  "USERPROFILE",
  "HOMEDRIVE",
  "HOMEPATH",
  "APPDATA",
  "LOCALAPPDATA",
  "USER",
  "LOGNAME",
  "LANG",
  "LANGUAGE",
  "LC_*",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
  "TERM",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
];

/**
 * What git reads besides the base: its own variables (GIT_DIR, GIT_CEILING_DIRECTORIES, the author
 * and committer, GIT_CONFIG_*), and SSH_AUTH_SOCK for a fetch over ssh. GIT_ASKPASS and
 * credential helpers are not needed: the tool's git calls never fetch.
 */
export const GIT_ALLOW_LIST: readonly AllowedVariable[] = [...BASE_ALLOW_LIST, "GIT_*", "SSH_AUTH_SOCK"];

function matcher(allowList: readonly AllowedVariable[]): (name: string) => boolean {
  const exact = new Set(allowList.filter((n) => !n.endsWith("*")).map((n) => n.toUpperCase()));
  const prefixes = allowList.filter((n) => n.endsWith("*")).map((n) => n.slice(0, -1).toUpperCase());
  return (name) => {
    const upper = name.toUpperCase();
    return exact.has(upper) || prefixes.some((p) => upper.startsWith(p));
  };
}

/**
 * The variables of `env` that `allowList` names, then `extra` over them. A secret the tool knows of
 * (src/shared/secret-variables.ts) is withheld even when the allow-list or `extra` names it: a
 * caller that needs one passes it another way.
 */
export function childEnvironment(
  allowList: readonly AllowedVariable[],
  extra: Readonly<Record<string, string | undefined>> = {},
  env: Readonly<Record<string, string | undefined>> = process.env,
): Record<string, string> {
  const allowed = matcher(allowList);
  const withheld = new Set<string>(CHILD_WITHHELD_VARIABLES.map((name) => name.toUpperCase()));
  const out: Record<string, string> = {};
  for (const [name, value] of [...Object.entries(env).filter(([name]) => allowed(name)), ...Object.entries(extra)]) {
    if (value === undefined || withheld.has(name.toUpperCase())) continue;
    out[name] = value;
  }
  return out;
}

/**
 * The synth app's: every variable (the app is the user's code and reads the user's own), less the
 * secrets the tool knows of, which `childEnvironment` always withholds.
 */
export const SYNTH_ALLOW_LIST: readonly AllowedVariable[] = ["*"];

/** The environment of a git call: the allow-list above, no prompt, messages in English (they are parsed and shown). */
export function gitEnvironment(env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  return childEnvironment(GIT_ALLOW_LIST, { GIT_TERMINAL_PROMPT: "0", LC_ALL: "C" }, env);
}
