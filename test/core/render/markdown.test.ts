import { PLAN_COMMENT_MARKER, renderPlanMarkdown } from "../../../src/core/render";
import type { Case } from "./builders";
import {
  BASE_URL,
  TENANT_ID,
  declared,
  entry,
  exfiltrationCase,
  found,
  inclusion,
  massRemovalCase,
  noOpCase,
  planOf,
  rebuildCase,
  systemCase,
  unknownCase,
  user,
} from "./builders";

/** A rule declaring `users` new users on an empty list. */
function bigAddCase(n: number, users: number): Case {
  const declaredUsers = Array.from({ length: users }, (_, i) => user(`${100000 + i}`, `user${i}.rule${n}@example.com`));
  return { declaration: declared(`big-${n}`, `rule-${n}`, declaredUsers), observation: found(`rule-${n}`, `Rule ${n}`, inclusion()) };
}

/** Table cells of a markdown row, split on pipes that are not escaped. */
function cells(row: string): string[] {
  return row.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim());
}

describe("renderPlanMarkdown", () => {
  it("starts with the hidden marker a CI job finds its own comment by", () => {
    // given / when
    const md = renderPlanMarkdown(planOf(exfiltrationCase()));

    // then
    expect(md.startsWith(`${PLAN_COMMENT_MARKER}\n`)).toBe(true);
    expect(PLAN_COMMENT_MARKER).toBe("<!-- alert-rule-users-plan -->");
  });

  it("has a summary table with the plan's counts", () => {
    // given
    const plan = planOf(exfiltrationCase(), rebuildCase(), noOpCase(1), systemCase(), unknownCase());

    // when
    const md = renderPlanMarkdown(plan);

    // then
    for (const row of [
      "| Rules to update | 2 |",
      "| Users to add | 1 |",
      "| Users to remove | 2 |",
      // a user added or removed counts once; aliases only those of users who stay (issue 25)
      "| Aliases to add | 1 |",
      "| Aliases to remove | 1 |",
      "| Rebuilds | 1 |",
      "| Skipped | 1 |",
      "| Errors | 1 |",
      "| Unchanged | 1 |",
      "| Write calls | 5 |",
    ]) {
      expect(md).toContain(`\n${row}\n`);
    }
    expect(md).toContain("**Plan: 2 rules to update, 1 user to add, 2 users to remove, 1 alias to add, 1 alias to remove.**");
  });

  it("shows each changed rule in a collapsible section with a diff block and the calls", () => {
    // given
    const plan = planOf(exfiltrationCase());

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(md).toContain("<details");
    expect(md).toContain("<summary><b>~ Endpoint exfiltration</b> <code>c3e0a1b2</code>");
    expect(md).toContain(
      [
        "```diff",
        "+ 9102 alice@corp.example",
        "+ 9102 alice@example.com",
        "+ 9103 bob2@example.com   (alias)",
        "- 9103 bob@old.example.com   (alias)",
        "- 9104 carol@example.com",
        "```",
      ].join("\n"),
    );
    expect(md).toContain("Calls: `add-users` (2 users) → `remove-user-aliases` (1 user) → `remove-users` (1 user)");
  });

  it("warns about removals, rebuilds (the list is empty for a moment) and mass-removal guard hits", () => {
    // given
    const plan = planOf(exfiltrationCase(), rebuildCase(), massRemovalCase());

    // when
    const md = renderPlanMarkdown(plan);

    // then
    const block = md.slice(md.indexOf("> [!WARNING]"), md.indexOf("### Changes"));
    expect(block).toContain("> - **Endpoint exfiltration** (`c3e0a1b2`): removes: 1 user, 1 alias");
    expect(block).toContain("**Insider watch** (`d4f5`): **rebuild** (the list is empty for a moment");
    expect(block).toContain("**Big list** (`big-1`): **mass-removal guard**: would remove 8 of 10 entries, apply needs `--allow-mass-removal`");
  });

  it("has no warning block when the plan only adds", () => {
    // given
    const plan = planOf(bigAddCase(1, 2));

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(md).not.toContain("[!WARNING]");
  });

  it("lists skipped rules in a table with their reason, and errors in their own section", () => {
    // given
    const plan = planOf(systemCase(), unknownCase());

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(md).toContain("### Skipped rules (1)");
    const row = md.split("\n").find((l) => l.startsWith("| Departing employee exfiltration |"));
    expect(cells(row!)).toEqual([
      "Departing employee exfiltration",
      "`sys-1`",
      "`stack/departing`",
      "system rule (Departing Employee): its list is kept by the Departing Employee list, not through this interface",
    ]);
    expect(md).toContain("### Errors (1)");
    expect(md).toContain("- `stack/typo` (rule `no-such-rule`): no rule has the ID 'no-such-rule' in this tenant");
    expect(md).toContain("Apply refuses the whole plan until these declaration errors are fixed.");
    expect(md).not.toContain("No changes");
  });

  it("says 'No changes' when every list matches", () => {
    // given / when
    const md = renderPlanMarkdown(planOf(noOpCase(1)));

    // then
    expect(md).toContain("\nNo changes. The lists match the declaration.\n");
  });

  it("escapes a hostile rule name so it breaks neither the table nor the page", () => {
    // given a name with a pipe, HTML, backticks, emphasis, a mention and a line break
    const hostile = "Evil | <script>alert(1)</script> `x` **b** @team\n| injected |";
    const skipped = found("h-1", hostile, null, { isSystem: true });
    const changed = found("h-2", hostile, inclusion(entry("1", "old@example.com")));
    const plan = planOf(
      { declaration: declared("hostile-1", "h-1", [user("1", "a@example.com")]), observation: skipped },
      { declaration: declared("hostile-2", "h-2", [user("1", "a@example.com")]), observation: changed },
    );

    // when
    const md = renderPlanMarkdown(plan);

    // then the table row keeps its four cells and no tag gets through
    expect(md).not.toContain("<script>");
    expect(md).not.toMatch(/\n\| injected/);
    const row = md.split("\n").find((l) => l.startsWith("| Evil"));
    expect(cells(row!)).toHaveLength(4);
    expect(row).toContain("&lt;script&gt;");
    expect(row).toContain("\\`x\\`");
    // the mention is broken by a zero-width joiner (issue 25): it notifies nobody
    expect(md).toContain("<summary><b>~ Evil | &lt;script&gt;alert(1)&lt;/script&gt; `x` **b** @\u200dteam | injected |</b>");
  });

  it("keeps a code fence intact when an alias contains backticks", () => {
    // given
    const plan = planOf({
      declaration: declared("ticks", "t-1", [user("1", "a```b@example.com")]),
      observation: found("t-1", "Ticks", inclusion()),
    });

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(md).toContain("````diff\n+ 1 a```b@example.com\n````");
  });

  it("never shows the tenant ID or the base URL", () => {
    // given
    const plan = planOf(exfiltrationCase(), rebuildCase(), systemCase(), unknownCase());

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(md).not.toContain(TENANT_ID);
    expect(md).not.toContain(new URL(BASE_URL).host);
  });

  it("shortens per-rule diffs first when the comment would be too long", () => {
    // given three rules of 200 new users each
    const plan = planOf(bigAddCase(1, 200), bigAddCase(2, 200), bigAddCase(3, 200));

    // when
    const md = renderPlanMarkdown(plan, { maxLength: 8000 });

    // then
    expect(md.length).toBeLessThanOrEqual(8000);
    expect(md).toContain("… and 180 more lines");
    expect(md).not.toContain("Plan truncated");
    expect(md.match(/<details/g)).toHaveLength(3);
  });

  it("stays under the comment limit for 2,000 rules of 50 users, says how many rules it left out, and keeps summary, warnings and errors", () => {
    // given 2,000 rules adding 50 users each, one rule removing, and one in error
    const cases = Array.from({ length: 2000 }, (_, i) => bigAddCase(i, 50));
    const plan = planOf(...cases, exfiltrationCase(), unknownCase());

    // when
    const md = renderPlanMarkdown(plan);

    // then
    expect(md.length).toBeLessThanOrEqual(65000);
    expect(md.length).toBeLessThan(65536);
    const shown = (md.match(/<details/g) ?? []).length;
    const note = /Plan truncated: (\d+) rules not shown; see the full plan in the job artifact\./.exec(md);
    expect(note).not.toBeNull();
    expect(shown).toBeGreaterThan(0);
    expect(shown + Number(note![1])).toBe(2001);
    expect(md).toContain("| Rules to update | 2001 |");
    expect(md).toContain("| Users to add | 100001 |");
    expect(md).toContain("> - **Endpoint exfiltration** (`c3e0a1b2`): removes: 1 user, 1 alias");
    expect(md).toContain("### Errors (1)");
    expect(md).not.toContain(TENANT_ID);
  });

  it("respects a small maxLength too", () => {
    // given
    const plan = planOf(...Array.from({ length: 50 }, (_, i) => bigAddCase(i, 20)), unknownCase());

    // when
    const md = renderPlanMarkdown(plan, { maxLength: 1500 });

    // then
    expect(md.length).toBeLessThanOrEqual(1500);
    expect(md.startsWith(PLAN_COMMENT_MARKER)).toBe(true);
    expect(md).toContain("| Rules to update | 50 |");
  });
});
