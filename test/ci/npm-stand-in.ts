/**
 * The `npm` a workflow's steps find on PATH in test/ci/workflow-runner.ts: tests reach no registry.
 * `install --prefix P alert-rule-users@V` and `ci` install this checkout's build (TOOL_DIR,
 * TOOL_VERSION), except that `ci` installs a lock's `file:` dependency as that directory, as npm
 * would, and a `file:` tarball unpacked once its sha512 is the lock's `integrity` (else
 * EINTEGRITY: npm with a cold cache); `pack` is the real npm (the provider's Linux package is built
 * from the registry's node-linux-*). On a runner without Node.js, `node` and `npm` are not found.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";

/** This machine's npm (found on PATH before the shims are put in front of it). */
export const REAL_NPM = (process.env["PATH"] ?? "").split(":").map((dir) => join(dir, "npm")).find((file) => existsSync(file)) ?? "npm";

/** The npm stand-in (see the file's comment). */
export const NPM_SHIM = `#!/usr/bin/env bash
set -euo pipefail
echo "npm $*" >> "$NPM_LOG"
link_tool() { # $1: node_modules dir, $2: what alert-rule-users is
  mkdir -p "$1/.bin"
  rm -rf "$1/alert-rule-users"
  ln -s "$2" "$1/alert-rule-users"
  local bin
  bin=$(node -p 'const p=require(process.argv[1]+"/package.json"); typeof p.bin==="string"?p.bin:p.bin["alert-rule-users"]' "$2")
  ln -sf "../alert-rule-users/$bin" "$1/.bin/alert-rule-users"
}
case "$1" in
  install)
    prefix=""; spec=""
    while [ $# -gt 0 ]; do case "$1" in --prefix) prefix="$2"; shift 2;; alert-rule-users@*) spec="$1"; shift;; *) shift;; esac; done
    [ "$spec" = "alert-rule-users@$TOOL_VERSION" ] || { echo "npm stand-in: no such version: $spec" >&2; exit 1; }
    link_tool "$prefix/node_modules" "$TOOL_DIR"
    ;;
  ci)
    resolved=$(node -p 'const e=(require("./package-lock.json").packages||{})["node_modules/alert-rule-users"]||{}; e.resolved||""')
    case "$resolved" in
      file:*.tgz)
        tarball="$PWD/\${resolved#file:}"
        integrity=$(node -p 'const e=(require("./package-lock.json").packages||{})["node_modules/alert-rule-users"]||{}; e.integrity||""')
        actual="sha512-$(node -e 'process.stdout.write(require("crypto").createHash("sha512").update(require("fs").readFileSync(process.argv[1])).digest("base64"))' "$tarball")"
        if [ "$actual" != "$integrity" ]; then
          echo "npm error code EINTEGRITY" >&2
          echo "npm error $integrity integrity checksum failed when using sha512: wanted $integrity but got $actual." >&2
          exit 1
        fi
        unpacked="$PWD/node_modules/.alert-rule-users-tarball"
        rm -rf "$unpacked" && mkdir -p "$unpacked"
        tar -xzf "$tarball" -C "$unpacked" --strip-components 1
        link_tool "$PWD/node_modules" "$unpacked"
        ;;
      file:*) link_tool "$PWD/node_modules" "$PWD/\${resolved#file:}" ;;
      *) link_tool "$PWD/node_modules" "$TOOL_DIR" ;;
    esac
    ;;
  pack)
    # the provider's Linux package is built from the npm registry's node-linux-* (npm pack): the real npm
    exec "$REAL_NPM" "$@"
    ;;
  *) echo "npm stand-in: npm $1 is not played" >&2; exit 1 ;;
esac
`;

/** What a runner without Node.js answers to `node` and `npm`. */
export const NO_NODE_SHIM = `#!/usr/bin/env bash\necho "$(basename "$0"): command not found (this runner has no Node.js)" >&2\nexit 127\n`;
