/**
 * resourceType (docs/contract.md §9.1): a RuleUserList synthesizes a `null_resource` (default) or
 * Terraform's built-in `terraform_data`, with the same triggers (in `triggers_replace`) and the
 * same provisioner; `decodeStack` reads both kinds.
 */
import { TerraformStack, Testing } from "cdktf";
import { RuleUserList } from "../../src/constructs";
import { decodeStack } from "../../src/core/declaration/decode-stack";
import { CHUNKED_TRIGGER_FORMAT, ENV_USERS_CHUNKS, TRIGGER_FORMAT, USERS_CHUNK_BYTES, utf8Length } from "../../src/core/declaration";
import type { RuleUserListProps } from "../../src/constructs";

type LocalExec = { command: string; environment: Record<string, string> };
interface Resource {
  triggers?: Record<string, string>;
  triggers_replace?: Record<string, string>;
  provisioner: { "local-exec": LocalExec }[];
}
interface Synthesized {
  provider?: Record<string, unknown>;
  terraform?: { required_providers?: Record<string, unknown> };
  resource: Record<string, Record<string, Resource>>;
}

const alice = { userId: "9102", aliases: ["alice@example.com", "Alice@corp.example"] };
const bob = { userId: "7", aliases: ["b${ob}@example.com"] };

function synthOne(props: RuleUserListProps): Synthesized {
  const stack = new TerraformStack(Testing.app(), "stack");
  new RuleUserList(stack, "watch", props);
  return JSON.parse(Testing.synth(stack, true)) as Synthesized;
}

function only(resources: Record<string, Resource> | undefined): Resource {
  const values = Object.values(resources ?? {});
  expect(values).toHaveLength(1);
  return values[0]!;
}

describe("resourceType", () => {
  it("terraform_data carries the null_resource's triggers in triggers_replace, with the same provisioner and no provider", () => {
    // given the same list as each resource type
    const props = { ruleId: "c3e0", users: [alice, bob] };
    const nullJson = synthOne(props);
    const dataJson = synthOne({ ...props, resourceType: "terraform_data" });
    // then
    const nullResource = only(nullJson.resource["null_resource"]);
    const data = only(dataJson.resource["terraform_data"]);
    expect(Object.keys(dataJson.resource)).toEqual(["terraform_data"]);
    expect(data.triggers_replace).toEqual(nullResource.triggers);
    const nullExec = nullResource.provisioner[0]!["local-exec"];
    const dataExec = data.provisioner[0]!["local-exec"];
    expect(dataExec.command).toBe(nullExec.command);
    expect(dataExec.environment).toEqual(
      Object.fromEntries(Object.entries(nullExec.environment).map(([k, v]) => [k, v.replace("${self.triggers.", "${self.triggers_replace.")])),
    );
    // and no provider is declared (terraform init downloads nothing), while null_resource has hashicorp/null
    expect(dataJson.provider).toBeUndefined();
    expect(dataJson.terraform?.required_providers).toBeUndefined();
    expect(Object.keys(nullJson.provider ?? {})).toEqual(["null"]);
  });

  it("synthesizes terraform_data (snapshot)", () => {
    const stack = new TerraformStack(Testing.app(), "stack");
    new RuleUserList(stack, "exfiltration-watch", { ruleId: "c3e0", resourceType: "terraform_data", users: [alice, bob] });
    new RuleUserList(stack, "mismatch-watch", { ruleName: "File type mismatch", mode: "additive", allowMassRemoval: true, resourceType: "terraform_data", users: [] });
    expect(Testing.synth(stack, true)).toMatchSnapshot();
  });

  it("defaults to null_resource", () => {
    const json = synthOne({ ruleId: "c3e0", users: [] });
    expect(Object.keys(json.resource)).toEqual(["null_resource"]);
  });

  it("refuses an unknown resourceType at synth, with the construct path", () => {
    expect(() => synthOne({ ruleId: "c3e0", users: [], resourceType: "aws_instance" as never })).toThrow(
      '[stack/watch] resourceType: "aws_instance" is not a resource type; use "terraform_data"',
    );
  });

  it("decodeStack reads both kinds from one stack, each under its construct path", () => {
    // given one list of each type
    const stack = new TerraformStack(Testing.app(), "stack");
    new RuleUserList(stack, "by-null", { ruleId: "1", users: [alice] });
    new RuleUserList(stack, "by-data", { ruleName: "Exfiltration", mode: "additive", resourceType: "terraform_data", users: [bob] });
    Testing.synth(stack, true); // runs the aspects and validations
    const json = JSON.parse(JSON.stringify(stack.toTerraform())) as Synthesized; // with cdktf's metadata, as `cdktf synth` writes it
    // when decoded
    const lists = decodeStack("stack", json);
    // then both declarations come back, each under its construct path
    expect(lists.map((l) => [l.constructPath, l.ruleId, l.ruleName, l.mode, l.users])).toEqual([
      ["stack/by-data", null, "Exfiltration", "additive", [{ userId: "7", aliases: ["b${ob}@example.com"] }]],
      ["stack/by-null", "1", null, "authoritative", [{ userId: "9102", aliases: ["Alice@corp.example", "alice@example.com"] }]],
    ]);
    // and a hand-edited terraform_data is refused naming triggers_replace
    const [name] = Object.keys(json.resource["terraform_data"]!);
    json.resource["terraform_data"]![name!]!.triggers_replace!["allow_mass_removal"] = "yes";
    expect(() => decodeStack("stack", json)).toThrow(`[stack/by-data (stack stack, terraform_data.${name})] triggers_replace.allow_mass_removal: must be "true" or "false", got "yes"`);
  });
});

describe("a big list in chunks", () => {
  const many = Array.from({ length: 3_000 }, (_, i) => ({ userId: `u${i}`, aliases: [`person${i}@example.com`, `p${i}@corp.example.com`] }));

  it("keeps a list that fits one chunk in format 1, byte-identical to before", () => {
    const triggers = only(synthOne({ ruleId: "c3e0", users: [alice] }).resource["null_resource"]).triggers!;
    expect(triggers["alert_rule_users_format"]).toBe(TRIGGER_FORMAT);
    expect(Object.keys(triggers).sort()).toEqual(["alert_rule_users_format", "allow_mass_removal", "mode", "rule_id", "rule_name", "users"]);
  });

  it("splits a bigger one into chunks under the limit, one variable each, and decodes it back", () => {
    // when 3,000 users are synthesized
    const json = synthOne({ ruleId: "c3e0", resourceType: "terraform_data", users: many });
    const resource = only(json.resource["terraform_data"]);
    const triggers = resource.triggers_replace!;
    // then the users are in users_0..n-1, each at most one chunk
    const count = Number(triggers["users_chunks"]);
    expect(triggers["alert_rule_users_format"]).toBe(CHUNKED_TRIGGER_FORMAT);
    expect(count).toBeGreaterThan(1);
    expect(triggers["users"]).toBeUndefined();
    for (let i = 0; i < count; i++) expect(utf8Length(triggers[`users_${i}`]!)).toBeLessThanOrEqual(USERS_CHUNK_BYTES);
    // and the provisioner passes each chunk and the count in its own variable
    const environment = resource.provisioner[0]!["local-exec"].environment;
    expect(environment[ENV_USERS_CHUNKS.count]).toBe("${self.triggers_replace.users_chunks}");
    expect(environment[ENV_USERS_CHUNKS.chunk(count - 1)]).toBe(`\${self.triggers_replace.users_${count - 1}}`);
    expect(environment[ENV_USERS_CHUNKS.whole]).toBeUndefined();
    // and decodeStack reassembles the list
    const [list] = decodeStack("stack", json);
    expect(list!.users).toHaveLength(3_000);
    expect(list!.users.find((u) => u.userId === "u2999")?.aliases).toEqual(["p2999@corp.example.com", "person2999@example.com"]);
  });

  it("refuses a chunk that is missing or extra, naming the trigger", () => {
    const json = synthOne({ ruleId: "c3e0", resourceType: "terraform_data", users: many });
    const triggers = only(json.resource["terraform_data"]).triggers_replace!;
    const count = Number(triggers["users_chunks"]);
    const missing = structuredClone(json);
    delete only(missing.resource["terraform_data"]).triggers_replace![`users_1`];
    expect(() => decodeStack("stack", missing)).toThrow(`triggers_replace.users_1: is missing (triggers_replace.users_chunks is ${count})`);
    const extra = structuredClone(json);
    only(extra.resource["terraform_data"]).triggers_replace![`users_${count}`] = "[]";
    expect(() => decodeStack("stack", extra)).toThrow(`triggers_replace.users_${count}: is set, but triggers_replace.users_chunks is ${count}`);
  });
});
