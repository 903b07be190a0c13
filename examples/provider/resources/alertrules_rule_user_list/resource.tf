resource "alertrules_rule_user_list" "exfiltration" {
  rule_name = "Endpoint exfiltration - Engineering" # or rule_id = "a33e7c21-…"; exactly one

  users = {
    "908712345678901234" = { aliases = ["alice.nguyen@example.com", "alice.nguyen@eng.example.com"] }
    "908712345678901235" = { aliases = ["bob.okafor@example.com"] }
    "908712345678901236" = { aliases = ["carmen.diaz@example.com", "cdiaz@eng.example.com"] }
    "908712345678901237" = { aliases = ["dmitri.volkov@example.com"], expires_at = "2099-12-31" }
  }

  timeouts {
    update = "10m"
  }
}
