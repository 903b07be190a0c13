/**
 * Child process of the transport's floor (bench/lib/transport-floor.ts): a process shaped like the
 * provider's with nothing of the provider's own work in it. It serves gRPC on the provider's own
 * server (mutual TLS, HTTP/2, the 5-byte framing), answers each call with its request's bytes, and
 * for a call to `/floor.Floor/Read` first sends one request as the provider's API client sends it
 * (`sendAttempt`, axios) to the URL it is given. It counts what it served and reports its own CPU.
 */
import { makeServerCertificate } from "../../src/provider/protocol/certificate";
import { GrpcServer, type UnaryMethod } from "../../src/provider/protocol/grpc-server";
import { createHttpClient, sendAttempt } from "../../src/api/http/attempt";
import { messageOf } from "../../src/shared/text";

/** What the parent sends. */
export type FloorChildMessage = { readonly kind: "mark" } | { readonly kind: "stop" };

/** What the child answers: first `ready`, then one `marked` per mark. */
export type FloorChildReply =
  | { readonly kind: "ready"; readonly port: number; readonly serverCertificatePem: string; readonly clientKeyPem: string; readonly clientCertificatePem: string }
  | { readonly kind: "marked"; readonly cpuMs: number; readonly calls: number; readonly requests: number };

export const READ_METHOD = "/floor.Floor/Read";
export const ECHO_METHOD = "/floor.Floor/Echo";

async function main(serviceUrl: string): Promise<void> {
  const send = (reply: FloorChildReply): void => {
    process.send?.(reply);
  };
  const server = makeServerCertificate();
  const client = makeServerCertificate();
  const http = createHttpClient();
  let calls = 0;
  let requests = 0;
  const echo = (bytes: Buffer): Promise<Buffer> => {
    calls++;
    return Promise.resolve(Buffer.from(bytes));
  };
  const read = async (bytes: Buffer): Promise<Buffer> => {
    calls++;
    requests++;
    const answer = await sendAttempt(http, { url: serviceUrl, data: '{"ruleId":"floor"}', accept: "application/json", token: "floor-token", timeoutMs: 30_000, maxBodyBytes: 10_000_000 }, () => []);
    if (answer.type !== "response" || answer.status !== 200) throw new Error(`the floor's service answered ${JSON.stringify(answer)}`);
    JSON.parse(answer.text);
    return Buffer.from(bytes);
  };
  const method = (handle: (bytes: Buffer) => Promise<Buffer>): UnaryMethod => ({
    deserialize: (bytes) => bytes,
    serialize: (value) => value as Buffer,
    handle: (request) => handle(request as Buffer),
  });
  const grpc = new GrpcServer(
    new Map([
      [ECHO_METHOD, method(echo)],
      [READ_METHOD, method(read)],
    ]),
    { keyPem: server.privateKeyPem, certificatePem: server.certificatePem, clientCertificatePem: client.certificatePem },
  );
  const port = await grpc.listen(0);
  let since = process.cpuUsage();
  process.on("message", (message: FloorChildMessage) => {
    if (message.kind === "mark") {
      const used = process.cpuUsage(since);
      since = process.cpuUsage();
      send({ kind: "marked", cpuMs: (used.user + used.system) / 1000, calls, requests });
      calls = 0;
      requests = 0;
    } else {
      void grpc.shutdown(1_000).then(() => process.exit(0));
    }
  });
  send({ kind: "ready", port, serverCertificatePem: server.certificatePem, clientKeyPem: client.privateKeyPem, clientCertificatePem: client.certificatePem });
}

if (require.main === module) {
  main(process.argv[2] ?? "").catch((err: unknown) => {
    process.stderr.write(`${messageOf(err)}\n`);
    process.exit(1);
  });
}
