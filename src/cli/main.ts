#!/usr/bin/env node
/**
 * The alert-rule-users command line: every command, on the one dispatch of src/cli/dispatch.ts
 * (global flags, exit codes, redacted output).
 */
import { COMMANDS } from "./commands";
import { runAsProcess, runCommandLine, type Program } from "./dispatch";
import type { Io } from "./io";

export const ALERT_RULE_USERS: Program = {
  name: "alert-rule-users",
  about: `Keeps the user lists of security alert rules in git: declare them with RuleUserList constructs,
review the plan, apply it.`,
  commands: COMMANDS,
};

export function main(args: string[], io: Io): Promise<number> {
  return runCommandLine(ALERT_RULE_USERS, args, io);
}

if (require.main === module) runAsProcess(ALERT_RULE_USERS);
