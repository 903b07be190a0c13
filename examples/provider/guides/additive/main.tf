# The security team adds its on-call analysts to a list that others keep in the console:
# additive only adds, and never shows or removes the entries it does not declare.
resource "alertrules_rule_user_list" "research_on_call" {
  rule_name = "Research lab endpoint watch"
  mode      = "additive"
  users = {
    "908712345678999001" = { aliases = ["oncall.analyst@example.com"], expires_at = "2099-01-31" }
  }
}
