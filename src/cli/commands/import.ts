/**
 * `alert-rule-users import`: reads live rule lists and writes TypeScript `RuleUserList`
 * declarations that plan with no changes (the generator is src/core/import/import-code.ts).
 */
import { resolve } from "node:path";
import { importRun } from "../../io/workflow";
import { shellQuote, UsageError } from "../../io/door-words";
import { CONNECTION_HELP, CONNECTION_OPTIONS, intFlag, oneOf, parse } from "../args";
import type { Command, Io } from "../io";

/** Names the generated module declares or imports: not available for the function. */
const RESERVED_NAMES = ["App", "TerraformStack", "Construct", "RuleUserList", "require", "module", "exports"];
import { RATE_HELP, RATE_OPTIONS, READ_OPTIONS, readSettings, sessionSettings } from "../run-flags";
import { cliReporter } from "../reporter";
import { checkOutputPath } from "../output-path";
import { CLI_IN_APP } from "../hints";

export const importCommand: Command = {
  name: "import",
  summary: "Write the live rule lists as RuleUserList declarations (TypeScript) or Terraform HCL, to start managing them",
  help: `Usage: alert-rule-users import (--rule ID... | --all) [--format ts|hcl] [flags]
Reads the live user lists of the given rules (or of every rule of the tenant) and writes a
TypeScript module with one exported function, declareRuleUserLists(scope), that declares a
RuleUserList per rule; 'alert-rule-users plan' then shows no changes. Sends no write call.

With --format hcl it writes a Terraform configuration for the native provider instead: the
provider's required_providers entry and provider block (connection from the environment), and
per rule an alertrules_rule_user_list with an import block by its rule ID; after
'npx --no alert-rule-users provider install' and 'terraform init', 'terraform plan' shows only
imports. Resource names come from the rule names (valid HCL identifiers, unique, the same on every
run); values are escaped, so nothing in a rule name or alias runs as an interpolation.

Use the module either way:
  - as an app by itself (one stack, "alert-rules"): it synthesizes when run as the program,
      alert-rule-users plan --app "npx ts-node --transpile-only rule-user-lists.ts"
    or make that command the "app" of cdktf.json;
  - from your own cdktf app: call declareRuleUserLists(stack) in a stack of it (importing the
    module does not synthesize anything).

  - system rules and rules that monitor all users are listed as comments (they cannot be managed);
  - a list with entries without a user ID is declared additive (only adds, removes nothing) with
    those entries in comments: add their IDs, then make it authoritative (one rebuild);
  - a list the construct would refuse (e.g. a user without aliases) is commented out whole.

Flags:
  --rule ID              a rule's observerRuleId (repeatable)
  --all                  every rule of the tenant (all pages of the rule-metadata search)
  --format ts|hcl        TypeScript for a cdktf app (default), or HCL for the native provider
  --out FILE             write the module (or configuration) to FILE (atomically) instead of stdout
  --function-name NAME   name of the generated function (default: declareRuleUserLists; ts only)
  --parallelism N        rule lists read at once (default 4)
  --page-size N          rule-metadata search page size (default 100)
${RATE_HELP}
  --base-url URL, --tenant-id ID, --token-file FILE, --token-command CMD
  -h, --help

${CONNECTION_HELP}

Exit codes: 0 written, 1 error (a --rule that does not exist, a list that cannot be read).

Examples:
  alert-rule-users import --all --out rule-user-lists.ts
  alert-rule-users import --all --format hcl --out rule-user-lists.tf
  alert-rule-users import --rule a33e7c21-5cb0-4cf5-a266-852063111751 > engineering.ts
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values } = parse("import", argv, {
      ...CONNECTION_OPTIONS,
      ...RATE_OPTIONS,
      rule: { type: "string", multiple: true },
      all: { type: "boolean" },
      out: { type: "string" },
      format: { type: "string" },
      "function-name": { type: "string" },
      ...READ_OPTIONS,
      help: { type: "boolean", short: "h" },
    });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    const ruleIds = [...new Set((values.rule ?? []).map((r) => r.trim()))];
    if (ruleIds.some((r) => r === "")) throw new UsageError("import: --rule needs a rule ID (observerRuleId).");
    const all = values.all === true;
    if (all === (ruleIds.length > 0)) {
      throw new UsageError("import: give either --all or one or more --rule ID. Run 'alert-rule-users import --help' for usage.");
    }
    checkOutputPath("import", "out", values.out, io.cwd);
    const format = oneOf("import", "format", values.format, ["ts", "hcl"] as const, "ts");
    if (format === "hcl" && values["function-name"] !== undefined) {
      throw new UsageError("import: --function-name names the function of a TypeScript module; --format hcl writes none. Drop one of them.");
    }
    const functionName = values["function-name"] ?? "declareRuleUserLists";
    if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(functionName) || RESERVED_NAMES.includes(functionName)) {
      throw new UsageError(
        `import: --function-name must be a JavaScript identifier other than ${RESERVED_NAMES.join(", ")} (names the module uses), got '${functionName}'.`,
      );
    }
    const parallelism = intFlag("import", "parallelism", values.parallelism, 4, 1, 64);
    const pageSize = intFlag("import", "page-size", values["page-size"], 100, 1, 500);
    const code = await importRun(
      {
        session: sessionSettings(values, io, readSettings(parallelism, pageSize)),
        ruleIds: all ? null : ruleIds,
        format,
        functionName,
        out: values.out === undefined ? undefined : { path: resolve(io.cwd, values.out), name: values.out },
      },
      cliReporter(io),
    );
    const declared = code.rules.filter((r) => r.constructId !== null).length;
    const summary = `Imported ${code.rules.length} ${code.rules.length === 1 ? "rule" : "rules"}: ${declared} declared, ${code.rules.length - declared} as comments.`;
    if (values.out !== undefined && format === "hcl") {
      io.stderr.write(
        `${summary} Wrote ${values.out}.\n` +
          "Next, in its directory: npx --no alert-rule-users provider install, terraform init, then terraform plan (it shows the imports and no change).\n",
      );
    } else if (values.out !== undefined) {
      io.stderr.write(
        `${summary} Wrote ${values.out}.\n` +
          `Plan it as an app by itself: ${CLI_IN_APP} plan --app ${shellQuote(code.appCommand ?? "")}\n` +
          `(or set "app" to that command in cdktf.json), or call ${functionName}(stack) from your app.\n`,
      );
    } else {
      io.stdout.write(code.source);
      io.stderr.write(`${summary}\n`);
    }
    return 0;
  },
};
