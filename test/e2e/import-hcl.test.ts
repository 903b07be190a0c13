/**
 * `alert-rule-users import --format hcl` end to end against the simulator's sample tenant: the
 * file it writes reads back (test/support/hcl-reader.ts) as one resource and import block per
 * editable rule with the live users, is byte-identical on a second run, holds no token, and sends
 * no write. (`terraform plan` on it: test/terraform/native-import-hcl.test.ts.)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useSimulator } from "../support/simulator";
import { connectionEnv, runCli, writesOf } from "../support/cli";
import { RULES } from "../support/sample";
import { readHcl } from "../support/hcl-reader";

const TOKEN = "import-hcl-token-81f2a9";
const sim = useSimulator({ token: TOKEN });
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "aru-import-hcl-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[]) => runCli(["import", ...args], { cwd: dir, env: connectionEnv(sim), timeoutMs: 120_000 });

describe("import --format hcl", () => {
  it("writes a resource and an import block per editable rule with the live users, the same bytes on every run, sending no write", async () => {
    // when
    const first = await run(["--all", "--format", "hcl", "--out", "lists.tf"]);
    const text = readFileSync(join(dir, "lists.tf"), "utf8");
    // (into a directory of its own: beside lists.tf, which configures the provider, it would leave the provider's blocks out)
    mkdirSync(join(dir, "again"));
    const second = await run(["--all", "--format", "hcl", "--out", join("again", "lists.tf")]);
    // then
    expect(first.code).toBe(0);
    expect(second.code).toBe(0);
    expect(readFileSync(join(dir, "again", "lists.tf"), "utf8")).toBe(text);
    expect(first.stderr).toContain("Wrote lists.tf.");
    expect(first.stderr).toContain("npx --no alert-rule-users provider install, terraform init, then terraform plan");
    expect(text + first.stdout + first.stderr).not.toContain(TOKEN);
    expect(writesOf(sim.requestCounts())).toEqual({});

    const config = readHcl(text);
    const resources = config.blocks.filter((b) => b.type === "resource");
    const engineering = resources.find((r) => r.attributes["rule_id"] === RULES.engineering)!;
    const live = sim.rule(RULES.engineering)!.users;
    expect(Object.keys(engineering.attributes["users"] as object).sort()).toEqual(live.map((u) => u.userIdFromAuthority).sort());
    // system and all-users rules are comments only
    for (const id of [RULES.departing, RULES.highRisk, RULES.allUsers]) expect(resources.some((r) => r.attributes["rule_id"] === id)).toBe(false);
    // entries without IDs: additive
    expect(resources.find((r) => r.attributes["rule_id"] === RULES.research)!.attributes["mode"]).toBe("additive");
    const imports = config.blocks.filter((b) => b.type === "import");
    // an additive list (here the one with entries without a user ID) is imported as additive
    expect(imports.map((b) => b.attributes["id"]).sort()).toEqual(resources.map((r) => `${r.attributes["mode"] === "additive" ? "additive:" : ""}${r.attributes["rule_id"] as string}`).sort());
  }, 240_000);

  it("prints the configuration on stdout without --out, and refuses --function-name with --format hcl", async () => {
    const out = await run(["--rule", RULES.legal, "--format", "hcl"]);
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`id = "${RULES.legal}"`);
    const refused = await run(["--all", "--format", "hcl", "--function-name", "x"]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("--function-name names the function of a TypeScript module");
    const bad = await run(["--all", "--format", "yaml"]);
    expect(bad.stderr).toContain("--format must be one of ts, hcl");
  }, 240_000);
});
