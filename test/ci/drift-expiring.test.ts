/**
 * drift.yml's step that keeps ONE issue listing the exceptions that expire within 14 days (issue
 * 23): its actions/github-script, run here on the report's real CSV with a recording GitHub API.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { buildAccessReport } from "../../src/core/report/access-report";
import type { DesiredUser } from "../../src/core/engine/desired";
import { renderReportCsv } from "../../src/core/render/report-csv";
import { declared, entry, exclusion, facts, user } from "../core/render/builders";
import { REPO } from "../support/cli";

interface Step {
  name?: string;
  with?: { script?: string };
}
const workflow = parse(readFileSync(join(REPO, "examples", "github-actions", "drift.yml"), "utf8")) as { jobs: Record<string, { steps: Step[] }> };
const SCRIPT = workflow.jobs["drift"]!.steps.find((s) => s.name?.startsWith("Open, update or close the issue of exceptions"))!.with!.script!;
const RULE = "00000000-0000-4000-8000-00000000000e";
const until = (u: DesiredUser, expiresAt: string): DesiredUser => ({ ...u, expiresAt });

function csv(users: DesiredUser[]): string {
  return renderReportCsv(
    buildAccessReport({
      rules: [{ rule: { ...facts(RULE, "Cloud sharing | outside"), isEnabled: true }, list: exclusion(...users.map((u) => entry(u.userId, ...u.aliases))) }],
      declared: [declared("cloud-exceptions", RULE, users)],
      now: "2026-11-24T00:00:00Z",
      tenantId: "t",
    }),
  );
}

type Call = [string, Record<string, unknown>];

/** Runs the step's script with the CSV and the open issues given; returns the API calls it made. */
async function runStep(report: string, openIssues: Array<{ number: number; body: string }>): Promise<Call[]> {
  const calls: Call[] = [];
  const record = (name: string) => (args: Record<string, unknown>) => {
    calls.push([name, args]);
    return Promise.resolve({ data: { number: 99 } });
  };
  const issues = { listForRepo: () => undefined, getLabel: record("getLabel"), createLabel: record("createLabel"), create: record("create"), update: record("update"), createComment: record("createComment") };
  const github = { rest: { issues }, paginate: () => Promise.resolve(openIssues) };
  const context = { repo: { owner: "o", repo: "r" }, serverUrl: "https://github.example", runId: 7 };
  const core = { info: () => undefined };
  const fakeRequire = (name: string) => {
    if (name !== "fs") throw new Error(`unexpected require ${name}`);
    return { readFileSync: () => report };
  };
  const AsyncFunction = Object.getPrototypeOf(runStep).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
  await new AsyncFunction("require", "github", "context", "core", SCRIPT)(fakeRequire, github, context, core);
  return calls;
}

describe("drift.yml: the issue of exceptions expiring within 14 days", () => {
  it("opens one issue listing each expiring exception with the construct that declares it, as code (no markup, no mention)", async () => {
    // given alice expires in 6 days, bob in 2027, and an alias that would mention a team
    const report = csv([until(user("1", "alice@example.com", "@security-team"), "2026-11-30"), until(user("2", "bob@example.com"), "2027-06-01")]);

    // when
    const calls = await runStep(report, []);

    // then
    const created = calls.find(([name]) => name === "create")![1];
    expect(created["title"]).toBe("alert-rule-users: exceptions expiring within 14 days");
    expect(created["labels"]).toEqual(["expiring"]);
    const body = String(created["body"]);
    expect(body).toContain("<!-- alert-rule-users-expiring -->");
    expect(body).toContain("| `2026-11-30` | `Cloud sharing \\| outside` | exclusion | `1` | `alice@example.com, @security-team` | `stack/cloud-exceptions` |");
    expect(body).not.toContain("bob@example.com");
    expect(calls.map(([name]) => name)).toEqual(["getLabel", "create"]);
  });

  it("updates the open issue instead of opening another", async () => {
    const calls = await runStep(csv([until(user("1", "alice@example.com"), "2026-11-30")]), [{ number: 5, body: "<!-- alert-rule-users-expiring -->\nold" }]);
    expect(calls.map(([name, args]) => [name, args["issue_number"]])).toEqual([["getLabel", undefined], ["update", 5]]);
  });

  it("closes the open issue when nothing expires within 14 days, and does nothing when there is none", async () => {
    const nothing = csv([until(user("2", "bob@example.com"), "2027-06-01")]);
    expect((await runStep(nothing, [{ number: 5, body: "<!-- alert-rule-users-expiring -->" }])).map(([name, args]) => [name, args["state"]])).toEqual([
      ["createComment", undefined],
      ["update", "closed"],
    ]);
    expect(await runStep(nothing, [])).toEqual([]);
  });
});
