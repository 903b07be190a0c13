/**
 * The provider executable loads only the protocol and the schemas before its handshake line
 * (src/provider/provider.ts): the engine (src/io/workflow and below) loads on the first call that
 * needs it, so a process Terraform starts for the schema alone never loads it. Runs the built code
 * (npm run build) in a child process, whose module cache is its own.
 */
import { join } from "node:path";
import { REPO, runCommand } from "../support/cli";

const PROBE = `
const { alertRulesProvider } = require(${JSON.stringify(join(REPO, "dist", "src", "provider", "provider.js"))});
require(${JSON.stringify(join(REPO, "dist", "src", "provider", "protocol", "index.js"))});
const engineLoaded = () => Object.keys(require.cache).some((file) => file.includes("/dist/src/io/"));
const provider = alertRulesProvider({ env: {}, cwd: process.cwd(), log: () => undefined });
const atStart = engineLoaded();
const schema = provider.resources.alertrules_rule_user_list.schema.attributes.length;
const afterSchema = engineLoaded();
Promise.resolve(provider.resources.alertrules_rule_user_list.validateResourceConfig({ rule_id: null, rule_name: null, users: {} })).then((diagnostics) => {
  console.log(JSON.stringify({ atStart, schema, afterSchema, afterValidate: engineLoaded(), diagnostics: diagnostics.length }));
});
`;

describe("the provider executable's start-up", () => {
  it("loads the engine on the first call that needs it, not before the handshake or for the schema", async () => {
    const run = await runCommand(process.execPath, ["-e", PROBE], { cwd: REPO, timeoutMs: 60_000 });
    expect(run.stderr).toBe("");
    const seen = JSON.parse(run.stdout) as { atStart: boolean; schema: number; afterSchema: boolean; afterValidate: boolean; diagnostics: number };
    expect(seen.atStart).toBe(false);
    expect(seen.schema).toBeGreaterThan(0);
    expect(seen.afterSchema).toBe(false);
    // neither rule_id nor rule_name: the engine's validation answers
    expect(seen.afterValidate).toBe(true);
    expect(seen.diagnostics).toBeGreaterThan(0);
  });
});
