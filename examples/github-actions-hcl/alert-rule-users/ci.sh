#!/usr/bin/env bash
# alert-rule-users: what the HCL workflows share (docs/provider-workflows.md). `alert-rule-users init
# --hcl DIR --workflows` writes it to .github/alert-rule-users/ beside versions.tf and
# .terraform.lock.hcl, which pin the provider: the provider, and with it the tool (the release's
# executable serves the commands below), comes from the team's mirror and is checked by Terraform
# against that lock. No Node.js and no npm registry are needed.
#
#   ci.sh cli-config        writes Terraform's CLI configuration for the mirror
#                           (ALERT_RULE_USERS_PROVIDER_MIRROR) and prints its path
#   ci.sh tool              installs the release's executable as this directory's lock pins it and
#                           prints its path (trusted: run it on the default branch's checkout)
#   ci.sh evaluate DIR OUT  evaluates the configuration in DIR with the provider offline and locked:
#                           no secret, no service, no backend (a local state in RUNNER_TEMP). Writes
#                           OUT/outcome (planned, needs-data or failed), OUT/evaluation.log (what
#                           Terraform said, never the plan's text or outputs), and OUT/declarations/
#                           (planned) or OUT/data-requests.jsonl (needs-data). Exits 0 whatever the
#                           outcome: the outcome is data for the trusted job.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${RUNNER_TEMP:?RUNNER_TEMP is not set: run this in a workflow job}"
PROVIDER="registry.terraform.io/alert-rule-users/alertrules"

fail() {
  echo "::error::$*" >&2
  exit 1
}

# The runner's platform as Terraform names it.
platform() {
  case "$(uname -m)" in
    x86_64 | amd64) echo "linux_amd64" ;;
    aarch64 | arm64) echo "linux_arm64" ;;
    *) fail "This runner's machine ($(uname -m)) has no alertrules package: use a linux_amd64 or linux_arm64 runner." ;;
  esac
}

cli_config() {
  local mirror="${ALERT_RULE_USERS_PROVIDER_MIRROR:-}" file="$RUNNER_TEMP/alert-rule-users.tfrc" method
  [ -n "$mirror" ] || fail "The variable ALERT_RULE_USERS_PROVIDER_MIRROR is not set: set it (Settings, Secrets and variables, Actions, Variables) to the URL of the release's network mirror (https://.../mirror/) or to the path, in the repository, of a filesystem mirror (docs/provider-workflows.md)."
  case "$mirror" in
    *[\"\\\$\`]* | *$'\n'*) fail "ALERT_RULE_USERS_PROVIDER_MIRROR holds a quote, a backslash, a dollar sign, a backtick or a line break: give a plain URL or path." ;;
    https://*) method=$(printf '  network_mirror {\n    url     = "%s/"\n    include = ["%s"]\n  }' "${mirror%/}" "$PROVIDER") ;;
    *://*) fail "ALERT_RULE_USERS_PROVIDER_MIRROR must be an https:// URL (Terraform reads network mirrors over HTTPS only) or a path in the repository." ;;
    /* | ../* | */../* | *..) fail "ALERT_RULE_USERS_PROVIDER_MIRROR must be a path inside the repository, relative to its root (e.g. vendor/alertrules-mirror), or an https:// URL." ;;
    *) method=$(printf '  filesystem_mirror {\n    path    = "%s"\n    include = ["%s"]\n  }' "${GITHUB_WORKSPACE:?}/${mirror%/}" "$PROVIDER") ;;
  esac
  printf 'provider_installation {\n%s\n  direct {\n    exclude = ["%s"]\n  }\n}\n' "$method" "$PROVIDER" >"$file"
  echo "$file"
}

# The executable `terraform init` installed in DIR (.terraform/providers/...), or nothing.
installed() {
  local found
  found=$(find "$1/.terraform/providers/$PROVIDER" -path "*/$(platform)/terraform-provider-alertrules_v*" -type f 2>/dev/null | sort | tail -n 1)
  [ -n "$found" ] && [ -x "$found" ] && echo "$found"
}

tool() {
  local rc found
  rc=$(cli_config)
  [ -f "$here/.terraform.lock.hcl" ] || fail "$here/.terraform.lock.hcl is missing: commit the lock that init --hcl --workflows wrote (the trusted pin of the provider)."
  rm -rf "$here/.terraform"
  if ! (cd "$here" && TF_CLI_CONFIG_FILE="$rc" TF_IN_AUTOMATION=1 terraform init -backend=false -input=false -no-color -lockfile=readonly >&2); then
    fail "terraform init of .github/alert-rule-users failed: the mirror (ALERT_RULE_USERS_PROVIDER_MIRROR) must hold the version its versions.tf pins, with the hashes of its .terraform.lock.hcl."
  fi
  found=$(installed "$here") || fail "terraform init installed no alertrules executable for $(platform) in .github/alert-rule-users."
  echo "$found"
}

evaluate() {
  local dir="$1" out="$2" rc outcome=failed provider errors answered
  mkdir -p "$out"
  out=$(cd "$out" && pwd)
  rc=$(cli_config)
  local log="$out/evaluation.log" requests="$out/data-requests.jsonl" plan="$RUNNER_TEMP/offline.tfplan"
  : >"$log"
  : >"$requests"
  cd "$dir"
  # A provider or a CLI configuration that the checkout brings is never used.
  rm -rf terraform.d .terraform .terraformrc terraform.rc
  # Local state in the runner's temp directory: the configuration's backend is never contacted here.
  printf 'terraform {\n  backend "local" {\n    path = "%s/offline.tfstate"\n  }\n}\n' "$RUNNER_TEMP" >zz_alert_rule_users_offline_override.tf
  export TF_CLI_CONFIG_FILE="$rc" TF_IN_AUTOMATION=1 TF_INPUT=0
  export ALERT_RULE_USERS_PROVIDER_OFFLINE=1 ALERT_RULE_USERS_PROVIDER_LOCKED=1 ALERT_RULE_USERS_PROVIDER_DATA_REQUESTS="$requests"
  if terraform init -input=false -no-color -lockfile=readonly -reconfigure >>"$log" 2>&1 && terraform validate -no-color >>"$log" 2>&1; then
    # The plan's text (outputs, values) stays in RUNNER_TEMP: only what Terraform says of errors is kept.
    if terraform plan -input=false -no-color -lock=false -out="$plan" >"$RUNNER_TEMP/offline-plan.txt" 2>>"$log"; then
      if terraform show -json "$plan" >"$RUNNER_TEMP/offline-plan.json" 2>>"$log" && provider=$(installed .) &&
        "$provider" synth --from-terraform-plan "$RUNNER_TEMP/offline-plan.json" --output "$out/declarations" >>"$log" 2>&1; then
        outcome=planned
      fi
    else
      # Every error a data source read that the trusted job answers: the configuration is evaluated again then.
      errors=$(grep -c 'Error: ' "$log" || true)
      answered=$(grep -c 'Error: Read by the trusted job' "$log" || true)
      if [ -s "$requests" ] && [ "$errors" -gt 0 ] && [ "$errors" -eq "$answered" ]; then outcome=needs-data; fi
    fi
  fi
  rm -f zz_alert_rule_users_offline_override.tf
  echo "$outcome" >"$out/outcome"
  echo "The configuration's evaluation: $outcome" >&2
}

case "${1:-}" in
  cli-config) cli_config ;;
  tool) tool ;;
  evaluate)
    [ $# -eq 3 ] || fail "usage: ci.sh evaluate DIR OUT"
    evaluate "$2" "$3"
    ;;
  *) fail "usage: ci.sh cli-config | tool | evaluate DIR OUT" ;;
esac
