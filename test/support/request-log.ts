/** What a simulator's request log says, as the tests ask it. */

/** The rules whose lists were read (one query-users each, repeats kept), sorted. */
export function listsRead(sim: { requestLog(): ReadonlyArray<{ readonly operation: string; readonly ruleId?: string | undefined }> }): string[] {
  return sim
    .requestLog()
    .filter((e) => e.operation === "query-users")
    .map((e) => e.ruleId ?? "?")
    .sort();
}
