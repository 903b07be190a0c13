import {
  TRIGGER_NAMES,
  decodeTriggers,
  encodeTriggers,
  unescapeTemplate,
} from "../../../src/core/declaration";
import type { ListDeclaration } from "../../../src/core/engine/desired";
import { DeclarationError } from "../../../src/errors";

function list(overrides: Partial<ListDeclaration> = {}): ListDeclaration {
  return {
    ruleId: "c3e0",
    ruleName: null,
    mode: "authoritative",
    allowMassRemoval: false,
    users: [
      { userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] },
      { userId: "7", aliases: ["zed@example.com"] },
    ],
    ...overrides,
  };
}

function decodeError(triggers: unknown): DeclarationError {
  try {
    decodeTriggers(triggers, "stack/watch");
  } catch (error) {
    if (error instanceof DeclarationError) return error;
    throw error;
  }
  throw new Error("expected a DeclarationError");
}

describe("trigger map", () => {
  it("has only names of letters, digits and underscores, and string values", () => {
    const triggers = encodeTriggers(list());
    expect(Object.keys(triggers).sort()).toEqual([...TRIGGER_NAMES].sort());
    for (const [name, value] of Object.entries(triggers)) {
      expect(name).toMatch(/^[A-Za-z0-9_]+$/);
      expect(typeof value).toBe("string");
    }
    expect(triggers).toEqual({
      alert_rule_users_format: "1",
      rule_id: "c3e0",
      rule_name: "",
      mode: "authoritative",
      allow_mass_removal: "false",
      users: '[{"userId":"7","aliases":["zed@example.com"]},{"userId":"9102","aliases":["Alice@corp.example","alice@example.com"]}]',
    });
  });

  it("is byte-identical for the same users declared in another order", () => {
    const reordered = list({
      users: [
        { userId: "7", aliases: ["zed@example.com"] },
        { userId: "9102", aliases: ["Alice@corp.example", "alice@example.com"] },
      ],
    });
    expect(JSON.stringify(encodeTriggers(reordered))).toBe(JSON.stringify(encodeTriggers(list())));
  });

  it("round-trips through decode, by ID and by name, keeping the declared spelling", () => {
    const byName = list({ ruleId: null, ruleName: "Endpoint ${exfil} %{x}", mode: "additive", allowMassRemoval: true });
    for (const declared of [list(), byName]) {
      const decoded = decodeTriggers(encodeTriggers(declared), "stack/watch");
      expect({ ruleId: decoded.ruleId, ruleName: decoded.ruleName }).toEqual({ ruleId: declared.ruleId, ruleName: declared.ruleName });
      expect(decoded.mode).toBe(declared.mode);
      expect(decoded.allowMassRemoval).toBe(declared.allowMassRemoval);
      expect(decoded.users).toEqual([
        { userId: "7", aliases: ["zed@example.com"] },
        { userId: "9102", aliases: ["Alice@corp.example", "alice@example.com"] },
      ]);
    }
  });

  it("escapes Terraform template sequences so Terraform sees the declared text", () => {
    const triggers = encodeTriggers(list({ users: [{ userId: "1", aliases: ["a${b}@x", "c%{d}@x"] }] }));
    expect(triggers.users).toContain("a$${b}@x");
    expect(triggers.users).toContain("c%%{d}@x");
    expect(unescapeTemplate(triggers.users ?? "")).toBe('[{"userId":"1","aliases":["a${b}@x","c%{d}@x"]}]');
  });

  it("refuses hand-edited triggers, naming the resource and every bad field", () => {
    const triggers = { ...encodeTriggers(list()), allow_mass_removal: "yes", mode: "sometimes", rule_name: "also" };
    const error = decodeError(triggers);
    expect(error.code).toBe("DECLARATION");
    expect(error.message).toContain('[stack/watch] triggers.allow_mass_removal: must be "true" or "false", got "yes"');
    const again = decodeError({ ...encodeTriggers(list()), mode: "sometimes", rule_name: "also" });
    expect(again.failures.map((f) => f.message.split(":")[0])).toEqual(["ruleId/ruleName", "mode"]);
    expect(decodeError({ ...encodeTriggers(list()), users: "[{" }).message).toContain("triggers.users: is not valid JSON");
    expect(decodeError({ ...encodeTriggers(list()), users: '[{"userId":1}]' }).message).toContain("triggers.users: must be a JSON array");
  });

  it("refuses another format, and missing triggers", () => {
    expect(decodeError({ ...encodeTriggers(list()), alert_rule_users_format: "3" }).message).toContain(
      'triggers.alert_rule_users_format: format "3" is not supported',
    );
    expect(decodeError({ alert_rule_users_format: "1" }).failures).toHaveLength(5);
  });
});
