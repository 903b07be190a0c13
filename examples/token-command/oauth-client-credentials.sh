#!/bin/sh
# A token command for the service's OAuth client-credentials flow (README, "Getting a token"):
#   export ALERTS_API_TOKEN_COMMAND=./oauth-client-credentials.sh
# It POSTs grant_type=client_credentials to ALERTS_TOKEN_URL with the client ID and secret in
# HTTP Basic and prints {"token", "expiresIn"} from the answer's access_token and expires_in.
# The client ID and secret come from the environment (your CI's secret store); they reach curl
# on its stdin (--config -), never on a command line that `ps` would show.
# Needs curl and jq. Against the simulator: ALERTS_TOKEN_URL=$ALERTS_API_URL/v1/oauth, any
# ALERTS_CLIENT_ID, and the simulator's --token (default local-simulator-token) as the secret.
set -eu
: "${ALERTS_TOKEN_URL:?set ALERTS_TOKEN_URL to the token endpoint of your tenant}"
: "${ALERTS_CLIENT_ID:?set ALERTS_CLIENT_ID to the API client ID}"
: "${ALERTS_CLIENT_SECRET:?set ALERTS_CLIENT_SECRET to the API client secret}"
answer=$(printf 'user = "%s:%s"\n' "$ALERTS_CLIENT_ID" "$ALERTS_CLIENT_SECRET" |
  curl --fail --silent --show-error --max-time 20 --config - \
    --data grant_type=client_credentials "$ALERTS_TOKEN_URL")
printf '%s' "$answer" | jq --exit-status --compact-output '{token: .access_token, expiresIn: .expires_in}'
