/**
 * `alert-rule-users provider install|package|lock` (docs/contract.md §11.1, §12.2): the native
 * Terraform provider's canonical package into DIR's implied local mirror, the release files of a
 * version, and the lock file entry of every platform (src/io/provider-install.ts,
 * src/io/provider-package).
 */
import { relative, resolve } from "node:path";
import { installCanonicalProvider } from "../../io/provider-install";
import { lockProvider, packageRelease } from "../../io/provider-package";
import { shellQuote, UsageError } from "../../io/door-words";
import { parse } from "../args";
import type { Io } from "../io";
import { commandGroup, type Subcommand } from "../service-command";

function shownPath(io: Io, dir: string): string {
  return relative(io.cwd, dir) || ".";
}

function lockLine(io: Io, lock: Awaited<ReturnType<typeof lockProvider>>): string {
  return `${lock.changed ? "Wrote" : "Unchanged:"} ${shownPath(io, lock.file)} (terraform providers lock, for ${lock.targets.join(", ")}): commit it.\n`;
}

const installCommand: Subcommand = {
  name: "install",
  summary: "Write the alertrules provider into DIR's local mirror, for an offline terraform init",
  help: `Usage: alert-rule-users provider install [DIR] [--from RELEASE] [--lock]

Writes this platform's package of the native Terraform provider (source
"alert-rule-users/alertrules", version = this package's) into DIR (default: the current
directory), where terraform init finds it by itself, as the release's zip:
  DIR/terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/
    terraform-provider-alertrules_VERSION_OS_ARCH.zip
and the same file (a hard link) under registry.opentofu.org/, where OpenTofu (tofu init) looks.
terraform init unpacks it into .terraform/providers, or into your plugin cache (plugin_cache_dir,
TF_PLUGIN_CACHE_DIR), as a copy of its own: removing DIR never breaks another project.

What it writes is the version's canonical package, the same bytes on every machine (the same
h1: hash in .terraform.lock.hcl): on Linux and Windows a self-contained executable (no Node.js
needed where Terraform runs), built here once from the pinned Node.js of the npm registry (about
30 MB fetched the first time; the built zip is kept in ~/.cache/alert-rule-users/provider) or
taken from a release with --from; on macOS a launcher and the provider's code, run with the node
(20 or later) on PATH.

Flags:
      --from RELEASE  the directory 'provider package --out' wrote (or its mirror, or one zip):
                      no build, no download; the zip is checked against the release's SHA256SUMS
      --lock          also write DIR/.terraform.lock.hcl for every platform of the release, as
                      'provider lock' does (Terraform writes it: terraform on PATH)
  -h, --help

Then, in DIR: terraform init (no network needed for this provider), terraform plan.

Example:
  npx --no alert-rule-users provider install --lock
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse("provider install", argv, { help: { type: "boolean", short: "h" }, from: { type: "string" }, lock: { type: "boolean" } }, true);
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    if (positionals.length > 1) {
      throw new UsageError(`provider install: takes one directory, got ${positionals.length} (${positionals.join(", ")}). Run 'alert-rule-users provider install --help' for usage.`);
    }
    const dir = resolve(io.cwd, positionals[0] ?? ".");
    const shown = shownPath(io, dir);
    const from = values.from === undefined ? undefined : resolve(io.cwd, values.from);
    const installed = await installCanonicalProvider({ dir, ...(from === undefined ? {} : { from }), env: io.env });
    const where = shown === "." ? installed.relativePath : `${shown}/${installed.relativePath}`;
    io.stdout.write(
      (installed.changed
        ? `Installed the alertrules provider ${installed.version} (${installed.target}): ${where}\n`
        : `The alertrules provider ${installed.version} (${installed.target}) is installed already, unchanged: ${where}\n`) +
        `The same for OpenTofu: ${shown === "." ? installed.openTofuPath : `${shown}/${installed.openTofuPath}`}\n` +
        `Package hash ${installed.h1} (${installed.needsNode ? "runs with the node, 20 or later, on PATH" : "a self-contained executable: no Node.js needed"}).\n`,
    );
    if (values.lock === true) io.stdout.write(lockLine(io, await lockProvider(dir, io.env)));
    io.stdout.write(`\nNext: ${shown === "." ? "" : `cd ${shellQuote(shown)} && `}terraform init (or tofu init)\n`);
    return 0;
  },
};

const packageCommand: Subcommand = {
  name: "package",
  summary: "Write the provider's release: five zips, SHA256SUMS, manifest and a static mirror",
  help: `Usage: alert-rule-users provider package [--out DIR]

Writes the release of this version of the provider into DIR (default: ./provider-release),
byte-identical from any install of this version:
  terraform-provider-alertrules_VERSION_OS_ARCH.zip   linux_amd64, linux_arm64, darwin_amd64,
                                                      darwin_arm64, windows_amd64
  terraform-provider-alertrules_VERSION_SHA256SUMS
  terraform-provider-alertrules_VERSION_manifest.json
  mirror/registry.terraform.io/alert-rule-users/alertrules/
    index.json, VERSION.json and a link to each zip (../../../../NAME.zip; each zip is stored
    once): a static network mirror (serve DIR/mirror over HTTPS) that is also a packed
    filesystem_mirror (docs/provider.md "Install")

The Linux and Windows executables are built from the pinned Node.js of the npm registry (fetched
the first time; the built zips are kept in ~/.cache/alert-rule-users/provider, and
ALERT_RULE_USERS_PROVIDER_CACHE moves it).

Flags:
      --out DIR   where to write (created when missing; nothing is written through a
                  symbolic link already below it)
  -h, --help
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse("provider package", argv, { help: { type: "boolean", short: "h" }, out: { type: "string" } });
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`provider package: takes no arguments (got ${positionals.join(", ")}); the directory is --out DIR.`);
    const out = resolve(io.cwd, values.out ?? "provider-release");
    const release = await packageRelease(out);
    const shown = shownPath(io, out);
    io.stdout.write(
      `Wrote the alertrules provider ${release.version} release into ${shown}:\n` +
        release.archives.map((a) => `  ${a.file}  ${(a.bytes / 1e6).toFixed(1)} MB  ${a.h1}\n`).join("") +
        `  and ${release.files.length - release.archives.length * 2} more files (SHA256SUMS, manifest, mirror/…/index.json and ${release.version}.json), and a link to each zip in the mirror\n`,
    );
    return 0;
  },
};

const lockCommand: Subcommand = {
  name: "lock",
  summary: "Write DIR/.terraform.lock.hcl with the provider's hashes of every platform",
  help: `Usage: alert-rule-users provider lock [DIR]

Sets the alert-rule-users/alertrules entry of DIR/.terraform.lock.hcl (default: the current
directory; other providers' entries are kept) to this version with the h1: hash of every
platform of the release (linux_amd64, linux_arm64, darwin_amd64, darwin_arm64, windows_amd64),
so the committed lock file passes 'terraform init -lockfile=readonly' on every machine.

Terraform writes it: this runs 'terraform providers lock' (terraform on PATH, in DIR, whose
configuration requires the provider) against a mirror of this version's packages. So the file is
byte for byte what 'terraform providers lock -fs-mirror=RELEASE/mirror' with every -platform
writes, and neither route rewrites the other's.

Flags:
  -h, --help
`,
  async run(argv: string[], io: Io): Promise<number> {
    const { values, positionals } = parse("provider lock", argv, { help: { type: "boolean", short: "h" } }, true);
    if (values.help === true) {
      io.stdout.write(this.help);
      return 0;
    }
    if (positionals.length > 1) throw new UsageError(`provider lock: takes one directory, got ${positionals.length} (${positionals.join(", ")}).`);
    const dir = resolve(io.cwd, positionals[0] ?? ".");
    io.stdout.write(lockLine(io, await lockProvider(dir, io.env)));
    return 0;
  },
};

export const providerCommand = commandGroup(
  "provider",
  "The native Terraform provider (alert-rule-users/alertrules): install, package, lock",
  "The native Terraform and OpenTofu provider of alert-rule-users: resource alertrules_rule_user_list,\ndata source alertrules_rules (docs/provider.md).",
  [installCommand, packageCommand, lockCommand],
);
