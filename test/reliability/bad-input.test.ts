/**
 * Bad input fails before any request: wrong construct props, wrong CLI usage, missing connection
 * settings, plan files that are unreadable, tampered, of another format version or for another
 * tenant. Each exits 1, the simulator receives nothing, and the message says how to fix it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { StackDecl, Workspace } from "../support/cli";
import { runCli, workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { SecretScan, TOKEN, chaosCase, env } from "./support";

const scan = new SecretScan();
const chaos = chaosCase(21, 2, ["add"]);
const RULE = "00000000-0000-4000-8000-000000000001";
const someone = { userId: "1001", aliases: ["someone@example.com"] };

const sim = useSimulator({ seed: chaos.seed, token: TOKEN });
let ws: Workspace;

beforeAll(async () => {
  ws = workspace(chaos.stacks);
  scan.dir(ws.dir);
  // a reviewed plan, saved for the plan-file cases
  const saved = await runCli(["plan", "--out", "plan.json"], { cwd: ws.dir, env: env(sim.url) });
  scan.add("plan --out", saved.stdout, saved.stderr);
  expect(saved.code).toBe(0);
});

beforeEach(() => {
  ws.write(chaos.stacks);
  sim.resetCounts();
});

afterAll(() => {
  scan.collectFiles();
  ws.cleanup();
  const { scanned, found } = scan.leaks();
  expect(scanned).toBeGreaterThan(0);
  expect(found).toEqual([]);
});

const app = (props: Record<string, unknown>): StackDecl[] => [{ name: "bad", lists: [{ id: "list", props }] }];

/** Rewrites the saved plan through `edit` into `name`. */
function planFileWith(name: string, edit: (plan: Record<string, unknown>) => void): string {
  const plan = JSON.parse(readFileSync(join(ws.dir, "plan.json"), "utf8")) as Record<string, unknown>;
  edit(plan);
  writeFileSync(join(ws.dir, name), JSON.stringify(plan, null, 2));
  return name;
}

interface Case {
  readonly declared?: StackDecl[];
  readonly args: () => string[];
  readonly env?: (url: string) => NodeJS.ProcessEnv;
  /** Key phrases of the message: what is wrong and how to fix it. */
  readonly says: RegExp[];
}

const CONSTRUCT_PROPS: Record<string, Case> = {
  "neither ruleId nor ruleName": {
    declared: app({ users: [someone] }),
    args: () => ["plan"],
    says: [/bad\/list/, /neither is set; set exactly one: ruleId .* or ruleName/],
  },
  "both ruleId and ruleName": {
    declared: app({ ruleId: RULE, ruleName: "Generated rule 1", users: [someone] }),
    args: () => ["apply", "--auto-approve"],
    says: [/both are set .*; set exactly one of them/],
  },
  "an empty userId": {
    declared: app({ ruleId: RULE, users: [{ userId: "", aliases: ["a@example.com"] }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.userId: is empty; set the user's ID/],
  },
  "a userId twice": {
    declared: app({ ruleId: RULE, users: [someone, { userId: "1001", aliases: ["other@example.com"] }] }),
    args: () => ["plan"],
    says: [/users\[1\]\.userId: .* is already declared at users\[0\]; merge the two entries/],
  },
  "an alias twice, in another case, under two users": {
    declared: app({ ruleId: RULE, users: [someone, { userId: "1002", aliases: [" SomeOne@Example.com"] }] }),
    args: () => ["plan"],
    says: [/repeats users\[0\]\.aliases\[0\].*declare each alias once/],
  },
  "a whitespace alias": {
    declared: app({ ruleId: RULE, users: [{ userId: "1001", aliases: ["  "] }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.aliases\[0\]: is empty or whitespace; write the alias or remove the entry/],
  },
  "a user without aliases": {
    declared: app({ ruleId: RULE, users: [{ userId: "1001", aliases: [] }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.aliases: is empty; give the user at least one alias/],
  },
  "an unknown mode": {
    declared: app({ ruleId: RULE, mode: "sometimes", users: [someone] }),
    args: () => ["plan"],
    says: [/not a list mode; use "authoritative" .* or "additive"/],
  },
  "several mistakes at once, all reported with the construct path": {
    declared: app({ users: [{ userId: "", aliases: [] }, someone, someone] }),
    args: () => ["plan"],
    says: [/bad\/list/, /neither is set/, /users\[0\]\.userId: is empty/, /users\[0\]\.aliases: is empty/, /users\[2\]\.userId: .* is already declared/],
  },
};

const CLI_USAGE: Record<string, Case> = {
  "an unknown flag": {
    args: () => ["plan", "--frobnicate"],
    says: [/--frobnicate/, /Run 'alert-rule-users plan --help'/],
  },
  "a flag without its value's type": {
    args: () => ["apply", "--auto-approve", "--parallelism", "lots"],
    says: [/--parallelism takes a whole number, got 'lots'/],
  },
  "a timeout out of range": {
    args: () => ["plan", "--timeout", "0"],
    says: [/--timeout must be between 1 and 3600, got 0/],
  },
  "a token given as a flag value": {
    args: () => ["plan", "--token", "abc"],
    says: [/never taken on the command line: set ALERTS_API_TOKEN, or pass --token-file FILE/],
  },
  "no connection settings": {
    args: () => ["plan"],
    env: () => ({}),
    says: [/ALERTS_API_URL is not set: set the environment variable/, /ALERTS_API_TOKEN is not set: .*or pass --token-file FILE/, /ALERTS_TENANT_ID is not set/],
  },
  "a token file that does not exist": {
    args: () => ["plan", "--token-file", "no-such-token"],
    says: [/--token-file .*no-such-token cannot be read \(ENOENT\); check the path/],
  },
  "an apply with no terminal and no --auto-approve": {
    args: () => ["apply"],
    says: [/pass --auto-approve, or apply a reviewed plan file/],
  },
};

const PLAN_FILES: Record<string, Case> = {
  "a plan file that does not exist": {
    args: () => ["apply", "missing-plan.json"],
    says: [/cannot read the plan file .*missing-plan\.json \(ENOENT\)/, /plan --out FILE/],
  },
  "a file that is not a plan": {
    args: () => {
      writeFileSync(join(ws.dir, "notes.txt"), "apply everything, thanks\n");
      return ["apply", "notes.txt"];
    },
    says: [/is not a plan: it is not JSON/, /plan --out FILE/],
  },
  "a plan file edited after review": {
    args: () => ["apply", planFileWith("tampered.json", (p) => (p["createdAt"] = "2020-01-01T00:00:00.000Z"))],
    says: [/was modified after it was written \(checksum mismatch\): plan again/],
  },
  "a plan file of another formatVersion": {
    args: () => ["apply", planFileWith("future.json", (p) => (p["formatVersion"] = 2))],
    says: [/formatVersion 2; this alert-rule-users reads formatVersion 1 only/, /Plan again/],
  },
  "a plan file for another tenant": {
    args: () => ["apply", "plan.json"],
    env: (url) => env(url, TOKEN, "another-tenant"),
    says: [/nothing was applied: the plan was made against .* \(tenant .*\), but this run is configured for .* \(tenant another-tenant\)/, /Plan again/],
  },
  "a plan file for another service": {
    args: () => ["apply", "plan.json"],
    env: () => env("http://127.0.0.1:9"),
    says: [/but this run is configured for http:\/\/127\.0\.0\.1:9/, /Plan again/],
  },
};

describe.each([
  ["wrong construct props", CONSTRUCT_PROPS],
  ["wrong CLI usage", CLI_USAGE],
  ["unusable plan files", PLAN_FILES],
])("%s", (_group, cases) => {
  it.each(Object.entries(cases))("%s: exit 1 before any request, saying how to fix it", async (_name, c) => {
    // given
    if (c.declared !== undefined) ws.write(c.declared);
    // when
    const result = await runCli(c.args(), { cwd: ws.dir, env: c.env?.(sim.url) ?? env(sim.url) });
    scan.add(_name, result.stdout, result.stderr);
    // then
    expect(result.code).toBe(1);
    for (const phrase of c.says) expect(result.stderr).toMatch(phrase);
    expect(sim.requestCounts()).toEqual({});
  });
});
