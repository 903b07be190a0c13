/**
 * The rule that keeps composition in one place: each front door imports the workflow and nothing
 * below it. Each relative import is resolved to the file or folder it names, so `../io` (the CLI's
 * own src/cli/io.ts) and `../../io/execute` are told apart.
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
 * of src/io/workflow and print or answer what it returns. A value import of a door may name the
 * workflow's calls (its index) and the words a door may use beside them (src/io/door-words.ts:
 * the tool's errors, text helpers, the client's names, pure checks), the pure renderers
 * (src/core/render) and the door's own files; the CLI also the simulator it serves
 * (`alert-rule-users simulator`). Type-only imports may name anything: they compose nothing.
 */
const DOORS = {
  "src/cli/": { exact: ["src/io/workflow", "src/io/door-words", "src/core/render", "src/simulator"], prefixes: ["src/cli/"] },
  "src/provider/protocol/": { exact: [], prefixes: ["src/provider/protocol/"] },
  "src/provider/": { exact: ["src/io/workflow", "src/io/door-words", "src/core/render"], prefixes: ["src/provider/"] },
};

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
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      if (node.importKind === "type" || node.exportKind === "type") return;
      const to = target(context.filename, specifier, root);
      if (exact.includes(to) || prefixes.some((p) => to.startsWith(p))) return;
      context.report({ node: node.source, messageId: "layer", data: { door, target: to, allowed: [...exact, ...prefixes.map((p) => `${p}*`)].join(", ") } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
