/**
 * The README's example (`npm run demo:report`): the simulator, examples/basic, and the page it
 * writes, opened in chromium. Its screenshot is the README's (docs/access-report.png): run with
 * UPDATE_SCREENSHOT=1 to write it again; otherwise it goes to .tmp/browser/ (gitignored).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { REPO, runCommand } from "../support/cli";

const CHROMIUM = process.env["CHROMIUM_PATH"] ?? "/usr/bin/chromium";
const OUTPUT = join(REPO, ".tmp", "browser");
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "aru-readme-report-"));
  mkdirSync(OUTPUT, { recursive: true });
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("npm run demo:report writes the page and the CSV of examples/basic against the simulator, and the page finds alice", async () => {
  // when the README's example runs
  const demo = await runCommand(process.execPath, [join(REPO, "dist", "src", "demo", "report.js"), dir], { cwd: REPO, timeoutMs: 120_000 });

  // then it wrote both files from the app's declarations
  expect(demo.stderr).toBe("");
  expect(demo.code).toBe(0);
  expect(demo.stdout).toMatch(/\d+ entries, in 7 rules, \d+ drift, 1 expiring within 14 days, 0 expired, \d+ in \d+ rules? not managed by this app\./);
  expect(readFileSync(join(dir, "access.csv"), "utf8")).toContain(",legal.review@example.com,declared,alert-rules/cloud-sharing-exceptions,2027-06-30,expiring,");

  // and the page, in chromium, answers a search
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
    await page.goto(pathToFileURL(join(dir, "access.html")).href);
    await page.getByLabel("Person (alias or user ID)").fill("alice.nguyen");
    expect(await page.locator("#count").innerText()).toBe("1 entry matches.");
    await page.getByLabel("Person (alias or user ID)").fill("");
    const shot = join(OUTPUT, "access-report.png");
    await page.screenshot({ path: shot });
    if (process.env["UPDATE_SCREENSHOT"] === "1") copyFileSync(shot, join(REPO, "docs", "access-report.png"));
    expect(existsSync(shot)).toBe(true);
  } finally {
    await browser.close();
  }
});
