#!/usr/bin/env node
/**
 * The provider executable's entry (`alert-rule-users provider install` writes a script that runs
 * it): Terraform or OpenTofu start it, read the handshake line and speak the plugin protocol over
 * mutual TLS (src/provider/protocol). Started by hand, it says what it is and exits.
 */
import { Writable } from "node:stream";
import { alertRulesProvider } from "./provider";
import { serve } from "./protocol";

if (require.main === module) {
  const log = (line: string): void => {
    process.stderr.write(`${line}\n`);
  };
  const provider = alertRulesProvider({ env: process.env, cwd: process.cwd(), log });
  // The engine loads once the handshake line is out, while Terraform connects (src/provider/provider.ts).
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      process.stdout.write(chunk, () => {
        callback();
        setImmediate(() => provider.warmUp());
      });
    },
  });
  serve(provider, { stdout })
    .then(() => process.exit()) // process.exitCode: 1 where serve refused to start (no magic cookie: started by hand)
    .catch((err: unknown) => {
      // serve's own failures carry no secret: the engine's messages are redacted where they are made
      log(`[ERROR] alertrules provider: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    });
}
