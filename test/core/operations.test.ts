/**
 * The operation table owns every write (src/core/engine/operations.ts): what a rule's changes of each kind
 * are sent with, and which calls are guarded, read from its rows.
 */
import { CHANGE_KIND_LIST, CHANGE_KINDS } from "../../src/core/engine/change-kinds";
import { planCalls, WRITE_OPERATION_LIST, WRITE_OPERATIONS } from "../../src/core/engine/operations";
import type { RuleChanges } from "../../src/core/engine/rule-changes";

const NONE: RuleChanges = { addUsers: [], addAliases: [], removeAliases: [], removeUsers: [], removeEntriesWithoutId: [], removeAll: false, rebuild: false };
const ALICE = { userId: "u-alice", aliases: ["alice@example.com"] };

/** A rule's changes with one user in the list of `kind` and nothing else. */
function onlyOne(kind: (typeof CHANGE_KIND_LIST)[number]): RuleChanges {
  const key = { "add-user": "addUsers", "add-aliases": "addAliases", "remove-aliases": "removeAliases", "remove-user": "removeUsers", "remove-entry": "removeEntriesWithoutId" } as const;
  return { ...NONE, [key[kind]]: [ALICE] };
}

describe("the operation table", () => {
  it.each(CHANGE_KIND_LIST.filter((kind) => CHANGE_KINDS[kind].direction === "add"))("sends a change of kind %s, which adds, with add-users", (kind) => {
    // given one change of the kind
    const changes = onlyOne(kind);
    // when the calls are planned
    const calls = planCalls({ changes, users: [ALICE], batchSize: 100 }, "SPECIFIED_USERS");
    // then one add-users carries the user
    expect(calls).toEqual([{ operation: "add-users", userList: [ALICE] }]);
  });

  it("guards remove-all-users alone: the rule is read again right before it", () => {
    expect(WRITE_OPERATION_LIST.filter((operation) => WRITE_OPERATIONS[operation].guarded)).toEqual(["remove-all-users"]);
  });
});
