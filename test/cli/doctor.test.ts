/**
 * `alert-rule-users doctor` (issue 32): each of the seven connection mistakes a new user made is
 * found against the simulator, on its own line, with what to do; a check that does not apply (no
 * cdktf.json) is skipped with its reason; exit 0 only when nothing failed. Run in-process (the
 * subject is the checks, not the process); the app's synth and `terraform version` are real
 * child processes (a stand-in terraform on PATH, so the test does not depend on one installed).
 */
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { main } from "../../src/cli/main";
import type { Io } from "../../src/cli/io";
import type { DoctorCheck } from "../../src/core/doctor/doctor";
import { closedPortUrl } from "../api/helpers";
import { captureStream } from "../support/capture-stream";
import { workspace, type Workspace } from "../support/cli";
import { useSimulator } from "../support/simulator";
import { RULES } from "../support/sample";
import { runMain } from "../support/run-main";

const sim = useSimulator();

let scratch: string;
let fakeBin: string;
let emptyDir: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), "aru-doctor-"));
  fakeBin = join(scratch, "bin");
  emptyDir = join(scratch, "empty");
  mkdirSync(fakeBin);
  mkdirSync(emptyDir);
  // A stand-in terraform: doctor only asks it for its version.
  writeFileSync(join(fakeBin, "terraform"), "#!/bin/sh\necho 'Terraform v1.11.4'\necho 'on linux_amd64'\n");
  chmodSync(join(fakeBin, "terraform"), 0o755);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Doctor {
  code: number;
  stdout: string;
  byCheck: Record<string, DoctorCheck>;
}

async function doctor(env: NodeJS.ProcessEnv, cwd: string = emptyDir, args: string[] = []): Promise<Doctor> {
  const { code, stdout } = await runMain(["doctor", "--format", "json", ...args], cwd, { PATH: `${fakeBin}${delimiter}${process.env["PATH"] ?? ""}`, ...env });
  const document = JSON.parse(stdout) as { ok: boolean; checks: DoctorCheck[] };
  expect(document.ok).toBe(code === 0);
  return { code, stdout, byCheck: Object.fromEntries(document.checks.map((c) => [c.check, c])) };
}

const connection = (over: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  ALERTS_API_URL: sim.url,
  ALERTS_API_TOKEN: sim.token,
  ALERTS_TENANT_ID: sim.tenantId,
  ...over,
});

describe("the seven connection mistakes, each found with what to do", () => {
  it("1. https:// against the plain-HTTP simulator: 'this server speaks plain http: use http://…'", async () => {
    const result = await doctor(connection({ ALERTS_API_URL: sim.url.replace(/^http:/, "https:") }));
    expect(result.code).toBe(1);
    expect(result.byCheck["connection"]).toMatchObject({ status: "fail", message: expect.stringMatching(/speaks plain http/), fix: `use http://…: ${sim.url}` });
    expect(result.byCheck["token"]).toMatchObject({ status: "skip" });
  });

  it("2. a base URL ending in /v1: 'remove the /v1'", async () => {
    const result = await doctor(connection({ ALERTS_API_URL: `${sim.url}/v1` }));
    expect(result.code).toBe(1);
    expect(result.byCheck["base-url"]).toMatchObject({ status: "fail", message: expect.stringMatching(/ends in \/v1/), fix: `remove the /v1: ${sim.url}` });
  });

  it("3. a host name that does not resolve (DNS)", async () => {
    const result = await doctor(connection({ ALERTS_API_URL: "http://alert-rule-users-doctor.invalid:8080" }));
    expect(result.byCheck["connection"]).toMatchObject({ status: "fail", message: expect.stringMatching(/does not resolve \(DNS/), fix: expect.stringMatching(/host name/) });
  });

  describe("4. a TLS certificate that is not trusted", () => {
    let server: https.Server;
    let url: string;
    beforeAll(async () => {
      const key = join(scratch, "key.pem");
      const cert = join(scratch, "cert.pem");
      execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=localhost", "-keyout", key, "-out", cert], { stdio: "ignore" });
      server = https.createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => res.end("{}"));
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it("is named, with NODE_EXTRA_CA_CERTS as the way to trust a private CA", async () => {
      const result = await doctor(connection({ ALERTS_API_URL: url }));
      expect(result.byCheck["connection"]).toMatchObject({
        status: "fail",
        message: expect.stringMatching(/TLS certificate is not accepted \(DEPTH_ZERO_SELF_SIGNED_CERT\)/),
        fix: expect.stringMatching(/NODE_EXTRA_CA_CERTS/),
      });
    });
  });

  it("5. a refused port: 'is the simulator running?'", async () => {
    const result = await doctor(connection({ ALERTS_API_URL: await closedPortUrl() }));
    expect(result.byCheck["connection"]).toMatchObject({ status: "fail", message: expect.stringMatching(/connection refused/), fix: expect.stringMatching(/^is the simulator running\?/) });
  });

  it("6. a token the service refuses", async () => {
    const result = await doctor(connection({ ALERTS_API_TOKEN: "not-the-simulator-token" }));
    expect(result.code).toBe(1);
    expect(result.byCheck["connection"]).toMatchObject({ status: "pass" });
    expect(result.byCheck["token"]).toMatchObject({ status: "fail", message: expect.stringMatching(/token was refused \(401/), fix: expect.stringMatching(/ALERTS_API_TOKEN/) });
    expect(result.stdout).not.toContain("not-the-simulator-token");
  });

  it("7. a tenant that is not the token's", async () => {
    const result = await doctor(connection({ ALERTS_TENANT_ID: "some-other-tenant" }));
    expect(result.code).toBe(1);
    expect(result.byCheck["token"]).toMatchObject({ status: "pass" });
    expect(result.byCheck["tenant"]).toMatchObject({ status: "fail", message: expect.stringMatching(/refuses tenant some-other-tenant .*TENANT_MISMATCH/), fix: expect.stringMatching(/ALERTS_TENANT_ID/) });
  });
});

describe("what passes, what is skipped", () => {
  it("a right connection outside an app: every check passes but app and synth, skipped with their reason; exit 0", async () => {
    const result = await doctor(connection());
    expect(result.code).toBe(0);
    for (const check of ["node", "base-url", "connection", "token", "tenant", "rate", "terraform"]) expect(result.byCheck[check]).toMatchObject({ status: "pass" });
    expect(result.byCheck["terraform"]!.message).toBe("terraform 1.11.4");
    expect(result.byCheck["app"]).toMatchObject({ status: "skip", fix: expect.stringMatching(/not a cdktf app directory/) });
    expect(result.byCheck["synth"]).toMatchObject({ status: "skip", fix: "no cdktf.json here" });
    expect(result.byCheck["provider"]).toMatchObject({ status: "skip" });
    expect(result.stdout).not.toContain(sim.token);
  });

  it("the service's Retry-After is reported by the rate check", async () => {
    sim.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 0 });
    try {
      const result = await doctor(connection());
      expect(result.byCheck["rate"]).toMatchObject({ status: "fail", message: expect.stringMatching(/rate limited the read and asked to wait 0 s \(Retry-After\)/), fix: expect.stringMatching(/--max-rps/) });
    } finally {
      sim.setFaults({});
    }
  });

  it("no terraform on PATH is a failure that says plan and apply do not need it", async () => {
    const result = await doctor({ ...connection(), PATH: emptyDir });
    expect(result.byCheck["terraform"]).toMatchObject({ status: "fail", message: "terraform is not on PATH", fix: expect.stringMatching(/plan and apply do not/) });
  });

  it("a Terraform configuration without the provider: says where terraform init looks and how to install it", async () => {
    const dir = join(scratch, "hcl");
    mkdirSync(dir);
    writeFileSync(join(dir, "main.tf"), 'terraform {\n  required_providers {\n    alertrules = { source = "alert-rule-users/alertrules" }\n  }\n}\n');
    const result = await doctor(connection(), dir);
    expect(result.byCheck["provider"]).toMatchObject({
      status: "fail",
      message: expect.stringMatching(/\.\/terraform\.d\/plugins\/registry\.terraform\.io\/alert-rule-users\/alertrules\/terraform-provider-alertrules_\d+\.\d+\.\d+_[a-z]+_[a-z0-9]+\.zip\), and terraform init has not installed it/),
      fix: expect.stringMatching(/provider install/),
    });
  });

  describe("in an app", () => {
    let app: Workspace;
    beforeAll(() => {
      app = workspace([{ name: "alert-rules", lists: [{ id: "legal", props: { ruleId: RULES.legal, users: [{ userId: "9102", aliases: ["alice@example.com"] }] } }] }]);
    });
    afterAll(() => app.cleanup());

    it("checks cdktf.json and synthesizes (into a directory of its own: cdktf.out is not written); exit 0", async () => {
      const result = await doctor(connection(), app.dir);
      expect(result.byCheck["app"]).toMatchObject({ status: "pass", message: 'cdktf.json: app "node app.js"' });
      expect(result.byCheck["synth"]).toMatchObject({ status: "pass", message: "the app synthesizes: 1 stack, 1 rule user list" });
      expect(result.code).toBe(0);
      expect(() => readFileSync(join(app.dir, "cdktf.out", "manifest.json"))).toThrow();
    });

    it("an app that fails to synthesize fails the synth check with the app's error", async () => {
      writeFileSync(join(app.dir, "broken.js"), "throw new Error('the app is broken here');\n");
      const result = await doctor(connection(), app.dir, ["--app", "node broken.js"]);
      expect(result.code).toBe(1);
      expect(result.byCheck["synth"]).toMatchObject({ status: "fail", fix: expect.stringMatching(/alert-rule-users synth/) });
    });
  });
});

describe("text output", () => {
  it("one line per check, failures with what to do, and a last line that says how many failed", async () => {
    const out = captureStream();
    const io: Io = { stdout: out.stream, stderr: captureStream().stream, stdin: process.stdin, env: { PATH: fakeBin, ...connection({ ALERTS_API_URL: `${sim.url}/v1` }) }, cwd: emptyDir };
    const code = await main(["doctor"], io);
    expect(code).toBe(1);
    const lines = out.text().split("\n");
    expect(lines).toContainEqual(expect.stringMatching(/^FAIL base-url +ALERTS_API_URL .*ends in \/v1.*: remove the \/v1: /));
    expect(lines).toContainEqual(expect.stringMatching(/^ok {3}node +Node\.js v\d+/));
    expect(lines).toContainEqual(expect.stringMatching(/^skip app +no cdktf\.json here \(not a cdktf app directory/));
    expect(lines.at(-2)).toMatch(/^\d+ checks? failed\.$/);
  });
});
