/**
 * The transport's floor: the provider CPU a `terraform plan` of N unchanged resources costs before
 * any value is decoded, any declaration read or any list compared (docs/performance.md, "What the
 * two targets need"). A child process shaped like the provider (bench/lib/transport-floor-child.ts)
 * serves, per resource, what Terraform sends a provider: one call in the validation's process, and
 * four calls in the walk's (`ValidateResourceConfig`, `UpgradeResourceState`, `ReadResource`,
 * `PlanResourceChange`), the read sending one request as the API client sends it. Each call carries
 * a payload of a state's size and is answered with its own bytes; calls go out ten at a time, as
 * Terraform's default parallelism does. Plus the CPU of starting the provider's bundle, which
 * Terraform does three times per plan ({@link PROVIDER_STARTS_PER_PLAN}). The child runs the
 * compiled code (dist/bench/lib): build first.
 */
import { fork, spawn, type ChildProcess } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import * as grpc from "@grpc/grpc-js";
import { repoRoot } from "./machine";
import { ECHO_METHOD, READ_METHOD, type FloorChildMessage, type FloorChildReply } from "./transport-floor-child";

export interface TransportFloor {
  readonly resources: number;
  /** gRPC calls and service requests the child served in each phase (checks that the phase ran whole). */
  readonly validation: { readonly cpuMs: number; readonly calls: number; readonly requests: number };
  readonly walk: { readonly cpuMs: number; readonly calls: number; readonly requests: number };
  /** CPU of one `node` loading the provider's bundle, the median of three. */
  readonly startCpuMs: number;
  /** (validation + walk + PROVIDER_STARTS_PER_PLAN starts) / resources. */
  readonly perResourceMs: number;
}

/** Provider processes Terraform starts for one `terraform plan`: the schema's, the validation's, the walk's. */
export const PROVIDER_STARTS_PER_PLAN = 3;

/** A state's size in the bench's tenants (20 users a list): about 4.3 KB of JSON. */
const PAYLOAD_BYTES = 4_400;
const PARALLELISM = 10;
/** A query-users answer of 20 users, as the service sends it. */
export const USERS_BODY = JSON.stringify({
  users: Array.from({ length: 20 }, (_, i) => ({ userId: `9087120000${String(i).padStart(8, "0")}`, aliases: [`person.${i}@example.com`, `person_${i}@corp.example.com`] })),
});

/** The child's next reply, in the order it sent them; rejected once the child has exited. */
function repliesOf(child: ChildProcess): () => Promise<FloorChildReply> {
  const replies: FloorChildReply[] = [];
  const waiters: { resolve: (reply: FloorChildReply) => void; reject: (error: Error) => void }[] = [];
  let exited: Error | undefined;
  child.on("message", (reply: FloorChildReply) => {
    const waiter = waiters.shift();
    if (waiter === undefined) replies.push(reply);
    else waiter.resolve(reply);
  });
  child.on("exit", (code) => {
    exited = new Error(`the transport floor's child exited ${String(code)}`);
    for (const waiter of waiters.splice(0)) waiter.reject(exited);
  });
  return () =>
    new Promise((resolve, reject) => {
      const queued = replies.shift();
      if (queued !== undefined) resolve(queued);
      else if (exited !== undefined) reject(exited);
      else waiters.push({ resolve, reject });
    });
}

/** The floor of `resources` resources, its child and the bundle's starts run by `node` (the provider's runtime: bench/lib/provider-runtime.ts). */
export async function transportFloor(resources: number, node: string = process.execPath): Promise<TransportFloor> {
  const root = repoRoot();
  const service = await listening(usersService());
  const child = fork(join(root, "dist", "bench", "lib", "transport-floor-child.js"), [`http://127.0.0.1:${(service.address() as AddressInfo).port}/v1/query-users`], { stdio: ["ignore", "inherit", "inherit", "ipc"], execPath: node });
  const next = repliesOf(child);
  const tell = (message: FloorChildMessage): void => {
    child.send(message);
  };
  let client: grpc.Client | undefined;
  try {
    const ready = await next();
    if (ready.kind !== "ready") throw new Error("the transport floor's child did not start");
    client = new grpc.Client(
      `127.0.0.1:${ready.port}`,
      grpc.credentials.createSsl(Buffer.from(ready.serverCertificatePem), Buffer.from(ready.clientKeyPem), Buffer.from(ready.clientCertificatePem)),
      { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost", "grpc.max_receive_message_length": -1 },
    );
    const payload = Buffer.alloc(PAYLOAD_BYTES, 0x61);
    const call = (method: string): Promise<void> =>
      new Promise((resolve, reject) =>
        client!.makeUnaryRequest(method, (b: Buffer) => b, (b: Buffer) => b, payload, (error) => (error === null ? resolve() : reject(error))),
      );
    const phase = async (count: number, perResource: readonly string[]): Promise<{ cpuMs: number; calls: number; requests: number }> => {
      tell({ kind: "mark" });
      await next();
      let taken = 0;
      await Promise.all(
        Array.from({ length: PARALLELISM }, async () => {
          while (taken < count) {
            taken++;
            for (const method of perResource) await call(method);
          }
        }),
      );
      tell({ kind: "mark" });
      const marked = await next();
      if (marked.kind !== "marked") throw new Error("the transport floor's child did not report its CPU");
      return { cpuMs: marked.cpuMs, calls: marked.calls, requests: marked.requests };
    };
    await phase(Math.min(resources, 20), [ECHO_METHOD, READ_METHOD]); // connections and code warmed, not counted
    const validation = await phase(resources, [ECHO_METHOD]);
    const walk = await phase(resources, [ECHO_METHOD, ECHO_METHOD, READ_METHOD, ECHO_METHOD]);
    const starts: number[] = [];
    for (let i = 0; i < 3; i++) starts.push(await startCpu(node, join(root, "dist", "provider", "alertrules-provider.js")));
    const startCpuMs = starts.sort((a, b) => a - b)[1]!;
    return { resources, validation, walk, startCpuMs, perResourceMs: (validation.cpuMs + walk.cpuMs + PROVIDER_STARTS_PER_PLAN * startCpuMs) / resources };
  } finally {
    client?.close();
    if (child.exitCode === null) {
      const gone = new Promise((resolve) => child.once("exit", resolve));
      tell({ kind: "stop" });
      await gone;
    }
    await new Promise((resolve) => service.close(resolve));
  }
}

/** A service that answers every request with {@link USERS_BODY} (not listening yet). */
export function usersService(): Server {
  return createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(USERS_BODY);
    });
  });
}

/** `server` listening on 127.0.0.1 and a free port. */
export function listening(server: Server): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}

/** The CPU (user + system, ms) of a `node` that loads `bundle` and exits, as the process itself counts it. */
function startCpu(node: string, bundle: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = `require(${JSON.stringify(bundle)}); const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));`;
    const child = spawn(node, ["-e", probe], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (out += d));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 && Number.isFinite(Number(out)) ? resolve(Number(out)) : reject(new Error(`loading the provider's bundle exited ${String(code)}`))));
  });
}
