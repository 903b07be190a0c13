/**
 * The access report page in a real browser (issue 23): Debian's chromium driven by playwright-core
 * (no browser download). The page is made by the built CLI against the simulator, opened over
 * file://, searched, filtered, sorted with the keyboard; and no request leaves it.
 *
 * Run with `npm run test:browser` (not part of `npm test`). CHROMIUM_PATH overrides /usr/bin/chromium.
 * The screenshot goes to .tmp/browser/ (gitignored).
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import type { Browser, Page } from "playwright-core";
import { REPO, connectionEnv, runCli, workspace } from "../support/cli";
import type { Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";
import { HOSTILE_ALIASES } from "../support/hostile-aliases";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const OUTPUT = join(REPO, ".tmp", "browser");

const sim = useSimulator();
let ws: Workspace;
let dir: string;
let page: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`no chromium at ${CHROMIUM}: install it (apt-get install -y chromium) or set CHROMIUM_PATH`);
  // given: alice excluded from cloud sharing until soon, an undeclared entry, and hostile aliases
  sim.setUsers(RULES.cloudSharing, [
    { userIdFromAuthority: "908712345678901234", userAliasList: ["alice.nguyen@example.com"] },
    { userIdFromAuthority: "908712345678902001", userAliasList: ["svc-backup@example.com"] },
    { userIdFromAuthority: "908712345678907777", userAliasList: HOSTILE_ALIASES },
  ]);
  ws = workspace([
    {
      name: "prod",
      lists: [
        {
          id: "cloud-exceptions",
          props: {
            ruleId: RULES.cloudSharing,
            users: [
              { userId: "908712345678901234", aliases: ["alice.nguyen@example.com"], expiresAt: "2026-12-05" },
              { userId: "908712345678902001", aliases: ["svc-backup@example.com"] },
            ],
          },
        },
        { id: "engineering", props: { ruleId: RULES.engineering, users: [{ userId: "908712345678901234", aliases: ["alice.nguyen@example.com"] }] } },
      ],
    },
  ]);
  dir = mkdtempSync(join(tmpdir(), "aru-report-"));
  page = join(dir, "access.html");
  const made = await runCli(["report", "--html", page, "--now", "2026-11-24T00:00:00Z"], { cwd: ws.dir, env: connectionEnv(sim) });
  if (made.code !== 0) throw new Error(`report failed: ${made.stderr}`);
  browser = await chromium.launch({ executablePath: CHROMIUM });
  mkdirSync(OUTPUT, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  ws?.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

/** The cells of the rows shown in the table of matches. */
async function shownRows(p: Page): Promise<string[][]> {
  const rows = p.locator("#results-body tr");
  const cells: string[][] = [];
  for (let i = 0; i < (await rows.count()); i += 1) cells.push(await rows.nth(i).locator("td").allInnerTexts());
  return cells;
}

describe("the access report page in chromium", () => {
  it("searches a person, filters, sorts with the keyboard, and shows hostile aliases as text", async () => {
    const p = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const problems: string[] = [];
    p.on("console", (m) => {
      if (m.type() === "error" || m.type() === "warning") problems.push(m.text());
    });
    p.on("pageerror", (e) => problems.push(e.message));

    // when the page is opened and alice is searched
    await p.goto(pathToFileURL(page).href);
    await p.getByLabel("Person (alias or user ID)").fill("ALICE.nguyen");

    // then her two entries are listed, with who declared them and her expiry
    const alice = await shownRows(p);
    expect(alice.map((r) => [r[0], r[2], r[4], r[5], r[6]])).toEqual([
      ["Cloud sharing outside the company", "908712345678901234", "declared", "prod/cloud-exceptions", "2026-12-05 (expiring)"],
      ["Endpoint exfiltration - Engineering", "908712345678901234", "declared", "prod/engineering", ""],
    ]);
    expect(await p.locator("#count").innerText()).toBe("2 entries match.");

    // when the search is cleared and "drift" is ticked
    await p.getByLabel("Person (alias or user ID)").fill("");
    await p.getByLabel("drift (not declared, or not in the live list)").check();
    await p.getByLabel("Rule", { exact: true }).selectOption({ label: "Cloud sharing outside the company" });

    // then only the entry no construct declares is left, its hostile aliases shown as text
    const drift = await shownRows(p);
    expect(drift).toHaveLength(1);
    expect(drift[0]![2]).toBe("908712345678907777");
    expect(drift[0]![4]).toBe("not declared");
    expect(drift[0]![3]).toContain('<img src=x onerror="window.__pwned=1">@evil.example.com');
    expect(drift[0]![3]).toContain("bob\\u200b@example.com");
    expect(drift[0]![3]).not.toMatch(/[\u200b\u202e]/);
    expect(await p.evaluate("typeof window.__pwned")).toBe("undefined");
    expect(await p.locator("#results-body img, #results-body script").count()).toBe(0);

    // when a search holds markup, or names a construct rather than a person
    await p.getByLabel("drift (not declared, or not in the live list)").uncheck();
    await p.getByLabel("Person (alias or user ID)").fill('<IMG src=x onerror="');
    // then the markup is searched as text; a construct path is not a person
    expect((await shownRows(p)).map((r) => r[2])).toEqual(["908712345678907777"]);
    await p.getByLabel("Person (alias or user ID)").fill("prod/cloud-exceptions");
    expect(await p.locator("#count").innerText()).toBe("0 entries match.");
    await p.getByLabel("Person (alias or user ID)").fill("");

    // when the filters are reset and User ID is sorted from the keyboard, twice
    await p.getByLabel("Rule", { exact: true }).selectOption({ label: "every rule" });
    await p.getByRole("button", { name: "User ID" }).focus();
    await p.keyboard.press("Enter");
    await p.keyboard.press("Enter");

    // then the column says how it is sorted and the rows follow
    expect(await p.locator("th[data-key=id]").getAttribute("aria-sort")).toBe("descending");
    const ids = (await shownRows(p)).map((r) => r[2]!).filter((id) => id !== "(no user ID)");
    expect(ids).toEqual([...ids].sort().reverse());
    // and the counts per rule follow the filters
    expect(await p.locator("#rules td.shown").first().innerText()).toMatch(/^\d+$/);

    // when only entries of rules the app does not manage are asked for (issue 32)
    await p.getByLabel("not managed by this app").check();
    const unmanaged = await shownRows(p);
    // then they are there, none of the two managed rules, each "not managed by this app"
    expect(unmanaged.length).toBeGreaterThan(0);
    expect(unmanaged.filter((r) => r[0] === "Cloud sharing outside the company" || r[0] === "Endpoint exfiltration - Engineering")).toEqual([]);
    expect(new Set(unmanaged.map((r) => r[4]))).toEqual(new Set(["not managed by this app"]));
    await p.getByLabel("not managed by this app").uncheck();

    await p.getByLabel("Person (alias or user ID)").fill("alice");
    await p.screenshot({ path: join(OUTPUT, "report.png"), fullPage: true });
    expect(problems).toEqual([]);
    await p.close();
  });

  it("searches the text of the cells, not the markup around it: 'td' and 'br' find only the aliases that hold them, 'quot' none (issue 31 item 9)", async () => {
    const p = await browser.newPage();
    await p.goto(pathToFileURL(page).href);
    const search = p.getByLabel("Person (alias or user ID)");
    // "td" is in one alias's text (a hostile one holds "<td>forged"), and in the markup of every row
    await search.fill("td");
    expect((await shownRows(p)).map((r) => r[2])).toEqual(["908712345678907777"]);
    // "br" is in one alias's text (jamal.brooks), and in the markup between the aliases of the
    // hostile row (<br>); "quot" only in the markup (&quot;)
    await search.fill("br");
    expect((await shownRows(p)).map((r) => r[2])).toEqual(["908712345678904003"]);
    await search.fill("quot");
    expect(await p.locator("#count").innerText()).toBe("0 entries match.");
    await p.close();
  });

  it("sends no request: the only one the page makes is its own file", async () => {
    const context = await browser.newContext();
    const requests: string[] = [];
    context.on("request", (r) => requests.push(r.url()));
    await context.route("**/*", (route) => (route.request().url().startsWith("file:") ? route.continue() : route.abort()));
    const p = await context.newPage();
    const violations: string[] = [];
    await p.exposeFunction("reportViolation", (v: string) => violations.push(v));
    await p.addInitScript({ content: 'document.addEventListener("securitypolicyviolation", (e) => void window.reportViolation(e.violatedDirective + " " + e.blockedURI));' });

    // when the page is opened and used
    await p.goto(pathToFileURL(page).href);
    await p.getByLabel("Person (alias or user ID)").fill("evil");
    await p.getByLabel("expired").check();
    await p.getByLabel("expired").uncheck();
    await p.waitForLoadState("networkidle");

    // then nothing was requested but the page, and the policy refused nothing (the inline script and style are allowed by hash)
    expect(requests).toEqual([pathToFileURL(page).href]);
    expect(violations).toEqual([]);
    const csp = await p.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content");
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+';/);
    await context.close();
  });

  it("is a plain table with JavaScript off", async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const p = await context.newPage();

    // when
    await p.goto(pathToFileURL(page).href);

    // then every entry is in the table, grouped by rule, and the search is not offered
    expect(await p.locator("#app").isVisible()).toBe(false);
    const groups = await p.locator("#all-table th[scope=rowgroup]").allInnerTexts();
    expect(groups).toContain("Cloud sharing outside the company · exclusion list · " + RULES.cloudSharing + " · 3 entries");
    expect(await p.locator("#all-table tr[data-k]").count()).toBeGreaterThan(10);
    await context.close();
  });
});
