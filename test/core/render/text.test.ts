import { COUNTING_LEGEND } from "../../../src/core/render/counts";
import { renderPlanText } from "../../../src/core/render";
import {
  ANSI,
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

const lines = (text: string) => text.split("\n");

describe("renderPlanText", () => {
  it("shows a changed rule Terraform-like: header, construct path, +/~/- per user, then the calls in order", () => {
    // given a rule that gains a user and an alias, loses an alias and a user
    const plan = planOf(exfiltrationCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    const out = lines(text);
    const header = out.indexOf('  ~ rule "Endpoint exfiltration" (c3e0a1b2) inclusion list, authoritative');
    expect(header).toBeGreaterThanOrEqual(0);
    expect(out.slice(header + 1, header + 7)).toEqual([
      "      # stack/exfiltration-watch",
      "      + 9102  alice@corp.example, alice@example.com",
      "      ~ 9103  + bob2@example.com",
      "      ~ 9103  - bob@old.example.com",
      "      - 9104  carol@example.com",
      "      calls: add-users (2 users) → remove-user-aliases (1 user) → remove-users (1 user)",
    ]);
  });

  it("ends with the summary line in its fixed form, counted by the rule of src/core/render/counts.ts", () => {
    // given
    const plan = planOf(exfiltrationCase(), noOpCase(1));

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    // a user added or removed counts once; aliases only those of users who stay (issue 25)
    expect(out(text).at(-1)).toBe("Plan: 1 rule to update, 1 user to add, 1 user to remove, 1 alias to add, 1 alias to remove.");
  });

  it("adds the skipped / errors / rebuilds line only when one of them is non-zero", () => {
    // given
    const quiet = planOf(exfiltrationCase());
    const busy = planOf(exfiltrationCase(), rebuildCase(), systemCase(), unknownCase());

    // when
    const quietText = renderPlanText(quiet, { color: false });
    const busyText = renderPlanText(busy, { color: false });

    // then
    expect(out(quietText).at(-1)).toMatch(/^Plan: /);
    expect(out(busyText).at(-2)).toMatch(/^Plan: 2 rules to update, /);
    expect(out(busyText).at(-1)).toBe("1 skipped, 1 error, 1 rebuild");
  });

  it("says a rebuild is a rebuild, why, and that the list is empty for a moment; entries without ID are shown as such", () => {
    // given an exclusion list with an entry without a user ID
    const plan = planOf(rebuildCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toContain('  -/+ rule "Insider watch" (d4f5) exclusion list, authoritative: rebuild\n');
    expect(text).toContain("      1 entry has no user ID and cannot be edited one by one");
    expect(text).toContain("      ! rebuild: the list is empty for a moment");
    expect(text).toContain("      - (no user ID)  x@example.com\n");
    expect(text).toContain("      calls: remove-all-users → add-users (1 user)\n");
  });

  it("says when a rule's whole list is removed", () => {
    // given an empty declaration for a non-empty list
    const plan = planOf({
      declaration: declared("emptied", "e-1", []),
      observation: found("e-1", "Emptied", inclusion(entry("1", "a@example.com"))),
    });

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toContain('  - rule "Emptied" (e-1) inclusion list, authoritative: remove every entry\n');
    expect(text).toContain("      the declared list is empty: every entry is removed\n");
    expect(text).toContain("      calls: remove-all-users\n");
  });

  it("warns clearly when the mass-removal guard would refuse the rule", () => {
    // given a list of 10 entries of which 8 would go
    const plan = planOf(massRemovalCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toContain("      ! would remove 8 of 10 entries: apply needs --allow-mass-removal\n");
  });

  it("lists skipped rules with their reason and errors with the construct path, and counts unchanged rules in one line", () => {
    // given
    const plan = planOf(exfiltrationCase(), noOpCase(1), noOpCase(2), noOpCase(3), systemCase(), unknownCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toContain('  # rule "Departing employee exfiltration" (sys-1) skipped: system rule (Departing Employee)');
    expect(text).toContain("  ! stack/typo: no rule has the ID 'no-such-rule' in this tenant");
    expect(text).toContain("Apply refuses the whole plan until these declaration errors are fixed.");
    expect(text).toContain("  3 rules unchanged: the lists match the declaration.\n");
    expect(text).not.toContain("Same 1");
  });

  it("says 'No changes' like Terraform when every list matches", () => {
    // given
    const plan = planOf(noOpCase(1), noOpCase(2), systemCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(out(text)[0]).toBe("No changes. The lists match the declaration.");
    expect(text).not.toContain("unchanged");
    expect(out(text).at(-2)).toBe("Plan: 0 rules to update, 0 users to add, 0 users to remove, 0 aliases to add, 0 aliases to remove.");
    expect(out(text).at(-1)).toBe("1 skipped, 0 errors, 0 rebuilds");
  });

  it("does not claim 'No changes' when a rule is in error", () => {
    // given
    const plan = planOf(noOpCase(1), unknownCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).not.toContain("No changes");
  });

  it("never writes colour codes when color is false", () => {
    // given a plan with every kind of line
    const plan = planOf(exfiltrationCase(), rebuildCase(), massRemovalCase(), noOpCase(1), systemCase(), unknownCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).not.toMatch(ANSI);
  });

  it("colours when color is true, and the words are the same once the colours are taken out", () => {
    // given
    const plan = planOf(exfiltrationCase(), rebuildCase(), massRemovalCase(), noOpCase(1), systemCase(), unknownCase());

    // when
    const coloured = renderPlanText(plan, { color: true });

    // then
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain("\u001b[32m+ 9102  alice@corp.example, alice@example.com\u001b[39m"); // green add
    expect(coloured).toContain("\u001b[31m- 9104  carol@example.com\u001b[39m"); // red removal
    expect(coloured).toContain("\u001b[33m~ 9103\u001b[39m"); // yellow change
    expect(coloured.replace(new RegExp(ANSI.source, "g"), "")).toBe(renderPlanText(plan, { color: false }));
  });

  it("prints hostile names inert: no raw escape sequences or line breaks from the service", () => {
    // given a rule name carrying a terminal escape and a newline
    const plan = planOf({
      declaration: declared("hostile", "h-1", [user("1", "a@example.com")]),
      observation: found("h-1", "Evil\u001b[2J\nname", inclusion()),
    });

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).not.toContain("\u001b");
    expect(text).toContain('rule "Evil\\u001b[2J\\u000aname" (h-1)');
  });

  it("shows the base URL without credentials or query, and never the tenant ID", () => {
    // given a base URL with credentials in it
    const base = planOf(exfiltrationCase());
    const plan = { ...base, connection: { baseUrl: "https://user:pw@alerts.example.net/api?token=abc", tenantId: "tenant-xyz" } };

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toContain("at https://alerts.example.net/api:");
    expect(text).not.toContain("pw@");
    expect(text).not.toContain("token=abc");
    expect(text).not.toContain("tenant-xyz");
  });

  it("explains, above the changed rules, the symbols the plan uses and only those, on one line (issue 32)", () => {
    // given a plan that adds and removes users and changes aliases (no rebuild)
    const plan = planOf(exfiltrationCase());

    // when
    const out = lines(renderPlanText(plan, { color: false }));

    // then
    const at = out.findIndex((l) => l.startsWith("Symbols:"));
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(out.findIndex((l) => l.startsWith("  ~ rule ")));
    expect(out[at]).toBe("Symbols: ~ changed in place, + added, - removed, # note.");
    expect(out.filter((l) => l.startsWith("Symbols:"))).toHaveLength(1);
    // the legend takes at most two lines: the symbols, and the counting rule where it helps
    const firstBlock = out.findIndex((l) => l.startsWith("  ~ rule "));
    expect(out.slice(at + 1, firstBlock).filter((l) => l.trim() !== "").length).toBeLessThanOrEqual(1);
  });

  it("lists -/+ in the legend when a list is rebuilt", () => {
    // given
    const plan = planOf(rebuildCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toMatch(/^Symbols: .*-\/\+ rebuilt \(emptied, then filled again\).*\.$/m);
  });

  it("shows no legend when nothing changes", () => {
    // given
    const plan = planOf(noOpCase(1), systemCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).not.toContain("Symbols:");
  });

  it("states the counting rule only when a user added or removed has several aliases (the counts could be misread)", () => {
    const single = planOf(noOpCase(1));
    expect(renderPlanText(single, { color: false })).not.toContain(COUNTING_LEGEND);
    const several = planOf(exfiltrationCase());
    const severalAliases = several.rules.some((r) => [...r.changes.addUsers, ...r.changes.removeUsers].some((u) => u.aliases.length > 1));
    expect(renderPlanText(several, { color: false }).includes(COUNTING_LEGEND)).toBe(severalAliases);
  });

  it("says 1 rule, 1 user, 1 alias, 1 error, 1 rebuild in the singular", () => {
    // given one rebuilt rule (one user added, one entry removed) and one unknown rule
    const plan = planOf(rebuildCase(), unknownCase());

    // when
    const text = renderPlanText(plan, { color: false });

    // then
    expect(text).toMatch(/^Plan: 1 rule to update, /m);
    expect(text).toContain("\n1 skipped, 1 error, 1 rebuild\n".replace("1 skipped", "0 skipped"));
    expect(text).not.toMatch(/\b1 (rules|users|aliases|errors|rebuilds|entries)\b/);
  });
});

function out(text: string): string[] {
  return text.trimEnd().split("\n");
}
