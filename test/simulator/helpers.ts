/** Tiny builders for simulator tests: plain fetch against a running simulator. */
import type { RunningSimulator, SimRule } from "../../src/simulator";
import { RULE_OPERATIONS, type Filter, type SearchRequest } from "../../src/api/rules/schemas";

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body (undefined when it is not JSON); tests assert on it field by field. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export async function send(sim: RunningSimulator, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Answer> {
  const response = await fetch(`${sim.url}${path}`, {
    method: init.method ?? "POST",
    headers: init.headers ?? { authorization: `Bearer ${sim.token}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** POSTs a JSON body to a rule operation (by name, e.g. "add-users", or a path) with the right token and content type. */
export function call(sim: RunningSimulator, operation: string, body: unknown): Promise<Answer> {
  const path = (RULE_OPERATIONS as Record<string, string>)[operation] ?? operation;
  return send(sim, path, { body: JSON.stringify(body) });
}

/** The rule of the sample tenant with this exact name. */
export function ruleNamed(sim: RunningSimulator, name: string): SimRule {
  const rule = sim.rules().find((r) => r.metadata.name === name);
  if (rule === undefined) throw new Error(`no rule named ${name} in the sample tenant`);
  return rule;
}

export function ruleIdOf(sim: RunningSimulator, name: string): string {
  return ruleNamed(sim, name).metadata.observerRuleId;
}

export const SAMPLE = {
  inclusion: "Endpoint exfiltration - Engineering",
  exclusion: "Cloud sharing outside the company",
  byName: "Finance file type mismatch watch",
  additive: "Sales endpoint exfiltration",
  allUsers: "Company-wide cloud share monitor",
  departing: "Departing Employee - Exfiltration",
  highRisk: "High Risk Employee - Cloud share",
  noIds: "Research lab endpoint watch",
  disabled: "Legal hold file type mismatch",
} as const;

export const filter = (term: string, operator: string, value: string): Filter => ({ term, operator, value });

/** A search body: one AND group per list of filters, combined by OR (as the client sends it). */
export function searchBody(sim: RunningSimulator, groups: Filter[][], overrides: Partial<SearchRequest> = {}): SearchRequest {
  return {
    tenantId: sim.tenantId,
    groups: groups.map((filters) => ({ filters, filterClause: "AND" as const })),
    groupClause: "OR",
    pgSize: "100",
    pgNum: "0",
    srtKey: "CreatedAt",
    srtDirection: "DESC",
    ...overrides,
  };
}

export async function searchNames(sim: RunningSimulator, groups: Filter[][], overrides: Partial<SearchRequest> = {}): Promise<string[]> {
  const answer = await call(sim, "query-rule-metadata", searchBody(sim, groups, overrides));
  if (answer.status !== 200) throw new Error(`search answered ${answer.status}: ${answer.text}`);
  return (answer.json.ruleMetadata as Array<{ name: string }>).map((r) => r.name);
}

/** The user list of a rule as query-users answers it. */
export async function usersOf(sim: RunningSimulator, ruleId: string): Promise<Array<{ userIdFromAuthority: string | null; userAliasList: string[] }>> {
  const answer = await call(sim, "query-users", { tenantId: sim.tenantId, ruleId });
  if (answer.status !== 200) throw new Error(`query-users answered ${answer.status}: ${answer.text}`);
  return (answer.json.users as Array<{ userIdFromAuthority: string | null; userAliasList: string[] }>).map((u) => ({
    userIdFromAuthority: u.userIdFromAuthority,
    userAliasList: u.userAliasList,
  }));
}
