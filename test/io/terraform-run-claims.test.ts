/**
 * Claims (src/io/terraform-run.ts): one resource per rule across the provider processes of one
 * Terraform command (design §12.1). Each `TerraformRun.current` below is what one provider process
 * holds: its own memory, the command's one claims log.
 */
import { randomUUID } from "node:crypto";
import { RUN_SCOPE_VARIABLE, TerraformRun } from "../../src/io/terraform-run";

let scopes = 0;
const command = (): NodeJS.ProcessEnv => ({ [RUN_SCOPE_VARIABLE]: `claims-${randomUUID()}-${++scopes}` });

describe("a claim on a rule", () => {
  it("is held by the first declaration to claim it: the same declaration again is its own, another is refused", () => {
    const env = command();
    const run = TerraformRun.current(env);
    expect(run.claim("rule-1", "declaration A")).toBeNull();
    expect(run.claim("rule-1", "declaration A")).toBeNull();
    expect(run.claim("rule-1", "declaration B")).not.toBeNull();
    expect(run.claim("rule-2", "declaration B")).toBeNull();
  });

  it("is seen by every process of the command, whichever claims first, and by no other command", () => {
    const env = command();
    const first = TerraformRun.current(env);
    const second = TerraformRun.current(env);
    expect(first.claim("rule-1", "alias one's declaration")).toBeNull();
    // the second process has read nothing yet: its claim reads what the first appended
    expect(second.claim("rule-1", "alias two's declaration")).not.toBeNull();
    // and the first, claiming again later, still holds the rule (and sees the second's new claims)
    expect(first.claim("rule-1", "alias one's declaration")).toBeNull();
    expect(second.claim("rule-9", "alias two's declaration")).toBeNull();
    expect(first.claim("rule-9", "alias one's declaration")).not.toBeNull();
    expect(TerraformRun.current(command()).claim("rule-1", "alias two's declaration")).toBeNull();
  });

  it("holds over many claims read a few at a time (each process reads only what was appended since)", () => {
    const env = command();
    const a = TerraformRun.current(env);
    const b = TerraformRun.current(env);
    for (let i = 0; i < 300; i++) expect((i % 2 === 0 ? a : b).claim(`rule-${i}`, `declaration ${i}`)).toBeNull();
    for (let i = 0; i < 300; i++) {
      expect(a.claim(`rule-${i}`, `declaration ${i}`)).toBeNull();
      expect(b.claim(`rule-${i}`, `another declaration of ${i}`)).not.toBeNull();
    }
  });
});

describe("the rules a configuration declares", () => {
  it("are read back once each, in the order first seen, whichever process of the command declared them, and by no other command", () => {
    const env = command();
    const validation = TerraformRun.current(env);
    validation.declare({ ruleId: "r-1", ruleName: null });
    validation.declare({ ruleId: null, ruleName: "Finance" });
    validation.declare({ ruleId: "r-1", ruleName: null });
    // the walk's process validates the same resources again, and one more
    const walk = TerraformRun.current(env);
    walk.declare({ ruleId: null, ruleName: "Finance" });
    walk.declare({ ruleId: "r-2", ruleName: null });
    expect(walk.declaredRules()).toEqual([
      { ruleId: "r-1", ruleName: null },
      { ruleId: null, ruleName: "Finance" },
      { ruleId: "r-2", ruleName: null },
    ]);
    expect(TerraformRun.current(command()).declaredRules()).toEqual([]);
  });
});
