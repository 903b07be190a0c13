import { APPLY_SUMMARY_MARKER, renderApplyMarkdown, renderApplyText } from "../../../src/core/render";
import { ANSI, applyResult, call, ruleResult } from "./builders";

function sample() {
  return applyResult(
    ruleResult({ outcome: "applied", verified: true, calls: [call("add-users", 2), call("remove-users", 1)] }),
    ruleResult({
      ruleId: "d4f5",
      ruleName: "Insider watch",
      constructPath: "stack/insider-watch",
      outcome: "failed",
      verified: false,
      calls: [call("remove-all-users", 0), call("add-users", 3, "failed", "HTTP 503 from add-users")],
      message: "add-users failed: HTTP 503 from add-users. Run apply again to converge what is left.",
    }),
    ruleResult({ ruleId: "sys-1", ruleName: "Departing", constructPath: "stack/departing", action: "skip", outcome: "skipped", message: "system rule (Departing Employee)" }),
    ruleResult({ ruleId: "same-1", ruleName: "Same", constructPath: "stack/same", action: "no-op", outcome: "unchanged" }),
  );
}

describe("renderApplyText", () => {
  it("gives each rule's outcome and the calls it sent, ok or failed", () => {
    // given / when
    const text = renderApplyText(sample(), { color: false });

    // then
    expect(text).toContain('  ✓ rule "Endpoint exfiltration" (c3e0a1b2) applied and verified\n    # stack/exfiltration-watch\n    add-users (2 users) ok\n    remove-users (1 user) ok\n');
    expect(text).toContain('  ✗ rule "Insider watch" (d4f5) failed: add-users failed: HTTP 503 from add-users. Run apply again');
    expect(text).toContain("    remove-all-users ok\n    add-users (3 users) failed: HTTP 503 from add-users\n");
    expect(text).toContain('  - rule "Departing" (sys-1) skipped: system rule (Departing Employee)\n');
  });

  it("counts unchanged rules instead of listing them, and ends with the apply summary line", () => {
    // given / when
    const text = renderApplyText(sample(), { color: false });

    // then
    expect(text).not.toContain('"Same"');
    expect(text).toContain("  1 rule unchanged.\n");
    expect(text).toContain("Apply complete: 1 rule applied and verified, 1 failed, 1 skipped, 1 unchanged.\n");
  });

  it("says to run apply again when something failed, and not otherwise", () => {
    // given
    const good = applyResult(ruleResult({ outcome: "applied", verified: true, calls: [call("add-users", 1)] }));

    // when
    const goodText = renderApplyText(good, { color: false });
    const badText = renderApplyText(sample(), { color: false });

    // then
    expect(goodText).not.toContain("run apply again");
    expect(badText).toContain("run apply again");
  });

  it("colours only when asked", () => {
    // given / when
    const plain = renderApplyText(sample(), { color: false });
    const coloured = renderApplyText(sample(), { color: true });

    // then
    expect(plain).not.toMatch(ANSI);
    expect(coloured).toMatch(ANSI);
    expect(coloured.replace(new RegExp(ANSI.source, "g"), "")).toBe(plain);
  });
});

describe("renderApplyMarkdown", () => {
  it("is a job summary with a marker, the summary line and one table row per rule that was not unchanged", () => {
    // given / when
    const md = renderApplyMarkdown(sample());

    // then
    expect(md.startsWith(`${APPLY_SUMMARY_MARKER}\n`)).toBe(true);
    expect(md).toContain("**Apply complete: 1 rule applied and verified, 1 failed, 1 skipped, 1 unchanged.**");
    expect(md).toContain("| Rule | Outcome | Calls | Verified | Details |");
    const rows = md.split("\n").filter((l) => l.startsWith("| ") && !l.startsWith("| Rule |"));
    expect(rows).toHaveLength(3);
    expect(rows[0]).toBe("| Endpoint exfiltration<br>`c3e0a1b2`<br>`stack/exfiltration-watch` | ✅ applied | add-users (2 users) ok<br>remove-users (1 user) ok | yes |  |");
    expect(rows[1]).toContain("| ❌ failed | remove-all-users ok<br>add-users (3 users) **failed** | **no** |");
    expect(rows[2]).toContain("| ⏭️ skipped | none | — | system rule (Departing Employee) |");
    expect(md).toContain("1 rule unchanged (not listed).");
    expect(md).toContain("[!CAUTION]");
  });

  it("escapes names and messages so the table holds", () => {
    // given
    const result = applyResult(ruleResult({ ruleName: "a | <b>c</b>", outcome: "failed", message: "x | y\nz" }));

    // when
    const md = renderApplyMarkdown(result);

    // then
    const row = md.split("\n").find((l) => l.startsWith("| a"));
    expect(row!.split(/(?<!\\)\|/).slice(1, -1)).toHaveLength(5);
    expect(md).not.toContain("<b>c</b>");
  });
});
