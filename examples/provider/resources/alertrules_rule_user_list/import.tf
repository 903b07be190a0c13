import {
  to = alertrules_rule_user_list.finance
  id = "f4570500-47e2-48ad-abbb-28a532759836" # or "name:Finance file type mismatch watch"; "additive:…" for an additive list
}

resource "alertrules_rule_user_list" "finance" {
  rule_id = "f4570500-47e2-48ad-abbb-28a532759836"
  users = {
    "908712345678903001" = { aliases = ["f.moreau@finance.example.com", "frank.moreau@example.com"] }
    "908712345678903002" = { aliases = ["grace.kim@example.com"] }
  }
}
