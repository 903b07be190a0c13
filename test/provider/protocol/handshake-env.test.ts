import { checkHandshake, handshakeLine, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "../../../src/provider/protocol";

const CERT = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
const terraform = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({ [MAGIC_COOKIE_KEY]: MAGIC_COOKIE_VALUE, PLUGIN_CLIENT_CERT: CERT, ...extra });

describe("what the provider reads from Terraform's environment", () => {
  it("takes the port range Terraform gives, in order, and lets the system choose without one", () => {
    expect(checkHandshake(terraform({ PLUGIN_MIN_PORT: "10000", PLUGIN_MAX_PORT: "10002" }), "x")).toEqual({ ok: true, settings: { clientCertificatePem: CERT, ports: [10000, 10001, 10002] } });
    expect(checkHandshake(terraform(), "x")).toEqual({ ok: true, settings: { clientCertificatePem: CERT, ports: [0] } });
  });

  it.each([
    [{ PLUGIN_MIN_PORT: "20000", PLUGIN_MAX_PORT: "10000" }, "PLUGIN_MIN_PORT (20000) is greater than PLUGIN_MAX_PORT (10000)."],
    [{ PLUGIN_MIN_PORT: "ten" }, 'PLUGIN_MIN_PORT must be a port number (0 to 65535), not "ten".'],
    [{ PLUGIN_PROTOCOL_VERSIONS: "5" }, "The x provider speaks Terraform's plugin protocol 6, but this Terraform offers only 5: use Terraform 1.0 or later, or OpenTofu."],
    [{ PLUGIN_CLIENT_CERT: "not pem" }, "The x provider needs Terraform's client certificate (PLUGIN_CLIENT_CERT) for mutual TLS, and it is not a PEM certificate: use Terraform 0.12 or later, which always sends one."],
  ])("refuses %o with a sentence saying how to fix it", (extra, reason) => {
    expect(checkHandshake(terraform(extra), "x")).toEqual({ ok: false, reason });
  });

  it("accepts protocol 6 among others, and no list at all (go-plugin's legacy clients)", () => {
    expect(checkHandshake(terraform({ PLUGIN_PROTOCOL_VERSIONS: "5,6" }), "x").ok).toBe(true);
    expect(checkHandshake(terraform({ PLUGIN_PROTOCOL_VERSIONS: "" }), "x").ok).toBe(true);
  });

  it("answers with go-plugin's line: the certificate base64 without padding", () => {
    // 4 bytes → base64 "AQIDBA==" → "AQIDBA"
    expect(handshakeLine(12345, Buffer.from([1, 2, 3, 4]))).toBe("1|6|tcp|127.0.0.1:12345|grpc|AQIDBA\n");
  });
});
