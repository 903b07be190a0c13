import { inspect } from "node:util";
import { z } from "zod";
import { AlertRuleUsersError } from "../../src/errors";
import { ApiError, ResponseShapeError } from "../../src/api/http/errors";
import { formatIssues, readServiceError } from "../../src/api/http/response-errors";
import { usersInRuleResponseSchema } from "../../src/api/rules/schemas";

describe("ApiError", () => {
  it("says which operation on which rule failed, with status, service code and message", () => {
    // given / when
    const error = new ApiError({
      operation: "add-users",
      ruleId: "R",
      kind: "http",
      status: 400,
      serviceCode: "RULE_IS_SYSTEM",
      serviceMessage: "users of system rules are managed in their lists",
      retryable: false,
      attempts: 1,
    });
    // then
    expect(error).toBeInstanceOf(AlertRuleUsersError);
    expect(error.code).toBe("API");
    expect(error.message).toMatch(/^add-users for rule 'R' failed: 400 RULE_IS_SYSTEM: users of system rules are managed in their lists/);
    expect(error.toJSON()).toMatchObject({ code: "API", operation: "add-users", ruleId: "R", status: 400, attempts: 1 });
    expect(error.cause).toBeUndefined();
  });

  it("reports attempts and timeouts", () => {
    const error = new ApiError({ operation: "query-users", kind: "timeout", timeoutMs: 50, retryable: true, attempts: 3 });
    expect(error.message).toMatch(/^query-users failed: timed out after 50 ms \(after 3 attempts\)/);
    expect(error.status).toBeUndefined();
  });

  it("redacts bearer tokens echoed in a service message", () => {
    const error = new ApiError({
      operation: "query-users",
      kind: "http",
      status: 401,
      serviceMessage: "bad header Authorization: Bearer echoed-secret-1",
      retryable: false,
      attempts: 1,
    });
    expect(error.message).not.toContain("echoed-secret-1");
    expect(inspect(error)).not.toContain("echoed-secret-1");
  });
});

describe("ResponseShapeError", () => {
  it("names the operation and each offending field path", () => {
    // given a body with two wrong fields
    const body = {
      type$: "USERS_IN_RULE_RESPONSE",
      users: [{ type$: "USER_BAG", userIdFromAuthority: "u1", userAliasList: "a@x" }],
    };
    const parsed = usersInRuleResponseSchema.safeParse(body);
    if (parsed.success) throw new Error("expected a failure");
    // when
    const error = new ResponseShapeError({ operation: "query-users", problems: formatIssues(parsed.error.issues, body) });
    // then
    expect(error.code).toBe("RESPONSE_SHAPE");
    expect(error.message).toContain(
      "query-users returned an unexpected response: users[0].userAliasList: expected array, received string",
    );
    expect(error.message).toContain("usersToAlertOn: missing");
  });

  it("quotes a wrong enum value", () => {
    const body = { type$: "USERS_IN_RULE_RESPONSE", users: [], usersToAlertOn: "SOME_USERS" };
    const parsed = usersInRuleResponseSchema.safeParse(body);
    if (parsed.success) throw new Error("expected a failure");
    expect(formatIssues(parsed.error.issues, body)).toEqual([
      'usersToAlertOn: expected one of "SPECIFIED_USERS"|"ALL_USERS_NOT_SPECIFIED"|"ALL_USERS", received "SOME_USERS"',
    ]);
  });

  it("lists at most ten problems", () => {
    const parsed = z.array(z.string()).safeParse(Array.from({ length: 25 }, (_, i) => i));
    if (parsed.success) throw new Error("expected a failure");
    const problems = formatIssues(parsed.error.issues);
    expect(problems).toHaveLength(11);
    expect(problems[10]).toBe("and 15 more problems");
    expect(problems[0]).toBe("[0]: expected string, received number");
  });
});

describe("readServiceError", () => {
  it.each([
    ['{"type$":"ERROR","code":"RULE_IS_SYSTEM","message":"no"}', { code: "RULE_IS_SYSTEM", message: "no" }],
    ['{"message":"plain message","code":"X1"}', { code: "X1", message: "plain message" }],
    ['{"error":"invalid_token"}', { message: "invalid_token" }],
    ['{"error":{"message":"nested"}}', { message: "nested" }],
    ['{"problems":["first","second"]}', { message: "first; second" }],
  ])("reads %s", (body, expected) => {
    expect(readServiceError(body)).toEqual(expected);
  });

  it("falls back to a short text snippet with the content type", () => {
    const html = `<html><body><h1>502 Bad Gateway</h1>${"x".repeat(200)}</body></html>`;
    const result = readServiceError(html, "text/html; charset=utf-8");
    expect(result.message).toMatch(/^502 Bad Gateway x+\.\.\. \(text\/html\)$/);
    expect(result.message!.length).toBeLessThan(110);
    expect(readServiceError("")).toEqual({});
  });
});
