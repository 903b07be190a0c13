import { REDACTED, redact, redactString, redactStrings, registerSecret } from "../../src/api/http/redact";

describe("redactString", () => {
  it("removes a bearer token wherever it appears", () => {
    // given
    const text = "request failed with headers Authorization: Bearer abc.DEF-123_x= and more";
    // when
    const result = redactString(text);
    // then
    expect(result).not.toContain("abc.DEF-123_x=");
    expect(result).toContain(REDACTED);
  });

  it("removes the value of an Authorization header in a JSON dump", () => {
    const result = redactString('{"Accept":"text/plain","Authorization":"Basic dXNlcjpwYXNz"}');
    expect(result).not.toContain("dXNlcjpwYXNz");
    expect(result).toContain('"Accept":"text/plain"');
  });

  it("removes every occurrence of the given secrets, and leaves other text alone", () => {
    const result = redactString("token s3cr3t-token appears twice: s3cr3t-token", ["s3cr3t-token"]);
    expect(result).toBe(`token ${REDACTED} appears twice: ${REDACTED}`);
    expect(redactString("nothing secret here")).toBe("nothing secret here");
  });
});

describe("redact", () => {
  it("returns a deep copy with secret-named properties and bearer strings redacted, input untouched", () => {
    // given
    const input = {
      config: { headers: { Authorization: "Bearer zzz-top-secret", Accept: "application/json" } },
      message: "sent Bearer zzz-top-secret",
      list: [{ token: "zzz-top-secret" }],
    };
    const before = JSON.stringify(input);
    // when
    const output = redact(input);
    // then
    expect(JSON.stringify(output)).not.toContain("zzz-top-secret");
    expect(output.config.headers.Accept).toBe("application/json");
    expect(JSON.stringify(input)).toBe(before);
  });

  it("copes with cycles and errors", () => {
    const cyclic: Record<string, unknown> = { name: "loop" };
    cyclic["self"] = cyclic;
    expect(redact(cyclic)).toEqual({ name: "loop", self: "[Circular]" });
    const error = new Error("failed: Bearer qqq-secret-qqq");
    expect(JSON.stringify(redact(error))).not.toContain("qqq-secret-qqq");
  });
});

describe("redactString on prose", () => {
  it("keeps explanations that merely mention the header", () => {
    const text = "Missing or invalid bearer token: send the header Authorization: Bearer <token>. Check ALERTS_API_TOKEN.";
    expect(redactString(text)).toBe(text);
  });
});

describe("redactString finds a secret in every form", () => {
  const secret = `t0k/EN+"&'~=9f3c`;
  const b64 = (text: string, encoding: BufferEncoding = "base64") => Buffer.from(text, "utf8").toString(encoding);
  it.each<[string, string]>([
    ["raw", secret],
    ["URL-encoded", encodeURIComponent(secret)],
    ["URL-encoded, lower-case hex", encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
    ["JSON-escaped", JSON.stringify(secret)],
    ["JSON-escaped twice", JSON.stringify(JSON.stringify(secret))],
    ["\\u escapes", [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("")],
    ["HTML-escaped", secret.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;")],
    ["hex", b64(secret, "hex")],
    ["base64", b64(secret)],
    ["base64 one byte in", b64(`x${secret}`)],
    ["base64 two bytes in", b64(`xy${secret}`)],
    ["base64url of user:token", b64(`user:${secret}`, "base64url")],
    ["its first 12 characters", secret.slice(0, 12)],
    ["lower-cased", secret.toLowerCase()],
    ["upper-cased", secret.toUpperCase()],
    ["hex bytes separated by spaces", [...Buffer.from(secret, "utf8")].map((b) => b.toString(16).padStart(2, "0")).join(" ")],
    ["hex bytes separated by colons, upper-case", [...Buffer.from(secret, "utf8")].map((b) => b.toString(16).toUpperCase().padStart(2, "0")).join(":")],
    ["UTF-16LE hex", Buffer.from(secret, "utf16le").toString("hex")],
    ["base64 of user:token wrapped at 8 (CRLF)", (b64(`user:${secret}`).match(/.{1,8}/g) ?? []).join("\r\n")],
    ["base64 wrapped at 5 (LF)", (b64(`ab${secret}`).match(/.{1,5}/g) ?? []).join("\n")],
  ])("%s", (_form, encoded) => {
    const result = redactString(`before ${encoded} after`, [secret]);
    expect(result).toContain(REDACTED);
    expect(result).toMatch(/^before .*after$/);
    expect(result).not.toContain(encoded);
  });

  it.each<[string, string]>([
    ["raw", secret],
    ["base64 one byte in", b64(`x${secret}`)],
    ["base64 wrapped at 5 (LF)", (b64(`ab${secret}`).match(/.{1,5}/g) ?? []).join("\n")],
    ["a bearer header", "Bearer abcdefgh12345678"],
    ["its first 12 characters, at the very start", secret.slice(0, 12)],
  ])("redactStrings finds it (%s) as one string among many, and copies only then", (_form, encoded) => {
    // given: many strings without a secret, the one with it in the middle of a nested value
    const clean = (i: number) => ({ userId: `u-${i}`, aliases: [`user${i}@example.com`, `U${i}`] });
    const value = { rule: "r-1", users: [...Array.from({ length: 50 }, (_, i) => clean(i)), { userId: "u-x", aliases: [encoded, "x@example.com"] }, clean(51)] };
    // when
    const result = redactStrings(value, [secret]);
    // then
    expect(result.users[50]!.aliases[0]).toContain(REDACTED);
    expect(result.users[50]!.aliases[1]).toBe("x@example.com");
    expect(result.users[0]).toEqual(clean(0));
    expect(value.users[50]!.aliases[0]).toBe(encoded); // the input is untouched
  });

  it("redactStrings returns data that holds no secret as it is", () => {
    const value = { rule: "r-1", users: [{ userId: "u-1", aliases: ["Bearer of news", "a@example.com"] }] };
    expect(redactStrings(value, [secret])).toBe(value);
  });

  it("a registered secret is removed where no caller passes it", () => {
    registerSecret("registered-Secret-42");
    expect(redactString("x registered-Secret-42 y")).toBe(`x ${REDACTED} y`);
  });

  it("leaves text that only shares a few characters with the secret", () => {
    expect(redactString("t0k/EN and 9f3c", [secret])).toBe("t0k/EN and 9f3c");
    // a prefix of 11 characters is too short to be taken for the secret
    expect(redactString(`x ${secret.slice(0, 11)} y`, [secret])).toBe(`x ${secret.slice(0, 11)} y`);
  });

  it("a prefix is redacted whole, up to where the echo stops following the secret", () => {
    expect(redactString(`token ${secret.slice(0, 14)}... refused`, [secret])).toBe(`token ${REDACTED}... refused`);
  });
});
