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
const workflowLoaded = () => Object.keys(require.cache).some((file) => file.includes("/dist/src/io/workflow/"));
const provider = alertRulesProvider({ env: {}, cwd: process.cwd(), log: () => undefined });
const atStart = engineLoaded();
const schema = provider.resources.alertrules_rule_user_list.schema.attributes.length;
const afterSchema = engineLoaded();
Promise.resolve(provider.resources.alertrules_rule_user_list.validateResourceConfig({ rule_id: null, rule_name: null, users: {} })).then((diagnostics) => {
  const afterValidate = engineLoaded();
  const workflowAfterValidate = workflowLoaded();
  // an import builds the whole resource, and loads the workflow
  return Promise.resolve(provider.resources.alertrules_rule_user_list.importResourceState("r-1")).catch(() => undefined).then(() => {
    console.log(JSON.stringify({ atStart, schema, afterSchema, afterValidate, workflowAfterValidate, workflowAfterRead: workflowLoaded(), diagnostics: diagnostics.length }));
  });
});
`;

describe("the provider executable's start-up", () => {
  it("loads the engine on the first call that needs it, not before the handshake or for the schema, and not the workflow to validate", async () => {
    const run = await runCommand(process.execPath, ["-e", PROBE], { cwd: REPO, timeoutMs: 60_000 });
    expect(run.stderr).toBe("");
    const seen = JSON.parse(run.stdout) as { atStart: boolean; schema: number; afterSchema: boolean; afterValidate: boolean; workflowAfterValidate: boolean; workflowAfterRead: boolean; diagnostics: number };
    expect(seen.atStart).toBe(false);
    expect(seen.schema).toBeGreaterThan(0);
    expect(seen.afterSchema).toBe(false);
    // neither rule_id nor rule_name: the engine's validation answers
    expect(seen.afterValidate).toBe(true);
    expect(seen.diagnostics).toBeGreaterThan(0);
    // Terraform's validation process validates every resource and reads none: it never loads the workflow
    expect(seen.workflowAfterValidate).toBe(false);
    expect(seen.workflowAfterRead).toBe(true);
  });
});
