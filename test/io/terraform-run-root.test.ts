/**
 * The per-command directory's root (src/io/terraform-run.ts `safeRoot`): made 0700, and refused,
 * before anything is written into it or removed from it, unless it is a real directory of this
 * user that no one else can write. On a shared /tmp another local user could otherwise make
 * `alert-rule-users-<uid>` first, as a link to a directory of theirs or as a directory anyone can
 * write, and have the provider write there or delete what it thinks are ended commands' folders.
 */
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TerraformRun, safeRoot } from "../../src/io/terraform-run";
import { configureRun } from "../../src/provider/configure";
import { providerModel } from "../../src/provider/provider-model";

const UID = process.getuid!();
let base: string;
/** The environment of a provider process whose temporary directory is the test's own. */
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  base = mkdtempSync(join(tmpdir(), "run-root-"));
  env = { TMPDIR: base };
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const rootPath = () => join(base, `alert-rule-users-${UID}`);

describe("the per-command root", () => {
  it("is made with mode 0700 where missing, and a command's directory is made inside it", () => {
    // when
    TerraformRun.current(env);
    // then
    const stat = lstatSync(rootPath());
    expect(stat.isDirectory()).toBe(true);
    expect(stat.mode & 0o777).toBe(0o700);
    expect(readdirSync(rootPath()).some((name) => name.startsWith("tf-"))).toBe(true);
  });

  it("is refused when it is a symbolic link (planted first by another user): nothing written through it, nothing deleted there", () => {
    // given a link to a directory holding what looks like an ended command's folder
    const target = join(base, "elsewhere");
    mkdirSync(join(target, "tf-999999-1"), { recursive: true });
    symlinkSync(target, rootPath());
    // when / then
    expect(() => TerraformRun.current(env)).toThrow(/run directory .*alert-rule-users-\d+ is a symbolic link, so another user could plant files in it; remove it/);
    expect(readdirSync(target)).toEqual(["tf-999999-1"]);
  });

  it("is refused when others can write it (world-writable), naming the mode", () => {
    // given
    mkdirSync(rootPath());
    chmodSync(rootPath(), 0o777);
    // when / then
    expect(() => TerraformRun.current(env)).toThrow(/is writable by other users \(mode 0777\)/);
    expect(readdirSync(rootPath())).toEqual([]);
  });

  it("is refused when group-writable too, and when it is a file", () => {
    mkdirSync(rootPath());
    chmodSync(rootPath(), 0o770);
    expect(() => safeRoot(rootPath())).toThrow(/writable by other users \(mode 0770\)/);
    const file = join(base, "a-file");
    writeFileSync(file, "");
    expect(() => safeRoot(file)).toThrow(/is not a directory/);
  });

  it("refused, fails the provider's configuration with one diagnostic and opens no session", async () => {
    // given
    symlinkSync(mkdtempSync(join(base, "t-")), rootPath());
    // when
    const configured = await configureRun(providerModel.decode({}), { ...env, ALERTS_API_URL: "http://127.0.0.1:9", ALERTS_API_TOKEN: "t0123456789abcdef", ALERTS_TENANT_ID: "t" }, base, new AbortController().signal, () => undefined);
    // then
    expect(configured.run).toBeNull();
    expect(configured.diagnostics).toEqual([expect.objectContaining({ severity: "error", summary: "Unsafe run directory", detail: expect.stringMatching(/is a symbolic link/) })]);
    expect(existsSync(join(rootPath(), "claims"))).toBe(false);
  });
});
