/**
 * Contract: responses that are not what the interface documents become ResponseShapeErrors
 * naming the operation and the field; a hanging response becomes a timeout ApiError.
 */
import { ApiError, ResponseShapeError } from "../../src/api";
import type { MisbehaviourKind } from "../../src/simulator";
import { useSimulator } from "../support/simulator";
import { clientFor, rejectionOf, sampleRules } from "./helpers";

const sim = useSimulator();
afterEach(() => {
  sim.setFaults({});
});

async function shapeError(promise: Promise<unknown>): Promise<ResponseShapeError> {
  const error = await rejectionOf(promise);
  expect(error).toBeInstanceOf(ResponseShapeError);
  return error as ResponseShapeError;
}

describe("malformed responses of query-users", () => {
  it("wrong-type: names the type$ field", async () => {
    // given
    const { inclusion } = sampleRules(sim);
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "wrong-type" }] });
    const { client, events } = clientFor(sim);
    // when
    const error = await shapeError(client.queryUsers(inclusion));
    // then
    expect(error.code).toBe("RESPONSE_SHAPE");
    expect(error).toMatchObject({ operation: "query-users", ruleId: inclusion });
    expect(error.message).toMatch(
      new RegExp(`^query-users for rule '${inclusion}' returned an unexpected response: type\\$: expected "USERS_IN_RULE_RESPONSE", received "UNEXPECTED_TYPE"`),
    );
    // and a shape error is not retried
    expect(events).toEqual([expect.objectContaining({ attempt: 1, status: 200, outcome: "error" })]);
  });

  it("missing-field: names the missing field", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "missing-field" }] });
    const { client } = clientFor(sim);
    const error = await shapeError(client.queryUsers(sampleRules(sim).inclusion));
    expect(error.problems).toEqual([expect.stringMatching(/^(users|usersToAlertOn): missing \(expected /)]);
  });

  it("invalid-json: says what was received (content type and the first characters)", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "invalid-json" }] });
    const { client } = clientFor(sim);
    const error = await shapeError(client.queryUsers(sampleRules(sim).inclusion));
    expect(error.message).toMatch(/body is not valid JSON \(status 200, content-type application\/json; starts with "\{\\"type\$\\": \\"BROKEN/);
    expect(error.received).toMatchObject({ status: 200, contentType: "application/json" });
  });

  it("empty-body: says the body was empty", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "empty-body" }] });
    const { client } = clientFor(sim);
    const error = await shapeError(client.queryUsers(sampleRules(sim).inclusion));
    expect(error.problems).toEqual(["empty body (status 200, content-type application/json)"]);
  });

  it("html-error: a 500 HTML page is a retryable ApiError quoting the page's text, and a retry recovers", async () => {
    // given one HTML error, then normal answers
    const { inclusion } = sampleRules(sim);
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "html-error", times: 1 }] });
    const { client, events } = clientFor(sim);
    // when
    const response = await client.queryUsers(inclusion);
    // then
    expect(response.type$).toBe("USERS_IN_RULE_RESPONSE");
    expect(events.map((e) => [e.attempt, e.status, e.outcome])).toEqual([
      [1, 500, "retry"],
      [2, 200, "ok"],
    ]);
  });

  it("html-error: when it persists, the error quotes the page text and its content type", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "html-error" }] });
    const { client } = clientFor(sim, { retry: { maxAttempts: 2 } });
    const error = await rejectionOf(client.queryUsers(sampleRules(sim).inclusion));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 500, kind: "http", retryable: true, attempts: 2 });
    expect((error as ApiError).serviceMessage).toMatch(/Internal Server Error.*\(text\/html\)/);
    expect((error as ApiError).message).not.toMatch(/<html|<!DOCTYPE/i);
  });

  it("hang: becomes a timeout ApiError after every attempt timed out", async () => {
    sim.setFaults({ misbehave: [{ operation: "query-users", kind: "hang" }] });
    const { client, events } = clientFor(sim, { timeoutMs: 150, retry: { maxAttempts: 2 } });
    const error = await rejectionOf(client.queryUsers(sampleRules(sim).inclusion));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: "timeout", status: undefined, retryable: true, attempts: 2, operation: "query-users" });
    expect((error as ApiError).message).toMatch(/failed: timed out after 150 ms \(after 2 attempts\)/);
    expect(events.map((e) => e.outcome)).toEqual(["retry", "error"]);
    expect(events.every((e) => e.status === undefined)).toBe(true);
  });
});

describe("malformed responses of query-rule-metadata", () => {
  it.each<[MisbehaviourKind, RegExp]>([
    ["wrong-type", /^query-rule-metadata returned an unexpected response: type\$: expected "RULE_METADATA_SEARCH_RESPONSE"/],
    ["missing-field", /^query-rule-metadata returned an unexpected response: \w+: missing/],
    ["invalid-json", /^query-rule-metadata returned an unexpected response: body is not valid JSON/],
    ["empty-body", /^query-rule-metadata returned an unexpected response: empty body/],
  ])("%s", async (kind, message) => {
    sim.setFaults({ misbehave: [{ operation: "query-rule-metadata", kind }] });
    const { client } = clientFor(sim);
    const error = await shapeError(client.searchRuleMetadata([]));
    expect(error.message).toMatch(message);
    expect(error.ruleId).toBeUndefined();
  });
});

describe("write operations accept any 2xx body", () => {
  it.each<MisbehaviourKind>(["wrong-type", "missing-field", "invalid-json", "empty-body"])("%s", async (kind) => {
    // given
    const { exclusion } = sampleRules(sim);
    sim.setFaults({ misbehave: [{ operation: "add-users", kind }] });
    const { client } = clientFor(sim);
    // when / then
    await expect(
      client.addUsers(exclusion, [{ userIdFromAuthority: `u-${kind}`, userAliasList: [`${kind}@example.com`] }]),
    ).resolves.toBeUndefined();
  });
});
