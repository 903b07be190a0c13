import { X509Certificate } from "node:crypto";
import { makeServerCertificate } from "../../../src/provider/protocol";

describe("the provider's self-signed certificate", () => {
  it("is an X.509 certificate Node parses, signed by its own key, for localhost, a CA, for server and client authentication", () => {
    // when
    const made = makeServerCertificate(new Date("2026-11-26T12:00:00Z"));
    const certificate = new X509Certificate(made.der);
    // then
    expect(certificate.verify(certificate.publicKey)).toBe(true);
    expect(certificate.checkIssued(certificate)).toBe(true);
    expect(certificate.subject).toBe("CN=localhost");
    expect(certificate.issuer).toBe("CN=localhost");
    expect(certificate.subjectAltName).toBe("DNS:localhost");
    expect(certificate.checkHost("localhost")).toBe("localhost");
    expect(certificate.ca).toBe(true);
    expect(certificate.keyUsage).toEqual(["1.3.6.1.5.5.7.3.1", "1.3.6.1.5.5.7.3.2"]);
    expect(certificate.publicKey.asymmetricKeyDetails).toEqual({ namedCurve: "prime256v1" });
    expect(certificate.validFrom).toBe("Nov 26 11:59:30 2026 GMT");
    expect(certificate.validTo).toBe("Nov 26 12:00:00 2027 GMT");
    expect(new X509Certificate(made.certificatePem).fingerprint256).toBe(certificate.fingerprint256);
  });

  it("is new at every start: another key, another serial number", () => {
    const [a, b] = [new X509Certificate(makeServerCertificate().der), new X509Certificate(makeServerCertificate().der)];
    expect(a.serialNumber).not.toBe(b.serialNumber);
    expect(a.publicKey.export({ type: "spki", format: "der" })).not.toEqual(b.publicKey.export({ type: "spki", format: "der" }));
  });

  it("writes dates from 2050 on as GeneralizedTime, which Node reads back", () => {
    const certificate = new X509Certificate(makeServerCertificate(new Date("2049-12-01T00:00:00Z")).der);
    expect(certificate.validFrom).toBe("Nov 30 23:59:30 2049 GMT");
    expect(certificate.validTo).toBe("Dec  1 00:00:00 2050 GMT");
    expect(certificate.verify(certificate.publicKey)).toBe(true);
  });
});
