/**
 * Views of alert details: the file-event IDs an alert names, and the JSON of an observation.
 */
import type { AlertDetails, AlertDetailsAggregate, ObservationData } from "./schemas";

/** The file-event IDs named by an alert's observations (endpoint activity), once each, in order. */
export function eventIdsOf(alert: AlertDetails | AlertDetailsAggregate): string[] {
  const data: ObservationData[] = "observations" in alert ? alert.observations.map((o) => o.data) : [alert.observation.data];
  const ids: string[] = [];
  for (const item of data) {
    if (item.kind !== "endpoint-activity") continue;
    for (const file of item.activity.files) if (!ids.includes(file.eventId)) ids.push(file.eventId);
  }
  return ids;
}

/** The JSON document inside an observation's `data`, as the service sent it (parsed). */
export function observationDataJson(data: ObservationData): unknown {
  return data.kind === "endpoint-activity" ? data.activity : data.raw;
}
