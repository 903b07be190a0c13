/**
 * The import generator (src/core/import/import-code.ts): escaping, construct IDs, and what each kind of
 * live list becomes. The generated module is compiled and run against a stub RuleUserList, so the
 * test sees exactly the values a cdktf app would pass to the construct.
 */
import { runInNewContext } from "node:vm";
import ts from "typescript";
import type { ImportedRule } from "../../src/core/import/import-code";
import { IMPORT_STACK_NAME, commentText, constructIdFor, generateImportCode, importAppCommand, tsString, uniqueIds } from "../../src/core/import/import-code";

interface Declared {
  id: string;
  props: { ruleId: string; mode?: string; users: { userId: string; aliases: string[] }[] };
}

interface Run {
  declared: Declared[];
  /** What a run as the program did: the stacks it made (by name, with the scope each list got) and whether it synthesized. */
  stacks: string[];
  scopes: unknown[];
  synthesized: boolean;
  exports: Record<string, unknown>;
}

/**
 * Compiles the generated module and runs it, with stubs of RuleUserList and cdktf's App and
 * TerraformStack; `asProgram` runs it as `node FILE` would (require.main is the module).
 */
function run(source: string, asProgram: boolean): Run {
  const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  const result: Run = { declared: [], stacks: [], scopes: [], synthesized: false, exports: {} };
  class RuleUserList {
    constructor(scope: unknown, id: string, props: Declared["props"]) {
      result.declared.push({ id, props });
      result.scopes.push(scope);
    }
  }
  class App {
    synth(): void {
      result.synthesized = true;
    }
  }
  class TerraformStack {
    constructor(
      readonly scope: unknown,
      readonly id: string,
    ) {
      expect(scope).toBeInstanceOf(App);
      result.stacks.push(id);
    }
  }
  const module = { exports: result.exports };
  const require = Object.assign(
    (name: string) => {
      if (name === "alert-rule-users") return { RuleUserList };
      if (name === "cdktf") return { App, TerraformStack };
      throw new Error(`unexpected require(${name})`);
    },
    { main: asProgram ? module : { exports: {} } },
  );
  runInNewContext(js, { module, exports: module.exports, require });
  return result;
}

/** Compiles the generated module, imports it (as an app would) and runs its function; returns the RuleUserLists it declared. */
function evaluate(source: string): Declared[] {
  const imported = run(source, false);
  expect(imported).toMatchObject({ declared: [], stacks: [], synthesized: false });
  const fn = imported.exports["declareRuleUserLists"] as (scope: unknown) => unknown[];
  expect(fn({}).length).toBe(imported.declared.length);
  return imported.declared;
}

const rule = (name: string, id: string, over: Partial<ImportedRule["rule"]> = {}) => ({
  observerRuleId: id,
  name,
  isSystem: false,
  ruleSource: "Alerting",
  ...over,
});
const list = (entries: { userId: string | null; aliases: string[] }[], usersToAlertOn: "SPECIFIED_USERS" | "ALL_USERS_NOT_SPECIFIED" | "ALL_USERS" = "SPECIFIED_USERS") => ({
  usersToAlertOn,
  entries,
});

describe("tsString and commentText", () => {
  it.each([
    ['quote"d'],
    ["back\\slash"],
    ["${process.exit(1)}"],
    ["`template`"],
    ["line\nbreak\r\u2028\u2029"],
    ["*/ end of comment"],
    ["\u202eevil"],
  ])("a string literal of %j evaluates back to the same string", (value) => {
    const back = runInNewContext(ts.transpileModule(`result = ${tsString(value)};`, {}).outputText + "\nresult");
    expect(back).toBe(value);
  });

  it("comment text stays on one line and shows no bidirectional overrides", () => {
    const text = commentText("a\nb\r\u2028c\u202ed");
    expect(text).not.toMatch(/[\n\r\u2028\u202e]/);
    expect(text).toBe("a\\u000ab\\u000d\\u2028c\\u202ed");
  });
});

describe("construct IDs", () => {
  it.each([
    ["Endpoint exfiltration - Engineering", "endpoint-exfiltration-engineering"],
    ["  Ünïcödé  Rule!! ", "unicode-rule"],
    ["42 things", "rule-42-things"],
    ["///", "rule"],
    ["", "rule"],
    ['a"b\\c${d}', "a-b-c-d"],
    ["x".repeat(100), "x".repeat(60)],
  ])("%j becomes %j", (name, id) => {
    expect(constructIdFor(name)).toBe(id);
  });

  it("IDs are unique, also against a name that already ends in -2, and never the provider's ID", () => {
    expect(uniqueIds(["a", "a", "a-2", "a", "alert-rule-users-null"])).toEqual(["a", "a-2", "a-2-2", "a-3", "alert-rule-users-null-2"]);
  });

  it("rules with the same name get distinct, valid IDs in the generated module", () => {
    const rules = ["Same", "same", "SAME!"].map((n, i) => ({ rule: rule(n, `id-${i}`), list: list([]) }));
    const declared = evaluate(generateImportCode(rules).source);
    expect(declared.map((d) => d.id)).toEqual(["same", "same-2", "same-3"]);
    for (const d of declared) expect(d.id).toMatch(/^[a-z][a-z0-9-]*$/);
  });
});

describe("generateImportCode", () => {
  it("declares a plain list authoritatively, with exactly the live values (escaped)", () => {
    // given
    // (an alias with a control character, such as a newline, cannot be declared since issue 37)
    const aliases = ['quote"d@x.com', "back\\slash@x.com", "${x}@x.com"];
    const rules: ImportedRule[] = [{ rule: rule('Rule "one" \\ ${x}\n// injected', "r-1"), list: list([{ userId: "u\"1", aliases }]) }];
    // when
    const code = generateImportCode(rules);
    const declared = evaluate(code.source);
    // then
    expect(declared).toEqual([{ id: "rule-one-x-injected", props: { ruleId: "r-1", users: [{ userId: 'u"1', aliases: [...aliases].sort() }] } }]);
    expect(code.warnings).toEqual([]);
    expect(code.source).not.toContain("\n// injected");
  });

  it("lists system and all-users rules as comments with the reason", () => {
    const code = generateImportCode([
      { rule: rule("Departing", "d", { isSystem: true, ruleSource: "Departing Employee" }), list: null },
      { rule: rule("High risk", "h", { ruleSource: "High Risk Employee" }), list: null },
      { rule: rule("Everyone", "e"), list: list([], "ALL_USERS") },
    ]);
    expect(evaluate(code.source)).toEqual([]);
    expect(code.source).toMatch(/\/\/ "Departing" \(d\)\n\s*\/\/ Not declared: system rule \(Departing Employee\)/);
    expect(code.source).toMatch(/\/\/ Not declared: system rule \(High Risk Employee\)/);
    expect(code.source).toMatch(/\/\/ "Everyone" \(e\)\n\s*\/\/ Not declared: the rule monitors all users/);
    expect(code.rules.map((r) => r.disposition)).toEqual(["not-manageable", "not-manageable", "not-manageable"]);
    expect(code.warnings).toHaveLength(3);
  });

  it("declares a list with entries without IDs additive, with those entries as comments", () => {
    const code = generateImportCode([
      {
        rule: rule("Lab", "lab"),
        list: list([
          { userId: "1", aliases: ["one@x.com"] },
          { userId: null, aliases: ["ghost@x.com"] },
        ]),
      },
    ]);
    expect(evaluate(code.source)).toEqual([{ id: "lab", props: { ruleId: "lab", mode: "additive", users: [{ userId: "1", aliases: ["one@x.com"] }] } }]);
    expect(code.source).toMatch(/\/\/ WARNING: 1 entry has no user ID/);
    expect(code.source).toMatch(/\/\/ {3}- no user ID: "ghost@x.com"/);
    expect(code.warnings[0]).toMatch(/^Warning: rule "Lab" \(lab\): 1 entry has no user ID/);
  });

  it("comments out a list the construct would refuse, with the failures", () => {
    const code = generateImportCode([
      { rule: rule("Broken", "b"), list: list([{ userId: "1", aliases: [] }, { userId: "2", aliases: ["A@x.com", "a@x.com "] }]) },
    ]);
    expect(evaluate(code.source)).toEqual([]);
    expect(code.rules[0]).toMatchObject({ disposition: "invalid", constructId: null });
    expect(code.source).toMatch(/\/\/ Not declared: the live list cannot be declared as it is: users\[0\]/);
  });

  it("an exclusion list is declared like an inclusion list; an empty list as users: []", () => {
    const declared = evaluate(
      generateImportCode([
        { rule: rule("Excl", "x"), list: list([{ userId: "9", aliases: ["svc@x.com"] }], "ALL_USERS_NOT_SPECIFIED") },
        { rule: rule("Empty", "y"), list: list([]) },
      ]).source,
    );
    expect(declared).toEqual([
      { id: "excl", props: { ruleId: "x", users: [{ userId: "9", aliases: ["svc@x.com"] }] } },
      { id: "empty", props: { ruleId: "y", users: [] } },
    ]);
  });

  it("is deterministic and uses the function name given", () => {
    const rules: ImportedRule[] = [{ rule: rule("A", "a"), list: list([]) }];
    expect(generateImportCode(rules).source).toBe(generateImportCode(rules).source);
    expect(generateImportCode(rules, { functionName: "lists" }).source).toContain("export function lists(scope: Construct)");
  });

  it("runs as an app by itself: run as the program, it declares every list in one stack and synthesizes; imported, it does nothing", () => {
    // given
    const code = generateImportCode([{ rule: rule("A", "a"), list: list([{ userId: "1", aliases: ["one@x.com"] }]) }, { rule: rule("B", "b"), list: list([]) }], {
      fileName: "lists/rule user lists.ts",
    });
    // when run as the program
    const program = run(code.source, true);
    // then
    expect(program.stacks).toEqual([IMPORT_STACK_NAME]);
    expect(program.declared.map((d) => d.id)).toEqual(["a", "b"]);
    expect(program.scopes.every((s) => (s as { id?: string }).id === IMPORT_STACK_NAME)).toBe(true);
    expect(program.synthesized).toBe(true);
    // imported by another app: only the function, nothing declared or synthesized
    expect(run(code.source, false)).toMatchObject({ declared: [], stacks: [], synthesized: false });
    expect(typeof run(code.source, false).exports["declareRuleUserLists"]).toBe("function");
    // the header says how to run it, with the file as named
    expect(code.source).toContain(`"app": "npx ts-node --transpile-only 'lists/rule user lists.ts'"`);
    // quoted for the shell (single quotes, each ' written '\''): nothing in it expands when pasted
    expect(code.source).toContain(`alert-rule-users plan --app 'npx ts-node --transpile-only '\\''lists/rule user lists.ts'\\'''`);
  });

  it("a file name cannot end the header comment", () => {
    const code = generateImportCode([], { fileName: "x*/ evil();/*.ts" });
    const header = code.source.slice(0, code.source.indexOf("*/\n") + 2);
    expect(header.match(/\*\//g)).toHaveLength(1);
    expect(() => ts.transpileModule(code.source, { reportDiagnostics: true })).not.toThrow();
    expect(run(code.source, true).synthesized).toBe(true);
  });

  it.each([
    ["rule-user-lists.ts", "npx ts-node --transpile-only rule-user-lists.ts"],
    ["my lists.ts", "npx ts-node --transpile-only 'my lists.ts'"],
    ["it's.ts", "npx ts-node --transpile-only 'it'\\''s.ts'"],
  ])("importAppCommand(%j) is %s", (file, command) => {
    expect(importAppCommand(file)).toBe(command);
  });

  it("writes a list of 200,000 entries without overflowing the stack (no push(...array)) (issue 31 item 10)", () => {
    // given one rule with 200,000 users and another with 200,000 entries without ID (additive, listed in comments)
    const many = Array.from({ length: 200_000 }, (_, i) => ({ userId: `u${i}`, aliases: [`u${i}@example.com`] }));
    const idless = Array.from({ length: 200_000 }, (_, i) => ({ userId: null, aliases: [`n${i}@example.com`] }));
    const rules: ImportedRule[] = [
      { rule: rule("Big", "big"), list: list(many) },
      { rule: rule("Big without IDs", "big-noid"), list: list([{ userId: "u-1", aliases: ["u-1@example.com"] }, ...idless]) },
    ];
    // when the module is generated, then every user is in it
    const source = generateImportCode(rules).source;
    expect(source).toContain('{ userId: "u199999", aliases: ["u199999@example.com"] },');
    expect(source).toContain("n199999@example.com");
  });
});
