/**
 * The doors' lint rule (eslint-rules/door-imports.mjs) reads every way a door loads a file at run
 * time, and lets through only what names types (docs/architecture.md, "The doors compose
 * nothing"). The rule is an ES module: it runs in a child `node`, with ESLint's Linter and the
 * TypeScript parser, over snippets placed at paths of the repository's doors.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { REPO } from "../support/cli";

interface Case {
  readonly file: string;
  readonly code: string;
}

/** The rule's messages for each case (empty when it lets the code through). */
function lint(cases: readonly Case[]): string[][] {
  const script = `
import { Linter } from "eslint";
import parser from "@typescript-eslint/parser";
import { doorImports } from ${JSON.stringify(join(REPO, "eslint-rules", "door-imports.mjs"))};
const cases = JSON.parse(process.argv[1]);
const linter = new Linter({ cwd: ${JSON.stringify(REPO)} });
const config = [{ files: ["**/*.ts"], languageOptions: { parser }, plugins: { layers: { rules: { "door-imports": doorImports } } }, rules: { "layers/door-imports": "error" } }];
const out = cases.map((c) => linter.verify(c.code, config, { filename: ${JSON.stringify(REPO)} + "/" + c.file }).map((m) => m.fatal ? "FATAL " + m.message : m.message));
process.stdout.write(JSON.stringify(out));
`;
  const stdout = execFileSync(process.execPath, ["--input-type=module", "-e", script, JSON.stringify(cases)], { cwd: REPO, encoding: "utf8" });
  return JSON.parse(stdout) as string[][];
}

const CLI = "src/cli/commands/probe.ts";
const PROVIDER = "src/provider/probe.ts";
const PROTOCOL = "src/provider/protocol/probe.ts";

describe("the doors' import rule", () => {
  it("refuses every way a door loads a file below the workflow at run time", () => {
    // given a CLI file that reaches the executor in each way a value can be loaded
    const loads = [
      'import { applyPlan } from "../../io/execute";\nvoid applyPlan;',
      'export { applyPlan } from "../../io/execute";',
      'export * from "../../io/execute";',
      'void import("../../io/execute");',
      'const execute = require("../../io/execute");\nvoid execute;',
      'import execute = require("../../io/execute");\nvoid execute;',
    ];
    // then each is refused, naming the door, what it may import and the module it reached
    const found = lint(loads.map((code) => ({ file: CLI, code })));
    for (const messages of found) {
      expect(messages).toHaveLength(1);
      expect(messages[0]).toContain("src/cli/ imports only src/io/workflow, src/io/door-words, src/core/render");
      expect(messages[0]).toContain("'src/io/execute' is below them");
    }
  });

  it("lets through what only names types, since the compiler erases it and it loads nothing", () => {
    const typesOnly = [
      'import type { ApplyResult } from "../../core/engine/apply-results";',
      'import { type ApplyResult } from "../../core/engine/apply-results";',
      'export type { ApplyResult } from "../../core/engine/apply-results";',
      'type Execute = typeof import("../../io/execute");',
    ];
    expect(lint(typesOnly.map((code) => ({ file: CLI, code })))).toEqual([[], [], [], []]);
  });

  it("lets each door reach what it names: the workflow, the words, its own files, and its own extras", () => {
    const found = lint([
      { file: CLI, code: 'import { planRun } from "../../io/workflow";\nimport { UsageError } from "../../io/door-words";\nimport type { Io } from "../io";\nvoid planRun; void UsageError;' },
      { file: CLI, code: 'import { installCanonicalProvider } from "../../io/provider-install";\nimport { checkDate } from "../../api/triage/validate";\nvoid installCanonicalProvider; void checkDate;' },
      { file: PROVIDER, code: 'const run = require("../io/terraform-run");\nimport { nativeListOf } from "../core/declaration/native";\nvoid run; void nativeListOf;' },
      { file: PROVIDER, code: 'import { installCanonicalProvider } from "../io/provider-install";\nvoid installCanonicalProvider;' },
      { file: PROTOCOL, code: 'import { ConfigError } from "../../errors";\nvoid ConfigError;' },
    ]);
    expect(found.slice(0, 3)).toEqual([[], [], []]);
    // the CLI's extras are the CLI's; the protocol room reaches nothing of src/ outside itself
    expect(found[3]).toEqual([expect.stringContaining("'src/io/provider-install' is below them")]);
    expect(found[4]).toEqual([expect.stringContaining("src/provider/protocol/ imports only src/provider/protocol/*")]);
  });
});
