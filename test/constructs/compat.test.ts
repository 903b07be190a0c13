/**
 * A RuleUserList refuses, at construct time, a scope from another copy of constructs or cdktf
 * (the nested second copy an app with an older constructs used to get, which died with
 * `scope.node._scopes is not iterable`), with a message naming both copies and the npm install
 * that fixes it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { App, TerraformStack } from "cdktf";
import { Construct } from "constructs";
import { RuleUserList } from "../../src/constructs";
import { PEER_RANGES, ownCopy, satisfies } from "../../src/constructs/compat";
import { ConfigError, IncompatibleDependenciesError } from "../../src/errors";
import { REPO } from "../support/cli";

const users = [{ userId: "1", aliases: ["a@example.com"] }];

/** What constructing a RuleUserList in `scope` throws (fails the test when it does not). */
function constructionError(scope: unknown): Error {
  try {
    new RuleUserList(scope as Construct, "list", { ruleId: "r1", users });
  } catch (error) {
    return error as Error;
  }
  throw new Error("expected the RuleUserList constructor to throw");
}

describe("RuleUserList: one copy of constructs and cdktf", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "aru-compat-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses a scope built with a second copy of constructs, naming both copies and the versions to install", () => {
    // given a second, older copy of constructs, as npm nests one under an app pinned to 10.0.0
    const copy = join(dir, "node_modules", "constructs");
    cpSync(dirname(require.resolve("constructs/package.json")), copy, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(copy, "package.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(copy, "package.json"), JSON.stringify({ ...manifest, version: "10.0.0" }));
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const other = require(copy) as { Construct: typeof Construct };
    expect(other.Construct).not.toBe(Construct);
    const root = new other.Construct(undefined as unknown as Construct, "");
    const scope = new other.Construct(root, "stack");

    // when a RuleUserList is created in it
    const error = constructionError(scope);

    // then it stops there, with both copies and the fix, instead of constructs' "_scopes is not iterable"
    expect(error).toBeInstanceOf(IncompatibleDependenciesError);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.message).not.toMatch(/_scopes/);
    expect(error.message).toContain(`another copy of constructs (constructs 10.0.0 at ${copy})`);
    expect(error.message).toContain(`than alert-rule-users loads (constructs ${ownCopy("constructs").version}`);
    expect(error.message).toContain(`npm install constructs@'${PEER_RANGES.constructs}' cdktf@'${PEER_RANGES.cdktf}'`);
    expect(error.message).toContain("npm ls constructs cdktf");
  });

  it("refuses a stack of another copy of cdktf (same constructs)", () => {
    // given a stack whose class is not this package's TerraformStack but carries cdktf's stack mark
    class OtherTerraformStack extends Construct {
      constructor(scope: Construct, id: string) {
        super(scope, id);
        Object.defineProperty(this, Symbol.for("cdktf/TerraformStack"), { value: true });
      }
    }
    const stack = new OtherTerraformStack(new App(), "stack");
    expect(TerraformStack.isStack(stack)).toBe(true);

    // when / then
    const error = constructionError(stack);
    expect(error).toBeInstanceOf(IncompatibleDependenciesError);
    expect(error.message).toContain("The stack of RuleUserList 'list' was built with another copy of cdktf");
    expect(error.message).toContain(`than alert-rule-users loads (cdktf ${ownCopy("cdktf").version}`);
  });

  it("refuses a scope that is not a construct at all, saying what to pass", () => {
    expect(constructionError({ node: {} }).message).toContain("The scope of RuleUserList 'list' is not a construct: pass a TerraformStack");
  });

  it("accepts a stack of the copies it loads", () => {
    const stack = new TerraformStack(new App(), "stack");
    expect(new RuleUserList(stack, "list", { ruleId: "r1", users }).node.path).toBe("stack/list");
  });

  it("loads versions inside its own peer ranges, and those ranges are package.json's peerDependencies", () => {
    const pkg = JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { peerDependencies: Record<string, string> };
    expect(pkg.peerDependencies["constructs"]).toBe(PEER_RANGES.constructs);
    expect(pkg.peerDependencies["cdktf"]).toBe(PEER_RANGES.cdktf);
    expect(satisfies(ownCopy("constructs").version ?? "", PEER_RANGES.constructs)).toBe(true);
    expect(satisfies(ownCopy("cdktf").version ?? "", PEER_RANGES.cdktf)).toBe(true);
  });

  it.each([
    ["10.7.2", "^10.4.2", true],
    ["10.4.2", "^10.4.2", true],
    ["10.0.0", "^10.4.2", false],
    ["11.0.0", "^10.4.2", false],
    ["0.21.3", "^0.21.0", true],
    ["0.20.11", "^0.21.0", false],
    ["0.22.0", "^0.21.0", false],
    ["10.7.9", "~10.7.2", true],
    ["10.8.0", "~10.7.2", false],
    ["10.7.2", ">=10.6.0 <10.8.0", true],
    ["10.8.1", ">=10.6.0 <10.8.0", false],
    ["10.5.0", ">= 10.6.0 < 10.8.0 || ^10.4.2", true],
    ["10.8.0-pre.1", "^10.4.2", false],
    ["not-a-version", "^10.4.2", false],
  ])("satisfies(%s, %s) is %s", (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });
});
