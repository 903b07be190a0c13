/**
 * NODE_DEBUG names Node's modules that print their internals to stderr; for http, net, tls,
 * fetch/undici and http2 that includes every request header, the Authorization header with the
 * token among them, written straight to file descriptor 2 where no redaction reaches. A run with
 * such a NODE_DEBUG is refused unless the user passes {@link UNSAFE_NODE_DEBUG_FLAG}.
 *
 * `child_process` prints the whole environment of every child the CLI starts. It is not refused:
 * no child receives a secret (src/shared/secret-variables.ts `childEnvironment`, used by synth;
 * every new child process must use it too), so what it prints is the user's own environment
 * without the token, the plan key and the client secret (test/reliability/synth-secrets.test.ts).
 * The other modules print no header and no environment (measured on Node 20 over a plan run:
 * cluster, worker, module, fs, timer, stream, esm, process, dns).
 */

/** The flag that lets a run go ahead although NODE_DEBUG would print the token. */
export const UNSAFE_NODE_DEBUG_FLAG = "--unsafe-allow-node-debug";

/** Node modules whose debug output shows request headers. */
const NETWORK_MODULES = ["http", "http2", "https", "net", "tls", "fetch", "undici"] as const;

/**
 * The network modules that a NODE_DEBUG value turns on: its comma-separated names, any case, with
 * `*` as a wildcard (as Node reads them).
 */
export function networkDebugModules(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  const names = value.split(/[\s,]+/).filter((n) => n !== "");
  const matches = (name: string, module: string) =>
    new RegExp(`^${name.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`, "i").test(module);
  return NETWORK_MODULES.filter((module) => names.some((name) => matches(name, module)));
}

export type NodeDebugCheck =
  | { readonly ok: true; readonly warning: string | null }
  | { readonly ok: false; readonly message: string };

/** Whether the run may go ahead with this NODE_DEBUG, and what to say. */
export function checkNodeDebug(value: string | undefined, allowed: boolean): NodeDebugCheck {
  const modules = networkDebugModules(value);
  if (modules.length === 0) return { ok: true, warning: null };
  const what = `NODE_DEBUG=${value ?? ""} turns on Node's debug output of ${modules.join(", ")}, which prints every request header, the bearer token included, to stderr`;
  if (allowed) return { ok: true, warning: `Warning: ${what}; going ahead because ${UNSAFE_NODE_DEBUG_FLAG} was passed. Do not share this output.` };
  return {
    ok: false,
    message: `${what}: refused, nothing was sent. Unset NODE_DEBUG (or remove ${modules.join(", ")} from it), or pass ${UNSAFE_NODE_DEBUG_FLAG} to run anyway.`,
  };
}
