data "alertrules_rule" "finance" {
  rule_name = "Finance file type mismatch watch" # or rule_id = "f4570500-…"
}

output "finance_rule_id" {
  value = data.alertrules_rule.finance.rule_id
}

# Who is on the list right now, whoever put them there
output "finance_live_user_ids" {
  value = [for u in data.alertrules_rule.finance.users : u.user_id]
}
