terraform {
  required_providers {
    alertrules = {
      source = "alert-rule-users/alertrules"
    }
  }
}

# The connection comes from the environment: ALERTS_API_URL, ALERTS_TENANT_ID and
# ALERTS_API_TOKEN (or ALERTS_API_TOKEN_COMMAND). Set an argument here to override its variable.
provider "alertrules" {
  max_rps         = 5     # or ALERT_RULE_USERS_MAX_RPS
  request_timeout = "5m"  # or ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS
  run_timeout     = "30m" # or ALERT_RULE_USERS_RUN_DEADLINE_SECONDS
}
