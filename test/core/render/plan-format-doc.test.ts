import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parsePlan, planSchema, serializePlan } from "../../../src/core/engine/plan-schema";
import { renderPlanText } from "../../../src/core/render";
import { examplePlan } from "./plan-format-example";

const doc = readFileSync(join(__dirname, "../../../docs/plan-format.md"), "utf8");

function block(lang: string): string {
  const match = new RegExp("```" + lang + "\\n([\\s\\S]*?)\\n```").exec(doc);
  if (match === null) throw new Error(`docs/plan-format.md has no ${lang} block`);
  return match[1]!;
}

describe("docs/plan-format.md", () => {
  it("shows, as its JSON example, exactly what serializePlan writes for the example plan", () => {
    // given the example in the document
    const documented = block("json");
    const raw = JSON.parse(documented) as { tool: { version: string } };

    // when the same plan is built and serialized (with the documented tool version)
    const plan = examplePlan();
    const built = serializePlan({ ...plan, tool: { ...plan.tool, version: raw.tool.version } });

    // then
    expect(documented + "\n").toBe(built);
  });

  it("has an example that a reader accepts: format version, schema and checksum", () => {
    // given / when
    const plan = parsePlan(block("json"), "the example of docs/plan-format.md");

    // then
    expect(plan.rules.map((r) => r.action)).toEqual(["update", "skip"]);
  });

  it("shows the text rendering of the same plan", () => {
    // given / when
    const text = renderPlanText(examplePlan(), { color: false }).trimEnd();

    // then
    expect(block("text")).toBe(text);
  });

  it("documents every field of the schema", () => {
    // given every field name of the plan, rule, changes, mass-removal and summary schemas
    const rule = planSchema.shape.rules.element;
    const names = [
      ...Object.keys(planSchema.shape),
      "checksum",
      ...Object.keys(rule.shape),
      ...Object.keys(rule.shape.changes.shape),
      ...Object.keys(rule.shape.massRemoval.shape),
      ...Object.keys(planSchema.shape.summary.shape),
      "operation",
      "userList",
      "userIdList",
    ];

    // then each appears in the document as code
    const missing = names.filter((name) => !doc.includes(`\`${name}\``));
    expect(missing).toEqual([]);
  });
});
