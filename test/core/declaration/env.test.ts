import {
  ENV_CONSTRUCT_PATH,
  ENV_POLICIES,
  ENV_STACK,
  ENV_USERS_CHUNKS,
  ENV_VARS,
  declarationFromEnv,
  encodeTriggers,
  provisionerEnvironment,
  unescapeTemplate,
} from "../../../src/core/declaration";
import type { Triggers } from "../../../src/core/declaration";
import type { ListDeclaration } from "../../../src/core/engine/desired";
import { ConfigError } from "../../../src/errors";

/** What Terraform does to the provisioner environment: interpolate self.triggers, unescape literals. */
function terraformEnvironment(environment: Record<string, string>, triggers: Triggers): NodeJS.ProcessEnv {
  const values: Record<string, string> = Object.fromEntries(Object.entries(triggers).map(([k, v]) => [k, unescapeTemplate(v)]));
  return Object.fromEntries(
    Object.entries(environment).map(([name, template]) => {
      const reference = /^\$\{self\.(?:triggers|triggers_replace)\.([A-Za-z0-9_]+)\}$/.exec(template);
      if (reference) return [name, values[reference[1]!]];
      expect(template).not.toMatch(/(^|[^$])\$\{/); // literals hold no interpolation
      return [name, unescapeTemplate(template)];
    }),
  );
}

const declared: ListDeclaration = {
  ruleId: null,
  ruleName: "Endpoint exfiltration",
  mode: "additive",
  allowMassRemoval: true,
  users: [{ userId: "9102", aliases: ["alice@example.com", "a${lice}@corp.example"] }],
};

describe("provisioner environment", () => {
  it("refers to trigger values only as ${self.triggers.<name>}", () => {
    const environment = provisionerEnvironment("stack/watch", "stack", encodeTriggers(declared));
    for (const name of Object.values(ENV_VARS)) {
      expect(environment[name]).toMatch(/^\$\{self\.triggers\.[A-Za-z0-9_]+\}$/);
    }
    expect(environment[ENV_CONSTRUCT_PATH]).toBe("stack/watch");
    expect(environment[ENV_STACK]).toBe("stack");
  });

  it("round-trips: what Terraform passes to the CLI is the declaration", () => {
    // given the triggers and environment a RuleUserList synthesizes
    const env = terraformEnvironment(provisionerEnvironment("stack/${odd}/watch", "stack", encodeTriggers(declared)), encodeTriggers(declared));
    // when the CLI reads it
    const list = declarationFromEnv(env);
    // then
    expect(list).toEqual({ constructPath: "stack/${odd}/watch", stack: "stack", ...declared, users: [{ userId: "9102", aliases: ["a${lice}@corp.example", "alice@example.com"] }] });
  });

  it("names the missing variables in a ConfigError, and bad values in a DeclarationError", () => {
    const env = terraformEnvironment(provisionerEnvironment("stack/watch", "stack", encodeTriggers(declared)), encodeTriggers(declared));
    const partial = Object.fromEntries(Object.entries(env).filter(([name]) => name !== ENV_VARS.users && name !== ENV_VARS.mode));
    expect(() => declarationFromEnv(partial)).toThrow(ConfigError);
    expect(() => declarationFromEnv(partial)).toThrow(`${ENV_VARS.mode}, ${ENV_VARS.users} are not set`);
    expect(() => declarationFromEnv({ ...env, [ENV_VARS.users]: "[]x" })).toThrow(
      `[stack/watch] ${ENV_VARS.users}: is not valid JSON`,
    );
  });
});

describe("policies in the environment", () => {
  const env = () => terraformEnvironment(provisionerEnvironment("stack/watch", "stack", encodeTriggers(declared)), encodeTriggers(declared));

  it("carries the list's RuleUserListPolicy checks to apply --from-env", () => {
    const policies = [{ path: "stack/guardrails", maxUsers: 10, allowedAliasDomains: ["example.com"] }];
    expect(declarationFromEnv({ ...env(), [ENV_POLICIES]: JSON.stringify(policies) }).policies).toEqual(policies);
    expect(declarationFromEnv(env())).not.toHaveProperty("policies");
  });

  it("names the variable and the list when the policies are not what this version writes", () => {
    expect(() => declarationFromEnv({ ...env(), [ENV_POLICIES]: "{not json" })).toThrow(`[stack/watch] ${ENV_POLICIES} is not JSON`);
    expect(() => declarationFromEnv({ ...env(), [ENV_POLICIES]: JSON.stringify([{ maxUsers: -1 }]) })).toThrow(
      `[stack/watch] ${ENV_POLICIES}: is not a list of RuleUserListPolicy checks`,
    );
  });
});

describe("a big list in the environment", () => {
  const big: ListDeclaration = {
    ...declared,
    users: Array.from({ length: 2_500 }, (_, i) => ({ userId: `u${String(i).padStart(4, "0")}`, aliases: [`person${i}@example.com`, `p${i}\${x}@corp.example.com`] })),
  };
  const bigEnv = () => terraformEnvironment(provisionerEnvironment("stack/big", "stack", encodeTriggers(big)), encodeTriggers(big));

  it("comes in ALERT_RULE_USERS_USERS_0..N-1 with their count, and reads back as the declaration", () => {
    const env = bigEnv();
    const count = Number(env[ENV_USERS_CHUNKS.count]);
    expect(count).toBeGreaterThan(1);
    expect(env[ENV_VARS.users]).toBeUndefined();
    for (let i = 0; i < count; i++) expect(env[ENV_USERS_CHUNKS.chunk(i)]).toBeDefined();
    expect(declarationFromEnv(env).users).toHaveLength(2_500);
    expect(declarationFromEnv(env).users[1]).toEqual({ userId: "u0001", aliases: ["p1${x}@corp.example.com", "person1@example.com"] });
  });

  it("refuses a missing or an extra chunk, naming the variable, before any request", () => {
    const env = bigEnv();
    const count = Number(env[ENV_USERS_CHUNKS.count]);
    const { [ENV_USERS_CHUNKS.chunk(1)]: _dropped, ...missing } = env;
    void _dropped;
    expect(() => declarationFromEnv(missing)).toThrow(`[stack/big] ALERT_RULE_USERS_USERS_1: is missing (ALERT_RULE_USERS_USERS_COUNT is ${count})`);
    expect(() => declarationFromEnv({ ...env, [ENV_USERS_CHUNKS.chunk(count)]: "]" })).toThrow(
      `[stack/big] ALERT_RULE_USERS_USERS_${count}: is set, but ALERT_RULE_USERS_USERS_COUNT is ${count}`,
    );
    expect(() => declarationFromEnv({ ...env, [ENV_VARS.users]: "[]" })).toThrow("ALERT_RULE_USERS_USERS: is set beside ALERT_RULE_USERS_USERS_COUNT");
    expect(() => declarationFromEnv({ ...env, [ENV_USERS_CHUNKS.count]: "two" })).toThrow('ALERT_RULE_USERS_USERS_COUNT: must be a positive whole number, got "two"');
  });

  it.each(["25", "999999"])("refuses a chunk count of %s, over the 24 chunks a list can have, naming the variable (no stack overflow)", (count) => {
    const env = { ...bigEnv(), [ENV_USERS_CHUNKS.count]: count };
    expect(() => declarationFromEnv(env)).toThrow(`ALERT_RULE_USERS_USERS_COUNT: must be a positive whole number, got "${count}"; a list has at most 24 chunks`);
  });

  it("refuses chunks beside a list carried whole (format 1)", () => {
    const env = terraformEnvironment(provisionerEnvironment("stack/watch", "stack", encodeTriggers(declared)), encodeTriggers(declared));
    expect(() => declarationFromEnv({ ...env, [ENV_USERS_CHUNKS.chunk(0)]: "[]" })).toThrow(
      "[stack/watch] ALERT_RULE_USERS_USERS_0: is set, but this format carries the users whole in ALERT_RULE_USERS_USERS",
    );
  });
});
