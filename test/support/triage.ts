/**
 * Fixtures of the triage tests: the sample tenant's alerts by short name, and seeds with extra
 * alerts and file events built on the sample tenant.
 */
import * as path from "node:path";
import { loadSeedFile, type TenantSeed } from "../../src/simulator";

/** The sample tenant's alert IDs (examples/sample-tenant.json). */
export const ALERT = {
  aliceEng: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e01",
  carmenEngDismissed: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e02",
  henrySales: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e03",
  kevinDeparting: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e04",
  mariaLab: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e05",
  oscarCloud: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e06",
  aliceCloudDismissed: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e07",
  frankFinance: "6a1f3c20-4e71-4d0b-9b1e-2f8a6d1c0e08",
} as const;

export type AlertName = keyof typeof ALERT;

/** Sorted short names of alert IDs (unknown IDs kept as they are). */
export function names(ids: readonly string[]): string[] {
  const byId = new Map<string, string>(Object.entries(ALERT).map(([name, id]) => [id, name]));
  return ids.map((id) => byId.get(id) ?? id).sort();
}

export function sampleSeed(): TenantSeed {
  return loadSeedFile(path.join(__dirname, "../../examples/sample-tenant.json"));
}

/** An alert of the sample rule "Endpoint exfiltration - Engineering" with the given observations. */
export function extraAlert(id: string, observations: Array<{ id: string; data: string | Record<string, unknown>; type?: string }>) {
  return {
    id,
    type: "FED_ENDPOINT_EXFILTRATION",
    name: "Endpoint exfiltration - Engineering",
    description: "extra alert for tests",
    actor: "test.actor@example.com",
    severity: "HIGH" as const,
    ruleId: "a33e7c21-5cb0-4cf5-a266-852063111751",
    ruleSource: "Alerting",
    createdAt: "2026-03-01T00:00:00.0000000Z",
    observations: observations.map((o) => ({ observedAt: "2026-03-01T00:00:00.0000000Z", ...o })),
  };
}

/** An endpoint activity naming these files (event ID and name). */
export function activity(files: Array<{ eventId: string; name: string }>): Record<string, unknown> {
  return {
    type$: "OBSERVED_ENDPOINT_ACTIVITY",
    id: "act-test",
    sources: ["Endpoint"],
    exposureTypes: ["RemovableMedia"],
    firstActivityAt: "2026-03-01T00:00:00.0000000Z",
    lastActivityAt: "2026-03-01T00:00:00.0000000Z",
    fileCount: files.length,
    totalFileSize: 10 * files.length,
    fileCategories: [{ type$: "OBSERVED_FILE_CATEGORY", category: "Document", fileCount: files.length, totalFileSize: 10 * files.length, isSignificant: true }],
    files: files.map((f) => ({ type$: "OBSERVED_FILE", eventId: f.eventId, path: "/tmp/", name: f.name, category: "Document" })),
    syncToServices: [],
    sendingIpAddresses: [],
  };
}

export function extraFileEvent(eventId: string, fileName: string) {
  return { eventId, eventTimestamp: "2026-03-01T00:00:00.0000000Z", fileName, filePath: "/tmp/" };
}
