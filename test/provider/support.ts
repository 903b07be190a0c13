/** Builders for the provider's unit tests: a provider configured against a simulator, and a resource configuration as Terraform decodes one. */
import { randomUUID } from "node:crypto";
import { alertRulesProvider } from "../../src/provider/provider";
import { providerSchema, ruleUserListSchema } from "../../src/provider/schema";
import type { Diagnostic, ObjectValue, ProviderDefinition, Value } from "../../src/provider/protocol";
import { typedLiteral } from "../../src/provider/framework/dynamic";
import { RUN_SCOPE_VARIABLE } from "../../src/io/terraform-run";

export const EMPTY = Buffer.alloc(0);

/** Every attribute and block of a schema, null unless given. */
export function decoded(schema: { attributes: readonly { name: string }[]; blocks?: readonly { name: string }[] }, values: Record<string, Value>): ObjectValue {
  const out: ObjectValue = {};
  for (const { name } of [...schema.attributes, ...(schema.blocks ?? [])]) out[name] = values[name] ?? null;
  return out;
}

/** A `users` value as HCL writes it, typed as its literal. */
export function usersLiteral(list: ReadonlyArray<{ userId: string; aliases: readonly string[]; expiresAt?: string }>): Value {
  return typedLiteral(Object.fromEntries(list.map((u) => [u.userId, u.expiresAt === undefined ? { aliases: [...u.aliases] } : { aliases: [...u.aliases], expires_at: u.expiresAt }])));
}

let commands = 0;
/** This test file's own scope of Terraform commands (a worker runs several files: the same process ID, the same counts). */
const RUN = randomUUID();

export const resourceConfig = (values: Record<string, Value>): ObjectValue => decoded(ruleUserListSchema, values);

export const errorsOf = (diagnostics: readonly Diagnostic[] | undefined): Diagnostic[] => (diagnostics ?? []).filter((d) => d.severity === "error");

/** A provider configured with `block` (its arguments) over `env`; fails the test on a configuration error unless `allowErrors`. */
export async function configuredProvider(
  sim: { url: string; token: string; tenantId: string },
  block: Record<string, Value> = {},
  env: Record<string, string> = {},
): Promise<{ provider: ProviderDefinition; diagnostics: Diagnostic[] }> {
  const provider = alertRulesProvider({ env: { ALERTS_API_URL: sim.url, ALERTS_API_TOKEN: sim.token, ALERTS_TENANT_ID: sim.tenantId, [RUN_SCOPE_VARIABLE]: `test-${RUN}-${++commands}`, ...env }, cwd: process.cwd(), log: () => undefined });
  const diagnostics = await provider.configureProvider(decoded(providerSchema, block), { terraformVersion: "1.11.4" });
  return { provider, diagnostics };
}
