/**
 * `plan --changed-since REF` (docs/contract.md §10.1), through the built CLI against the simulator: a git
 * repository whose cdktf app lives in a subdirectory (`infra/`) and loads a helper from its own
 * untracked `node_modules` (so REF's synth works only if the working tree's dependencies are
 * reused), REF committed, then one kind of declaration change at a time. Each case says which
 * rules are read (the simulator's log of `query-users`, by the ruleId of each body) and planned.
 */
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CLI, REPO, connectionEnv, runCli, workspace, writesOf } from "../support/cli";
import type { ListDecl, StackDecl } from "../support/cli";
import { ENGINEERING_USERS, FINANCE_NAME, RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import type { Plan } from "../../src/core/engine/plan-schema";
import { listsRead } from "../support/request-log";

const sim = useSimulator({}, { perTest: true });

const GIT_ENV = { GIT_AUTHOR_NAME: "test", GIT_AUTHOR_EMAIL: "test@example.com", GIT_COMMITTER_NAME: "test", GIT_COMMITTER_EMAIL: "test@example.com" };

/** A git repository with the app in `infra/`; `declare` rewrites the declarations, `commit` commits them. */
interface Repository {
  readonly top: string;
  readonly app: string;
  declare(stacks: StackDecl[]): void;
  commit(message: string): void;
  git(...args: string[]): string;
  cleanup(): void;
}

function repository(stacks: StackDecl[]): Repository {
  const top = mkdtempSync(join(tmpdir(), "aru-changed-since-"));
  const app = join(top, "infra");
  mkdirSync(join(app, "node_modules", "team-helpers"), { recursive: true });
  // The app's own dependency, untracked like every node_modules: REF's worktree gets it by the link.
  writeFileSync(join(app, "node_modules", "team-helpers", "index.js"), "exports.stackName = (name) => name;\n");
  writeFileSync(join(top, ".gitignore"), "node_modules/\ncdktf.out/\n");
  writeFileSync(join(app, "cdktf.json"), JSON.stringify({ language: "typescript", app: "node app.js" }));
  writeFileSync(
    join(app, "app.js"),
    `
const { App, TerraformStack } = require(${JSON.stringify(require.resolve("cdktf", { paths: [REPO] }))});
const { RuleUserList, RuleUserListPolicy } = require(${JSON.stringify(join(REPO, "dist", "src", "index.js"))});
const { stackName } = require("team-helpers");
const app = new App();
for (const stack of require("./lists.json")) {
  const scope = new TerraformStack(app, stackName(stack.name));
  for (const list of stack.lists) new RuleUserList(scope, list.id, list.props);
  for (const policy of stack.policies ?? []) new RuleUserListPolicy(scope, policy.id, policy.props);
}
app.synth();
`,
  );
  const git = (...args: string[]): string => execFileSync("git", args, { cwd: top, env: { ...process.env, ...GIT_ENV }, encoding: "utf8" }).trim();
  const declare = (s: StackDecl[]): void => writeFileSync(join(app, "lists.json"), JSON.stringify(s, null, 2));
  git("init", "-q", "-b", "main");
  declare(stacks);
  const commit = (message: string): void => {
    git("add", "-A");
    git("commit", "-q", "-m", message);
  };
  commit("the declarations at REF");
  return { top, app, declare, commit, git, cleanup: () => rmSync(top, { recursive: true, force: true }) };
}

// The declarations at REF: three lists in one stack, one in a stack with a policy.
const engineering: ListDecl = { id: "engineering", props: { ruleId: RULES.engineering, users: ENGINEERING_USERS } };
const finance: ListDecl = {
  id: "finance",
  props: { ruleId: RULES.finance, users: [{ userId: "908712345678903001", aliases: ["frank.moreau@example.com", "f.moreau@finance.example.com"] }, { userId: "908712345678903002", aliases: ["grace.kim@example.com"] }] },
};
const sales: ListDecl = {
  id: "sales",
  props: {
    ruleId: RULES.sales,
    users: [
      { userId: "908712345678904001", aliases: ["henry.adams@example.com"] },
      { userId: "908712345678904002", aliases: ["isabel.rossi@example.com", "irossi@sales.example.com"] },
      { userId: "908712345678904003", aliases: ["jamal.brooks@example.com"] },
    ],
  },
};
const legal: ListDecl = { id: "legal", props: { ruleId: RULES.legal, users: [{ userId: "908712345678909001", aliases: ["nina.petrova@example.com"] }] } };
const guardrails: ListDecl = { id: "guardrails", props: { maxUsers: 10 } };

interface Declarations {
  rules: ListDecl[];
  restricted: ListDecl[];
  policies: ListDecl[];
}
const AT_REF: Declarations = { rules: [engineering, finance, sales], restricted: [legal], policies: [guardrails] };
const stacksOf = (d: Declarations): StackDecl[] => [
  { name: "rules", lists: d.rules },
  { name: "restricted", lists: d.restricted, policies: d.policies },
];

const withProps = (list: ListDecl, props: Record<string, unknown>): ListDecl => ({ ...list, props: { ...list.props, ...props } });
const usersOf = (list: ListDecl): Array<{ userId: string; aliases: string[]; expiresAt?: string }> => list.props["users"] as Array<{ userId: string; aliases: string[] }>;

let repo: Repository;
beforeEach(() => {
  repo = repository(stacksOf(AT_REF));
});
afterEach(() => {
  repo.cleanup();
});

const plan = (args: string[]) => runCli(["plan", "--format", "json", "--now", "2026-11-24T12:00:00Z", ...args], { cwd: repo.app, env: connectionEnv(sim) });
const parsed = (stdout: string): Plan => JSON.parse(stdout) as Plan;
const rulesRead = (): string[] => listsRead(sim);

interface Case {
  readonly kind: string;
  readonly now: Declarations;
  readonly read: string[];
  readonly changes: Record<string, string[]>;
  /** Declared rules now that were not read. */
  readonly unread: number;
  readonly noLongerManaged?: string[];
}

const CASES: Case[] = [
  {
    kind: "users: a user added",
    now: { ...AT_REF, rules: [engineering, withProps(finance, { users: [...usersOf(finance), { userId: "908712345678903003", aliases: ["hugo.lee@example.com"] }] }), sales] },
    read: [RULES.finance],
    changes: { "rules/finance": ["users"] },
    unread: 3,
  },
  {
    kind: "aliases: an alias added to a user",
    now: { ...AT_REF, rules: [withProps(engineering, { users: ENGINEERING_USERS.map((u, i) => (i === 1 ? { ...u, aliases: [...u.aliases, "bob@eng.example.com"] } : u)) }), finance, sales] },
    read: [RULES.engineering],
    changes: { "rules/engineering": ["aliases"] },
    unread: 3,
  },
  {
    kind: "mode: authoritative to additive",
    now: { ...AT_REF, rules: [engineering, finance, withProps(sales, { mode: "additive" })] },
    read: [RULES.sales],
    changes: { "rules/sales": ["mode"] },
    unread: 3,
  },
  {
    kind: "expiry: an expiresAt set",
    now: { ...AT_REF, restricted: [withProps(legal, { users: [{ ...usersOf(legal)[0]!, expiresAt: "2027-01-31" }] })] },
    read: [RULES.legal],
    changes: { "restricted/legal": ["expiry"] },
    unread: 3,
  },
  {
    kind: "allowMassRemoval set",
    now: { ...AT_REF, rules: [engineering, withProps(finance, { allowMassRemoval: true }), sales] },
    read: [RULES.finance],
    changes: { "rules/finance": ["allowMassRemoval"] },
    unread: 3,
  },
  {
    kind: "policy: a check of the policy above a list changed",
    now: { ...AT_REF, policies: [withProps(guardrails, { maxUsers: 5 })] },
    read: [RULES.legal],
    changes: { "restricted/legal": ["policy"] },
    unread: 3,
  },
  {
    kind: "added list",
    now: { ...AT_REF, restricted: [legal, { id: "cloud-sharing", props: { ruleId: RULES.cloudSharing, users: [] , mode: "additive" } }] },
    read: [RULES.cloudSharing],
    changes: { "restricted/cloud-sharing": ["added"] },
    unread: 4,
  },
  {
    kind: "removed list: no longer managed, never read",
    now: { ...AT_REF, rules: [engineering, finance] },
    read: [],
    changes: {},
    unread: 3,
    noLongerManaged: ["rules/sales"],
  },
  {
    kind: "renamed construct with the same rule and content: unchanged",
    now: { ...AT_REF, rules: [{ ...engineering, id: "engineering-exfiltration" }, finance, sales] },
    read: [],
    changes: {},
    unread: 4,
  },
  {
    kind: "policy renamed with the same checks: unchanged",
    now: { ...AT_REF, policies: [{ ...guardrails, id: "restricted-guardrails" }] },
    read: [],
    changes: {},
    unread: 4,
  },
  {
    kind: "a rule declared by ID at REF and by name now: read, and not reported as no longer managed",
    now: { ...AT_REF, rules: [engineering, { ...finance, props: { ruleName: FINANCE_NAME, users: usersOf(finance) } }, sales] },
    read: [RULES.finance],
    changes: { "rules/finance": ["added"] },
    unread: 3,
  },
];

describe("plan --changed-since REF reads and plans only the rules whose declaration changed", () => {
  it.each(CASES)("$kind", async ({ now, read, changes, unread, noLongerManaged = [] }) => {
    // given the app at REF (main), and the working tree with one kind of change
    repo.declare(stacksOf(now));

    // when planned against main
    const result = await plan(["--changed-since", "main"]);

    // then exactly the changed rules were read, and only they are planned
    expect(result.stderr).not.toMatch(/Error/);
    expect(rulesRead()).toEqual([...read].sort());
    const json = parsed(result.stdout);
    expect(json.rules.map((r) => r.constructPath).sort()).toEqual(Object.keys(changes).sort());
    expect(Object.fromEntries((json.changedSince?.read ?? []).map((r) => [r.constructPath, r.changes]))).toEqual(changes);
    expect(json.changedSince?.unread).toEqual({ count: unread, reason: "unchanged since main; the scheduled drift check reads every rule" });
    expect(json.changedSince?.noLongerManaged.map((r) => r.constructPath)).toEqual(noLongerManaged);
    expect(json.changedSince?.commit).toBe(repo.git("rev-parse", "main"));
    // and the temporary worktree of REF is gone
    expect(repo.git("worktree", "list").split("\n")).toHaveLength(1);
  });

  it("plans a changed rule exactly as a full plan does: calls, guards and policies", async () => {
    // given finance loses a user and sales changes mode, the rest as at REF
    repo.declare(stacksOf({ ...AT_REF, rules: [engineering, withProps(finance, { users: usersOf(finance).slice(0, 1) }), withProps(sales, { mode: "additive" })] }));

    // when planned against main, and in full
    const since = parsed((await plan(["--changed-since", "main"])).stdout);
    const full = parsed((await plan([])).stdout);

    // then each rule of the changed-since plan is the full plan's rule, to the byte
    const byPath = new Map(full.rules.map((r) => [r.constructPath, r]));
    expect(since.rules.map((r) => r.constructPath)).toEqual(["rules/finance", "rules/sales"]);
    for (const rule of since.rules) expect(rule).toEqual(byPath.get(rule.constructPath));
    expect(since.summary.calls).toBe(1);
  });

  it("says in text and markdown how many declared rules were left unread, and why", async () => {
    // given one list changed and one removed since REF
    repo.declare(stacksOf({ ...AT_REF, rules: [engineering, withProps(finance, { allowMassRemoval: true })] }));

    // when planned as text and as markdown
    const text = await runCli(["plan", "--changed-since", "main"], { cwd: repo.app, env: connectionEnv(sim) });
    const markdown = await runCli(["plan", "--changed-since", "main", "--format", "markdown"], { cwd: repo.app, env: connectionEnv(sim) });

    // then both say what was read, what was not and why, and what is no longer managed
    for (const out of [text.stdout, markdown.stdout]) {
      expect(out).toMatch(/Only the declarations changed since main \([0-9a-f]{12}\) were read: 1 rule\./);
      expect(out).toContain("2 declared rules not read: unchanged since main; the scheduled drift check reads every rule.");
      expect(out).toMatch(/rule 852c0120-8fe3-4ffc-8e12-6f7ad95c4c79 \(rules\/sales at main\): no longer managed/);
    }
    expect(markdown.stdout).toContain("1 rule read of 3 declared");
  });

  it("exits 0 with --detailed-exitcode and reads nothing when no declaration changed", async () => {
    // given a commit on a branch that only reformats the declarations
    repo.git("checkout", "-q", "-b", "feature");
    writeFileSync(join(repo.app, "lists.json"), JSON.stringify(stacksOf(AT_REF)));
    repo.commit("reformat");

    // when planned against main
    const result = await plan(["--changed-since", "main", "--detailed-exitcode"]);

    // then no change, and not one request
    expect(result.code).toBe(0);
    expect(sim.requestLog()).toEqual([]);
    expect(parsed(result.stdout).changedSince?.unread.count).toBe(4);
  });

  it("when the app did not exist at REF (the pull request that adds it), every declared list is read as added, and it says so", async () => {
    // given a commit without the app, and the app in the working tree
    repo.git("rm", "-r", "-q", "infra");
    repo.commit("no app yet");
    const ref = repo.git("rev-parse", "HEAD");
    repo.git("checkout", "HEAD~1", "--", "infra");

    // when planned against that commit
    const result = await plan(["--changed-since", ref]);

    // then every list is read, each as added, and stderr says why
    expect(result.stderr).toContain(`Note: there is no app at ${ref} (${ref.slice(0, 12)}): infra does not exist there`);
    expect(rulesRead()).toEqual([RULES.engineering, RULES.finance, RULES.sales, RULES.legal].sort());
    expect(parsed(result.stdout).changedSince?.read.map((r) => r.changes)).toEqual([["added"], ["added"], ["added"], ["added"]]);
  });

  it("with --stack, compares and reads only that stack's declarations", async () => {
    // given a change in each stack
    repo.declare(stacksOf({ ...AT_REF, rules: [engineering, withProps(finance, { allowMassRemoval: true }), sales], policies: [withProps(guardrails, { maxUsers: 5 })] }));

    // when planned for the stack "restricted" only
    const result = await plan(["--changed-since", "main", "--stack", "restricted"]);

    // then only its changed list is read, and only its lists count as unread
    expect(rulesRead()).toEqual([RULES.legal]);
    expect(parsed(result.stdout).changedSince?.unread.count).toBe(0);
    expect(parsed(result.stdout).changedSince?.noLongerManaged).toEqual([]);
    // and text and markdown do not say "0 declared rules not read" (issue 32)
    for (const format of ["text", "markdown"]) {
      const shown = await runCli(["plan", "--changed-since", "main", "--stack", "restricted", "--format", format], { cwd: repo.app, env: connectionEnv(sim) });
      expect(shown.stdout).toMatch(/Only the declarations changed since main \([0-9a-f]{12}\) were read: 1 rule\./);
      expect(shown.stdout).not.toMatch(/\b0 declared rules not read/);
    }
  });

  it("saves only the changed rules with --out, and apply of that plan writes only them", async () => {
    // given finance gains a user since REF
    repo.declare(stacksOf({ ...AT_REF, rules: [engineering, withProps(finance, { users: [...usersOf(finance), { userId: "908712345678903003", aliases: ["hugo.lee@example.com"] }] }), sales] }));

    // when planned with --out and the saved plan applied
    const planned = await plan(["--changed-since", "main", "--out", "plan.json", "--detailed-exitcode"]);
    const saved = parsed(readFileSync(join(repo.app, "plan.json"), "utf8"));
    sim.resetCounts();
    const applied = await runCli(["apply", "plan.json", "--auto-approve"], { cwd: repo.app, env: connectionEnv(sim) });

    // then the saved plan holds finance only, and apply sends its one call
    expect(planned.code).toBe(2);
    expect(saved.rules.map((r) => r.ruleId)).toEqual([RULES.finance]);
    expect(saved.changedSince?.unread.count).toBe(3);
    expect(applied.code).toBe(0);
    expect(writesOf(sim.requestCounts())).toEqual({ "add-users": 1 });
  });
});

describe("plan --changed-since REF refuses, reading nothing, when it cannot tell what changed", () => {
  it("REF unknown", async () => {
    // when planned against a revision the repository does not have
    const result = await plan(["--changed-since", "origin/no-such-branch"]);

    // then an error names the revision, and nothing was read
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('"origin/no-such-branch" is not a commit of the repository');
    expect(result.stderr).toContain("Nothing was read from the service");
    expect(sim.requestLog()).toEqual([]);
  });

  it("REF's app fails to synthesize", async () => {
    // given REF's app throws at synth, and the working tree's is fixed
    const good = readFileSync(join(repo.app, "app.js"), "utf8");
    writeFileSync(join(repo.app, "app.js"), 'throw new Error("broken at REF");\n');
    repo.commit("break the app");
    const ref = repo.git("rev-parse", "HEAD");
    writeFileSync(join(repo.app, "app.js"), good);

    // when planned against that commit
    const result = await plan(["--changed-since", ref]);

    // then an error says REF's app does not synthesize and shows why, nothing was read, no worktree is left
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`the app as it is at ${ref} (${ref.slice(0, 12)}) does not synthesize`);
    expect(result.stderr).toContain("broken at REF");
    expect(sim.requestLog()).toEqual([]);
    expect(repo.git("worktree", "list").split("\n")).toHaveLength(1);
  });

  it("an interrupt while REF's app synthesizes: exits 143, the worktree of REF is removed, nothing read", async () => {
    // given REF's app takes a minute to synthesize
    const good = readFileSync(join(repo.app, "app.js"), "utf8");
    writeFileSync(join(repo.app, "app.js"), `Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 60000);\n${good}`);
    repo.commit("a slow app");
    writeFileSync(join(repo.app, "app.js"), good);

    // when plan --changed-since HEAD is stopped by SIGTERM once the worktree of REF exists
    const child = spawn(process.execPath, [CLI, "plan", "--changed-since", "HEAD"], { cwd: repo.app, env: { ...process.env, ...connectionEnv(sim) }, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
    let worktree: string | undefined;
    for (let i = 0; i < 300 && worktree === undefined; i += 1) {
      await new Promise((r) => setTimeout(r, 100));
      worktree = repo.git("worktree", "list", "--porcelain").split("\n").filter((l) => l.startsWith("worktree ")).map((l) => l.slice("worktree ".length))[1];
    }
    expect(worktree).toBeDefined();
    child.kill("SIGTERM");
    const code = await exited;

    // then it stopped with the signal's code, left no worktree behind, and read nothing
    expect(code).toBe(143);
    expect(stderr).toContain("SIGTERM received: stopping plan");
    expect(existsSync(worktree!)).toBe(false);
    expect(repo.git("worktree", "list").split("\n")).toHaveLength(1);
    expect(sim.requestLog()).toEqual([]);
  });

  it("not a git checkout", async () => {
    // given an app outside any git repository
    const ws = workspace([{ name: "rules", lists: [engineering] }]);
    try {
      // when planned with --changed-since
      const result = await runCli(["plan", "--changed-since", "main"], { cwd: ws.dir, env: { ...connectionEnv(sim), GIT_CEILING_DIRECTORIES: tmpdir() } });

      // then an error says so, and nothing was read
      expect(result.code).toBe(1);
      expect(result.stderr).toContain("is not in a git checkout");
      expect(sim.requestLog()).toEqual([]);
    } finally {
      ws.cleanup();
    }
  });
});
