# by rule ID
terraform import alertrules_rule_user_list.finance f4570500-47e2-48ad-abbb-28a532759836
# by the rule's exact name, for a list declared by rule_name
terraform import alertrules_rule_user_list.finance "name:Finance file type mismatch watch"
# an additive list
terraform import alertrules_rule_user_list.finance "additive:f4570500-47e2-48ad-abbb-28a532759836"
