import { RequestCounter } from "../../src/api/http/counter";

describe("RequestCounter", () => {
  it("counts calls and attempts per operation, with totals, and resets", () => {
    // given
    const counter = new RequestCounter();
    // when
    counter.recordCall("query-users");
    counter.recordAttempt("query-users");
    counter.recordAttempt("query-users");
    counter.recordCall("add-users");
    counter.recordAttempt("add-users");
    // then
    expect(counter.snapshot()).toEqual({
      byOperation: { "add-users": { calls: 1, attempts: 1 }, "query-users": { calls: 1, attempts: 2 } },
      calls: 2,
      attempts: 3,
    });
    counter.reset();
    expect(counter.snapshot()).toEqual({ byOperation: {}, calls: 0, attempts: 0 });
  });

  it("hands out snapshots that later counting does not change", () => {
    const counter = new RequestCounter();
    counter.recordCall("x");
    const snapshot = counter.snapshot();
    counter.recordCall("x");
    expect(snapshot.byOperation["x"]?.calls).toBe(1);
  });
});
