/**
 * The synth-scaling scenario's pieces at tiny sizes (no timing assertions: those belong to
 * `npm run bench`): the bare cdktf app it compares with builds exactly the resources the
 * RuleUserLists synthesize, for each resource type, and the plot draws every point.
 */
import { REPO } from "../support/cli";
import { measurePair } from "../../bench/scenarios/synth-scaling";
import { xySvg } from "../../bench/lib/xy-plot";

describe("synth-scaling scenario at tiny sizes", () => {
  it.each(["terraform_data", "null_resource"] as const)("the bare cdktf app synthesizes the same %s resources as the RuleUserLists", async (resourceType) => {
    const pair = await measurePair(REPO, 3, resourceType);
    expect(pair.sameResources).toBe(true);
    expect([pair.ours.lists, pair.bare.lists]).toEqual([3, 3]);
    expect(pair.ours.stackJsonBytes).toBeGreaterThan(0);
  });

  it("plots one line and one dot per point of each series", () => {
    const svg = xySvg(
      [
        { label: "ours", color: "#1f6feb", points: [{ x: 1000, y: 1.5 }, { x: 10_000, y: 12 }] },
        { label: "bare", color: "#1f6feb", dashed: true, points: [{ x: 1000, y: 1 }, { x: 10_000, y: 10 }] },
      ],
      { title: "t", xLabel: "lists", yLabel: "seconds" },
    );
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(svg.match(/<circle/g)).toHaveLength(4);
    expect(svg).toContain("ours (1,000: 1.5, 10,000: 12.0)");
  });
});
