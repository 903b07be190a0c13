variable "lists" {
  description = "Rule name → user ID → aliases"
  type        = map(map(list(string)))
  default = {
    "Finance file type mismatch watch" = {
      "908712345678903001" = ["frank.moreau@example.com", "f.moreau@finance.example.com"]
      "908712345678903002" = ["grace.kim@example.com"]
    }
    "Sales endpoint exfiltration" = {
      "908712345678904001" = ["henry.adams@example.com"]
      "908712345678904002" = ["isabel.rossi@example.com", "irossi@sales.example.com"]
      "908712345678904003" = ["jamal.brooks@example.com"]
    }
  }
}

resource "alertrules_rule_user_list" "team" {
  for_each  = var.lists
  rule_name = each.key
  users     = { for user_id, aliases in each.value : user_id => { aliases = aliases } }
}
