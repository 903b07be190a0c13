resource "alertrules_rule_user_list" "cloud_sharing_exclusions" {
  rule_name = "Cloud sharing outside the company" # an exclusion list (ALL_USERS_NOT_SPECIFIED)
  users = {
    "908712345678902001" = { aliases = ["svc-backup@example.com"], expires_at = "2099-12-31" }
    "908712345678902002" = { aliases = ["legal.review@example.com", "counsel@legal.example.com"], expires_at = "2099-12-31" }
    "908712345678902003" = { aliases = ["noreply-share@example.com"], expires_at = "2099-12-31" }
  }

  policies = [
    {
      name                  = "company domains only"
      allowed_alias_domains = ["example.com", "legal.example.com"]
    },
    {
      name      = "small exclusion lists"
      max_users = 10
    },
  ]
}
