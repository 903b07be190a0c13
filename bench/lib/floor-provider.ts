/**
 * The floor provider (issue 51): a provider process Terraform starts in place of the real one
 * (a dev_overrides entry, bench/scenarios/provider-steps.ts `floorPlan`), serving the same
 * schema on the provider's own protocol room (handshake, mutual TLS, gRPC, the same GetProviderSchema)
 * and doing nothing of the provider's own work: each call on a resource is answered with the
 * request's own bytes at the protobuf framing (bench/lib/proto-echo.ts: the state it was given,
 * the private data it was given, nothing inside them decoded), and each read first sends one
 * request as the provider's API client sends it (`sendAttempt`, axios) to FLOOR_SERVICE_URL. So a
 * `terraform plan` of unchanged lists through it costs Terraform what it costs through the real
 * provider (the same state echoed), and its own CPU is the transport's floor under Terraform's
 * own calls: the gRPC server, the API client and the process, in the same plan as the provider's.
 * Like the real provider, it appends its own CPU time to ALERT_RULE_USERS_PROVIDER_CPU_FILE when it exits.
 */
import { appendFileSync } from "node:fs";
import { createHttpClient, sendAttempt } from "../../src/api/http/attempt";
import { CPU_FILE_VARIABLE } from "../../src/provider/main";
import { alertRulesProvider } from "../../src/provider/provider";
import { serve } from "../../src/provider/protocol";
import { messageOf } from "../../src/shared/text";
import { asField, echoFields, movedFields, topLevelFields, type FieldMove } from "./proto-echo";

/** Where the floor provider sends its one request per read (a local server answering a 20-user list). */
export const FLOOR_SERVICE_VARIABLE = "FLOOR_SERVICE_URL";

/** A DynamicValue holding msgpack nil: a resource with no prior state. */
const NULL_VALUE = asField(1, Buffer.from([0xc0]));

/**
 * The resource calls, request bytes to response bytes (tfplugin6.proto's field numbers):
 * - ValidateResourceConfig, ConfigureProvider: no diagnostics (an empty message);
 * - UpgradeResourceState: `upgraded_state` (1) = a DynamicValue whose `json` (2) is `raw_state.json` (3 → 1);
 * - ReadResource: `new_state` (1) = `current_state` (2), `private` (3) = `private` (3);
 * - PlanResourceChange: `planned_state` (1) = `prior_state` (2), or `proposed_new_state` (3) for a
 *   resource with none (Terraform accepts a planned value equal to the prior one), `planned_private` (3) = `prior_private` (5).
 */
export function echoHandlers(serviceUrl: string): { [method: string]: (request: Buffer) => Promise<Buffer> } {
  const http = createHttpClient();
  const empty = Buffer.alloc(0);
  return {
    ConfigureProvider: () => Promise.resolve(empty),
    ValidateResourceConfig: () => Promise.resolve(empty),
    UpgradeResourceState: (request) => {
      const rawState = topLevelFields(request).get(3) ?? empty;
      return Promise.resolve(asField(1, echoFields(rawState, [[1, 2]])));
    },
    ReadResource: async (request) => {
      const answer = await sendAttempt(http, { url: serviceUrl, data: '{"ruleId":"floor"}', accept: "application/json", token: "floor-token", timeoutMs: 30_000, maxBodyBytes: 10_000_000 }, () => []);
      if (answer.type !== "response" || answer.status !== 200) throw new Error(`the floor's service answered ${answer.type}`);
      JSON.parse(answer.text);
      return echoFields(request, [
        [2, 1],
        [3, 3],
      ]);
    },
    PlanResourceChange: (request) => {
      const fields = topLevelFields(request);
      const prior = fields.get(2);
      const state: FieldMove = prior === undefined || prior.equals(NULL_VALUE) ? [3, 1] : [2, 1];
      return Promise.resolve(movedFields(fields, [state, [5, 3]]));
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
  await serve(provider, { replaceRaw: echoHandlers(process.env[FLOOR_SERVICE_VARIABLE] ?? "") });
  process.exit();
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`${messageOf(err)}\n`);
    process.exit(1);
  });
}
