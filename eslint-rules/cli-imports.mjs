/**
 * The rule that keeps composition in one place (docs/architecture.md): a file of src/cli may import
 * other files of src/cli, the workflow (src/io/workflow), the renderers (src/core/render), the public
 * surface of the api (src/api) and of the simulator (src/simulator), the tool's errors (src/errors)
 * and the ground floor (src/shared); nothing else of src. Each relative import is resolved to the
 * file or folder it names, so `../io` (the CLI's own src/cli/io.ts) and `../../io/execute` are told apart.
 */
import { existsSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

const ALLOWED_EXACT = ["src/io/workflow", "src/core/render", "src/api", "src/simulator", "src/errors"];
const ALLOWED_PREFIXES = ["src/cli/", "src/shared/"];

/** The module a specifier names, repo-relative, without extension or trailing /index. */
function target(fromFile, specifier, root) {
  const base = resolve(dirname(fromFile), specifier);
  let file = base;
  if (existsSync(`${base}.ts`)) file = `${base}.ts`;
  else if (existsSync(base) && statSync(base).isDirectory()) file = join(base, "index.ts");
  return relative(root, file).replace(/\\/g, "/").replace(/\.ts$/, "").replace(/\/index$/, "");
}

export const cliImports = {
  meta: {
    type: "problem",
    messages: {
      layer:
        "src/cli imports only the workflow (src/io/workflow), the renderers (src/core/render), the public surfaces of src/api and src/simulator, src/errors and src/shared; '{{target}}' is below them. Compose the step in src/io/workflow and call that (docs/architecture.md).",
    },
    schema: [],
  },
  create(context) {
    const root = context.cwd;
    const check = (node) => {
      const specifier = node.source?.value;
      if (typeof specifier !== "string" || !specifier.startsWith(".")) return;
      const to = target(context.filename, specifier, root);
      if (ALLOWED_EXACT.includes(to) || ALLOWED_PREFIXES.some((p) => to.startsWith(p))) return;
      context.report({ node: node.source, messageId: "layer", data: { target: to } });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};
