/**
 * The app's rule declarations as the provisioner reads them (alert-rule-users.rules.json, named by
 * ALERT_RULE_USERS_DECLARED_RULES): decoded purely, and read by `apply --from-env` from
 * Terraform's working directory.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DECLARED_RULES_FILE,
  ENV_DECLARED_RULES,
  ENV_VARS,
  declaredAgain,
  decodeDeclaredRules,
  encodeDeclaredRules,
  provisionerEnvironment,
  encodeTriggers,
} from "../../../src/core/declaration";
import { declarationFromEnvironment } from "../../../src/io/declaration-from-env";
import { DeclarationError } from "../../../src/errors";

const rules = [
  { constructPath: "two/by-name", ruleId: null, ruleName: "Engineering watch" },
  { constructPath: "one/engineering", ruleId: "c3e0", ruleName: null },
];

describe("the declared-rules file", () => {
  it("round-trips, sorted by construct path", () => {
    const text = encodeDeclaredRules(rules);
    expect(decodeDeclaredRules(text, "f.json", "one/engineering")).toEqual([rules[1], rules[0]]);
    expect(encodeDeclaredRules([...rules].reverse())).toBe(text);
  });

  it.each([
    ["not JSON", "{", "f.json is not JSON"],
    ["another shape", JSON.stringify({ format: 1, rules: [{ path: "x" }] }), "is not a list of the app's rule declarations"],
    ["another format", JSON.stringify({ format: 2, rules: [] }), "(format 1)"],
    ["a file without this list", encodeDeclaredRules(rules), "does not list this RuleUserList (three/x)"],
  ])("refuses %s, naming the file and the list", (_name, text, message) => {
    const path = _name === "a file without this list" ? "three/x" : "one/engineering";
    expect(() => decodeDeclaredRules(text, "f.json", path)).toThrow(DeclarationError);
    expect(() => decodeDeclaredRules(text, "f.json", path)).toThrow(message);
  });

  it("finds the other constructs of the same rule, by resolved ID or by reported name, never the list itself", () => {
    expect(declaredAgain({ constructPath: "two/by-name", ruleId: "c3e0", ruleName: "Engineering watch" }, rules)).toEqual([rules[1]]);
    expect(declaredAgain({ constructPath: "one/engineering", ruleId: "c3e0", ruleName: "Engineering watch" }, rules)).toEqual([rules[0]]);
    expect(declaredAgain({ constructPath: "one/engineering", ruleId: "c3e0", ruleName: "Another name" }, rules)).toEqual([]);
  });
});

describe("apply --from-env reads the file the provisioner names", () => {
  const triggers = encodeTriggers({ ruleId: "c3e0", ruleName: null, mode: "authoritative", allowMassRemoval: false, users: [] });
  const env = (): Record<string, string> => ({
    [ENV_VARS.format]: triggers["alert_rule_users_format"]!,
    [ENV_VARS.ruleId]: "c3e0",
    [ENV_VARS.ruleName]: "",
    [ENV_VARS.mode]: "authoritative",
    [ENV_VARS.allowMassRemoval]: "false",
    [ENV_VARS.users]: "[]",
    ALERT_RULE_USERS_CONSTRUCT_PATH: "one/engineering",
    ALERT_RULE_USERS_STACK: "one",
    [ENV_DECLARED_RULES]: DECLARED_RULES_FILE,
  });
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "aru-declared-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("the provisioner names the file relative to Terraform's working directory", () => {
    expect(provisionerEnvironment("one/engineering", "one", triggers)[ENV_DECLARED_RULES]).toBe(DECLARED_RULES_FILE);
  });

  it("carries the app's declarations with the list", () => {
    writeFileSync(join(dir, DECLARED_RULES_FILE), encodeDeclaredRules(rules));
    expect(declarationFromEnvironment(env(), dir).declaredElsewhere).toEqual([rules[1], rules[0]]);
  });

  it("refuses, naming the file and the stack's directory, when the file is missing", () => {
    expect(() => declarationFromEnvironment(env(), dir)).toThrow(
      `[one/engineering] ${ENV_DECLARED_RULES} names ${join(dir, DECLARED_RULES_FILE)}, which could not be read (ENOENT): run terraform in the stack's directory as synthesized (cdktf.out/stacks/one)`,
    );
  });

  it("applies the list alone when the provisioner names no file (synthesized by an earlier version)", () => {
    const earlier = env();
    delete earlier[ENV_DECLARED_RULES];
    expect(declarationFromEnvironment(earlier, dir)).not.toHaveProperty("declaredElsewhere");
  });
});
