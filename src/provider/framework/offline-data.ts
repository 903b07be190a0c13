/**
 * The data sources of the offline provider (ALERT_RULE_USERS_PROVIDER_OFFLINE=1). A data source
 * reads the service, which an offline provider never does: in a team's CI the job that evaluates a
 * pull request's configuration holds no secret. So the evaluation runs twice
 * (docs/provider-workflows.md, "Data sources"):
 *
 *   first pass   each read the configuration asks for is written, as data, to the file named by
 *                ALERT_RULE_USERS_PROVIDER_DATA_REQUESTS (one JSON line each), and answered with an
 *                error that says the trusted job will answer it;
 *   trusted job  reads exactly those (`terraform-provider-alertrules data-answers`, with the secret,
 *                never beside the configuration) and writes the answers;
 *   second pass  ALERT_RULE_USERS_PROVIDER_DATA_ANSWERS names that file: a read asked again is
 *                answered from it, as the service answered; a read it does not hold is an error.
 *
 * A read is known by its data source and its configuration (canonical JSON), so that the answer
 * fits the very read that asked for it.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { ConfigError } from "../../errors";
import type { DataSourceType, Diagnostic, ObjectValue, Schema, Value } from "../protocol";
import { UNKNOWN } from "../protocol";

export const DATA_REQUESTS_VARIABLE = "ALERT_RULE_USERS_PROVIDER_DATA_REQUESTS";
export const DATA_ANSWERS_VARIABLE = "ALERT_RULE_USERS_PROVIDER_DATA_ANSWERS";

/** The answers file's format version: readers refuse another. */
export const DATA_ANSWERS_VERSION = 1;

/** One read a configuration asked for: its data source and its configuration. */
export interface DataRequest {
  readonly type: string;
  readonly config: ObjectValue;
}

/** One read answered: the state the data source returned, or the diagnostics it failed with. */
export interface DataAnswer extends DataRequest {
  readonly state: ObjectValue | null;
  readonly diagnostics: readonly Diagnostic[];
}

/** JSON with object keys sorted at every level (the same configuration always gives the same key). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}

/** The key of a read: its data source and the attributes its configuration sets (computed ones left out). */
export function dataRequestKey(type: string, schema: Schema, config: ObjectValue): string {
  const set: Record<string, Value> = {};
  for (const attribute of schema.attributes) {
    const value = config[attribute.name] ?? null;
    if (value !== null && value !== UNKNOWN) set[attribute.name] = value;
  }
  return `${type} ${canonical(set)}`;
}

/** Whether a value is plain JSON data (what a request or an answer may carry). */
function isPlain(value: unknown): boolean {
  if (value === null || typeof value === "string" || typeof value === "boolean") return true;
  if (typeof value === "number") return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlain);
  if (typeof value === "object") return Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(isPlain);
  return false;
}

const isObject = (v: unknown): v is ObjectValue => typeof v === "object" && v !== null && !Array.isArray(v) && isPlain(v);

/** The requests of a requests file (JSON lines), each checked; what is not a request is an error naming its line. */
export function parseDataRequests(text: string, source: string): DataRequest[] {
  const out: DataRequest[] = [];
  text.split("\n").forEach((line, i) => {
    if (line.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new ConfigError(`${source}:${i + 1} is not JSON: give the file the offline provider wrote (${DATA_REQUESTS_VARIABLE}).`);
    }
    const v = value as { type?: unknown; config?: unknown };
    if (typeof v !== "object" || v === null || typeof v.type !== "string" || !isObject(v.config)) {
      throw new ConfigError(`${source}:${i + 1} is not a data request ({"type", "config"}): give the file the offline provider wrote (${DATA_REQUESTS_VARIABLE}).`);
    }
    out.push({ type: v.type, config: v.config });
  });
  return out;
}

/** The answers of an answers file, each checked; anything else is an error naming the file. */
export function parseDataAnswers(text: string, source: string): DataAnswer[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ConfigError(`${source} is not JSON: give the file data-answers wrote.`);
  }
  const v = value as { version?: unknown; answers?: unknown };
  if (typeof v !== "object" || v === null || v.version !== DATA_ANSWERS_VERSION || !Array.isArray(v.answers)) {
    throw new ConfigError(`${source} is not a data answers file of version ${DATA_ANSWERS_VERSION}: give the file data-answers of this release wrote.`);
  }
  return v.answers.map((a: unknown, i) => {
    const answer = a as { type?: unknown; config?: unknown; state?: unknown; diagnostics?: unknown };
    const diagnosticsOk = Array.isArray(answer.diagnostics) && answer.diagnostics.every((d: unknown) => isObject(d) && (d["severity"] === "error" || d["severity"] === "warning") && typeof d["summary"] === "string");
    if (typeof answer.type !== "string" || !isObject(answer.config) || !(answer.state === null || isObject(answer.state)) || !diagnosticsOk) {
      throw new ConfigError(`${source}: answer ${i + 1} is not an answer ({"type", "config", "state", "diagnostics"}).`);
    }
    return { type: answer.type, config: answer.config, state: answer.state, diagnostics: answer.diagnostics as Diagnostic[] };
  });
}

/** The file that ALERT_RULE_USERS_PROVIDER_DATA_ANSWERS names, read once per process; null when unset. */
function answersOf(env: NodeJS.ProcessEnv, schemas: { readonly [type: string]: Schema }): Map<string, DataAnswer> | null {
  const file = env[DATA_ANSWERS_VARIABLE];
  if (file === undefined || file === "") return null;
  const answers = parseDataAnswers(readFileSync(file, "utf8"), file);
  const byKey = new Map<string, DataAnswer>();
  for (const answer of answers) {
    const schema = schemas[answer.type];
    if (schema !== undefined) byKey.set(dataRequestKey(answer.type, schema, answer.config), answer);
  }
  return byKey;
}

/** The refusal of a read nobody will answer (no requests file: this is not a workflow's evaluation). */
export const OFFLINE_READ_REFUSED = "The alertrules provider is offline (ALERT_RULE_USERS_PROVIDER_OFFLINE=1): data sources read the service and cannot be read offline. Unset ALERT_RULE_USERS_PROVIDER_OFFLINE, or plan without the data source.";

/**
 * The data sources of an offline provider: answered from the answers file, else recorded for the
 * trusted job and refused for now. `schemas` are the provider's data sources by type name.
 */
export function offlineDataSources(schemas: { readonly [type: string]: Schema }, env: NodeJS.ProcessEnv): { [type: string]: DataSourceType } {
  let answers: Map<string, DataAnswer> | null | undefined;
  const requests = env[DATA_REQUESTS_VARIABLE];
  return Object.fromEntries(
    Object.entries(schemas).map(([type, schema]) => [
      type,
      {
        schema,
        readDataSource(config: ObjectValue): Promise<{ state: ObjectValue; diagnostics?: Diagnostic[] }> {
          answers ??= answersOf(env, schemas);
          const key = dataRequestKey(type, schema, config);
          const answer = answers?.get(key);
          if (answer !== undefined) {
            return Promise.resolve({ state: answer.state ?? config, diagnostics: [...answer.diagnostics] });
          }
          if (requests === undefined || requests === "") return Promise.resolve({ state: config, diagnostics: [{ severity: "error", summary: "Offline provider", detail: OFFLINE_READ_REFUSED }] });
          appendFileSync(requests, `${JSON.stringify({ type, config: Object.fromEntries(Object.entries(config).filter(([, v]) => v !== UNKNOWN)) })}\n`);
          const detail =
            answers === null
              ? `This ${type} reads the service, which this job (no secret) never contacts: the read is recorded, the trusted job answers it, and the configuration is evaluated again with the answer (docs/provider-workflows.md, "Data sources").`
              : `This ${type} was not answered by the trusted job: its arguments depend on another data source's answer, which the workflow cannot plan. Set them from the configuration itself (docs/provider-workflows.md, "Data sources").`;
          return Promise.resolve({ state: config, diagnostics: [{ severity: "error", summary: answers === null ? "Read by the trusted job" : "Data source not answered", detail }] });
        },
      },
    ]),
  );
}
