/**
 * `resourceType: "alertrules_rule_user_list"` (docs/contract.md §11.2): a RuleUserList synthesizes the
 * native resource with its `required_providers` entry and provider block instead of a provisioner,
 * byte-stable; decodeStack reads it into the same DesiredList as the provisioner kinds; the
 * policies a declaration fails by itself fail synth, the others travel to the resource; synth
 * installs the provider into the stack directory; `movedFrom` writes the zero-write move.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { App, TerraformStack, Testing } from "cdktf";
import * as cdktn from "cdktn";
import { AlertRulesProvider, RuleUserList, RuleUserListPolicy } from "../../src/constructs";
import type { RuleUserListProps, RuleUserListPolicyProps } from "../../src/constructs";
import * as terrain from "../../src/constructs/cdktn";
import { decodeStack } from "../../src/core/declaration/decode-stack";
import { readZip } from "../../src/io/provider-package";
import { REPO } from "../support/cli";

const NATIVE = "alertrules_rule_user_list";
const VERSION = (JSON.parse(readFileSync(join(REPO, "package.json"), "utf8")) as { version: string }).version;

interface NativeResource {
  rule_id?: string;
  rule_name?: string;
  mode: string;
  allow_mass_removal: boolean;
  users: Record<string, { aliases: string[]; expires_at?: string }>;
  on_destroy?: string;
  policies?: Record<string, unknown>[];
}
interface Synthesized {
  provider?: Record<string, unknown[]>;
  terraform?: { required_providers?: Record<string, unknown> };
  resource: Record<string, Record<string, NativeResource>>;
  import?: unknown[];
  removed?: unknown[];
  moved?: unknown[];
}

const alice = { userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] };
const bob = { userId: "7", aliases: ["b${ob}%{x}@example.com"], expiresAt: "2031-12-31" };

type Decl = { id: string; props: RuleUserListProps };
type PolicyDecl = { id: string; props: RuleUserListPolicyProps };

function stackOf(lists: Decl[], policies: PolicyDecl[] = []): TerraformStack {
  const stack = new TerraformStack(Testing.app(), "stack");
  for (const p of policies) new RuleUserListPolicy(stack, p.id, p.props);
  for (const l of lists) new RuleUserList(stack, l.id, l.props);
  return stack;
}

const synthJson = (lists: Decl[], policies: PolicyDecl[] = []): Synthesized => JSON.parse(Testing.synth(stackOf(lists, policies), true)) as Synthesized;
/** The stack as `app.synth()` writes it (with the `//` metadata that carries construct paths). */
function fullSynth(lists: Decl[], policies: PolicyDecl[] = []): unknown {
  const outdir = mkdtempSync(join(tmpdir(), "aru-native-"));
  try {
    const app = new App({ outdir });
    const stack = new TerraformStack(app, "stack");
    for (const p of policies) new RuleUserListPolicy(stack, p.id, p.props);
    for (const l of lists) new RuleUserList(stack, l.id, l.props);
    app.synth();
    return JSON.parse(readFileSync(join(outdir, "stacks", "stack", "cdk.tf.json"), "utf8"));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

const native = (props: Omit<RuleUserListProps, "resourceType">): RuleUserListProps => ({ ...props, resourceType: NATIVE });

describe("RuleUserList as alertrules_rule_user_list", () => {
  it("synthesizes the native resource, the provider's required_providers entry and a provider block (snapshot)", () => {
    const stack = stackOf(
      [
        { id: "exfiltration-watch", props: native({ ruleId: "c3e0", users: [alice, bob] }) },
        { id: "mismatch-watch", props: native({ ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, onDestroy: "clear", users: [] }) },
      ],
      [{ id: "guardrails", props: { forbidRemovalsFromInclusionLists: true, exclusionListsRequireExpiry: { maxDays: 90 } } }],
    );
    // the provider's version is the package's: shown as <version>, so a release does not churn the snapshot
    expect(Testing.synth(stack, true).replace(`"version": "${VERSION}"`, '"version": "<version>"')).toMatchSnapshot();
  });

  it("carries the declaration as attributes: users keyed by user ID, templates escaped, no provisioner, version = the package's", () => {
    const json = synthJson([{ id: "watch", props: native({ ruleId: "c3e0", users: [bob, alice] }) }]);
    expect(Object.keys(json.resource)).toEqual([NATIVE]);
    const resource = Object.values(json.resource[NATIVE]!)[0]!;
    expect(resource).toEqual({
      rule_id: "c3e0",
      mode: "authoritative",
      allow_mass_removal: false,
      users: {
        "7": { aliases: ["b$${ob}%%{x}@example.com"], expires_at: "2031-12-31" },
        "9102": { aliases: ["Alice@corp.example", "alice@example.com"] },
      },
    });
    expect(json.terraform?.required_providers).toEqual({ alertrules: { source: "alert-rule-users/alertrules", version: VERSION } });
    expect(json.provider).toEqual({ alertrules: [{}] });
  });

  it("decodes into the same DesiredList as the same list carried by terraform_data and null_resource", () => {
    const policies: PolicyDecl[] = [{ id: "guardrails", props: { forbidRemovalsFromInclusionLists: true, maxUsers: 10, allowedAliasDomains: ["example.com", "corp.example"] } }];
    const lists = (resourceType: NonNullable<RuleUserListProps["resourceType"]>): Decl[] => [
      { id: "by-id", props: { ruleId: "c3e0", users: [alice, bob], resourceType } },
      { id: "by-name", props: { ruleName: 'Quote " and ${x}', mode: "additive", allowMassRemoval: true, users: [alice], resourceType } },
    ];
    const decoded = (resourceType: NonNullable<RuleUserListProps["resourceType"]>) => decodeStack("stack", fullSynth(lists(resourceType), policies));
    const nativeLists = decoded(NATIVE);
    expect(nativeLists).toEqual(decoded("terraform_data"));
    expect(nativeLists).toEqual(decoded("null_resource"));
    expect(nativeLists.map((l) => l.ruleName)).toEqual([null, 'Quote " and ${x}']);
    expect(nativeLists[0]!.users.find((u) => u.userId === "7")).toEqual(bob);
  });

  it("fails synth with the construct path for the policy checks the declaration alone decides, and carries the others", () => {
    const policies: PolicyDecl[] = [{ id: "domains", props: { allowedAliasDomains: ["example.com"] } }, { id: "size", props: { maxUsers: 1 } }];
    expect(() => synthJson([{ id: "watch", props: native({ ruleId: "c3e0", users: [alice, { userId: "8", aliases: ["c@example.com"] }] }) }], policies)).toThrow(
      /\[stack\/watch\] policy stack\/domains: allowedAliasDomains \[example\.com\]: 9102 \(Alice@corp\.example\)[^]*\[stack\/watch\] policy stack\/size: maxUsers 1: the list declares 2 users/,
    );
    // an additive list's size depends on the live list: carried, not refused
    const additive = synthJson([{ id: "watch", props: native({ ruleId: "c3e0", mode: "additive", users: [{ userId: "8", aliases: ["c@example.com"] }, { userId: "9", aliases: ["d@example.com"] }] }) }], policies);
    expect(Object.values(additive.resource[NATIVE]!)[0]!.policies).toEqual([
      { name: "stack/domains", allowed_alias_domains: ["example.com"] },
      { name: "stack/size", max_users: 1 },
    ]);
    // an expired user no longer counts
    expect(() => synthJson([{ id: "watch", props: native({ ruleId: "c3e0", users: [{ userId: "8", aliases: ["c@example.com"] }, { userId: "9", aliases: ["x@elsewhere.org"], expiresAt: "2020-01-01" }] }) }], policies)).not.toThrow();
  });

  it("refuses onDestroy and movedFrom on a provisioner resource", () => {
    expect(() => synthJson([{ id: "watch", props: { ruleId: "c3e0", users: [], resourceType: "terraform_data", onDestroy: "clear" } }])).toThrow(
      '[stack/watch] onDestroy: applies to resourceType "alertrules_rule_user_list" only',
    );
    expect(() => synthJson([{ id: "watch", props: native({ ruleId: "c3e0", users: [], onDestroy: "wipe" as never }) }])).toThrow('onDestroy: must be "keep" or "clear", got "wipe"');
  });

  it("movedFrom writes a moved block from the old resource to the new, at the same logical ID (Terraform 1.8+): no removed, no import", () => {
    const before = synthJson([{ id: "watch", props: { ruleId: "c3e0", users: [alice], resourceType: "terraform_data" } }]);
    const oldName = Object.keys(before.resource["terraform_data"]!)[0]!;
    const after = synthJson([
      { id: "watch", props: native({ ruleId: "c3e0", users: [alice], movedFrom: { resourceType: "terraform_data" } }) },
      { id: "by-name", props: native({ ruleName: "Finance", users: [], movedFrom: { resourceType: "null_resource" } }) },
    ]);
    const byName = Object.keys(after.resource[NATIVE]!).find((n) => n.startsWith("by-name"))!;
    expect(after.moved).toEqual([
      { from: `terraform_data.${oldName}`, to: `${NATIVE}.${oldName}` },
      { from: `null_resource.${byName}`, to: `${NATIVE}.${byName}` },
    ]);
    expect(after.removed).toBeUndefined();
    expect(after.import).toBeUndefined();
  });

  it("a provisioner list's triggers carry the policies that apply, as the native resource's policies, so a moved block keeps them", () => {
    // given a list under a policy, on terraform_data
    const stack = stackOf([{ id: "watch", props: { ruleId: "c3e0", users: [alice], resourceType: "terraform_data" } }]);
    new RuleUserListPolicy(stack, "domains", { allowedAliasDomains: ["example.com", "corp.example"], maxUsers: 50 });
    const provisioner = JSON.parse(Testing.synth(stack, true)) as { resource: Record<string, Record<string, { triggers_replace: Record<string, string> }>> };
    const triggers = Object.values(provisioner.resource["terraform_data"]!)[0]!.triggers_replace;
    // then the same policies as the list synthesizes on the native resource
    const nativeStack = stackOf([{ id: "watch", props: native({ ruleId: "c3e0", users: [alice] }) }]);
    new RuleUserListPolicy(nativeStack, "domains", { allowedAliasDomains: ["example.com", "corp.example"], maxUsers: 50 });
    const nativeJson = JSON.parse(Testing.synth(nativeStack, true)) as Synthesized;
    expect(JSON.parse(triggers["policies"]!)).toEqual(Object.values(nativeJson.resource[NATIVE]!)[0]!.policies);
  });

  it("movedFrom with: import writes a removed block (destroy = false) and an import block that declares the list as the configuration does, at the same logical ID", () => {
    const before = synthJson([{ id: "watch", props: { ruleId: "c3e0", users: [alice], resourceType: "terraform_data" } }]);
    const oldName = Object.keys(before.resource["terraform_data"]!)[0]!;
    const byImport = { resourceType: "terraform_data", with: "import" } as const;
    const additive = synthJson([
      { id: "by-name", props: native({ ruleName: "Engineering", users: [], movedFrom: byImport }) },
      { id: "extra", props: native({ ruleId: "c3e0", mode: "additive", users: [alice], movedFrom: byImport }) },
    ]);
    expect((additive.import as Array<{ id: string }>).map((i) => i.id).sort()).toEqual(["additive:c3e0", "name:Engineering"]);
    const after = synthJson([
      { id: "watch", props: native({ ruleId: "c3e0", users: [alice], movedFrom: byImport }) },
      { id: "by-name", props: native({ ruleName: "Finance", users: [], movedFrom: byImport }) },
    ]);
    const byName = Object.keys(after.resource[NATIVE]!).find((n) => n.startsWith("by-name"))!;
    expect(after.removed).toEqual([
      { from: `terraform_data.${oldName}`, lifecycle: { destroy: false } },
      { from: `terraform_data.${byName}`, lifecycle: { destroy: false } },
    ]);
    expect(after.import).toEqual([
      { id: "c3e0", to: `${NATIVE}.${oldName}` },
      { id: "name:Finance", to: `${NATIVE}.${byName}` },
    ]);
    // from null_resource, the stack keeps hashicorp/null: Terraform needs it to forget the old resource
    const fromNull = synthJson([{ id: "watch", props: native({ ruleId: "c3e0", users: [], movedFrom: { resourceType: "null_resource", with: "import" } }) }]);
    expect(Object.keys(fromNull.terraform?.required_providers ?? {}).sort()).toEqual(["alertrules", "null"]);
  });

  it("uses the stack's own AlertRulesProvider instead of adding one", () => {
    const stack = new TerraformStack(Testing.app(), "stack");
    new RuleUserList(stack, "watch", native({ ruleId: "c3e0", users: [] }));
    new AlertRulesProvider(stack, "tenant", { maxRps: 5, url: "https://alerts.example.com" });
    const json = JSON.parse(Testing.synth(stack, true)) as Synthesized;
    expect(json.provider).toEqual({ alertrules: [{ max_rps: 5, url: "https://alerts.example.com" }] });
  });

  it("installs the provider into the stack directory at synth, and synthesizes the same bytes every time", () => {
    const outdir = mkdtempSync(join(tmpdir(), "aru-native-synth-"));
    try {
      const synth = (): string => {
        const app = new App({ outdir });
        new RuleUserList(new TerraformStack(app, "alert-rules"), "watch", native({ ruleId: "c3e0", users: [alice, bob] }));
        app.synth();
        return readFileSync(join(outdir, "stacks", "alert-rules", "cdk.tf.json"), "utf8");
      };
      const first = synth();
      expect(synth()).toBe(first);
      const provider = join(outdir, "stacks", "alert-rules", "terraform.d", "plugins", "registry.terraform.io", "alert-rule-users", "alertrules");
      const [zip] = readdirSync(provider);
      expect(zip).toMatch(new RegExp(`^terraform-provider-alertrules_${VERSION.replace(/\./g, "\\.")}_[a-z]+_[a-z0-9]+\\.zip$`));
      const files = readZip(readFileSync(join(provider, zip!)));
      expect(files.find((f) => f.name === `terraform-provider-alertrules_v${VERSION}`)?.mode).toBe(0o755);
      // the package (no path of this machine or checkout in it): docs/provider.md "Install"
      for (const file of files) for (const path of [outdir, join(__dirname, "..", ".."), process.execPath]) expect(file.data.includes(Buffer.from(path))).toBe(false);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  });

  it("copies the lock file committed beside the app into the stack directory at synth (cdktf.out is git-ignored)", () => {
    const appDir = mkdtempSync(join(tmpdir(), "aru-native-lock-"));
    const was = process.cwd();
    try {
      // given the app's directory, with its committed lock file, as the directory the app runs in
      const lock = 'provider "registry.terraform.io/alert-rule-users/alertrules" {\n  version = "0.0.0"\n}\n';
      writeFileSync(join(appDir, ".terraform.lock.hcl"), lock);
      process.chdir(appDir);
      // when
      const app = new App({ outdir: join(appDir, "cdktf.out") });
      new RuleUserList(new TerraformStack(app, "alert-rules"), "watch", native({ ruleId: "c3e0", users: [alice] }));
      app.synth();
      // then
      expect(readFileSync(join(appDir, "cdktf.out", "stacks", "alert-rules", ".terraform.lock.hcl"), "utf8")).toBe(lock);
    } finally {
      process.chdir(was);
      rmSync(appDir, { recursive: true, force: true });
    }
  });

  it("synthesizes the same native resource from alert-rule-users/cdktn", () => {
    const props = native({ ruleId: "c3e0", users: [alice, bob], movedFrom: { resourceType: "terraform_data" } });
    const fromCdktf = Testing.synth(stackOf([{ id: "watch", props }]), true);
    const stack = new cdktn.TerraformStack(cdktn.Testing.app(), "stack");
    new terrain.RuleUserList(stack, "watch", props);
    expect(JSON.parse(cdktn.Testing.synth(stack, true))).toEqual(JSON.parse(fromCdktf));
  });
});
