/** Worker-thread entry of simulator-host.ts: one simulator, answering counts, rules and stop. */
import { parentPort, workerData } from "node:worker_threads";
import { startSimulator } from "../../src/simulator";
import { faultsOf, type WorkerRequest, type WorkerSetup } from "./simulator-host";

async function main(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error("sim-worker.js runs as a worker thread");
  const setup = workerData as WorkerSetup;
  const sim = await startSimulator({ port: 0, seed: setup.seed, faults: faultsOf(setup) });
  port.on("message", (request: WorkerRequest) => {
    const answer = (value: unknown) => port.postMessage({ id: request.id, value });
    switch (request.kind) {
      case "counts":
        answer(sim.requestCounts());
        return;
      case "log":
        answer(sim.requestLog());
        return;
      case "rules":
        answer(sim.rules());
        return;
      case "stop":
        void sim.stop().then(() => answer(null));
        return;
    }
  });
  port.postMessage({ url: sim.url, token: sim.token, tenantId: sim.tenantId });
}

void main();
