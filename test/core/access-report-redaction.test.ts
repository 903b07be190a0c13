/**
 * The access report is redacted like every other output (issue 31 item 5): a service that echoes
 * the token or the plan key in rule names or aliases (raw, base64, hex, lower case, URL-encoded)
 * leaves none of them in report.html or report.csv.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { registerSecret } from "../../src/api/http/redact";
import { buildAccessReport } from "../../src/core/report/access-report";
import type { LiveRule } from "../../src/core/live/who";
import { writeAccessReport } from "../../src/io/workflow/steps/access-report";
import { entry, facts, inclusion } from "./render/builders";

const TOKEN = "live-token-7c1d9e0b4a2f4e11";
const PLAN_KEY = "plan-key-5e2b7d0c9a1f4b3e8d6c";

const forms = (secret: string): Record<string, string> => ({
  raw: secret,
  "lower case": secret.toLowerCase(),
  "upper case": secret.toUpperCase(),
  base64: Buffer.from(secret).toString("base64"),
  "base64 one byte in": Buffer.from(`x${secret}`).toString("base64"),
  hex: Buffer.from(secret).toString("hex"),
  "hex upper": Buffer.from(secret).toString("hex").toUpperCase(),
  "URL-encoded": [...Buffer.from(secret)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
  "JSON-escaped": [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
});

describe("the access report files", () => {
  it("hold no form of the token or the plan key echoed by the service in rule names and aliases", async () => {
    // given the secrets of the run (registered as the CLI registers them), and a service that echoes them
    registerSecret(TOKEN);
    registerSecret(PLAN_KEY);
    const echoes = [...Object.entries(forms(TOKEN)), ...Object.entries(forms(PLAN_KEY))];
    const rules: LiveRule[] = echoes.map(([name, form], i) => ({
      rule: { ...facts(`rule-${i}`, `echo ${name} ${form}`), isEnabled: true },
      list: inclusion(entry(String(i), `${form}@example.com`), entry(null, `n${i}.${form}@example.com`)),
    }));
    const report = buildAccessReport({ rules, now: "2026-11-24T08:00:00Z", tenantId: "t" });
    const dir = mkdtempSync(join(tmpdir(), "aru-report-redaction-"));
    try {
      // when the report is written
      const html = join(dir, "report.html");
      const csv = join(dir, "report.csv");
      await writeAccessReport(report, { html, csv }, "2026-11-24T08:00:00Z");

      // then neither file holds any form of either secret, and both say where they stood
      for (const file of [html, csv]) {
        const text = readFileSync(file, "utf8");
        const found = echoes.filter(([, form]) => text.includes(form)).map(([name]) => name);
        expect({ file: file.slice(dir.length + 1), found }).toEqual({ file: file.slice(dir.length + 1), found: [] });
        expect(text).toContain("[REDACTED]");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
