/**
 * The floor provider (issue 51): a provider process Terraform starts in place of the real one
 * (a dev_overrides entry, bench/scenarios/provider-steps.ts `floorPlan`), serving the same
 * schema on the provider's own protocol room (handshake, mutual TLS, gRPC, the same GetProviderSchema)
 * and doing nothing of the provider's own work: each call on a resource answers with the request's
 * bytes (the state it was given, the private data it was given), and each read first sends one
 * request as the provider's API client sends it (`sendAttempt`, axios) to FLOOR_SERVICE_URL. So a
 * `terraform plan` of unchanged lists through it costs Terraform what it costs through the real
 * provider (the same state echoed), and the provider's side only its transport. Like the real
 * provider, it appends its own CPU time to ALERT_RULE_USERS_PROVIDER_CPU_FILE when it exits.
 */
import { appendFileSync } from "node:fs";
import { createHttpClient, sendAttempt } from "../../src/api/http/attempt";
import { CPU_FILE_VARIABLE } from "../../src/provider/main";
import { alertRulesProvider } from "../../src/provider/provider";
import { serve } from "../../src/provider/protocol";
import { messageOf } from "../../src/shared/text";

/** Where the floor provider sends its one request per read (a local server answering a 20-user list). */
export const FLOOR_SERVICE_VARIABLE = "FLOOR_SERVICE_URL";

interface DynamicValue {
  readonly msgpack: Buffer;
  readonly json: Buffer;
}

/** The resource calls, each answered with what it was given. */
function echoHandlers(serviceUrl: string): { [method: string]: (request: unknown) => Promise<unknown> } {
  const http = createHttpClient();
  const none = { diagnostics: [] };
  return {
    ConfigureProvider: () => Promise.resolve(none),
    ValidateResourceConfig: () => Promise.resolve(none),
    UpgradeResourceState: (request) => {
      const { raw_state } = request as { raw_state: { json: Buffer } | null };
      return Promise.resolve({ upgraded_state: { msgpack: Buffer.alloc(0), json: raw_state?.json ?? Buffer.alloc(0) }, diagnostics: [] });
    },
    ReadResource: async (request) => {
      const { current_state, private: privateData } = request as { current_state: DynamicValue | null; private: Buffer };
      const answer = await sendAttempt(http, { url: serviceUrl, data: '{"ruleId":"floor"}', accept: "application/json", token: "floor-token", timeoutMs: 30_000, maxBodyBytes: 10_000_000 }, () => []);
      if (answer.type !== "response" || answer.status !== 200) throw new Error(`the floor's service answered ${answer.type}`);
      JSON.parse(answer.text);
      return { new_state: current_state, private: privateData, diagnostics: [] };
    },
    PlanResourceChange: (request) => {
      const { prior_state, proposed_new_state, prior_private } = request as { prior_state: DynamicValue | null; proposed_new_state: DynamicValue | null; prior_private: Buffer };
      // an unchanged resource: the prior state is the plan (Terraform accepts a planned value equal to the prior one)
      const prior = prior_state !== null && (prior_state.msgpack.length > 0 || prior_state.json.length > 0) ? prior_state : proposed_new_state;
      return Promise.resolve({ planned_state: prior, requires_replace: [], planned_private: prior_private, diagnostics: [] });
    },
  };
}

async function main(): Promise<void> {
  const cpuFile = process.env[CPU_FILE_VARIABLE];
  if (cpuFile !== undefined && cpuFile !== "") {
    process.on("exit", () => {
      const used = process.cpuUsage();
      appendFileSync(cpuFile, `${process.pid} ${used.user} ${used.system}\n`);
    });
  }
  const provider = alertRulesProvider({ env: process.env, cwd: process.cwd(), log: (line) => process.stderr.write(`${line}\n`) });
  await serve(provider, { replace: echoHandlers(process.env[FLOOR_SERVICE_VARIABLE] ?? "") });
  process.exit();
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${messageOf(err)}\n`);
    process.exit(1);
  });
}
