/**
 * One truth in every page (issue 49): the claims the pages make about the provider's install (the
 * lock file, Node.js, the launcher, the platforms, the plugin cache, the release), each held here
 * as a statement, what a page that contradicts it would say, and the pages that must say it. A
 * page that writes a contradiction, or a page that must state a claim and does not, fails this
 * test, naming the page, the claim and the line. The pages of docs/provider/ are generated
 * (`npm run docs:provider`); their templates are read too.
 */
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { REPO } from "../support/cli";

/** Every page that speaks of the provider, its install or its lock file. */
function pages(): string[] {
  const under = (dir: string): string[] =>
    readdirSync(join(REPO, dir)).flatMap((name) => {
      const path = join(dir, name);
      return statSync(join(REPO, path)).isDirectory() ? under(path) : path.endsWith(".md") ? [path] : [];
    });
  // docs/performance.md is a log of measurements as they were (dated), not a statement of what is
  return ["README.md", "src/simulator/README.md", ...under("docs"), ...under("templates")].filter((p) => p !== "docs/performance.md" && existsSync(join(REPO, p))).sort();
}

interface Claim {
  /** What is true, in one sentence. */
  readonly statement: string;
  /** What a page that contradicts it writes. */
  readonly contradictions: readonly RegExp[];
  /** Pages that must state it, each with what stating it looks like. */
  readonly statedBy: ReadonlyArray<readonly [page: string, stated: RegExp]>;
}

const COMMIT_LOCK = /[Cc]ommit(?:s|ted)?\s+(?:it|`\.terraform\.lock\.hcl`|the lock file)|\.terraform\.lock\.hcl`?[^.\n]*:\s*commit it/;

const CLAIMS: readonly Claim[] = [
  {
    statement: "The lock file is committed: its hashes are the same on every machine.",
    contradictions: [/keep[^.]*\.terraform\.lock\.hcl[^.]*out\s+of\s+git/i, /\.terraform\.lock\.hcl[^.\n]*(?:git-?ignored|in \.gitignore)/i, /\(state, plans, `\.terraform\/`, `terraform\.d\/`, the lock file\)/],
    statedBy: [
      ["README.md", COMMIT_LOCK],
      ["docs/provider.md", COMMIT_LOCK],
      ["docs/provider-migration.md", COMMIT_LOCK],
      ["docs/provider/guides/upgrading.md", /Commit `\.terraform\.lock\.hcl`/],
    ],
  },
  {
    statement: "One route writes the lock file: Terraform's `terraform providers lock`, for every platform of the release (`provider lock` runs it).",
    contradictions: [/`h1:` and `zh:` hashes of (?:all|the) (?:four|five) platforms/, /records all four platforms/, /terraform init -upgrade` \(the lock file records the new version/],
    statedBy: [
      ["docs/provider.md", /One route writes the lock file every page uses/],
      ["docs/provider/guides/upgrading.md", /provider install --lock/],
    ],
  },
  {
    statement: "A command that writes a lock file for a list of platforms names all five: linux_amd64, linux_arm64, darwin_amd64, darwin_arm64, windows_amd64.",
    contradictions: [/-platform=darwin_arm64(?![^\n]*-platform=windows_amd64)(?!\s*\\?\n\s*-platform=windows_amd64)/],
    statedBy: [
      ["README.md", /-platform=windows_amd64/],
      ["docs/provider.md", /-platform=windows_amd64/],
    ],
  },
  {
    statement: "Linux and Windows packages are self-contained executables (no Node.js where Terraform runs); only macOS needs `node` 20 or later on PATH.",
    contradictions: [/small shell script/, /absolute path of the Node\.js that ran the command/, /runs with Node\.js: `npx/, /Linux and macOS only/, /\*\*Not Windows\*\*/, /there is no Windows package/, /no windows_amd64 package/i],
    statedBy: [
      ["README.md", /no Node\.js on Linux and Windows/],
      ["docs/provider.md", /\*\*Which platforms need `node` on PATH\*\*: macOS only/],
      ["docs/provider-migration.md", /on Linux and Windows a self-contained\s+executable/],
      ["docs/provider/index.md", /On Linux and Windows it is a self-contained executable/],
    ],
  },
  {
    statement: "The launcher written on Linux where the executable is not at hand is not the release's package: its h1: is no release's, so a lock file refuses it.",
    contradictions: [/the launcher package \(the darwin one/, /its `h1:`\s+is not the release's\)/],
    statedBy: [["docs/provider.md", /\*\*not the release's package\*\*: its `h1:` is no release's/]],
  },
  {
    statement: "provider install writes the release's zip (the packed layout), so Terraform copies it into any plugin cache and never links into a project.",
    contradictions: [/writes the package into the cache as a directory of its own/, /alertrules\/VERSION\/OS_ARCH\/`,?\s*(?:where|\(and)/],
    statedBy: [
      ["docs/provider.md", /\*\*packed\*\* layout/],
      ["docs/provider/guides/troubleshooting.md", /writes the release's zip/],
    ],
  },
  {
    statement: "A release stores each zip once: the mirror holds links to the release's zips.",
    contradictions: [/the mirror holds the zips too/, /`VERSION\.json` and the zips/, /four zips/],
    statedBy: [
      ["docs/provider.md", /a relative link to each zip/],
      ["README.md", /five zips/],
    ],
  },
  {
    statement: "A move from terraform_data or null_resource with a moved block plans no change, the policies included.",
    contradictions: [/`\+ policies` for a list a policy covers/, /or in a `\.tf` file beside\s+`cdk\.tf\.json`/],
    statedBy: [["docs/provider-migration.md", /\*\*nothing to add, change or destroy\*\*, whatever the list/]],
  },
  {
    statement: "The simulator's lists are changed for a drift trial with `simulator users add|remove`, and a simulator started through npm stops with npm.",
    contradictions: [/with the\s+simulator's API\)/],
    statedBy: [
      ["README.md", /simulator users add "Endpoint exfiltration - Engineering" 31337 mallory@example\.com/],
      ["src/simulator/README.md", /simulator users\s+add RULE USER_ID ALIAS/],
    ],
  },
];

describe("one truth in every page", () => {
  const all = pages();
  const text = new Map(all.map((p) => [p, readFileSync(join(REPO, p), "utf8")]));

  it("reads the pages that speak of the provider (and finds the ones the claims name)", () => {
    for (const claim of CLAIMS) for (const [page] of claim.statedBy) expect(all).toContain(page);
  });

  it.each(CLAIMS.map((c) => [c.statement, c] as const))("%s", (_statement, claim) => {
    const problems: string[] = [];
    for (const [page, body] of text) {
      for (const contradiction of claim.contradictions) {
        const match = contradiction.exec(body);
        if (match !== null) problems.push(`${page}:${body.slice(0, match.index).split("\n").length} contradicts it: ${JSON.stringify(match[0].slice(0, 120))}`);
      }
    }
    for (const [page, stated] of claim.statedBy) if (!stated.test(text.get(page) ?? "")) problems.push(`${page} must state it (${String(stated)}), and does not`);
    expect(problems).toEqual([]);
  });

  it("a contradiction is found, naming the page and the line (the test can fail)", () => {
    const claim = CLAIMS.find((c) => c.statement.startsWith("Linux and Windows packages"))!;
    const page = "# x\n\nThe provider is a small shell script that runs node.\n";
    expect(claim.contradictions.some((c) => c.test(page))).toBe(true);
    const lock = CLAIMS.find((c) => c.statement.startsWith("A command that writes a lock file"))!;
    expect(lock.contradictions.some((c) => c.test("terraform providers lock \\\n  -platform=linux_amd64 -platform=darwin_arm64\n"))).toBe(true);
    expect(lock.contradictions.some((c) => c.test("terraform providers lock \\\n  -platform=darwin_arm64 -platform=windows_amd64\n"))).toBe(false);
  });
});
