/**
 * The provider's TLS certificate, made fresh at every start: self-signed for `localhost`, ECDSA P-256,
 * a CA for itself, for server and client authentication, as go-plugin's own generateCert makes it.
 * Terraform trusts exactly this certificate (the handshake line carries it), so nothing else may.
 *
 * Node's crypto makes the key and signs; X.509 is DER, written here by a small encoder of the few ASN.1
 * types a certificate needs (no dependency, and a start-up of a few milliseconds).
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

export interface ServerCertificate {
  /** the certificate, DER (the handshake line carries it base64, without padding) */
  der: Buffer;
  certificatePem: string;
  privateKeyPem: string;
}

const OID = {
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  commonName: "2.5.4.3",
  subjectKeyIdentifier: "2.5.29.14",
  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  basicConstraints: "2.5.29.19",
  extKeyUsage: "2.5.29.37",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

const HOST = "localhost";

/** A new key and a certificate for it, valid from 30 seconds ago (clock skew) for one year. */
export function makeServerCertificate(now: Date = new Date()): ServerCertificate {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "prime256v1" });
  const spki = publicKey.export({ type: "spki", format: "der" });
  // the EC point is the BIT STRING at the end of SubjectPublicKeyInfo: 65 bytes for P-256
  const point = spki.subarray(spki.length - 65);

  const name = sequence(set(sequence(oid(OID.commonName), utf8String(HOST))));
  const signatureAlgorithm = sequence(oid(OID.ecdsaWithSha256));
  const notBefore = new Date(now.getTime() - 30_000);
  const notAfter = new Date(now.getTime() + 365 * 24 * 3600_000);

  const extensions = sequence(
    extension(OID.keyUsage, true, keyUsageBits()),
    extension(OID.extKeyUsage, false, sequence(oid(OID.serverAuth), oid(OID.clientAuth))),
    extension(OID.basicConstraints, true, sequence(boolean(true))),
    extension(OID.subjectKeyIdentifier, false, octetString(createHash("sha1").update(point).digest())),
    extension(OID.subjectAltName, false, sequence(tlv(0x82, Buffer.from(HOST, "ascii")))), // [2] dNSName
  );

  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))), // [0] EXPLICIT version: v3
    integer(randomBytes(16)),
    signatureAlgorithm,
    name, // issuer: itself
    sequence(time(notBefore), time(notAfter)),
    name,
    spki,
    tlv(0xa3, extensions), // [3] EXPLICIT extensions
  );
  const signature = sign("sha256", tbs, privateKey); // ECDSA-Sig-Value, DER
  const der = sequence(tbs, signatureAlgorithm, bitString(signature));

  return {
    der,
    certificatePem: `-----BEGIN CERTIFICATE-----\n${der.toString("base64").replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`,
    privateKeyPem: privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
  };
}

/** digitalSignature (bit 0), keyEncipherment (bit 2), keyCertSign (bit 5) */
function keyUsageBits(): Buffer {
  // bits are numbered from the most significant: 1010 0100 = 0xa4; the two trailing zero bits are unused
  return tlv(0x03, Buffer.from([2, 0xa4]));
}

// ---------------------------------------------------------------------------------------------------
// DER

function tlv(tag: number, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from([tag]), length(content.length), content]);
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let rest = n; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function sequence(...parts: Buffer[]): Buffer {
  return tlv(0x30, Buffer.concat(parts));
}

function set(...parts: Buffer[]): Buffer {
  return tlv(0x31, Buffer.concat(parts));
}

/** a non-negative INTEGER from big-endian bytes: minimal, with a zero byte where the top bit is set */
function integer(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const minimal = bytes.subarray(start);
  return tlv(0x02, (minimal[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), minimal]) : minimal);
}

function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0]));
}

function octetString(content: Buffer): Buffer {
  return tlv(0x04, content);
}

function bitString(content: Buffer): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([0]), content]));
}

function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, "utf8"));
}

function oid(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split(".").map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const base128: number[] = [arc & 0x7f];
    for (let n = Math.floor(arc / 128); n > 0; n = Math.floor(n / 128)) base128.unshift((n & 0x7f) | 0x80);
    bytes.push(...base128);
  }
  return tlv(0x06, Buffer.from(bytes));
}

/** UTCTime until 2049, GeneralizedTime from 2050 (RFC 5280 §4.1.2.5) */
function time(date: Date): Buffer {
  const iso = date.toISOString(); // 2026-11-26T05:21:11.123Z
  const digits = `${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(digits.slice(2), "ascii")) : tlv(0x18, Buffer.from(digits, "ascii"));
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return critical ? sequence(oid(id), boolean(true), octetString(value)) : sequence(oid(id), octetString(value));
}
