# alert-rule-users: the provider the HCL workflows install from the team's mirror, and the tool they
# run (the release's executable), at exactly this version, checked against .terraform.lock.hcl
# beside this file. Upgrade both this version and your configuration's together
# (docs/provider-workflows.md, "Upgrading").
terraform {
  required_providers {
    alertrules = {
      source  = "alert-rule-users/alertrules"
      version = "0.1.0"
    }
  }
}
