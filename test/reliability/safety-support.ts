/**
 * Builders of the safety tests (docs/contract.md §9.3): a tenant of editable rules with the lists a test
 * chooses, and the declarations of a workspace for them.
 */
import type { RuleListClient } from "../../src/api";
import type { DesiredList } from "../../src/core/engine/desired";
import type { Plan } from "../../src/core/engine/plan-schema";
import type { ApplyResult } from "../../src/core/engine/apply-results";
import { admitted } from "../../src/core/engine/admission";
import { checkStillPlanned, rulesToReadAgain } from "../../src/core/engine/still-planned";
import { connectedSession, getPlan } from "../../src/io";
import type { SimUser, TenantSeed } from "../../src/simulator";
import type { StackDecl } from "../support/cli";
import { editableRuleMetadata } from "../support/rule-metadata";
import { TENANT } from "./support";

export function safetyRuleId(i: number): string {
  return `00000000-0000-4000-9000-${String(i).padStart(12, "0")}`;
}

export interface SeedRule {
  readonly users: SimUser[];
  readonly usersToAlertOn?: "SPECIFIED_USERS" | "ALL_USERS_NOT_SPECIFIED";
}

/** A tenant whose rule i (1-based) has the ID safetyRuleId(i) and the given list. */
export function tenant(rules: readonly SeedRule[]): TenantSeed {
  return {
    tenantId: TENANT,
    rules: rules.map((rule, index) => {
      const i = index + 1;
      return {
        metadata: editableRuleMetadata({ observerRuleId: safetyRuleId(i), name: `Safety rule ${i}`, description: `Rule ${i} of the safety tests` }),
        usersToAlertOn: rule.usersToAlertOn ?? "SPECIFIED_USERS",
        users: rule.users.map((u) => ({ userIdFromAuthority: u.userIdFromAuthority, userAliasList: [...u.userAliasList] })),
      };
    }),
  };
}

export interface DeclaredList {
  readonly users: ReadonlyArray<{ userId: string; aliases: string[] }>;
  readonly mode?: "authoritative" | "additive";
}

/** One stack "safety" declaring rule i (1-based) with lists[i-1]. */
export function declare(lists: readonly DeclaredList[]): StackDecl[] {
  return [
    {
      name: "safety",
      lists: lists.map((list, index) => ({
        id: `rule-${index + 1}`,
        props: { ruleId: safetyRuleId(index + 1), mode: list.mode ?? "authoritative", users: list.users.map((u) => ({ userId: u.userId, aliases: [...u.aliases] })) },
      })),
    },
  ];
}

/** A user `id` with aliases `<id>@example.com` and any others given. */
export function simUser(id: string | null, ...aliases: string[]): SimUser {
  return { userIdFromAuthority: id, userAliasList: aliases.length > 0 ? aliases : [`${id ?? "noid"}@example.com`] };
}

/** Rule i's declaration (1-based, as {@link declare} names it) as the engine reads it from synth. */
export function desiredList(i: number, list: DeclaredList): DesiredList {
  return {
    constructPath: `safety/rule-${i}`,
    stack: "safety",
    ruleId: safetyRuleId(i),
    ruleName: null,
    mode: list.mode ?? "authoritative",
    allowMassRemoval: false,
    users: list.users.map((u) => ({ userId: u.userId, aliases: [...u.aliases] })),
  };
}

/** A plan of `lists` made in-process against `client` (what `plan --out` would save). */
export async function planIn(client: RuleListClient, lists: readonly DeclaredList[]): Promise<Plan> {
  const desired = lists.map((list, index) => desiredList(index + 1, list));
  const session = connectedSession(client, { baseUrl: client.baseUrl, tenantId: client.tenantId }, { parallelism: 1, pageSize: 100, batchSize: 100 });
  return getPlan(desired, session, { createdAt: new Date() });
}

/**
 * Applies `plan` as `apply PLANFILE` does once its file is admitted: the fresh read of every rule
 * it changes, checked still as planned (src/core/engine/still-planned.ts), then the calls,
 * `parallelism` rules at a time, through a session of `client` (src/io/workflow/session/connect.ts).
 */
export async function applyAsSaved(plan: Plan, client: RuleListClient, parallelism = 1): Promise<ApplyResult> {
  const session = connectedSession(client, { baseUrl: client.baseUrl, tenantId: client.tenantId }, { parallelism, pageSize: 100, batchSize: 100 });
  checkStillPlanned(plan, await session.readAgain(rulesToReadAgain(plan)), "saved");
  return session.send(admitted(plan), {});
}
