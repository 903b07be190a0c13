/**
 * The runtime the provider's executable runs on: the pinned Node.js its Linux packages embed
 * (src/io/provider-package/sea-node.ts), fetched as `provider package` fetches it (npm's own cache,
 * its integrity checked). The floors the provider is measured against (bench/lib/transport-floor.ts,
 * bench/lib/floor-provider.ts) run on it too, so that a ratio compares the provider's own work and
 * not two versions of Node.js (a bundle loads in about 60 ms of CPU on Node.js 22 and 100 ms on 20).
 * Where it cannot be fetched, the bench's own Node.js, said so in the results.
 */
import { mkdirSync } from "node:fs";
import { SEA_NODE_VERSION, builderPlatform, fetchSeaNode } from "../../src/io/provider-package/sea-node";
import { messageOf } from "../../src/shared/text";

export interface ProviderRuntime {
  /** The `node` the floors run on. */
  readonly node: string;
  /** Its version, as the results say it. */
  readonly version: string;
  /** Why it is not the provider's own runtime, where it is not. */
  readonly fallback: string | null;
}

/** The provider's Node.js, fetched under `dir`; the bench's own where it cannot be. */
export async function providerRuntime(dir: string): Promise<ProviderRuntime> {
  try {
    mkdirSync(dir, { recursive: true });
    const sea = await fetchSeaNode(builderPlatform(), dir);
    return { node: sea.binary, version: `v${SEA_NODE_VERSION}`, fallback: null };
  } catch (error) {
    return { node: process.execPath, version: process.version, fallback: `the provider's Node.js ${SEA_NODE_VERSION} could not be fetched (${messageOf(error)}): the floors ran on the bench's` };
  }
}
