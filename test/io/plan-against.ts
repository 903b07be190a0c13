/** The plan of declarations against the service, as the workflow makes it (observe, then buildPlan), for the tests of src/io. */
import type { RuleListClient } from "../../src/api";
import { buildPlan } from "../../src/core/engine/build-plan";
import type { DesiredList } from "../../src/core/engine/desired";
import type { Plan } from "../../src/core/engine/plan-schema";
import { observe } from "../../src/io/observe";
import { TOOL_VERSION } from "../../src/io/version";

export async function planAgainst(client: RuleListClient, declarations: DesiredList[], batchSize = 100): Promise<Plan> {
  const observations = await observe(client, declarations);
  return buildPlan({
    toolVersion: TOOL_VERSION,
    declarations,
    observations,
    connection: { baseUrl: client.baseUrl, tenantId: client.tenantId },
    createdAt: "2026-01-01T00:00:00Z",
    batchSize,
  });
}
