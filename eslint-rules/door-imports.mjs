/**
 * The rule that keeps composition in one place: each front door imports the workflow and nothing
 * below it but what DOORS names. Each relative import is resolved to the file or folder it names,
 * so `../io` (the CLI's own src/cli/io.ts) and `../../io/execute` are told apart.
 *
 * What it reads: every way a file loads another at run time, `import … from`, `export … from`,
 * `import("…")`, `require("…")` and `import x = require("…")`. What it lets through, and why: an
 * import that only names types (`import type`, `export type`, `import { type X }` with no value
 * beside it, `typeof import("…")`). The compiler erases those, so they load nothing and compose
 * nothing; a door names the types of what it receives where they are declared (one declaration per
 * type), so that the workflow's index need not repeat them.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/** The module a specifier names, repo-relative, without extension or trailing /index. */
function target(fromFile, specifier, root) {
  const base = resolve(dirname(fromFile), specifier);
  let file = base;
  if (existsSync(`${base}.ts`)) file = `${base}.ts`;
  else if (existsSync(base) && statSync(base).isDirectory()) file = join(base, "index.ts");
  return relative(root, file).replace(/\\/g, "/").replace(/\.ts$/, "").replace(/\/index$/, "");
}

/**
 * The front doors (docs/architecture.md): the CLI and the provider turn their input into a request
 * of src/io/workflow and print or answer what it returns. A value import of a door may name:
 * - the workflow's calls (src/io/workflow, its index) and the words both doors share
 *   (src/io/door-words.ts: the tool's errors, redaction, durations, the environment's names, text
 *   helpers), the pure renderers (src/core/render) and the door's own files;
 * - the CLI: the simulator it serves (`alert-rule-users simulator`); the pure checks and shapes of
 *   the triage commands' arguments and output (src/api/triage/filters, validate, views); and the io
 *   modules that are a whole command by themselves, with no session and no plan: the provider's
 *   packages (src/io/provider-install, src/io/provider-package: `provider install`, `package`,
 *   `lock`), the HCL app of `init --hcl` (src/io/init-hcl) and `synth --from-plan`'s declarations
 *   (src/io/declarations-from-terraform);
 * - the provider: the pure decoders of its own input (src/core/native/native-provider: import IDs;
 *   src/core/declaration/native: the resource's attributes; src/core/declaration/provisioner-state:
 *   a moved provisioner's state), the Terraform command it serves (src/io/terraform-run), and the
 *   tool's errors where they are declared (src/errors, which imports nothing): a file the provider
 *   loads before its handshake takes them from there, since door-words loads the client with them;
 *   and the durations of its `timeouts` block (src/shared/durations, which imports nothing), read
 *   by the framework's server, which loads before the handshake too;
 * - the protocol room nothing of src/ outside itself.
 */
const DOORS = {
  "src/cli/": { exact: ["src/io/workflow", "src/io/door-words", "src/core/render", "src/simulator", "src/api/triage/filters", "src/api/triage/validate", "src/api/triage/views", "src/io/provider-install", "src/io/provider-package", "src/io/init-hcl", "src/io/declarations-from-terraform"], prefixes: ["src/cli/"] },
  "src/provider/protocol/": { exact: [], prefixes: ["src/provider/protocol/"] },
  "src/provider/": { exact: ["src/io/workflow", "src/io/door-words", "src/core/render", "src/core/native/native-provider", "src/core/declaration/native", "src/core/declaration/provisioner-state", "src/io/terraform-run", "src/errors", "src/shared/durations"], prefixes: ["src/provider/"] },
};

/** Whether an import or export names types only (erased by the compiler: it loads nothing). */
function typesOnly(node) {
  if (node.importKind === "type" || node.exportKind === "type") return true;
  const specifiers = node.specifiers ?? [];
  if (node.type === "ImportDeclaration") return specifiers.length > 0 && specifiers.every((s) => s.type === "ImportSpecifier" && s.importKind === "type");
  if (node.type === "ExportNamedDeclaration") return specifiers.length > 0 && specifiers.every((s) => s.exportKind === "type");
  return false;
}

/** The string a `require("…")` call loads, or undefined when the node is no such call. */
function requiredModule(node) {
  if (node.callee.type !== "Identifier" || node.callee.name !== "require" || node.arguments.length !== 1) return undefined;
  const argument = node.arguments[0];
  return argument.type === "Literal" && typeof argument.value === "string" ? argument : undefined;
}

export const doorImports = {
  meta: {
    type: "problem",
    messages: {
      layer:
        "{{door}} imports only {{allowed}} (type-only imports aside); '{{target}}' is below them. Compose the step in src/io/workflow and call that (docs/architecture.md).",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const self = relative(root, context.filename).replace(/\\/g, "/");
    const door = Object.keys(DOORS).find((prefix) => self.startsWith(prefix));
    if (door === undefined) return {};
    const { exact, prefixes } = DOORS[door];
    const check = (source) => {
      const specifier = source?.value;
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const to = target(context.filename, specifier, root);
      if (exact.includes(to) || prefixes.some((p) => to.startsWith(p))) return;
      context.report({ node: source, messageId: "layer", data: { door, target: to, allowed: [...exact, ...prefixes.map((p) => `${p}*`)].join(", ") } });
    };
    const declaration = (node) => {
      if (!typesOnly(node)) check(node.source);
    };
    return {
      ImportDeclaration: declaration,
      ExportNamedDeclaration: declaration,
      ExportAllDeclaration: declaration,
      ImportExpression: (node) => check(node.source),
      CallExpression: (node) => check(requiredModule(node)),
      TSImportEqualsDeclaration: (node) => {
        if (node.importKind !== "type" && node.moduleReference.type === "TSExternalModuleReference") check(node.moduleReference.expression);
      },
    };
  },
};
