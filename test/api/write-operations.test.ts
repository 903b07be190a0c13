/**
 * The wire table's write operations (WRITE_REQUESTS in src/api/rules/schemas.ts) are the writes
 * every layer knows: each is sent through the client's one write method, which tells the transport
 * it is a write, so a write refused on every attempt says it was not sent and a read does not.
 */
import type { ApiError } from "../../src/api/http/errors";
import { RULE_OPERATIONS, WRITE_REQUESTS, type WriteFields, type WriteOperation } from "../../src/api/rules/schemas";
import { useSimulator } from "../support/simulator";
import { clientFor, rejectionOf, sampleRules } from "./helpers";

const WRITES = Object.keys(WRITE_REQUESTS) as WriteOperation[];
const READS = Object.keys(RULE_OPERATIONS).filter((operation) => !(WRITES as string[]).includes(operation));

/** What each write carries besides tenantId and ruleId: one user, or nothing. */
const FIELDS: { readonly [K in WriteOperation]: WriteFields<K> } = {
  "add-users": { userList: [{ userIdFromAuthority: "u-1", userAliasList: ["someone@example.com"] }] },
  "remove-users": { userIdList: ["u-1"] },
  "remove-user-aliases": { userList: [{ userIdFromAuthority: "u-1", userAliasList: ["someone@example.com"] }] },
  "remove-all-users": {},
};

const sim = useSimulator();

/** The error of an operation sent while the service answers 429 to every request, with no 429 waited out. */
async function refusedOnEveryAttempt(operation: string): Promise<ApiError> {
  sim.setFaults({ rateLimitEvery: 1, retryAfterSeconds: 0 });
  const { client } = clientFor(sim, { retry: { maxRateLimitRetries: 0 } });
  const ruleId = sampleRules(sim).inclusion;
  try {
    if (operation === "query-users") return (await rejectionOf(client.queryUsers(ruleId))) as ApiError;
    if (operation === "query-rule-metadata") return (await rejectionOf(client.searchRuleMetadata([]))) as ApiError;
    const write = operation as WriteOperation;
    return (await rejectionOf(client.write(ruleId, { operation: write, fields: FIELDS[write] } as Parameters<typeof client.write>[1]))) as ApiError;
  } finally {
    sim.setFaults({});
  }
}

describe("the wire table's write operations", () => {
  it.each(WRITES)("%s refused on every attempt says it was not sent (ApiErrorDetails.write, set by the client's write)", async (operation) => {
    expect((await refusedOnEveryAttempt(operation)).message).toMatch(/Not sent: no attempt was acted on by the service/);
  });

  it.each(READS)("%s, a read, says nothing of sending", async (operation) => {
    expect((await refusedOnEveryAttempt(operation)).message).not.toMatch(/Not sent/);
  });
});
