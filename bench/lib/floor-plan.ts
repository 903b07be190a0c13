/**
 * `terraform plan` through the floor provider (bench/lib/floor-provider.ts): a CLI configuration
 * whose dev_overrides entry points Terraform at a directory holding an executable that runs the
 * floor provider instead of the installed one, and the local service its reads ask. The same
 * working directory, configuration and state as the real provider's plan: Terraform's share is the
 * same on both sides; the provider's side is only its transport. The child runs the floor
 * provider's bundle (dist/bench/floor-provider.bundle.js, made by `npm run bench` as the provider's
 * own is, so both start alike): build first.
 */
import { existsSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { devOverride } from "./dev-override";
import { repoRoot } from "./machine";
import { FLOOR_SERVICE_VARIABLE } from "./floor-provider";
import { listening, usersService } from "./transport-floor";

export interface FloorPlanSetup {
  /** What to add to a Terraform environment so that it runs the floor provider. */
  readonly env: NodeJS.ProcessEnv;
  readonly stop: () => Promise<void>;
}

/** Writes the floor provider's override under `dir` (run by `node`: the provider's runtime, bench/lib/provider-runtime.ts) and starts its service. */
export async function floorPlanSetup(dir: string, node: string = process.execPath): Promise<FloorPlanSetup> {
  const bundle = join(repoRoot(), "dist", "bench", "floor-provider.bundle.js");
  if (!existsSync(bundle)) throw new Error(`${bundle} is missing: npm run bench makes it (node scripts/bundle-provider.mjs --floor, after npm run build).`);
  const override = devOverride(dir, node, [bundle]);
  const service: Server = await listening(usersService());
  return {
    env: { ...override, [FLOOR_SERVICE_VARIABLE]: `http://127.0.0.1:${(service.address() as AddressInfo).port}/v1/query-users` },
    stop: () => new Promise((resolve) => service.close(() => resolve())),
  };
}
