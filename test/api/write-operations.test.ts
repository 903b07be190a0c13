/**
 * The wire table's write operations (WRITE_REQUESTS in src/api/rules/schemas.ts) are the writes
 * every layer knows: a new one added there fails here until each place below treats it as a write.
 */
import { ApiError } from "../../src/api/http/errors";
import { RULE_OPERATIONS, WRITE_REQUESTS } from "../../src/api/rules/schemas";

const WRITES = Object.keys(WRITE_REQUESTS);
const READS = Object.keys(RULE_OPERATIONS).filter((operation) => !WRITES.includes(operation));

function notSentError(operation: string): ApiError {
  return new ApiError({ operation, ruleId: "R", kind: "http", status: 429, retryable: true, attempts: 3, notSent: true });
}

describe("the wire table's write operations", () => {
  it.each(WRITES)("%s refused on every attempt says it was not sent (isWrite in src/api/http/errors.ts)", (operation) => {
    expect(notSentError(operation).message).toMatch(/Not sent: no attempt was acted on by the service/);
  });

  it.each(READS)("%s, a read, says nothing of sending", (operation) => {
    expect(notSentError(operation).message).not.toMatch(/Not sent/);
  });
});
