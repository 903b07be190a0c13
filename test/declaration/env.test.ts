import {
  ENV_CONSTRUCT_PATH,
  ENV_STACK,
  ENV_VARS,
  declarationFromEnv,
  encodeTriggers,
  provisionerEnvironment,
  unescapeTemplate,
} from "../../src/core/declaration";
import type { Triggers } from "../../src/core/declaration";
import type { ListDeclaration } from "../../src/core/desired";
import { ConfigError } from "../../src/errors";

/** What Terraform does to the provisioner environment: interpolate self.triggers, unescape literals. */
function terraformEnvironment(environment: Record<string, string>, triggers: Triggers): NodeJS.ProcessEnv {
  const values: Record<string, string> = Object.fromEntries(Object.entries(triggers).map(([k, v]) => [k, unescapeTemplate(v)]));
  return Object.fromEntries(
    Object.entries(environment).map(([name, template]) => {
      const reference = /^\$\{self\.triggers\.([A-Za-z0-9_]+)\}$/.exec(template);
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
    const environment = provisionerEnvironment("stack/watch", "stack");
    for (const name of Object.values(ENV_VARS)) {
      expect(environment[name]).toMatch(/^\$\{self\.triggers\.[A-Za-z0-9_]+\}$/);
    }
    expect(environment[ENV_CONSTRUCT_PATH]).toBe("stack/watch");
    expect(environment[ENV_STACK]).toBe("stack");
  });

  it("round-trips: what Terraform passes to the CLI is the declaration", () => {
    // given the triggers and environment a RuleUserList synthesizes
    const env = terraformEnvironment(provisionerEnvironment("stack/${odd}/watch", "stack"), encodeTriggers(declared));
    // when the CLI reads it
    const list = declarationFromEnv(env);
    // then
    expect(list).toEqual({ constructPath: "stack/${odd}/watch", stack: "stack", ...declared, users: [{ userId: "9102", aliases: ["a${lice}@corp.example", "alice@example.com"] }] });
  });

  it("names the missing variables in a ConfigError, and bad values in a DeclarationError", () => {
    const env = terraformEnvironment(provisionerEnvironment("stack/watch", "stack"), encodeTriggers(declared));
    const partial = Object.fromEntries(Object.entries(env).filter(([name]) => name !== ENV_VARS.users && name !== ENV_VARS.mode));
    expect(() => declarationFromEnv(partial)).toThrow(ConfigError);
    expect(() => declarationFromEnv(partial)).toThrow(`${ENV_VARS.mode}, ${ENV_VARS.users} are not set`);
    expect(() => declarationFromEnv({ ...env, [ENV_VARS.users]: "[]x" })).toThrow(
      `[stack/watch] ${ENV_VARS.users}: is not valid JSON`,
    );
  });
});
