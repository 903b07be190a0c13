/**
 * runSynth + readDeclarations on a tiny real app: plain JavaScript that requires the compiled
 * construct, run through the shell like `cdktf synth`, then read back from the JSON it wrote.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { DeclarationError, SynthError } from "../../src/errors";
import { readDeclarations } from "../../src/io/read-synth-output";
import { readAppCommand, runSynth } from "../../src/io/synth";
import { ConfigError } from "../../src/errors";

const repo = path.resolve(__dirname, "../..");
let work: string;
let constructs: string;

beforeAll(() => {
  // Scratch space inside the repo (ignored by git) so the app resolves cdktf from its node_modules.
  fs.mkdirSync(path.join(repo, ".tmp"), { recursive: true });
  work = fs.mkdtempSync(path.join(repo, ".tmp", "synth-test-"));
  const build = path.join(work, "build");
  execFileSync(
    process.execPath,
    [
      require.resolve("typescript/bin/tsc"),
      ...["--outDir", build, "--rootDir", repo, "--module", "node16", "--moduleResolution", "node16", "--target", "ES2022"],
      ...["--strict", "--skipLibCheck", "--esModuleInterop", "--types", "node"],
      path.join(repo, "src/constructs/index.ts"),
    ],
    { stdio: "pipe" },
  );
  constructs = path.join(build, "src/constructs");
});

afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true });
});

/** A project directory with cdktf.json and an app declaring the given lists per stack. */
function project(name: string, stacks: Record<string, Record<string, unknown>>): string {
  const dir = path.join(work, name);
  fs.mkdirSync(dir);
  const body = Object.entries(stacks)
    .map(([stack, lists]) =>
      [
        `{ const stack = new TerraformStack(app, ${JSON.stringify(stack)});`,
        ...Object.entries(lists).map(([id, props]) => `  new RuleUserList(stack, ${JSON.stringify(id)}, ${JSON.stringify(props)});`),
        "}",
      ].join("\n"),
    )
    .join("\n");
  fs.writeFileSync(
    path.join(dir, "main.js"),
    `const { App, TerraformStack } = require("cdktf");\nconst { RuleUserList } = require(${JSON.stringify(constructs)});\nconst app = new App();\n${body}\napp.synth();\n`,
  );
  fs.writeFileSync(path.join(dir, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node main.js" }));
  return dir;
}

describe("runSynth and readDeclarations", () => {
  it("synthesize the app and read back every declared list, ordered by stack and construct path", async () => {
    // given
    const cwd = project("valid", {
      prod: {
        "exfil-watch": { ruleId: "c3e0", users: [{ userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] }] },
        "by-name": { ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, users: [] },
      },
      dev: { watch: { ruleId: "d1", users: [{ userId: "7", aliases: ["bob@example.com"] }] } },
    });
    // when
    await runSynth({ app: readAppCommand(cwd), outdir: "cdktf.out", cwd });
    const lists = readDeclarations(path.join(cwd, "cdktf.out"));
    // then
    expect(lists).toEqual([
      { constructPath: "dev/watch", stack: "dev", ruleId: "d1", ruleName: null, mode: "authoritative", allowMassRemoval: false, users: [{ userId: "7", aliases: ["bob@example.com"] }] },
      { constructPath: "prod/by-name", stack: "prod", ruleId: null, ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, users: [] },
      {
        constructPath: "prod/exfil-watch",
        stack: "prod",
        ruleId: "c3e0",
        ruleName: null,
        mode: "authoritative",
        allowMassRemoval: false,
        users: [{ userId: "9102", aliases: ["Alice@corp.example", "alice@example.com"] }],
      },
    ]);
    expect(readDeclarations(path.join(cwd, "cdktf.out"), { stacks: ["prod"] }).map((l) => l.constructPath)).toEqual(["prod/by-name", "prod/exfil-watch"]);
    expect(() => readDeclarations(path.join(cwd, "cdktf.out"), { stacks: ["staging"] })).toThrow(
      new ConfigError('Unknown stack "staging". Stacks available: dev, prod.'),
    );
  });

  it("fail with the app's validation messages, each with its construct path", async () => {
    // given
    const cwd = project("invalid", { prod: { "bad-list": { ruleId: "r", users: [{ userId: "1", aliases: [] }] } } });
    // when
    const error = await runSynth({ app: "node main.js", outdir: "out", cwd }).catch((e: unknown) => e);
    // then
    expect(error).toBeInstanceOf(SynthError);
    const message = (error as SynthError).message;
    expect(message).toContain("Synth failed: `node main.js`");
    expect(message).toContain("exited with code 1");
    expect(message).toContain("[prod/bad-list] users[0].aliases: is empty; give the user at least one alias");
    expect(message).not.toMatch(/^\s+at /m);
    expect((error as SynthError).details?.exitCode).toBe(1);
  });

  it("refuse hand-edited JSON, naming the stack and construct path", async () => {
    // given a synthesized app whose triggers were edited by hand
    const cwd = project("edited", { prod: { watch: { ruleId: "r", users: [{ userId: "1", aliases: ["a@x"] }] } } });
    await runSynth({ app: "node main.js", outdir: "cdktf.out", cwd });
    const file = path.join(cwd, "cdktf.out/stacks/prod/cdk.tf.json");
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace('\\"a@x\\"', '\\"a@x\\",\\"A@X\\"'));
    // when / then
    expect(() => readDeclarations(path.join(cwd, "cdktf.out"))).toThrow(DeclarationError);
    expect(() => readDeclarations(path.join(cwd, "cdktf.out"))).toThrow(
      /\[prod\/watch \(stack prod, null_resource\.watch_resource_[0-9A-F]{8}\)\] users\[0\]\.aliases\[1\]: "A@X" repeats users\[0\]\.aliases\[0\]/,
    );
  });

  it("report a missing cdktf.json and an app that writes nothing", async () => {
    const cwd = path.join(work, "empty");
    fs.mkdirSync(cwd);
    expect(() => readAppCommand(cwd)).toThrow(ConfigError);
    await expect(runSynth({ app: "true", outdir: "cdktf.out", cwd })).rejects.toThrow("wrote no manifest.json");
    expect(() => readDeclarations(path.join(cwd, "cdktf.out"))).toThrow(ConfigError);
  });
});
