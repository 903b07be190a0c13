#!/usr/bin/env node
/**
 * The provider executable's entry (`alert-rule-users provider install` writes a script that runs
 * it): Terraform or OpenTofu start it, read the handshake line and speak the plugin protocol over
 * mutual TLS (src/provider/protocol). Started by hand, it says what it is and exits.
 */
import { redactText } from "../io/workflow";
import { alertRulesProvider } from "./provider";
import { serve } from "./protocol";

if (require.main === module) {
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  serve(alertRulesProvider({ env: process.env, cwd: process.cwd(), log }))
    .then(() => process.exit()) // process.exitCode: 1 where serve refused to start (no magic cookie: started by hand)
    .catch((err: unknown) => {
      log(`[ERROR] alertrules provider: ${redactText(err instanceof Error ? err.message : String(err))}`);
      process.exit(1);
    });
}
