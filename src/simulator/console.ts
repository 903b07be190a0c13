/**
 * `alert-rule-users simulator users add|remove` (src/simulator/README.md "Trying drift"): what a
 * person does in the service's console, against a running simulator: add a user (with aliases) to
 * a rule's list, or remove one, outside of any declaration, so that the next plan shows the drift.
 * It speaks the interface's own operations (query-rule-metadata, add-users, remove-users) over
 * HTTP, and refuses any server whose answers lack the simulator's header (respond.ts): it never
 * writes to a real tenant.
 */
import { didYouMean } from "../core/engine/suggest";
import { RULE_OPERATIONS, ruleMetadataSchema } from "../api/rules/schemas";
import { SIMULATOR_HEADER } from "./respond";

/** Where the simulator is, and the token and tenant it serves. */
export interface ConsoleTarget {
  readonly url: string;
  readonly token: string;
  readonly tenantId: string;
}

/** A refusal or a failure, said with what to do; the command prints it and exits 1. */
export class ConsoleError extends Error {
  override readonly name = "ConsoleError";
}

/** The rule a change went to, and its list's size after it. */
export interface ConsoleChange {
  readonly ruleId: string;
  readonly ruleName: string;
  readonly userCount: number;
}

async function post(target: ConsoleTarget, path: string, body: unknown): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${target.url}${path}`, {
      method: "POST",
      headers: { Authorization: `Bearer ${target.token}`, "Content-Type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : error instanceof Error ? error.message : String(error);
    throw new ConsoleError(`could not reach ${target.url} (${cause}): is the simulator running there? Start it with: alert-rule-users simulator --port 8080`);
  }
  const text = await response.text();
  if (response.headers.get(SIMULATOR_HEADER) !== "1") {
    throw new ConsoleError(`${target.url} is not an alert-rule-users simulator (its answers lack the ${SIMULATOR_HEADER} header): simulator users changes only a simulator's lists, never a real tenant's. Point ALERTS_API_URL (or --url) at the simulator.`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ConsoleError(`the simulator's answer to ${path} is not JSON (${response.status}).`);
  }
  if (response.status === 401) throw new ConsoleError("the simulator refused the token: set ALERTS_API_TOKEN to its --token (the default is the built-in simulator token).");
  if (response.status !== 200) {
    const message = typeof parsed === "object" && parsed !== null && "message" in parsed ? String(parsed.message) : text;
    throw new ConsoleError(`the simulator answered ${response.status} to ${path}: ${message}`);
  }
  return parsed;
}

/** Every rule of the tenant (id and name), page by page. */
async function allRules(target: ConsoleTarget): Promise<{ ruleId: string; name: string }[]> {
  const rules: { ruleId: string; name: string }[] = [];
  for (let page = 0; ; page++) {
    const body = (await post(target, RULE_OPERATIONS["query-rule-metadata"], {
      tenantId: target.tenantId,
      groups: [],
      groupClause: "AND",
      pgSize: "100",
      pgNum: String(page),
      srtKey: "Name",
      srtDirection: "ASC",
    })) as { ruleMetadata?: unknown[]; totalCount?: number };
    const metadata = (body.ruleMetadata ?? []).map((m) => ruleMetadataSchema.parse(m));
    rules.push(...metadata.map((m) => ({ ruleId: m.observerRuleId, name: m.name })));
    if (metadata.length === 0 || rules.length >= (body.totalCount ?? 0)) return rules;
  }
}

/** The rule `rule` names: its observerRuleId, or its exact name; else an error with the name a typo meant. */
async function resolveRule(target: ConsoleTarget, rule: string): Promise<{ ruleId: string; name: string }> {
  const rules = await allRules(target);
  const found = rules.filter((r) => r.ruleId === rule || r.name === rule);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new ConsoleError(`${found.length} rules are named '${rule}': give the rule's ID (${found.map((r) => r.ruleId).join(", ")}).`);
  throw new ConsoleError(`no rule has the ID or the name '${rule}' in tenant ${target.tenantId}.${didYouMean(rule, rules.map((r) => r.name))} (alert-rule-users rules list shows them.)`);
}

/** Adds `userId` with `aliases` to the list of `rule` (an ID or an exact name), as the console would. */
export async function consoleAddUser(target: ConsoleTarget, rule: string, userId: string, aliases: readonly string[]): Promise<ConsoleChange> {
  const found = await resolveRule(target, rule);
  const answer = (await post(target, RULE_OPERATIONS["add-users"], { tenantId: target.tenantId, ruleId: found.ruleId, userList: [{ userIdFromAuthority: userId, userAliasList: aliases }] })) as { userCount?: number };
  return { ruleId: found.ruleId, ruleName: found.name, userCount: answer.userCount ?? 0 };
}

/** Removes `userId` (with every alias) from the list of `rule`, as the console would; refuses a user who is not on it. */
export async function consoleRemoveUser(target: ConsoleTarget, rule: string, userId: string): Promise<ConsoleChange> {
  const found = await resolveRule(target, rule);
  const list = (await post(target, RULE_OPERATIONS["query-users"], { tenantId: target.tenantId, ruleId: found.ruleId })) as { users?: { userIdFromAuthority?: string | null }[] };
  const ids = (list.users ?? []).map((u) => u.userIdFromAuthority ?? "");
  if (!ids.includes(userId)) throw new ConsoleError(`user '${userId}' is not on the list of '${found.name}' (${found.ruleId}): nothing was removed.${didYouMean(userId, ids)}`);
  const answer = (await post(target, RULE_OPERATIONS["remove-users"], { tenantId: target.tenantId, ruleId: found.ruleId, userIdList: [userId] })) as { userCount?: number };
  return { ruleId: found.ruleId, ruleName: found.name, userCount: answer.userCount ?? 0 };
}
