import { InvalidArgumentError } from "../../src/errors";
import { ALERT_TERMS, RULE_METADATA_TERMS } from "../../src/api/search/operators";
import { filter, group, parseFilter, searchRequest } from "../../src/api/search/filters";

describe("filter", () => {
  it("maps operator words to wire tokens", () => {
    expect(filter("Name", "Does not contain", "x")).toEqual({ term: "Name", operator: "DOES_NOT_CONTAIN", value: "x" });
    expect(filter("CreatedAt", "On or after", "2026-01-01")).toEqual({
      term: "CreatedAt",
      operator: "ON_OR_AFTER",
      value: "2026-01-01",
    });
  });

  it("accepts wire tokens and any case, and sends the interface's spelling of the term", () => {
    expect(filter("observerruleid", "IS", "r1")).toEqual({ term: "ObserverRuleId", operator: "IS", value: "r1" });
    expect(filter("Actor", "is NOT", "a")).toEqual({ term: "Actor", operator: "IS_NOT", value: "a" });
  });

  it("refuses an operator the term does not accept, naming term and operator", () => {
    expect(() => filter("IsSystem", "Is not", "True")).toThrow(InvalidArgumentError);
    expect(() => filter("IsSystem", "Is not", "True")).toThrow(/'IsSystem'.*'Is not'/);
    expect(() => filter("Name", "On", "x")).toThrow(/'Name'.*'On'/);
  });

  it("refuses an unknown term, or a term of the other search when a table is given", () => {
    expect(() => filter("Colour", "Is", "red")).toThrow(/Unknown filter term 'Colour'/);
    expect(() => filter("Actor", "Is", "a", { terms: RULE_METADATA_TERMS })).toThrow(InvalidArgumentError);
    expect(() => filter("Name", "Is", "a", { terms: ALERT_TERMS })).toThrow(InvalidArgumentError);
  });

  it.each(Object.entries(RULE_METADATA_TERMS))("rule-metadata term %s accepts exactly its operators", (term, operators) => {
    for (const operator of ["IS", "IS_NOT", "CONTAINS", "DOES_NOT_CONTAIN", "ON", "ON_OR_AFTER", "ON_OR_BEFORE"]) {
      const build = () => filter(term, operator, "v", { terms: RULE_METADATA_TERMS });
      if ((operators as readonly string[]).includes(operator)) expect(build().operator).toBe(operator);
      else expect(build).toThrow(InvalidArgumentError);
    }
  });
});

describe("parseFilter", () => {
  it("reads TERM OPERATOR VALUE with multi-word operators and values", () => {
    expect(parseFilter("DateObserved On or after 2026-01-01")).toEqual({
      term: "DateObserved",
      operator: "ON_OR_AFTER",
      value: "2026-01-01",
    });
    expect(parseFilter("RuleName Does not contain big file")).toEqual({
      term: "RuleName",
      operator: "DOES_NOT_CONTAIN",
      value: "big file",
    });
  });

  it("refuses text without an operator or a value", () => {
    expect(() => parseFilter("Actor alice")).toThrow(InvalidArgumentError);
    expect(() => parseFilter("Actor Likes alice")).toThrow(/no operator/);
  });
});

describe("searchRequest", () => {
  it("fills the documented defaults and sends page size and number as strings", () => {
    // given
    const groups = [group([filter("Name", "Is", "a")])];
    // when
    const body = searchRequest("tenant-1", groups);
    // then
    expect(body).toEqual({
      tenantId: "tenant-1",
      groups: [{ filters: [{ term: "Name", operator: "IS", value: "a" }], filterClause: "AND" }],
      groupClause: "OR",
      pgSize: "100",
      pgNum: "0",
      srtKey: "CreatedAt",
      srtDirection: "DESC",
    });
  });

  it("takes options and refuses impossible pages", () => {
    const body = searchRequest("t", [], { groupClause: "AND", pgSize: 3, pgNum: 2, srtDirection: "ASC" });
    expect(body).toMatchObject({ groupClause: "AND", pgSize: "3", pgNum: "2", srtDirection: "ASC" });
    expect(() => searchRequest("t", [], { pgSize: 0 })).toThrow(/page size/);
    expect(() => searchRequest("t", [], { pgNum: -1 })).toThrow(/page number/);
  });
});
