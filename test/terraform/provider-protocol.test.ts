/**
 * The protocol room with real Terraform: the test-only "echo" provider (test/provider/protocol/fixtures)
 * installed in the implied local mirror of a temporary directory, then init (offline), apply, an empty
 * second plan, an in-place update, a replacement, an `import` block with -generate-config-out, destroy.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runCommand } from "../support/cli";
import type { CliResult } from "../support/cli";
import { explain, MINUTES, TERRAFORM } from "./support";

const REPO = resolve(__dirname, "..", "..");
const FIXTURE = join(REPO, "test", "provider", "protocol", "fixtures", "echo-provider.ts");
const TERRAFORM_CALL_TIMEOUT_MS = 120_000;
const WHOLE_TEST_TIMEOUT_MS = 20 * MINUTES;

const sh = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

/** `DIR/terraform.d/plugins/...`: the implied local mirror, which `terraform init` (and `tofu init`, under its own host) reads with no CLI configuration. */
function installEcho(dir: string): void {
  const platform = `${process.platform}_${process.arch === "x64" ? "amd64" : process.arch}`;
  for (const host of ["registry.terraform.io", "registry.opentofu.org"]) {
    const target = join(dir, "terraform.d", "plugins", host, "alert-rule-users", "echo", "0.0.1", platform);
    mkdirSync(target, { recursive: true });
    const executable = join(target, "terraform-provider-echo_v0.0.1");
    writeFileSync(
      executable,
      [
        "#!/bin/sh",
        `TS_NODE_PROJECT=${sh(join(REPO, "tsconfig.json"))} exec ${sh(process.execPath)} -r ${sh(join(REPO, "node_modules", "ts-node", "register", "transpile-only"))} ${sh(FIXTURE)} "$@"`,
        "",
      ].join("\n"),
    );
    chmodSync(executable, 0o755);
  }
}

interface Item {
  value: string | null;
  version: number;
}

describe("the echo provider under real Terraform", () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const store = (): { [name: string]: Item } => JSON.parse(readFileSync(join(dir, "store.json"), "utf8")) as { [name: string]: Item };

  const terraform = async (args: string[]): Promise<CliResult> => runCommand(TERRAFORM, [...args, "-no-color"], { cwd: dir, env, timeoutMs: TERRAFORM_CALL_TIMEOUT_MS });
  const succeed = async (args: string[]): Promise<CliResult> => {
    const result = await terraform(args);
    if (result.code !== 0) throw new Error(explain(`terraform ${args.join(" ")}`, result));
    return result;
  };
  const configure = (items: string): void =>
    writeFileSync(
      join(dir, "main.tf"),
      `terraform {
  required_providers {
    echo = { source = "alert-rule-users/echo", version = "0.0.1" }
  }
}
provider "echo" {
  greeting = "hello"
}
${items}
data "echo_items" "all" {
  depends_on = [echo_item.a]
}
output "names" {
  value = data.echo_items.all.names
}
`,
    );
  const itemA = (value: string, name = "a"): string => `resource "echo_item" "a" {
  name    = "${name}"
  value   = "${value}"
  tags    = { team = "blue" }
  entries = { first = { note = "ünïcode ✓", labels = ["x", "y"] } }
}
`;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "provider-protocol-"));
    installEcho(dir);
    env = {
      // no CLI configuration: the implied local mirror is the only provider source
      TF_CLI_CONFIG_FILE: join(dir, "no-such-terraform.rc"),
      CHECKPOINT_DISABLE: "1",
      TF_IN_AUTOMATION: "1",
      TF_INPUT: "0",
      // any attempt to reach the network fails
      HTTPS_PROXY: "http://127.0.0.1:9",
      HTTP_PROXY: "http://127.0.0.1:9",
      ECHO_STORE: join(dir, "store.json"),
    };
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    "initializes offline, applies, plans empty, updates in place, replaces, imports and destroys",
    async () => {
      // given
      configure(itemA("one"));

      // init: from the implied local mirror, with no network
      const init = await succeed(["init"]);
      expect(init.stdout).toContain("Installing alert-rule-users/echo v0.0.1");

      // apply creates the item
      const created = await succeed(["apply", "-auto-approve"]);
      expect(created.stdout).toContain("Apply complete! Resources: 1 added, 0 changed, 0 destroyed.");
      expect(created.stdout).toMatch(/names = tolist\(\[\s*"a",\s*\]\)/);
      expect(store()["a"]).toMatchObject({ value: "one", version: 1 });

      // a second plan is empty
      expect((await terraform(["plan", "-detailed-exitcode"])).code).toBe(0);

      // a changed value is an in-place update, and the plan is empty after it
      configure(itemA("two"));
      const update = await terraform(["plan", "-detailed-exitcode"]);
      expect(update.code).toBe(2);
      expect(update.stdout).toContain("~ update in-place");
      expect(update.stdout).toContain("Plan: 0 to add, 1 to change, 0 to destroy.");
      await succeed(["apply", "-auto-approve"]);
      expect(store()["a"]).toMatchObject({ value: "two", version: 2 });
      expect((await terraform(["plan", "-detailed-exitcode"])).code).toBe(0);

      // a changed name is a replacement, which requires_replace asked for
      configure(itemA("two", "a2"));
      const replace = await terraform(["plan", "-detailed-exitcode"]);
      expect(replace.code).toBe(2);
      expect(replace.stdout).toContain("# forces replacement");
      expect(replace.stdout).toContain("Plan: 1 to add, 0 to change, 1 to destroy.");
      await succeed(["apply", "-auto-approve"]);
      expect(Object.keys(store()).sort()).toEqual(["a2"]);

      // an import block with -generate-config-out brings an existing item in, and then plans nothing
      writeFileSync(
        join(dir, "store.json"),
        JSON.stringify({ ...store(), c: { value: "three", tags: null, entries: { y: { note: null, labels: ["z"] } }, version: 7 } }),
      );
      configure(`${itemA("two", "a2")}
import {
  to = echo_item.c
  id = "c"
}
`);
      const generated = await succeed(["plan", "-generate-config-out=generated.tf"]);
      expect(generated.stdout).toContain("Plan: 1 to import, 0 to add, 0 to change, 0 to destroy.");
      expect(readFileSync(join(dir, "generated.tf"), "utf8")).toContain('value = "three"');
      const imported = await succeed(["apply", "-auto-approve"]);
      expect(imported.stdout).toContain("Apply complete! Resources: 1 imported, 0 added, 0 changed, 0 destroyed.");
      expect((await terraform(["plan", "-detailed-exitcode"])).code).toBe(0);

      // destroy removes both
      const destroyed = await succeed(["destroy", "-auto-approve"]);
      expect(destroyed.stdout).toContain("Destroy complete! Resources: 2 destroyed.");
      expect(store()).toEqual({});
    },
    WHOLE_TEST_TIMEOUT_MS,
  );

  it(
    "shows a diagnostic with its attribute where the configuration is invalid",
    async () => {
      // given
      configure(itemA("invalid"));
      // when
      const result = await terraform(["validate"]);
      // then
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('The value "invalid" is not allowed.');
      expect(result.stderr).toContain("Choose another value.");
      expect(result.stderr).toMatch(/with echo_item\.a,[\s\S]*value\s+= "invalid"/);
    },
    TERRAFORM_CALL_TIMEOUT_MS + 10_000,
  );
});
