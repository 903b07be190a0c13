/**
 * The transport's floor (bench/lib/transport-floor.ts) at a tiny size: each phase serves exactly the
 * calls and service requests Terraform's would make of a provider, so the CPU it reports is that
 * work's and nothing else's. No timing is asserted (the numbers belong to `npm run bench`). Runs
 * the compiled child (dist/bench/lib), which `npm test` builds first.
 */
import { PROVIDER_STARTS_PER_PLAN, transportFloor } from "../../bench/lib/transport-floor";

describe("the transport's floor", () => {
  it("serves one call a resource for the validation and four calls and one request a resource for the walk", async () => {
    const floor = await transportFloor(7);
    expect(floor.resources).toBe(7);
    expect(floor.validation).toMatchObject({ calls: 7, requests: 0 });
    expect(floor.walk).toMatchObject({ calls: 28, requests: 7 });
    for (const cpu of [floor.validation.cpuMs, floor.walk.cpuMs, floor.startCpuMs]) expect(cpu).toBeGreaterThan(0);
    expect(floor.perResourceMs).toBeCloseTo((floor.validation.cpuMs + floor.walk.cpuMs + PROVIDER_STARTS_PER_PLAN * floor.startCpuMs) / 7, 6);
  }, 60_000);
});
