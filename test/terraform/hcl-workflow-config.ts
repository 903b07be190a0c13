/**
 * The HCL project the workflow tests commit: one `alertrules_rule_user_list` for the sample's
 * engineering rule (its users plus `extraUsers`), an S3 backend the workflows replace, and the
 * provider block a hostile pull request may fill.
 */
import { ENGINEERING_USERS, RULES } from "../support/sample";

/** A line of the `users` map: `"ID" = { aliases = ["ALIAS"] }`. */
export const userLine = (userId: string, alias: string): string => `    ${JSON.stringify(userId)} = { aliases = [${JSON.stringify(alias)}] }`;

export interface MainTfOptions {
  /** Inside `provider "alertrules" { … }`. @default - empty */
  readonly provider?: string;
  /** After the resource (outputs, hostile blocks). @default - nothing */
  readonly extra?: string;
  /** The provider's version constraint in required_providers. @default - none */
  readonly version?: string;
}

/** main.tf of the project. */
export function mainTf(extraUsers: readonly string[] = [], options: MainTfOptions = {}): string {
  const { provider = "", extra = "", version = "" } = options;
  const users = [...ENGINEERING_USERS.map((u) => `    ${JSON.stringify(u.userId)} = { aliases = ${JSON.stringify(u.aliases)} }`), ...extraUsers];
  return [
    "terraform {",
    "  required_providers {",
    `    alertrules = { source = "alert-rule-users/alertrules"${version === "" ? "" : `, version = ${JSON.stringify(version)}`} }`,
    "  }",
    '  backend "s3" {}',
    "}",
    "",
    `provider "alertrules" {${provider}}`,
    "",
    'resource "alertrules_rule_user_list" "engineering" {',
    `  rule_id = ${JSON.stringify(RULES.engineering)}`,
    "  users = {",
    ...users,
    "  }",
    "}",
    extra,
    "",
  ].join("\n");
}
