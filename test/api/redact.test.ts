import { REDACTED, redact, redactString } from "../../src/api/redact";

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
