import { InvalidArgumentError } from "../../src/errors";
import {
  DEFAULT_RETRY_POLICY,
  backoffDelay,
  honoursRetryAfter,
  isRetryableStatus,
  nextRetry,
  permanentNetworkFailure,
  parseRetryAfter,
  parseRetryAfterMs,
  resolveRetryPolicy,
  retryAfterDelay,
} from "../../src/api/http/retry";

describe("retry policy", () => {
  it("defaults to 10 attempts, 200 ms base, 5 s cap, Retry-After up to 30 s and 20 rate-limit waits", () => {
    expect(resolveRetryPolicy()).toEqual({ maxAttempts: 10, baseDelayMs: 200, maxDelayMs: 5000, maxRetryAfterMs: 30000, maxRateLimitRetries: 20 });
    expect(resolveRetryPolicy({ maxAttempts: 2 })).toEqual({ ...DEFAULT_RETRY_POLICY, maxAttempts: 2 });
  });

  it("refuses invalid values, naming each", () => {
    expect(() => resolveRetryPolicy({ maxAttempts: 0, baseDelayMs: -1 })).toThrow(InvalidArgumentError);
    expect(() => resolveRetryPolicy({ maxAttempts: 0, baseDelayMs: -1 })).toThrow(/maxAttempts.*baseDelayMs/);
  });

  it.each([
    [429, true],
    [500, true],
    [502, true],
    [503, true],
    [400, false],
    [401, false],
    [404, false],
  ])("treats status %i as retryable: %s", (status, expected) => {
    expect(isRetryableStatus(status)).toBe(expected);
  });

  it("honours Retry-After on 429 and 503 only", () => {
    expect(honoursRetryAfter(429)).toBe(true);
    expect(honoursRetryAfter(503)).toBe(true);
    expect(honoursRetryAfter(500)).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads seconds and HTTP dates", () => {
    expect(parseRetryAfter("0", now)).toBe(0);
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:10 GMT", now)).toBe(10000);
  });

  it("gives 0 for a date in the past and undefined for nonsense or absence", () => {
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("Retry-After-Ms", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads milliseconds, rounded up", () => {
    expect(parseRetryAfterMs("0")).toBe(0);
    expect(parseRetryAfterMs(" 250 ")).toBe(250);
    expect(parseRetryAfterMs("12.2")).toBe(13);
  });

  it.each([[undefined], [""], ["  "], ["soon"], ["-5"], ["1e3"], ["Infinity"]])("ignores %p, so that Retry-After is honoured", (value) => {
    expect(parseRetryAfterMs(value)).toBeUndefined();
    expect(retryAfterDelay("25", value, now)).toBe(25_000);
  });

  it("is preferred to Retry-After when readable", () => {
    expect(retryAfterDelay("25", "1500", now)).toBe(1500);
    expect(retryAfterDelay(undefined, undefined, now)).toBeUndefined();
  });
});

describe("backoff", () => {
  const policy = DEFAULT_RETRY_POLICY;

  it("draws full jitter below an exponentially growing, capped ceiling", () => {
    const justBelowOne = () => 0.999999;
    expect(backoffDelay(policy, 1, justBelowOne)).toBe(199);
    expect(backoffDelay(policy, 2, justBelowOne)).toBe(399);
    expect(backoffDelay(policy, 3, justBelowOne)).toBe(799);
    expect(backoffDelay(policy, 10, justBelowOne)).toBe(4999);
    expect(backoffDelay(policy, 3, () => 0)).toBe(0);
  });

  it("stops after maxAttempts", () => {
    expect(nextRetry(policy, 4, undefined, () => 0.5)).toEqual({ retry: true, delayMs: 800 });
    expect(nextRetry(policy, 9, undefined, () => 0.5)).toEqual({ retry: true, delayMs: 2500 });
    expect(nextRetry(policy, 10, undefined, () => 0.5)).toEqual({ retry: false });
  });

  it("waits what Retry-After asks, and gives up when it asks for more than maxRetryAfterMs", () => {
    expect(nextRetry(policy, 1, 1000)).toEqual({ retry: true, delayMs: 1000 });
    const decision = nextRetry(policy, 1, 60000);
    expect(decision.retry).toBe(false);
    expect(decision.retry === false && decision.reason).toMatch(/60 s.*30 s/);
  });
});

describe("permanentNetworkFailure: the network failures that are not retried", () => {
  it.each([
    ["ENOTFOUND", "getaddrinfo ENOTFOUND api.example.invalid", /does not resolve \(DNS\)/],
    ["EPROTO", "write EPROTO 80:error:0A00010B:SSL routines:ssl3_get_record:wrong version number", /does not speak TLS: .*http:\/\//],
    ["ERR_SSL_WRONG_VERSION_NUMBER", "wrong version number", /does not speak TLS/],
    ["DEPTH_ZERO_SELF_SIGNED_CERT", "self-signed certificate", /certificate is not accepted \(DEPTH_ZERO_SELF_SIGNED_CERT\).*NODE_EXTRA_CA_CERTS/],
    ["CERT_HAS_EXPIRED", "certificate has expired", /certificate is not accepted/],
    ["ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames", /certificate is not accepted/],
    ["ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION", "tlsv1 alert protocol version", /TLS handshake failed/],
  ])("%s is not retried, and says what to check", (code, message, says) => {
    expect(permanentNetworkFailure(code, message)).toMatch(says);
  });

  it.each(["ECONNREFUSED", "ECONNRESET", "EAI_AGAIN", "ETIMEDOUT", "EPIPE", undefined])("%s may pass and is retried", (code) => {
    expect(permanentNetworkFailure(code, "socket hang up")).toBeUndefined();
  });
});
