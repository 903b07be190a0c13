# on_destroy = "keep" (the default): terraform destroy, or removing this block, leaves the live
# list as it is and only forgets it. "clear": destroy removes what this resource manages.
resource "alertrules_rule_user_list" "sales" {
  rule_id    = "852c0120-8fe3-4ffc-8e12-6f7ad95c4c79"
  on_destroy = "clear"
  users = {
    "908712345678904001" = { aliases = ["henry.adams@example.com"] }
    "908712345678904002" = { aliases = ["isabel.rossi@example.com", "irossi@sales.example.com"] }
    "908712345678904003" = { aliases = ["jamal.brooks@example.com"] }
  }
}

# To stop managing a list without touching it (Terraform 1.7 and later), instead of deleting the block:
# removed {
#   from = alertrules_rule_user_list.sales
#   lifecycle {
#     destroy = false
#   }
# }
