/**
 * What a reviewer saw is what gets applied (issue 31 item 1). A pull request changes what a rule
 * declares in a way that `plan --changed-since REF` could once not see, because REF's app was
 * synthesized through the working tree (its node_modules, its path): the plan must either show the
 * change, or read every rule and say why. And a saved plan applied with --require-declarations is
 * refused, nothing sent, when the declarations now differ from those the plan covered.
 *
 * Each case is a temporary git repository: `main` holds REF (the engineering rule's list exactly as
 * the simulator has it, and finance's), the working tree the pull request (engineering gains "ceo").
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO, connectionEnv, runCli, writesOf } from "../support/cli";
import { ENGINEERING_USERS, RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { serializePlan, type Plan } from "../../src/core/engine/plan-schema";

const sim = useSimulator({}, { perTest: true });

/** npm installs (workspaces, a local tarball) run offline: no registry is needed, none is asked. */
const NPM_TIMEOUT_MS = 120_000;
jest.setTimeout(4 * NPM_TIMEOUT_MS);

const GIT_ENV = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };
const CEO = { userId: "908712345678900001", aliases: ["ceo@example.com"] };
const FINANCE_USERS = [
  { userId: "908712345678903001", aliases: ["frank.moreau@example.com", "f.moreau@finance.example.com"] },
  { userId: "908712345678903002", aliases: ["grace.kim@example.com"] },
];

const CDKTF = JSON.stringify(require.resolve("cdktf", { paths: [REPO] }));
const TOOL = JSON.stringify(join(REPO, "dist", "src", "index.js"));

/** An app whose engineering users come from `source` (a JavaScript expression), finance's declared in place. */
function appSource(source: string): string {
  return `
const { App, TerraformStack } = require(${CDKTF});
const { RuleUserList } = require(${TOOL});
const app = new App();
const stack = new TerraformStack(app, "rules");
new RuleUserList(stack, "engineering", { ruleId: ${JSON.stringify(RULES.engineering)}, users: ${source} });
new RuleUserList(stack, "finance", { ruleId: ${JSON.stringify(RULES.finance)}, users: ${JSON.stringify(FINANCE_USERS)} });
app.synth();
`;
}

interface Repository {
  readonly top: string;
  git(...args: string[]): string;
  write(file: string, text: string): void;
  commit(message: string): void;
  npm(...args: string[]): void;
  cleanup(): void;
}

function repository(): Repository {
  const top = mkdtempSync(join(tmpdir(), "aru-attack-"));
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: top, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
  const write = (file: string, text: string): void => {
    mkdirSync(join(top, file, ".."), { recursive: true });
    writeFileSync(join(top, file), text);
  };
  const npm = (...args: string[]): void => {
    execFileSync("npm", [...args, "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], { cwd: top, stdio: "ignore", timeout: NPM_TIMEOUT_MS });
  };
  git("init", "-q", "-b", "main");
  write(".gitignore", "node_modules/\ncdktf.out/\nplan.json\n");
  write("cdktf.json", JSON.stringify({ language: "typescript", app: "node app.js" }));
  return {
    top,
    git,
    write,
    npm,
    commit: (message) => {
      git("add", "-A");
      git("commit", "-q", "-m", message);
    },
    cleanup: () => rmSync(top, { recursive: true, force: true }),
  };
}

const users = (list: readonly unknown[]) => `module.exports = ${JSON.stringify(list)};\n`;
const parsed = (stdout: string): Plan => JSON.parse(stdout) as Plan;

let repo: Repository;
afterEach(() => repo?.cleanup());

const plan = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runCli(["plan", "--format", "json", "--now", "2026-11-24T12:00:00Z", "--changed-since", "main", ...args], { cwd: repo.top, env: { ...connectionEnv(sim), ...env }, timeoutMs: NPM_TIMEOUT_MS });

/** The user IDs the plan adds to the engineering rule. */
function addedToEngineering(p: Plan): string[] {
  const rule = p.rules.find((r) => r.ruleId === RULES.engineering);
  return (rule?.calls ?? []).flatMap((c) => (c.operation === "add-users" ? c.userList.map((u) => u.userId) : []));
}

describe("a pull request that changes a declaration through something REF's synth used to take from the working tree: the plan shows it", () => {
  it("a workspace package (node_modules/rule-data -> ../packages/rule-data): REF is synthesized with its own install", async () => {
    // given REF's app takes engineering's users from the workspace package rule-data
    repo = repository();
    repo.write("package.json", JSON.stringify({ name: "infra", private: true, workspaces: ["packages/*"] }));
    repo.write("packages/rule-data/package.json", JSON.stringify({ name: "rule-data", version: "1.0.0", main: "index.js" }));
    repo.write("packages/rule-data/index.js", users(ENGINEERING_USERS));
    repo.write("app.js", appSource('require("rule-data")'));
    repo.npm("install");
    repo.commit("REF");
    // and the pull request adds ceo in the package
    repo.write("packages/rule-data/index.js", users([...ENGINEERING_USERS, CEO]));

    // when planned against REF
    const result = await plan([]);

    // then the plan adds ceo, and says REF was synthesized with its own dependencies
    expect(result.code).toBe(0);
    const json = parsed(result.stdout);
    expect(addedToEngineering(json)).toEqual([CEO.userId]);
    expect(json.changedSince?.refDependencies?.how).toBe("installed");
    expect(json.changedSince?.refDependencies?.reason).toContain("node_modules/rule-data");
  });

  it("a dependency bumped in package.json with its new content installed: REF is synthesized with REF's version", async () => {
    // given REF depends on rule-data 1.0.0 (a local tarball, so no registry is needed)
    repo = repository();
    const pack = (version: string, list: readonly unknown[]): string => {
      const dir = join(repo.top, "src-pkg", version);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "rule-data", version, main: "index.js" }));
      writeFileSync(join(dir, "index.js"), users(list));
      mkdirSync(join(repo.top, "vendor"), { recursive: true });
      execFileSync("npm", ["pack", dir, "--pack-destination", join(repo.top, "vendor")], { cwd: repo.top, stdio: "ignore" });
      rmSync(join(repo.top, "src-pkg"), { recursive: true, force: true });
      return `file:vendor/rule-data-${version}.tgz`;
    };
    repo.write("package.json", JSON.stringify({ name: "infra", private: true, dependencies: { "rule-data": pack("1.0.0", ENGINEERING_USERS) } }));
    repo.write("app.js", appSource('require("rule-data")'));
    repo.npm("install");
    repo.commit("REF");
    // and the pull request bumps it to 2.0.0, which adds ceo, and installs it
    repo.write("package.json", JSON.stringify({ name: "infra", private: true, dependencies: { "rule-data": pack("2.0.0", [...ENGINEERING_USERS, CEO]) } }));
    repo.npm("install");

    // when planned against REF
    const result = await plan([]);

    // then the plan adds ceo, REF having been installed from its own lockfile
    expect(result.code).toBe(0);
    const json = parsed(result.stdout);
    expect(addedToEngineering(json)).toEqual([CEO.userId]);
    expect(json.changedSince?.refDependencies?.how).toBe("installed");
    expect(json.changedSince?.refDependencies?.reason).toContain("package-lock.json");
  });

  it("data found through GITHUB_WORKSPACE: REF's synth sees its own tree there, never the working tree", async () => {
    // given REF's app reads the users from $GITHUB_WORKSPACE/data/users.json
    repo = repository();
    repo.write("data/users.json", JSON.stringify(ENGINEERING_USERS));
    repo.write("app.js", appSource('JSON.parse(require("fs").readFileSync(process.env.GITHUB_WORKSPACE + "/data/users.json", "utf8"))'));
    repo.commit("REF");
    // and the pull request adds ceo to the data
    repo.write("data/users.json", JSON.stringify([...ENGINEERING_USERS, CEO]));

    // when planned against REF in a job where GITHUB_WORKSPACE is the working tree
    const result = await plan([], { GITHUB_WORKSPACE: repo.top });

    // then the plan adds ceo, and reads engineering only
    expect(result.code).toBe(0);
    const json = parsed(result.stdout);
    expect(addedToEngineering(json)).toEqual([CEO.userId]);
    expect(json.changedSince?.read.map((r) => r.constructPath)).toEqual(["rules/engineering"]);
  });

  it("data read through the working tree's absolute path: every rule is read, and the plan says why", async () => {
    // given REF's app reads the users from the working tree's absolute path
    repo = repository();
    repo.write("data/users.json", JSON.stringify(ENGINEERING_USERS));
    repo.write("app.js", appSource(`JSON.parse(require("fs").readFileSync(${JSON.stringify(join(repo.top, "data", "users.json"))}, "utf8"))`));
    repo.commit("REF");
    // and the pull request adds ceo to the data
    repo.write("data/users.json", JSON.stringify([...ENGINEERING_USERS, CEO]));

    // when planned against REF
    const result = await plan([]);

    // then every rule is read, ceo is added, and the plan and stderr say which fallback and why
    expect(result.code).toBe(0);
    const json = parsed(result.stdout);
    expect(addedToEngineering(json)).toEqual([CEO.userId]);
    expect(json.rules.map((r) => r.ruleId).sort()).toEqual([RULES.engineering, RULES.finance].sort());
    expect(json.changedSince?.fallback?.reason).toContain("names the working tree's path");
    expect(result.stderr).toContain("every declared rule is read");
  });

  it("a rule declared by name that is already declared by ID: the duplicate is reported as in a full plan", async () => {
    // given REF declares engineering by ID
    repo = repository();
    repo.write("data/users.json", JSON.stringify(ENGINEERING_USERS));
    repo.write("app.js", appSource('require("./data/users.json")'));
    repo.commit("REF");
    // and the pull request declares the same rule again, by name, with ceo
    const app = readFileSync(join(repo.top, "app.js"), "utf8").replace(
      "app.synth();",
      `new RuleUserList(stack, "engineering-again", { ruleName: "Endpoint exfiltration - Engineering", users: ${JSON.stringify([...ENGINEERING_USERS, CEO])} });\napp.synth();`,
    );
    repo.write("app.js", app);

    // when planned in full and against REF
    const full = await runCli(["plan", "--format", "json", "--now", "2026-11-24T12:00:00Z"], { cwd: repo.top, env: connectionEnv(sim) });
    const changed = await plan([]);

    // then both report the duplicate as an error on both declarations, and exit 1
    const duplicates = (p: Plan) => p.rules.filter((r) => r.errorKind === "duplicate-rule").map((r) => r.constructPath).sort();
    expect(full.code).toBe(1);
    expect(changed.code).toBe(1);
    expect(duplicates(parsed(changed.stdout))).toEqual(duplicates(parsed(full.stdout)));
    expect(duplicates(parsed(changed.stdout))).toEqual(["rules/engineering", "rules/engineering-again"]);
  });
});

describe("apply PLANFILE --require-declarations applies only what the plan covered", () => {
  function reviewed(): void {
    repo = repository();
    repo.write("data/users.json", JSON.stringify(ENGINEERING_USERS));
    repo.write("data/finance.json", JSON.stringify(FINANCE_USERS));
    repo.write("app.js", appSource('require("./data/users.json")').replace(JSON.stringify(FINANCE_USERS), 'require("./data/finance.json")'));
    repo.commit("REF");
  }

  it("applies the reviewed plan when the declarations are those it covered", async () => {
    // given a pull request adding ceo, planned against REF and saved
    reviewed();
    repo.write("data/users.json", JSON.stringify([...ENGINEERING_USERS, CEO]));
    const planned = await plan(["--out", "plan.json"]);
    expect(planned.code).toBe(0);

    // when the saved plan is applied with the declarations unchanged
    sim.resetCounts();
    const applied = await runCli(["apply", "plan.json", "--require-declarations"], { cwd: repo.top, env: connectionEnv(sim) });

    // then ceo is added
    expect(applied.stderr).not.toContain("Error");
    expect(applied.code).toBe(0);
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": 1 });
  });

  it("refuses, sending nothing, when a declaration the plan left unread changed after it was made", async () => {
    // given a reviewed plan of a pull request adding ceo to engineering (finance unread, unchanged)
    reviewed();
    repo.write("data/users.json", JSON.stringify([...ENGINEERING_USERS, CEO]));
    const planned = await plan(["--out", "plan.json"]);
    expect(planned.code).toBe(0);
    // and at the merge commit finance gains a user that no reviewed plan showed
    repo.write("data/finance.json", JSON.stringify([...FINANCE_USERS, CEO]));

    // when the reviewed plan is applied
    sim.resetCounts();
    const applied = await runCli(["apply", "plan.json", "--require-declarations"], { cwd: repo.top, env: connectionEnv(sim) });

    // then nothing is sent, and the message names the declaration no reviewed plan showed
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("rules/finance");
    expect(applied.stderr).toContain("no reviewed plan showed");
    expect(sim.requestLog()).toEqual([]);
  });

  it("refuses a plan that records no declarations", async () => {
    // given a plan file without the record (written by an older version)
    reviewed();
    repo.write("data/users.json", JSON.stringify([...ENGINEERING_USERS, CEO]));
    const planned = await plan(["--out", "plan.json"]);
    expect(planned.code).toBe(0);
    const file = join(repo.top, "plan.json");
    const document = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
    delete document["declarations"];
    delete document["checksum"];
    writeFileSync(file, serializePlan(document as unknown as Plan));

    // when applied with --require-declarations
    sim.resetCounts();
    const applied = await runCli(["apply", "plan.json", "--require-declarations"], { cwd: repo.top, env: connectionEnv(sim) });

    // then it is refused, nothing sent
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain("records no declarations");
    expect(sim.requestLog()).toEqual([]);
  });
});


describe("the pull request's synth (examples/github-actions/plan.yml), the review's plan of its output (review.yml), then apply.yml's apply", () => {
  it("synth of the pull request without any secret, plan --skip-synth of its output on the base checkout, apply of that plan on the merged commit", async () => {
    // given the base (REF) and a clone of it where the pull request adds ceo
    repo = repository();
    repo.write("data/users.json", JSON.stringify(ENGINEERING_USERS));
    repo.write("app.js", appSource('require("./data/users.json")'));
    repo.commit("REF");
    const base = repo.git("rev-parse", "HEAD");
    const pr = join(repo.top, "..", `${repo.top.split("/").pop() ?? "x"}-pr`);
    execFileSync("git", ["clone", "-q", repo.top, pr], { stdio: "ignore" });
    try {
      writeFileSync(join(pr, "data", "users.json"), JSON.stringify([...ENGINEERING_USERS, CEO]));

      // when the synth job runs in the pull request's checkout with no connection and no secret
      const synth = await runCli(["synth", "--output", "cdktf.out"], { cwd: pr, env: {} });
      // and the review's plan job plans its output on the default branch's checkout, against that commit
      const planned = await runCli(
        ["plan", "--format", "json", "--now", "2026-11-24T12:00:00Z", "--skip-synth", "--output", join(pr, "cdktf.out"), "--changed-since", base, "--out", join(pr, "plan.json")],
        { cwd: repo.top, env: connectionEnv(sim) },
      );

      // then the synth job needed nothing of the service, and the plan shows ceo, reading engineering only,
      // the base's app synthesized with the base checkout's own node_modules (it is the base commit)
      expect(synth.stderr).toContain("Synthesized 2 RuleUserList declarations in 1 stack to cdktf.out.");
      expect(synth.code).toBe(0);
      expect(planned.code).toBe(0);
      const json = parsed(planned.stdout);
      expect(addedToEngineering(json)).toEqual([CEO.userId]);
      expect(json.changedSince?.read.map((r) => r.constructPath)).toEqual(["rules/engineering"]);
      expect(json.changedSince?.refDependencies).toEqual({ how: "reused", reason: expect.stringContaining("the working tree is") });

      // when apply.yml applies the saved plan on the merged commit (the pull request's declarations)
      sim.resetCounts();
      const applied = await runCli(["apply", "plan.json", "--require-declarations"], { cwd: pr, env: connectionEnv(sim) });

      // then ceo is added
      expect(applied.code).toBe(0);
      expect(writesOf(sim.requestCounts())).toEqual({ "add-users": 1 });
    } finally {
      rmSync(pr, { recursive: true, force: true });
    }
  });
});

describe("plan --skip-synth on an output made elsewhere (the synth job's artifact) reads only inside it", () => {
  it("a manifest that names a stack file outside the output directory is refused, nothing read, the file's content not shown", async () => {
    // given an output whose manifest points at a JSON file beside it (as a hostile synth job could write)
    const dir = mkdtempSync(join(tmpdir(), "aru-outside-"));
    try {
      mkdirSync(join(dir, "out"));
      writeFileSync(join(dir, "private.json"), '{"not": "yours-7f3e"}');
      writeFileSync(join(dir, "out", "manifest.json"), JSON.stringify({ version: "0.20.0", stacks: { rules: { name: "rules", synthesizedStackPath: "../private.json" } } }));

      // when planned with --skip-synth on it
      const result = await runCli(["plan", "--skip-synth", "--output", join(dir, "out")], { cwd: dir, env: connectionEnv(sim) });

      // then it is refused before any read, naming the path, never its content
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('Stack "rules": its synthesized file (../private.json) is outside');
      expect(result.stderr + result.stdout).not.toContain("yours-7f3e");
      expect(sim.requestLog()).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
