import { TerraformStack, TerraformVariable, Testing } from "cdktf";
import { setupJest } from "cdktf/lib/testing/adapters/jest";
import { NullProvider } from "@cdktf/provider-null/lib/provider";
import { Resource } from "@cdktf/provider-null/lib/resource";
import { RuleUserList } from "../../src/constructs";
import { decodeStack } from "../../src/core/declaration/decode-stack";
import { ENV_VARS, TRIGGER_NAMES } from "../../src/core/declaration";
import { synthFailure } from "../support/synth-failure";

setupJest();

const alice = { userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] };
const bob = { userId: "7", aliases: ["bob@example.com"] };

function newStack(): TerraformStack {
  return new TerraformStack(Testing.app(), "stack");
}

interface Synthesized {
  provider?: { null?: unknown[] };
  resource: { null_resource: Record<string, { triggers: Record<string, string>; provisioner: { "local-exec": { command: string; environment: Record<string, string> } }[] }> };
}

/** The synthesized stack as an object (without cdktf metadata), validations run. */
function synthesized(stack: TerraformStack): Synthesized {
  return JSON.parse(Testing.synth(stack, true)) as Synthesized;
}

describe("RuleUserList", () => {
  it("synthesizes a null provider and one null_resource per list (snapshot)", () => {
    const stack = newStack();
    new RuleUserList(stack, "exfiltration-watch", { ruleId: "c3e0", users: [alice, bob] });
    new RuleUserList(stack, "mismatch-watch", { ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, users: [] });
    const json = Testing.synth(stack, true);
    expect(json).toMatchSnapshot();
    expect(json).toHaveProvider(NullProvider);
    expect(json).toHaveResourceWithProperties(Resource, { triggers: expect.objectContaining({ rule_id: "c3e0", mode: "authoritative" }) });
    expect(Object.keys(synthesized(stack).resource.null_resource)).toHaveLength(2);
  });

  it("writes byte-identical triggers for the same users declared in another order", () => {
    const first = newStack();
    new RuleUserList(first, "watch", { ruleId: "c3e0", users: [alice, bob] });
    const second = newStack();
    new RuleUserList(second, "watch", { ruleId: "c3e0", users: [bob, { userId: "9102", aliases: ["Alice@corp.example", "alice@example.com"] }] });
    expect(Testing.synth(second)).toBe(Testing.synth(first));
  });

  it("exposes the canonical declaration and its resource", () => {
    const list = new RuleUserList(newStack(), "watch", { ruleName: "Exfiltration", users: [alice, bob] });
    expect(list.ruleId).toBeUndefined();
    expect(list.ruleName).toBe("Exfiltration");
    expect(list.mode).toBe("authoritative");
    expect(list.users.map((u) => u.userId)).toEqual(["7", "9102"]);
    expect(list.resource.node.path).toBe("stack/watch/resource");
  });

  it("adds the null provider once per stack, and reuses one the stack has, added before or after", () => {
    // several lists in one stack
    const stack = newStack();
    new RuleUserList(stack, "a", { ruleId: "1", users: [] });
    new RuleUserList(stack, "b", { ruleId: "2", users: [] });
    expect(synthesized(stack).provider?.null).toHaveLength(1);
    // a provider added before
    const before = newStack();
    new NullProvider(before, "null", { alias: "mine" });
    new RuleUserList(before, "a", { ruleId: "1", users: [] });
    expect(synthesized(before).provider?.null).toEqual([{ alias: "mine" }]);
    // a provider added after
    const after = newStack();
    new RuleUserList(after, "a", { ruleId: "1", users: [] });
    new NullProvider(after, "null", { alias: "mine" });
    expect(synthesized(after).provider?.null).toEqual([{ alias: "mine" }]);
  });

  it("runs the CLI from the provisioner, referring to trigger values only as ${self.triggers.<name>}", () => {
    const stack = newStack();
    new RuleUserList(stack, "watch", { ruleId: "c3e0", users: [alice], cliCommand: "node ./cli.js" });
    const [resource] = Object.values(synthesized(stack).resource.null_resource);
    const localExec = resource!.provisioner[0]!["local-exec"];
    expect(localExec.command).toBe("node ./cli.js apply --from-env --auto-approve");
    const interpolations = [localExec.command, ...Object.values(localExec.environment)].join("\n").match(/\$\{[^}]*\}/g) ?? [];
    expect(interpolations.length).toBe(Object.keys(ENV_VARS).length);
    for (const interpolation of interpolations) {
      const name = /^\$\{self\.triggers\.([A-Za-z0-9_]+)\}$/.exec(interpolation)?.[1];
      expect(TRIGGER_NAMES).toContain(name);
    }
    expect(localExec.environment["ALERT_RULE_USERS_CONSTRUCT_PATH"]).toBe("stack/watch");
  });

  it("reports every failure of every list at synth, each with its construct path", () => {
    // given
    const stack = newStack();
    new RuleUserList(stack, "no-rule", { users: [{ userId: "", aliases: [] }] });
    new RuleUserList(stack, "dupes", {
      ruleId: "1",
      ruleName: "n",
      users: [
        { userId: "5", aliases: ["a@x", " "] },
        { userId: "5", aliases: ["A@x"] },
      ],
    });
    new RuleUserList(stack, "fine", { ruleId: "2", users: [bob] });
    // when
    const message = synthFailure(() => Testing.synth(stack, true));
    // then
    const lines = message.split("\n").filter((line) => line.startsWith("  ["));
    expect(lines).toEqual([
      "  [stack/no-rule] ruleId/ruleName: neither is set; set exactly one: ruleId (the rule's observerRuleId) or ruleName (its exact name)",
      "  [stack/no-rule] users[0].userId: is empty; set the user's ID (userIdFromAuthority)",
      "  [stack/no-rule] users[0].aliases: is empty; give the user at least one alias (email address or cloud alias), or remove the user",
      '  [stack/dupes] ruleId/ruleName: both are set ("1" and "n"); set exactly one of them',
      '  [stack/dupes] users[1].userId: "5" is already declared at users[0]; merge the two entries into one user',
      "  [stack/dupes] users[0].aliases[1]: is empty or whitespace; write the alias or remove the entry",
      '  [stack/dupes] users[1].aliases[0]: "A@x" repeats users[0].aliases[0] ("a@x"); aliases compare case-insensitively and trimmed, declare each alias once',
    ]);
  });

  it("fails app.synth() as well, and refuses unresolved tokens (plan reads literal JSON)", () => {
    // given
    const app = Testing.app();
    const stack = new TerraformStack(app, "prod");
    const rule = new TerraformVariable(stack, "rule", { type: "string" });
    new RuleUserList(stack, "watch", { ruleId: rule.stringValue, users: [] });
    // then
    expect(() => app.synth()).toThrow("[prod/watch] ruleId: is an unresolved token");
  });
});

describe("RuleUserList → decodeStack (no files, no processes)", () => {
  it("reads back exactly what was declared, in canonical order", () => {
    // given a stack with a list by ID and one by name
    const stack = newStack();
    new RuleUserList(stack, "exfiltration-watch", { ruleId: "c3e0", users: [alice, bob] });
    new RuleUserList(stack, "mismatch-watch", { ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, users: [] });
    // when the synthesized JSON is decoded
    const lists = decodeStack("stack", JSON.parse(Testing.synth(stack, true)));
    // then each list carries its rule, mode, guard flag and canonical users
    expect(lists.map(({ ruleId, ruleName, mode, allowMassRemoval, users }) => ({ ruleId, ruleName, mode, allowMassRemoval, users }))).toEqual([
      { ruleId: "c3e0", ruleName: null, mode: "authoritative", allowMassRemoval: false, users: [bob, { userId: "9102", aliases: ["Alice@corp.example", "alice@example.com"] }] },
      { ruleId: null, ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, users: [] },
    ]);
  });

  it("names each list by its construct path when the JSON carries cdktf's metadata", () => {
    // given a stack whose JSON keeps the `//` metadata (as `cdktf synth` writes it)
    const stack = newStack();
    new RuleUserList(stack, "exfiltration-watch", { ruleId: "c3e0", users: [alice] });
    Testing.synth(stack);
    // when decoded
    const [list] = decodeStack("stack", JSON.parse(JSON.stringify(stack.toTerraform())));
    // then the construct path is the RuleUserList's own
    expect(list?.constructPath).toBe("stack/exfiltration-watch");
    expect(list?.stack).toBe("stack");
  });
});
