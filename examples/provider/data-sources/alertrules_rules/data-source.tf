# Every rule of the tenant
data "alertrules_rules" "all" {}

# The exclusion lists whose name mentions "cloud", system rules left out
data "alertrules_rules" "cloud_exclusions" {
  name_regex     = "[Cc]loud"
  list_type      = "ALL_USERS_NOT_SPECIFIED"
  include_system = false
}

output "exclusion_lists" {
  value = [for r in data.alertrules_rules.cloud_exclusions.rules : r.name]
}
