# users.csv: one row per user and rule (rule,user_id,alias[,expires_at]); a user with two aliases has two rows
locals {
  rows  = csvdecode(file("${path.module}/users.csv"))
  rules = toset([for row in local.rows : row.rule])
}

resource "alertrules_rule_user_list" "from_csv" {
  for_each  = local.rules
  rule_name = each.key
  users = {
    for user_id in distinct([for row in local.rows : row.user_id if row.rule == each.key]) : user_id => {
      aliases    = [for row in local.rows : row.alias if row.rule == each.key && row.user_id == user_id]
      expires_at = one(distinct([for row in local.rows : row.expires_at if row.rule == each.key && row.user_id == user_id && row.expires_at != ""]))
    }
  }
}
