/**
 * A Terraform team's CI from the release alone (design §13.1, docs/provider-workflows.md): the HCL
 * workflows that `init --hcl alert-rules --workflows` writes, run step by step on runners without
 * Node.js (test/terraform/team-ci.ts), the provider installed from the release's HTTPS mirror and
 * checked against the committed locks, the team's state in a real PostgreSQL (Terraform's `pg`
 * backend). Pull request → comment → merge → `terraform apply` into the backend →
 * `terraform plan -detailed-exitcode` on main exits 0; with the HCL a team writes: `timeouts`, a CSV
 * `for_each`, a local module, a data source feeding a resource; then a change to only `users.csv`,
 * and a change to only the lock file. Then what happens beside a merge: a console change between
 * review and merge (nothing applied, the difference named), two merges at once (serialized, both
 * applied, the state consistent), a run killed mid-apply with SIGKILL to terraform (the next run
 * converges, no user lost). Needs terraform, PostgreSQL and the build (dist/).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Postgres } from "../support/postgres";
import { RULES } from "../support/sample";
import { useSimulator } from "../support/simulator";
import { explain, secretFoundIn, type Listener } from "../ci/planted-token";
import { MINUTES } from "./support";
import type { TeamCi} from "./team-ci";
import { useTeamCi, type Commit } from "./team-ci";

const TOKEN = "planted-team-ci-token-5d0c2a97e4b1";
const PLAN_KEY = "planted-team-ci-plan-key-0a93f1c64e27";
const sim = useSimulator({ token: TOKEN });

const teamCi = useTeamCi("team-ci", sim, { token: TOKEN, planKey: PLAN_KEY });
let pg: Postgres;
let listener: Listener;
let ci: TeamCi;
let main: Commit;

beforeAll(() => {
  ({ ci, initial: main, pg, listener } = teamCi());
});

/** Neither secret in any comment, artifact, step output or request to another host. */
function expectNoSecretIn(...runs: { comments: string[]; artifacts: Record<string, string>; steps: { output: string }[] }[]): void {
  for (const run of runs) {
    for (const secret of [TOKEN, PLAN_KEY, pg.connStr]) {
      expect(secretFoundIn(run as never, listener.received, secret)).toEqual([]);
      for (const step of run.steps) expect(step.output.includes(secret)).toBe(false);
    }
  }
}

/** The live aliases of a rule, as the simulator holds them. */
const aliasesOf = (ruleId: string): string[] => (sim.rule(ruleId)?.users ?? []).flatMap((u) => u.userAliasList);

const users = (...ids: [string, string][]) => `{\n${ids.map(([id, alias]) => `    ${JSON.stringify(id)} = { aliases = [${JSON.stringify(alias)}] }`).join("\n")}\n  }`;

/** The HCL a team writes: timeouts, a CSV for_each, a local module, a data source feeding a resource. */
const ORDINARY: Record<string, string> = {
  "alert-rules/finance.tf": `locals {\n  finance_people = csvdecode(file("\${path.module}/users.csv"))\n}\n\nresource "alertrules_rule_user_list" "finance" {\n  rule_id = "${RULES.finance}"\n  mode    = "additive"\n  users   = { for p in local.finance_people : p.user_id => { aliases = [p.alias] } }\n\n  timeouts {\n    create = "5m"\n    update = "5m"\n  }\n}\n`,
  "alert-rules/users.csv": "user_id,alias\n7100001,frank.finance@example.com\n7100002,fiona.finance@example.com\n",
  "alert-rules/modules/list/main.tf": `terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n\nvariable "rule_id" {\n  type = string\n}\n\nvariable "users" {\n  type = map(object({ aliases = list(string) }))\n}\n\nresource "alertrules_rule_user_list" "this" {\n  rule_id = var.rule_id\n  mode    = "additive"\n  users   = var.users\n}\n`,
  "alert-rules/sales.tf": `module "sales" {\n  source  = "./modules/list"\n  rule_id = "${RULES.sales}"\n  users   = ${users(["7200001", "sam.sales@example.com"])}\n}\n`,
  "alert-rules/legal.tf": `data "alertrules_rule" "legal" {\n  rule_name = "Legal hold file type mismatch"\n}\n\nresource "alertrules_rule_user_list" "legal" {\n  rule_id = data.alertrules_rule.legal.rule_id\n  mode    = "additive"\n  users   = ${users(["7300001", "lee.legal@example.com"])}\n}\n`,
};

describe("a Terraform team's CI from the release alone, state in PostgreSQL", () => {
  it("pull request with ordinary HCL → comment → merge → terraform apply into the pg backend → the next plan on main is empty", async () => {
    // given a pull request that adds timeouts, a CSV for_each, a local module and a data source
    const head = ci.commit("pr-ordinary", main, ORDINARY);
    // when it is planned and reviewed
    const pr = await ci.pullRequest(7, head, main);
    // then: the configuration read data sources, answered by the trusted job, then planned
    expect(`${JSON.stringify(pr.review.jobs)}\n${explain(pr.review)}\n${JSON.stringify(pr.review.outputs)}\n${explain(pr.plan)}\n${pr.comment ?? ""}`).toMatch(/^\{"check":"success","data":"success","evaluate":"success","plan":"success"\}/);
    expect(pr.plan.checkouts).toEqual({ evaluate: ["head"] });
    // the jobs that hold secrets checked out the default branch only; the pull request only where no secret is
    expect(pr.review.checkouts).toEqual({ check: [], data: ["head"], evaluate: ["head", head.sha], plan: ["head"] });
    const comment = pr.comment ?? "";
    for (const alias of ["erin.walker@example.com", "frank.finance@example.com", "fiona.finance@example.com", "sam.sales@example.com", "lee.legal@example.com"]) expect(comment).toContain(alias);
    expect(comment).toMatch(/lists read \d{4}-\d\d-\d\d \d\d:\d\d UTC; on merge Terraform reads them again and applies this plan, or nothing/);
    // when it is merged and pushed
    const merged = ci.commit("main-1", main, ORDINARY);
    ci.merge(7, head.sha, merged);
    const applied = await ci.push(merged);
    // then Terraform applied the reviewed plan into the pg backend
    expect(`${applied.jobs["apply"]}\n${explain(applied)}`).toMatch(/^success/);
    expect(applied.summaries["apply"]).toContain("what this merge applies");
    expect(applied.summaries["apply"]).toContain("frank.finance@example.com");
    expect(aliasesOf(RULES.finance)).toEqual(expect.arrayContaining(["frank.finance@example.com", "fiona.finance@example.com"]));
    const list = await ci.terraformOn(merged, ["state", "list"]);
    expect(list.stdout.split("\n").filter((l) => l !== "").sort()).toEqual([
      "alertrules_rule_user_list.engineering_exfiltration",
      "alertrules_rule_user_list.finance",
      "alertrules_rule_user_list.legal",
      "data.alertrules_rule.legal",
      "module.sales.alertrules_rule_user_list.this",
    ]);
    const after = await ci.terraformOn(merged, ["plan", "-detailed-exitcode"]);
    expect(`${after.code}\n${after.stdout}${after.stderr}`).toMatch(/^0\n/);
    expectNoSecretIn(pr.plan, pr.review, applied);
    main = merged;
  }, 30 * MINUTES);

  it("a change to only users.csv is planned and applied; a re-run of that merge says it was applied already", async () => {
    const edit = { "alert-rules/users.csv": "user_id,alias\n7100001,frank.finance@example.com\n7100002,fiona.finance@example.com\n7100003,fatima.finance@example.com\n" };
    const head = ci.commit("pr-csv", main, edit);
    const pr = await ci.pullRequest(8, head, main);
    expect(`${pr.review.jobs["plan"]}\n${explain(pr.review)}`).toMatch(/^success/);
    expect(pr.comment).toContain("fatima.finance@example.com");
    const merged = ci.commit("main-2", main, edit);
    ci.merge(8, head.sha, merged);
    const applied = await ci.push(merged);
    expect(`${applied.jobs["apply"]}\n${explain(applied)}`).toMatch(/^success/);
    expect(aliasesOf(RULES.finance)).toContain("fatima.finance@example.com");
    // the same push again: nothing left to apply, and it says so
    const again = await ci.push(merged);
    expect(`${again.jobs["apply"]}\n${explain(again)}`).toMatch(/^success/);
    expect(again.summaries["apply"]).toContain("nothing to apply");
    main = merged;
  }, 20 * MINUTES);

  it("a change to only the lock file: planned (no change to any list: no comment), and a lock whose hash is not the release's is refused with why", async () => {
    const lockPath = "alert-rules/.terraform.lock.hcl";
    const lock = readFileSync(join(main.dir, lockPath), "utf8");
    const reordered = ci.commit("pr-lock", main, { [lockPath]: `${lock}\n` });
    const pr = await ci.pullRequest(9, reordered, main);
    expect(`${pr.review.jobs["plan"]}\n${explain(pr.review)}`).toMatch(/^success/);
    expect(pr.comment).toBeUndefined();
    // every hash replaced by one that no package of the release has
    const forged = ci.commit("pr-lock-forged", main, { [lockPath]: lock.replace(/"(h1|zh):[^"]+"/g, (_m, scheme: string) => (scheme === "h1" ? '"h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="' : `"zh:${"0".repeat(64)}"`)) });
    const bad = await ci.pullRequest(10, forged, main);
    expect(bad.review.jobs["plan"]).toBe("failure");
    expect(bad.comment).toContain("could not be planned");
    expect(bad.comment).toMatch(/checksum|lock file/i);
  }, 20 * MINUTES);
});

describe("beside a merge: other writers, other merges, a run cut short", () => {
  /** `main`'s file `path` with `line` added after the first line that matches `after`. */
  const withLine = (path: string, after: RegExp, line: string): string => {
    const text = readFileSync(join(main.dir, path), "utf8").split("\n");
    const at = text.findIndex((l) => after.test(l));
    return [...text.slice(0, at + 1), line, ...text.slice(at + 1)].join("\n");
  };

  it("a user added in the console between review and merge: the merge applies nothing and names the difference", async () => {
    // given a reviewed pull request that adds a user to the engineering list (authoritative)
    const edit = { "alert-rules/main.tf": withLine("alert-rules/main.tf", /^  users = \{$/, '    "7400001" = { aliases = ["ivy.eng@example.com"] }') };
    const head = ci.commit("pr-console", main, edit);
    const pr = await ci.pullRequest(11, head, main);
    expect(pr.comment).toContain("ivy.eng@example.com");
    // when someone adds a user in the console, then the pull request is merged
    const before = sim.rule(RULES.engineering)!.users;
    sim.setUsers(RULES.engineering, [...before, { userIdFromAuthority: "7400099", userAliasList: ["console.person@example.com"] }]);
    const merged = ci.commit("main-console", main, edit);
    ci.merge(11, head.sha, merged);
    const writes = sim.requestLog().length;
    const applied = await ci.push(merged);
    // then nothing was applied, and the run says what differs
    expect(applied.jobs["apply"]).toBe("failure");
    const planStep = applied.steps.find((s) => s.step.startsWith("Plan the merged configuration"))!;
    expect(planStep.output).toContain("Not the reviewed plan");
    expect(planStep.output).toMatch(/console\.person@example\.com/);
    expect(applied.summaries["apply"]).toContain("nothing was applied");
    expect(sim.requestLog().slice(writes).filter((e) => /add-users|remove/.test(e.operation))).toEqual([]);
    expect(aliasesOf(RULES.engineering)).toContain("console.person@example.com");
    expect(aliasesOf(RULES.engineering)).not.toContain("ivy.eng@example.com");
    expectNoSecretIn(pr.plan, pr.review, applied);
    // the team plans again (a new push to the pull request), reviews and merges: now it applies
    const again = await ci.pullRequest(11, ci.commit("pr-console-2", main, edit), main);
    expect(again.comment).toContain("console.person@example.com");
    ci.merge(11, ci.commit("pr-console-2", main, edit).sha, ci.commit("main-console-2", main, edit));
    const reapplied = await ci.push(ci.commit("main-console-2", main, edit));
    expect(`${reapplied.jobs["apply"]}\n${explain(reapplied)}`).toMatch(/^success/);
    expect(aliasesOf(RULES.engineering)).not.toContain("console.person@example.com");
    main = ci.commit("main-console-2", main, edit);
  }, 20 * MINUTES);

  it("two merges at once: queued in the tenant's group, both applied, the state consistent and the next plan empty", async () => {
    // given two pull requests reviewed against the same main, one on finance's CSV, one on the sales module
    const csv = { "alert-rules/users.csv": `${readFileSync(join(main.dir, "alert-rules/users.csv"), "utf8")}7100004,felix.finance@example.com\n` };
    const sales = { "alert-rules/sales.tf": readFileSync(join(main.dir, "alert-rules/sales.tf"), "utf8").replace('    "7200001"', '    "7200002" = { aliases = ["sue.sales@example.com"] }\n    "7200001"') };
    const [a, b] = [ci.commit("pr-a", main, csv), ci.commit("pr-b", main, sales)];
    await ci.pullRequest(12, a, main);
    await ci.pullRequest(13, b, main);
    // when both merge, one after the other, and their pushes start together
    const mergedA = ci.commit("main-a", main, csv);
    const mergedB = ci.commit("main-b", mergedA, sales);
    ci.merge(12, a.sha, mergedA);
    ci.merge(13, b.sha, mergedB);
    const [first, second] = await Promise.all([ci.push(mergedA), ci.push(mergedB)]);
    // then both applied
    expect(`${first.jobs["apply"]}\n${explain(first)}`).toMatch(/^success/);
    expect(`${second.jobs["apply"]}\n${explain(second)}`).toMatch(/^success/);
    expect(aliasesOf(RULES.finance)).toContain("felix.finance@example.com");
    expect(aliasesOf(RULES.sales)).toContain("sue.sales@example.com");
    const after = await ci.terraformOn(mergedB, ["plan", "-detailed-exitcode"]);
    expect(`${after.code}\n${after.stdout}${after.stderr}`).toMatch(/^0\n/);
    main = mergedB;
  }, 20 * MINUTES);

  it("a merge run killed mid-apply (SIGKILL to terraform): the next run converges, no user lost", async () => {
    // given a reviewed pull request that changes three lists
    const csv = { "alert-rules/users.csv": `${readFileSync(join(main.dir, "alert-rules/users.csv"), "utf8")}7100005,flora.finance@example.com\n` };
    const sales = { "alert-rules/sales.tf": readFileSync(join(main.dir, "alert-rules/sales.tf"), "utf8").replace('    "7200001"', '    "7200003" = { aliases = ["sid.sales@example.com"] }\n    "7200001"') };
    const eng = { "alert-rules/main.tf": withLine("alert-rules/main.tf", /^  users = \{$/, '    "7400002" = { aliases = ["jack.eng@example.com"] }') };
    const edit = { ...csv, ...sales, ...eng };
    const head = ci.commit("pr-killed", main, edit);
    const pr = await ci.pullRequest(14, head, main);
    expect(`${pr.review.jobs["plan"]}\n${explain(pr.review)}`).toMatch(/^success/);
    const livedBefore = [RULES.engineering, RULES.finance, RULES.sales].flatMap((r) => aliasesOf(r));
    const merged = ci.commit("main-killed", main, edit);
    ci.merge(14, head.sha, merged);
    // when terraform is killed as soon as the first write reached the service
    sim.setFaults({ latencyMs: 300 });
    const start = sim.requestLog().length;
    let killed = false;
    const killer = (_job: string, step: string, pid: number) => {
      if (!step.startsWith("Apply exactly that plan")) return;
      const poll = setInterval(() => {
        if (!sim.requestLog().slice(start).some((e) => e.operation === "add-users")) return;
        clearInterval(poll);
        const terraformPid = execFileSync("sh", ["-c", `pgrep -P ${pid} terraform || true`], { encoding: "utf8" }).trim().split("\n")[0];
        if (terraformPid !== undefined && terraformPid !== "") {
          process.kill(Number(terraformPid), "SIGKILL");
          killed = true;
        }
      }, 20);
    };
    const cut = await ci.push(merged, { onSpawn: killer });
    sim.setFaults({});
    expect(killed).toBe(true);
    expect(cut.jobs["apply"]).toBe("failure");
    // then the next run of the same push converges what is left, and every user is still there
    const rerun = await ci.push(merged);
    expect(`${rerun.jobs["apply"]}\n${explain(rerun)}`).toMatch(/^success/);
    const lived = [RULES.engineering, RULES.finance, RULES.sales].flatMap((r) => aliasesOf(r));
    expect(lived).toEqual(expect.arrayContaining([...livedBefore, "flora.finance@example.com", "sid.sales@example.com", "jack.eng@example.com"]));
    const after = await ci.terraformOn(merged, ["plan", "-detailed-exitcode"]);
    expect(`${after.code}\n${after.stdout}${after.stderr}`).toMatch(/^0\n/);
    main = merged;
  }, 20 * MINUTES);
});
