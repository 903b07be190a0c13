/**
 * The example of docs/plan-format.md: a plan built by the real builder from hand-made
 * declarations and observations. plan-format-doc.test.ts checks the document's example against it.
 */
import type { Plan } from "../../../src/core/engine/plan-schema";
import { buildPlan } from "../../../src/core/engine/build-plan";
import { TOOL_VERSION } from "../../../src/io/version";

export function examplePlan(): Plan {
  return buildPlan({ toolVersion: TOOL_VERSION,
    declarations: [
      {
        constructPath: "watch/exfiltration-watch",
        stack: "watch",
        ruleId: "c3e0a1b2",
        ruleName: null,
        mode: "authoritative",
        allowMassRemoval: false,
        users: [
          { userId: "9102", aliases: ["alice@example.com", "alice@corp.example"], expiresAt: "2026-03-10" },
          { userId: "9103", aliases: ["bob@example.com", "bob2@example.com"] },
          { userId: "9104", aliases: ["carol@example.com"], expiresAt: "2026-02-28" },
        ],
      },
      {
        constructPath: "watch/departing",
        stack: "watch",
        ruleId: null,
        ruleName: "Departing employee exfiltration",
        mode: "additive",
        allowMassRemoval: false,
        users: [{ userId: "9105", aliases: ["dan@example.com"] }],
      },
    ],
    observations: [
      {
        kind: "found",
        rule: { observerRuleId: "c3e0a1b2", name: "Endpoint exfiltration", isSystem: false, ruleSource: "Alerting" },
        list: {
          usersToAlertOn: "SPECIFIED_USERS",
          entries: [
            { userId: "9103", aliases: ["bob@example.com", "bob@old.example.com"] },
            { userId: "9104", aliases: ["carol@example.com"] },
          ],
        },
      },
      {
        kind: "found",
        rule: { observerRuleId: "5d1e", name: "Departing employee exfiltration", isSystem: false, ruleSource: "Departing Employee" },
        list: null,
      },
    ],
    connection: { baseUrl: "https://alerts.example.com", tenantId: "tenant-1" },
    createdAt: "2026-03-01T12:00:00.000Z",
    now: "2026-03-01T12:00:00Z",
  });
}
