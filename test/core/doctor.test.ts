/**
 * The verdicts of `doctor` (src/core/doctor/doctor.ts), from observations: what each line says and what
 * it tells the user to do. (test/cli/doctor.test.ts makes the observations for real.)
 */
import { baseUrlCheck, doctorPassed, mirrorPath, nodeCheck, satisfiesEngines, serviceChecks, terraformCheck, terraformTarget } from "../../src/core/doctor/doctor";

const ENGINES = "^20.9.0 || ^22.0.0 || >=24.0.0";

describe("the Node.js check reads package.json's engines range", () => {
  it.each([
    ["v20.9.0", true],
    ["v20.8.1", false],
    ["v21.7.3", false],
    ["v22.0.0", true],
    ["v23.11.0", false],
    ["v24.21.0", true],
    ["v26.1.0", true],
    ["v18.20.4", false],
  ])("%s satisfies it: %s", (version, expected) => {
    expect(satisfiesEngines(version, ENGINES)).toBe(expected);
  });

  it("fails an unsupported Node.js, saying which to install; a range it cannot read is skipped, not failed", () => {
    expect(nodeCheck("v18.20.4", ENGINES)).toMatchObject({ status: "fail", message: `Node.js v18.20.4 is not supported (supported: ${ENGINES})`, fix: expect.stringMatching(/Node\.js 22 or 24/) });
    expect(nodeCheck("v20.20.2", "20.x")).toMatchObject({ status: "skip" });
  });

  it("inside the provider's self-contained executable no Node.js is needed: skipped, saying so; an unreadable package.json is skipped, naming it", () => {
    expect(nodeCheck("v22.23.3", ENGINES, true)).toEqual({ check: "node", status: "skip", message: "no Node.js needed", fix: "this runs inside the provider's self-contained executable, which carries its own" });
    expect(nodeCheck("v22.23.3", null)).toMatchObject({ status: "skip", fix: expect.stringContaining("package.json") });
  });
});

describe("the base URL", () => {
  it.each([
    ["https://alerts.example.com/v1", "remove the /v1: https://alerts.example.com"],
    ["http://127.0.0.1:8080/v1/", "remove the /v1: http://127.0.0.1:8080"],
    ["https://gw.example.com/alerts/v1", "remove the /v1: https://gw.example.com/alerts"],
  ])("%s: %s", (url, fix) => {
    expect(baseUrlCheck(url, "ALERTS_API_URL")).toMatchObject({ status: "fail", fix });
  });

  it("passes a URL of the service's root, and says what to set when there is none", () => {
    expect(baseUrlCheck("https://alerts.example.com/", "--base-url")).toMatchObject({ status: "pass", message: "--base-url https://alerts.example.com" });
    expect(baseUrlCheck(undefined, "ALERTS_API_URL")).toMatchObject({ status: "fail", fix: expect.stringMatching(/set ALERTS_API_URL/) });
    expect(baseUrlCheck("ftp://x.example.com", "ALERTS_API_URL")).toMatchObject({ status: "fail", fix: expect.stringMatching(/https:\/\//) });
  });
});

describe("the service checks from one read", () => {
  const url = "https://alerts.example.com";
  const calm = { throttled: 0, retryAfterMs: undefined };

  it("EAI_AGAIN (the resolver did not answer) is reported as DNS too", () => {
    const [connection] = serviceChecks(url, "t", { ok: false, kind: "network", code: "EAI_AGAIN", message: "getaddrinfo EAI_AGAIN" }, calm);
    expect(connection).toMatchObject({ status: "fail", message: expect.stringMatching(/does not resolve \(DNS EAI_AGAIN\)/) });
  });

  it("a 403 that is not about the tenant is the token's roles; a 404 is the base URL's path", () => {
    const roles = serviceChecks(url, "t", { ok: false, kind: "http", status: 403, serviceCode: "FORBIDDEN", message: "no role" }, calm);
    expect(roles.find((c) => c.check === "token")).toMatchObject({ status: "fail", fix: expect.stringMatching(/role/) });
    const missing = serviceChecks(url, "t", { ok: false, kind: "http", status: 404, message: "not found" }, calm);
    expect(missing.find((c) => c.check === "connection")).toMatchObject({ status: "fail", fix: expect.stringMatching(/without \/v1/) });
  });

  it("a 429 seen fails the rate check with the wait the service asked for", () => {
    const checks = serviceChecks(url, "t", { ok: true, totalRules: 3 }, { throttled: 1, retryAfterMs: 2000 });
    expect(checks.find((c) => c.check === "rate")).toMatchObject({ status: "fail", message: expect.stringMatching(/asked to wait 2 s \(Retry-After\)/) });
    expect(doctorPassed(checks)).toBe(false);
  });
});

describe("Terraform and the provider", () => {
  it("wants terraform 1.5 or later", () => {
    expect(terraformCheck("Terraform v1.11.4")).toMatchObject({ status: "pass", message: "terraform 1.11.4" });
    expect(terraformCheck("Terraform v1.4.7")).toMatchObject({ status: "fail", fix: "install Terraform 1.5 or later" });
    expect(terraformCheck(null)).toMatchObject({ status: "fail", message: "terraform is not on PATH" });
  });

  it("looks for the provider where provider install puts it (docs/contract.md §11.1)", () => {
    expect(terraformTarget("linux", "x64")).toBe("linux_amd64");
    expect(terraformTarget("darwin", "arm64")).toBe("darwin_arm64");
    expect(terraformTarget("win32", "x64")).toBe("windows_amd64");
    expect(mirrorPath("0.1.0", "linux_amd64")).toBe("terraform.d/plugins/registry.terraform.io/alert-rule-users/alertrules/0.1.0/linux_amd64/terraform-provider-alertrules_v0.1.0");
  });
});

it("skipped checks do not fail the doctor", () => {
  expect(doctorPassed([{ check: "app", status: "skip", message: "no cdktf.json here", fix: "not a cdktf app directory" }, { check: "node", status: "pass", message: "v20" }])).toBe(true);
});
