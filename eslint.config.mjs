import tseslint from "typescript-eslint";
import { doorImports } from "./eslint-rules/door-imports.mjs";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "eslint-rules/**", "**/cdktf.out/**", "coverage/**", "*.js", "*.mjs", "scripts/**/*.mjs"] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
      "no-console": "error",
    },
  },
  {
    files: ["src/cli/**", "src/demo/**", "bench/**", "examples/**", "test/**"],
    rules: { "no-console": "off" },
  },
  {
    // A function reads in one sitting and a file holds one concept (../shared/style.md): lines
    // counted as they stand, comments and blank lines included. Tests have their own limits below.
    files: ["src/**", "bench/**", "tools/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 80 }],
      "max-lines": ["error", { max: 500 }],
    },
  },
  {
    // A test file's describe() holds its cases, so its callback is as long as the spec; 250 lines
    // still refuses a helper or a case that has grown into a program.
    files: ["test/**"],
    rules: {
      "max-lines-per-function": ["error", { max: 250 }],
      "max-lines": ["error", { max: 500 }],
    },
  },
  {
    // The one file over the limit: the emulator of GitHub Actions' runner (577 lines), edited by the
    // team-CI work as this rule lands. Split it into its parts (expressions, steps, jobs) and drop this.
    files: ["test/ci/workflow-runner.ts"],
    rules: { "max-lines": ["error", { max: 600 }] },
  },
  {
    // cdktf and cdktn are loaded by src/constructs only (the CLI and the engine never load them);
    // src/core's own block below restricts them too, with the rest of its rules.
    files: ["src/**"],
    ignores: ["src/constructs/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: ["cdktf", "cdktn", "@cdktf/provider-null"].map((name) => ({ name, message: "cdktf and cdktn belong in src/constructs only." })),
          patterns: [{ group: ["cdktf/*", "cdktn/*", "@cdktf/*"], message: "cdktf and cdktn belong in src/constructs only." }],
        },
      ],
    },
  },
  {
    // src/core is pure: no files, processes, network or clock. Its inputs are plain data and its
    // outputs are values; src/io reads and writes, src/cli talks to the user (docs/architecture.md).
    files: ["src/core/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            ...["fs", "fs/promises", "child_process", "http", "https", "http2", "net", "tls", "dgram", "dns", "os", "readline", "worker_threads", "cluster", "process"].flatMap(
              (name) => [name, `node:${name}`].map((id) => ({ name: id, message: "src/core is pure: do I/O in src/io and pass the data in." })),
            ),
            { name: "axios", message: "src/core is pure: the network is src/api and src/io." },
            { name: "cdktf", message: "cdktf belongs in src/constructs only." },
            { name: "cdktn", message: "cdktn belongs in src/constructs only." },
            { name: "constructs", message: "cdktf belongs in src/constructs only." },
          ],
          patterns: [
            { group: ["**/io", "**/io/**", "**/cli", "**/cli/**", "**/simulator", "**/simulator/**", "**/constructs", "**/constructs/**"], message: "src/core imports nothing of src/io, src/cli, src/simulator or src/constructs." },
            { regex: "(^|/)api(/(?!rules/schemas$).*)?$", message: "src/core may use the service's data shapes (src/api/rules/schemas) only, not the client." },
          ],
        },
      ],
      "no-restricted-globals": ["error", { name: "process", message: "src/core is pure: pass environment values in." }, { name: "fetch", message: "src/core is pure: no network." }],
      "no-restricted-properties": ["error", { object: "Date", property: "now", message: "src/core has no clock: take the time as an input." }],
      "no-restricted-syntax": ["error", { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: "src/core has no clock: take the time as an input." }],
    },
  },
  {
    // One composition point: the doors (CLI, provider) turn input into workflow calls; the workflow strings the steps together.
    files: ["src/cli/**", "src/provider/**"],
    plugins: { layers: { rules: { "door-imports": doorImports } } },
    rules: { "layers/door-imports": "error" },
  },
  {
    files: ["test/**"],
    rules: {
      "@typescript-eslint/no-unsafe-assignment": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-argument": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
);
