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
import { planChecksum, type Plan } from "../../src/core/engine/plan-schema";
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
  scan.expectNoLeaks();
});

const app = (props: Record<string, unknown>): StackDecl[] => [{ name: "bad", lists: [{ id: "list", props }] }];
const withPolicy = (policy: Record<string, unknown>): StackDecl[] => [
  { name: "bad", lists: [{ id: "list", props: { ruleId: RULE, users: [someone] } }], policies: [{ id: "policy", props: policy }] },
];

/** Writes `text` into the workspace as `name` and returns the name. */
function fileWith(name: string, text: string): string {
  writeFileSync(join(ws.dir, name), text);
  return name;
}

/** Rewrites the saved plan through `edit` into `name`. */
function planFileWith(name: string, edit: (plan: Record<string, unknown>) => void): string {
  const plan = JSON.parse(readFileSync(join(ws.dir, "plan.json"), "utf8")) as Record<string, unknown>;
  edit(plan);
  writeFileSync(join(ws.dir, name), JSON.stringify(plan, null, 2));
  return name;
}

/** The variables of one list as the RuleUserList's provisioner passes them, its users in chunks (format 2). */
const FROM_ENV_DECLARATION = {
  ALERT_RULE_USERS_FORMAT: "2",
  ALERT_RULE_USERS_RULE_ID: RULE,
  ALERT_RULE_USERS_RULE_NAME: "",
  ALERT_RULE_USERS_MODE: "authoritative",
  ALERT_RULE_USERS_ALLOW_MASS_REMOVAL: "false",
  ALERT_RULE_USERS_CONSTRUCT_PATH: "bad/list",
};

interface Case {
  readonly declared?: StackDecl[];
  /** A case that must not start a simulator either (its own flags are at fault). */
  readonly simulator?: boolean;
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
  "a userId with a space in it": {
    declared: app({ ruleId: RULE, users: [{ userId: "10 01", aliases: ["a@example.com"] }] }),
    args: () => ["plan"],
    says: [/bad\/list/, /users\[0\]\.userId: "10 01" contains whitespace; .*use the user's ID without spaces/],
  },
  "a userId that is a number": {
    declared: app({ ruleId: RULE, users: [{ userId: 1001, aliases: ["a@example.com"] }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.userId: must be a string \(the user's userIdFromAuthority\)/],
  },
  "aliases given as one string": {
    declared: app({ ruleId: RULE, users: [{ userId: "1001", aliases: "a@example.com" }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.aliases: must be an array of strings/],
  },
  "an alias that is not a string": {
    declared: app({ ruleId: RULE, users: [{ userId: "1001", aliases: [42] }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.aliases\[0\]: must be a string/],
  },
  "users that is not an array": {
    declared: app({ ruleId: RULE, users: { userId: "1001" } }),
    args: () => ["plan"],
    says: [/users: must be an array of \{ userId, aliases \}/],
  },
  "allowMassRemoval that is not a boolean": {
    declared: app({ ruleId: RULE, allowMassRemoval: "yes", users: [someone] }),
    args: () => ["plan"],
    says: [/allowMassRemoval: must be true or false, got/],
  },
  "an expiresAt that is not a real date": {
    declared: app({ ruleId: RULE, users: [{ ...someone, expiresAt: "2026-02-30" }] }),
    args: () => ["plan"],
    says: [/bad\/list/, /users\[0\]\.expiresAt: .*2026-02-30/],
  },
  "a right-to-left override in an alias": {
    declared: app({ ruleId: RULE, users: [{ userId: "1001", aliases: ["moc.elpmaxe@\u202eevil"] }] }),
    args: () => ["plan"],
    says: [/users\[0\]\.aliases\[0\]: .*\\u202e.*Remove them/],
  },
  "a policy with a negative maxUsers": {
    declared: withPolicy({ maxUsers: -1 }),
    args: () => ["plan"],
    says: [/bad\/policy/, /maxUsers/],
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
  "--now that is not an instant": {
    args: () => ["plan", "--now", "tomorrow"],
    says: [/--now takes an instant written yyyy-MM-ddTHH:mm:ssZ \(UTC\), e\.g\. 2026-12-01T00:00:00Z; got 'tomorrow'/],
  },
  "--now on a day that does not exist": {
    args: () => ["plan", "--now", "2026-02-30T00:00:00Z"],
    says: [/--now takes an instant .*got '2026-02-30T00:00:00Z'/],
  },
  "--format that does not exist": {
    args: () => ["plan", "--format", "yaml"],
    says: [/--format must be one of text, markdown, json; got 'yaml'/],
  },
  "--page-size over the service's largest page": {
    args: () => ["plan", "--page-size", "501"],
    says: [/--page-size must be between 1 and 500, got 501/],
  },
  "--batch-size 0": {
    args: () => ["apply", "--auto-approve", "--batch-size", "0"],
    says: [/--batch-size must be between 1 and 10000, got 0/],
  },
  "--parallelism over 64": {
    args: () => ["apply", "--auto-approve", "--parallelism", "65"],
    says: [/--parallelism must be between 1 and 64, got 65/],
  },
  "--max-rps that is not a number": {
    args: () => ["plan", "--max-rps", "fast"],
    says: [/--max-rps takes a number of requests a second above 0 .*got 'fast'/],
  },
  "--max-rps 0": {
    args: () => ["apply", "--auto-approve", "--max-rps", "0"],
    says: [/--max-rps takes a number of requests a second above 0 .*got '0'/],
  },
  "--max-rps so low that not one request fits in the request deadline": {
    args: () => ["plan", "--max-rps", "0.0001"],
    says: [/--max-rps 0\.0001 sends one request every 10000 s, longer than the deadline of one request \(300 s, ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS\)/, /--max-rps 0\.0034 or more/],
  },
  "--max-rps below the pace a raised --timeout still allows": {
    args: () => ["plan", "--max-rps", "0.0005", "--timeout", "1200"],
    env: (url) => ({ ...env(url), ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS: "600" }),
    says: [/--max-rps 0\.0005 sends one request every 2000 s, longer than the deadline of one request \(1200 s, --timeout\)/],
  },
  "--run-deadline 0": {
    args: () => ["rules", "list", "--run-deadline", "0"],
    says: [/--run-deadline must be between 1 and 604800, got 0/],
  },
  "--out into a directory that does not exist": {
    args: () => ["plan", "--out", "no/such/dir/plan.json"],
    says: [/--out no\/such\/dir\/plan\.json: the directory .*no\/such\/dir does not exist; create it first \(mkdir -p .*\) or choose another path/],
  },
  "--report-json into a directory that does not exist": {
    args: () => ["apply", "--auto-approve", "--report-json", "no/such/dir/report.json"],
    says: [/--report-json no\/such\/dir\/report\.json: the directory .*no\/such\/dir does not exist; create it first/],
  },
  "a PLANFILE and --from-env together": {
    args: () => ["apply", "plan.json", "--from-env"],
    says: [/give either PLANFILE or --from-env, not both/],
  },
  "an apply with no terminal and no --auto-approve": {
    args: () => ["apply"],
    says: [/pass --auto-approve, or apply a reviewed plan file/],
  },
  "a one-dash word that is no flag, named whole": {
    args: () => ["plan", "-frobnicate"],
    says: [/plan: Unknown option '-frobnicate'\./, /Run 'alert-rule-users plan --help'/],
  },
  "a misspelled Terraform-style flag": {
    args: () => ["plan", "-detailed-exit-code"],
    says: [/Unknown option '-detailed-exit-code'\. Did you mean --detailed-exitcode\?/],
  },
  "import --timeout out of range": {
    args: () => ["import", "--all", "--timeout", "0"],
    says: [/--timeout must be between 1 and 3600, got 0/],
  },
  "rules list --timeout that is not a number": {
    args: () => ["rules", "list", "--timeout", "soon"],
    says: [/--timeout takes a whole number, got 'soon'/],
  },
  "--max-plan-age that is not a duration": {
    args: () => ["apply", "plan.json", "--max-plan-age", "1 week"],
    says: [/--max-plan-age takes a whole number and a unit \(s, m, h or d\), e\.g\. 30m, 24h or 2d; got '1 week'/],
  },
  "--require-tip outside a git checkout": {
    args: () => ["apply", "--auto-approve", "--require-tip", "origin/main"],
    says: [/--require-tip needs a git checkout/],
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
  "an empty plan file": {
    args: () => ["apply", fileWith("empty.json", "")],
    says: [/empty\.json.*is not a plan/, /plan --out FILE/],
  },
  "a plan file cut off half way": {
    args: () => ["apply", fileWith("cut.json", readFileSync(join(ws.dir, "plan.json"), "utf8").slice(0, 200))],
    says: [/cut\.json.*is not a plan: it is not JSON/],
  },
  "a plan file without its checksum": {
    args: () => ["apply", planFileWith("unsigned.json", (p) => delete p["checksum"])],
    says: [/unsigned\.json/, /checksum/],
  },
  "a JSON array instead of a plan": {
    args: () => ["apply", fileWith("array.json", "[1, 2, 3]\n")],
    says: [/array\.json.*is not a plan/],
  },
  "a plan file whose rules are not a list (checksum recomputed)": {
    args: () => ["apply", planFileWith("shape.json", (p) => {
      p["rules"] = "all of them";
      p["checksum"] = planChecksum(p as unknown as Plan);
    })],
    says: [/shape\.json/, /rules/],
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

const ENVIRONMENT: Record<string, Case> = {
  "ALERTS_API_URL that is not a URL": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERTS_API_URL: "alerts.example.com" }),
    says: [/ALERTS_API_URL is invalid: 'alerts\.example\.com' is not a URL; expected something like https:\/\/alerts\.example\.com/],
  },
  "ALERTS_API_URL with another scheme": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERTS_API_URL: "ftp://alerts.example.com" }),
    says: [/ALERTS_API_URL is invalid: .*uses ftp; only http and https are supported/],
  },
  "ALERTS_API_URL with a query string": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERTS_API_URL: `${url}/?tenant=x` }),
    says: [/ALERTS_API_URL is invalid: .*must not have a query string or fragment/],
  },
  "--base-url with credentials": {
    args: () => ["plan", "--base-url", "https://user:pass@alerts.example.com"],
    says: [/--base-url is invalid: the URL contains credentials; remove them \(https:\/\/alerts\.example\.com\) and put the token in ALERTS_API_TOKEN/],
  },
  "a token with a space in it": {
    args: () => ["plan"],
    env: (url) => env(url, "two words"),
    says: [/The token \(from ALERTS_API_TOKEN\) contains whitespace or control characters; it must be a single line without spaces/],
  },
  "NODE_DEBUG that would print the token": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), NODE_DEBUG: "http" }),
    says: [/NODE_DEBUG=http .*prints every request header, the bearer token included/, /Unset NODE_DEBUG .*or pass --unsafe-allow-node-debug/],
  },
  "ALERT_RULE_USERS_MAX_BODY_MIB that is not a number": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERT_RULE_USERS_MAX_BODY_MIB: "lots" }),
    says: [/ALERT_RULE_USERS_MAX_BODY_MIB must be a whole number of MiB from 1 to 4096, got 'lots'; fix or unset it/],
  },
  "ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS of 0": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS: "0" }),
    says: [/ALERT_RULE_USERS_REQUEST_DEADLINE_SECONDS must be a whole number of seconds from 1 to 86400, got '0'/],
  },
  "ALERT_RULE_USERS_MAX_SEARCH_RESULTS below zero": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERT_RULE_USERS_MAX_SEARCH_RESULTS: "-5" }),
    says: [/ALERT_RULE_USERS_MAX_SEARCH_RESULTS must be a whole number of results/],
  },
  "ALERT_RULE_USERS_USERS_COUNT of 999999 on the Terraform path (apply --from-env)": {
    args: () => ["apply", "--from-env", "--auto-approve"],
    env: (url) => ({ ...env(url), ...FROM_ENV_DECLARATION, ALERT_RULE_USERS_USERS_COUNT: "999999" }),
    says: [/ALERT_RULE_USERS_USERS_COUNT: must be a positive whole number, got "999999"; a list has at most 24 chunks/, /Synthesize again/],
  },
  "ALERT_RULE_USERS_RUN_DEADLINE_SECONDS that is not a number": {
    args: () => ["plan"],
    env: (url) => ({ ...env(url), ALERT_RULE_USERS_RUN_DEADLINE_SECONDS: "soon" }),
    says: [/ALERT_RULE_USERS_RUN_DEADLINE_SECONDS must be a whole number of seconds from 1 to 604800, got 'soon'; fix or unset it/],
  },
  "an empty token file": {
    args: () => ["plan", "--token-file", fileWith("empty-token", "\n")],
    says: [/--token-file .*empty-token is empty; write the bearer token into it/],
  },
  "a token file that is a directory": {
    args: () => ["plan", "--token-file", "."],
    says: [/--token-file .* cannot be read \(EISDIR\); check the path/],
  },
};

const SIMULATOR_FLAGS: Record<string, Case> = {
  "simulator --port out of range": {
    simulator: true,
    args: () => ["simulator", "--port", "70000"],
    says: [/--port/, /70000/],
  },
  "simulator --fail-rate over 1": {
    simulator: true,
    args: () => ["simulator", "--fail-rate", "2"],
    says: [/--fail-rate/, /2/],
  },
  "simulator --seed-file that does not exist": {
    simulator: true,
    args: () => ["simulator", "--seed-file", "no-such-seed.json"],
    says: [/no-such-seed\.json/],
  },
  "simulator --token with a space": {
    simulator: true,
    args: () => ["simulator", "--token", "two words"],
    says: [/--token/],
  },
  "simulator -prot, a one-dash typo": {
    simulator: true,
    args: () => ["simulator", "-prot", "8080"],
    says: [/Unknown option '-prot'/],
  },
};

describe.each([
  ["wrong construct props", CONSTRUCT_PROPS],
  ["wrong CLI usage", CLI_USAGE],
  ["unusable plan files", PLAN_FILES],
  ["bad environment and token files", ENVIRONMENT],
  ["bad simulator flags", SIMULATOR_FLAGS],
])("%s", (_group, cases) => {
  it.each(Object.entries(cases))("%s: exit 1 before any request, saying how to fix it", async (_name, c) => {
    // given
    if (c.declared !== undefined) ws.write(c.declared);
    // when
    const result = await runCli(c.args(), { cwd: ws.dir, env: c.env?.(sim.url) ?? env(sim.url) });
    scan.add(_name, result.stdout, result.stderr);
    // then
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/Internal error/);
    for (const phrase of c.says) expect(result.stderr).toMatch(phrase);
    expect(sim.requestLog()).toEqual([]);
    if (c.simulator === true) expect(result.stderr).not.toMatch(/Simulator listening/);
  });
});
