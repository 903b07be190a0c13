/**
 * The local simulator of the alert service: a real HTTP server for the rule operations of
 * docs/interface.md, with a seeded tenant, optional persistence and fault injection. Its behaviour
 * spec is README.md beside this file.
 */
import * as fs from "node:fs";
import { DEFAULT_MAX_BODY_BYTES, createSimulatorServer, type RequestLogEntry } from "./server";
import { FaultInjector, type FaultOptions } from "./faults";
import { Router, type RouteTable } from "./routes";
import { ruleRoutes } from "./rule-routes";
import { alertRoutes } from "./triage/alert-routes";
import { caseRoutes } from "./triage/case-routes";
import { fileEventRoutes } from "./triage/file-event-routes";
import type { SimAlert, SimCase, SimFileEvent } from "./triage/seed";
import { TenantStore } from "./state";
import { TokenAuthority, type MintedToken } from "./tokens";
import { writeFileAtomic } from "../shared/atomic-write";
import { SerializedFileWriter, removeStaleTempFiles, renderState } from "./persistence";
import { loadSeedFile, parseSeed, parseSeedFile, sampleTenantPath, tenantSeedSchema, type ParsedTenantSeed, type SimRule, type TenantSeed } from "./seed";
import { messageOf } from "../shared/text";

export { tenantSeedSchema, loadSeedFile, sampleTenantPath, type TenantSeed, type SimRule };
export type { FaultOptions, Misbehaviour, MisbehaviourKind } from "./faults";
export type { RequestLogEntry } from "./server";
export type { SimUser } from "./seed";
export type { SimAlert, SimCase, SimFileEvent, SimObservation } from "./triage/seed";

export const DEFAULT_SIMULATOR_TOKEN = "local-simulator-token";
export { OAUTH_PATH, DEFAULT_MINTED_TTL_SECONDS, type MintedToken } from "./tokens";
export { ConsoleError, consoleAddUser, consoleRemoveUser, type ConsoleChange, type ConsoleTarget } from "./console";

/** The route tables the simulator serves; alert, case and file-event tables go here. */
const ROUTE_TABLES: readonly RouteTable[] = [ruleRoutes, alertRoutes, caseRoutes, fileEventRoutes];

export interface SimulatorOptions {
  /** @default 0 - a free port */
  port?: number;
  /** @default "127.0.0.1" */
  host?: string;
  /**
   * @default DEFAULT_SIMULATOR_TOKEN - the bearer token required on every request (without
   * `tokenTtlSeconds`), and the client secret of the OAuth endpoint (POST /v1/oauth)
   */
  token?: string;
  /**
   * @default - none: the static token is accepted, and minted tokens live 900 s. Else only tokens
   * minted at the OAuth endpoint (or by `mintToken()`) are accepted, each for this many seconds.
   */
  tokenTtlSeconds?: number;
  /**
   * The clock minted tokens expire by, in milliseconds that never go back (tests move it by hand,
   * so that an expiry does not depend on how fast the machine is). @default - performance.now
   */
  tokenClock?: () => number;
  /** @default - the seed's tenantId */
  tenantId?: string;
  /** @default - the sample tenant, examples/sample-tenant.json */
  seed?: TenantSeed;
  /**
   * @default - state in memory only. If the file exists, the state is loaded from it (it wins
   * over `seed`); otherwise it is seeded and written. Rewritten atomically after every change,
   * before the response is sent.
   */
  dataFile?: string;
  /** @default - no faults */
  faults?: FaultOptions;
  /** @default 1 MiB - larger bodies are refused with 413 as soon as the limit is crossed */
  maxBodyBytes?: number;
  /** @default - no logging; else one line per request (method, path, operation, status, ms), never a header */
  log?: (line: string) => void;
  /**
   * @default - none; else called synchronously as each request arrives (with its operation name),
   * before it is checked or applied: a test can act at an exact request boundary
   */
  onRequest?: (operation: string) => void;
}

export interface RunningSimulator {
  /** Base URL, e.g. "http://127.0.0.1:41234" (paths /v1/... go after it). */
  readonly url: string;
  readonly port: number;
  readonly token: string;
  readonly tenantId: string;
  /** Mints a token as the OAuth endpoint does (valid `tokenTtlSeconds`, or 900 s). */
  mintToken(): MintedToken;
  /** How many tokens were minted (endpoint and mintToken()). */
  mintedTokens(): number;
  /** Closes the server and all open (also hanging) connections; waits for pending writes. */
  stop(): Promise<void>;
  /** Replaces the fault configuration (the PRNG and the rate-limit counter start again). */
  setFaults(faults: FaultOptions): void;
  /** Requests received per operation name ("unknown" for other paths), faulted ones included. */
  requestCounts(): Record<string, number>;
  /**
   * Every answered request in arrival order: `{ atMs, operation, status }`, `atMs` in ms since
   * the simulator started. Cleared by resetCounts().
   */
  requestLog(): RequestLogEntry[];
  resetCounts(): void;
  /** All rules (deep copies), without HTTP or faults. */
  rules(): SimRule[];
  rule(ruleId: string): SimRule | undefined;
  /** Replaces a rule's user list directly; persisted like a write. Throws for an unknown rule. */
  setUsers(ruleId: string, users: Array<{ userIdFromAuthority: string | null; userAliasList: string[] }>): void;
  /** Turns a rule's list into an inclusion or an exclusion list (the console's switch); persisted like a write. */
  setListType(ruleId: string, usersToAlertOn: "SPECIFIED_USERS" | "ALL_USERS_NOT_SPECIFIED"): void;
  /** All alerts (deep copies, with their `note`), without HTTP or faults. */
  alerts(): SimAlert[];
  alert(alertId: string): SimAlert | undefined;
  /** All cases (deep copies), each with the event IDs attached to it (`fileEvents`). */
  cases(): SimCase[];
  /** All file events (deep copies). */
  fileEvents(): SimFileEvent[];
}

function initialState(options: SimulatorOptions): { seed: ParsedTenantSeed; loadedFromDataFile: boolean } {
  if (options.dataFile !== undefined && fs.existsSync(options.dataFile)) {
    return { seed: parseSeedFile(options.dataFile), loadedFromDataFile: true };
  }
  const seed = options.seed === undefined ? parseSeedFile(sampleTenantPath()) : parseSeed(options.seed);
  return { seed, loadedFromDataFile: false };
}

function validateOptions(options: SimulatorOptions): void {
  const { port, maxBodyBytes, token } = options;
  if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65535)) throw new RangeError(`port must be an integer 0..65535, not ${port}`);
  if (maxBodyBytes !== undefined && (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1)) throw new RangeError("maxBodyBytes must be a positive integer");
  if (token !== undefined && !/^\S+$/.test(token)) throw new RangeError("token must be non-empty and contain no whitespace");
  const ttl = options.tokenTtlSeconds;
  if (ttl !== undefined && (!Number.isInteger(ttl) || ttl < 1 || ttl > 86_400)) throw new RangeError("tokenTtlSeconds must be a whole number of seconds from 1 to 86400");
}

/** Starts a simulator; resolves once it listens. */
export async function startSimulator(options: SimulatorOptions = {}): Promise<RunningSimulator> {
  validateOptions(options);
  const log = options.log ?? (() => undefined);
  if (options.dataFile !== undefined) {
    const removed = removeStaleTempFiles(options.dataFile);
    if (removed.length > 0) log(`Removed ${removed.length} temp file${removed.length === 1 ? "" : "s"} left beside ${options.dataFile} by a simulator that was killed: ${removed.join(", ")}`);
  }
  const { seed, loadedFromDataFile } = initialState(options);
  const store = new TenantStore(seed, options.tenantId === undefined ? {} : { tenantId: options.tenantId });
  const faults = new FaultInjector(options.faults ?? {});
  const token = options.token ?? DEFAULT_SIMULATOR_TOKEN;
  const tokens = new TokenAuthority(token, options.tokenTtlSeconds, options.tokenClock);

  const dataFile = options.dataFile;
  const writer = dataFile === undefined ? undefined : new SerializedFileWriter(dataFile, () => renderState(store.snapshot()));
  if (dataFile !== undefined && (!loadedFromDataFile || options.tenantId !== undefined)) {
    await writeFileAtomic(dataFile, renderState(store.snapshot()));
  }
  const persist = (): Promise<void> => writer?.save() ?? Promise.resolve();

  const server = createSimulatorServer({
    router: new Router(ROUTE_TABLES),
    store,
    faults,
    tokens,
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    persist,
    log,
    onRequest: options.onRequest,
  });
  const address = await server.listen(options.port ?? 0, options.host ?? "127.0.0.1");
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  let stopped: Promise<void> | undefined;

  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    token,
    tenantId: store.tenantId,
    mintToken: () => tokens.mint(),
    mintedTokens: () => tokens.minted,
    stop: () => {
      stopped ??= (async () => {
        await server.close();
        await writer?.idle();
      })();
      return stopped;
    },
    setFaults: (next) => faults.set(next),
    requestCounts: () => server.counts(),
    requestLog: () => server.requestLog(),
    resetCounts: () => server.resetCounts(),
    rules: () => store.rules(),
    rule: (ruleId) => store.rule(ruleId),
    alerts: () => store.triage.alerts(),
    alert: (alertId) => store.triage.alert(alertId),
    cases: () => store.triage.cases(),
    fileEvents: () => store.triage.fileEvents(),
    setUsers: (ruleId, users) => {
      const outcome = store.setUsers(ruleId, users);
      if (!outcome.ok) throw new RangeError(outcome.message);
      persist().catch((error: unknown) => log(`could not save ${dataFile ?? "state"}: ${messageOf(error)}`));
    },
    setListType: (ruleId, usersToAlertOn) => {
      const outcome = store.setListType(ruleId, usersToAlertOn);
      if (!outcome.ok) throw new RangeError(outcome.message);
      persist().catch((error: unknown) => log(`could not save ${dataFile ?? "state"}: ${messageOf(error)}`));
    },
  };
}
