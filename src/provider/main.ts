#!/usr/bin/env node
/**
 * The provider executable's entry (`alert-rule-users provider install` writes a script that runs
 * it): Terraform or OpenTofu start it, read the handshake line and speak the plugin protocol over
 * mutual TLS (src/provider/protocol). Started by hand, it says what it is and exits. Only the
 * protocol is loaded before the handshake; the engine loads on Terraform's first call that needs it
 * (./lazy.ts).
 */
import type { redactText as RedactText } from "../io/workflow";
import { lazyAlertRulesProvider } from "./lazy";
import { serve } from "./protocol";

if (require.main === module) {
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  serve(lazyAlertRulesProvider({ env: process.env, cwd: process.cwd(), log }))
    .then(() => process.exit(0))
    .catch((err: unknown) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the redaction loads with the engine, only when needed
      const { redactText } = require("../io/workflow") as { redactText: typeof RedactText };
      log(`[ERROR] alertrules provider: ${redactText(err instanceof Error ? err.message : String(err))}`);
      process.exit(1);
    });
}
