/**
 * The provider's gRPC server (src/provider/protocol/grpc-server.ts) against a real gRPC client
 * (@grpc/grpc-js) and a bare HTTP/2 client: the framing, the trailers, the statuses and the TLS that
 * Terraform's Go client relies on. The whole provider process under this server:
 * handshake.test.ts and test/terraform/provider-*.test.ts.
 */
import * as http2 from "node:http2";
import * as grpc from "@grpc/grpc-js";
import { makeServerCertificate } from "../../../src/provider/protocol";
import type { ServerCertificate } from "../../../src/provider/protocol";
import { GrpcCode, GrpcServer, GrpcStatusError } from "../../../src/provider/protocol/grpc-server";
import type { UnaryMethod } from "../../../src/provider/protocol/grpc-server";

const text = (bytes: Buffer): string => bytes.toString("utf8");
const bytes = (value: unknown): Buffer => Buffer.from(String(value), "utf8");

/** Methods whose messages are UTF-8 text, for the test's own client. */
function textMethod(handle: (request: string) => Promise<string>): UnaryMethod {
  return { deserialize: text, serialize: bytes, handle: (request) => handle(request as string) };
}

const METHODS = new Map<string, UnaryMethod>([
  ["/test.Echo/Echo", textMethod((request) => Promise.resolve(`echo: ${request}`))],
  ["/test.Echo/Length", textMethod((request) => Promise.resolve(String(request.length)))],
  ["/test.Echo/Refuse", textMethod(() => Promise.reject(new GrpcStatusError(GrpcCode.NOT_FOUND, "no such thing: «ü» 100%")))],
  ["/test.Echo/Fail", textMethod(() => Promise.reject(new Error("went wrong")))],
  ["/test.Echo/Slow", textMethod((request) => new Promise((resolve) => setTimeout(() => resolve(request), 300)))],
]);

interface Running {
  server: GrpcServer;
  port: number;
  serverCert: ServerCertificate;
  clientCert: ServerCertificate;
}

async function running(): Promise<Running> {
  const serverCert = makeServerCertificate();
  const clientCert = makeServerCertificate();
  const server = new GrpcServer(METHODS, { keyPem: serverCert.privateKeyPem, certificatePem: serverCert.certificatePem, clientCertificatePem: clientCert.certificatePem });
  return { server, port: await server.listen(0), serverCert, clientCert };
}

function grpcClient(r: Running, certificate: ServerCertificate | null = r.clientCert): grpc.Client {
  const credentials =
    certificate === null
      ? grpc.credentials.createSsl(Buffer.from(r.serverCert.certificatePem))
      : grpc.credentials.createSsl(Buffer.from(r.serverCert.certificatePem), Buffer.from(certificate.privateKeyPem), Buffer.from(certificate.certificatePem));
  return new grpc.Client(`127.0.0.1:${r.port}`, credentials, { "grpc.ssl_target_name_override": "localhost", "grpc.default_authority": "localhost" });
}

function call(client: grpc.Client, path: string, request: string): Promise<string> {
  return new Promise((resolve, reject) =>
    client.makeUnaryRequest(path, bytes, text, request, { deadline: Date.now() + 20_000 }, (error, response) => (error === null ? resolve(response!) : reject(error))),
  );
}

describe("the provider's gRPC server", () => {
  let r: Running;
  let client: grpc.Client;
  beforeAll(async () => {
    r = await running();
    client = grpcClient(r);
  });
  afterAll(async () => {
    client.close();
    await r.server.shutdown(1_000);
  });

  it("answers a unary call with the handler's response", async () => {
    expect(await call(client, "/test.Echo/Echo", "hello")).toBe("echo: hello");
  });

  it("takes a request of several megabytes (Terraform's large plans) and an empty one", async () => {
    const big = "x".repeat(6 * 1024 * 1024);
    expect(await call(client, "/test.Echo/Length", big)).toBe(String(big.length));
    expect(await call(client, "/test.Echo/Length", "")).toBe("0");
  });

  it("answers concurrent calls each with its own response", async () => {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => call(client, "/test.Echo/Echo", `n${i}`)));
    expect(answers).toEqual(Array.from({ length: 50 }, (_, i) => `echo: n${i}`));
  });

  it("answers a method it does not serve UNIMPLEMENTED (go-plugin's stdio and broker services)", async () => {
    await expect(call(client, "/plugin.GRPCStdio/StreamStdio", "")).rejects.toMatchObject({ code: grpc.status.UNIMPLEMENTED });
  });

  it("sends a handler's GrpcStatusError as its status, the message percent-encoded and read back whole", async () => {
    await expect(call(client, "/test.Echo/Refuse", "")).rejects.toMatchObject({ code: grpc.status.NOT_FOUND, details: "no such thing: «ü» 100%" });
  });

  it("sends any other failure as INTERNAL with its message", async () => {
    await expect(call(client, "/test.Echo/Fail", "")).rejects.toMatchObject({ code: grpc.status.INTERNAL, details: "went wrong" });
  });

  it("refuses a client without Terraform's certificate, or with another", async () => {
    for (const certificate of [null, makeServerCertificate()]) {
      const stranger = grpcClient(r, certificate);
      try {
        await expect(call(stranger, "/test.Echo/Echo", "hello")).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      } finally {
        stranger.close();
      }
    }
  });

  it("refuses a compressed message and a request that is not gRPC, each with a status", async () => {
    const session = http2.connect(`https://127.0.0.1:${r.port}`, {
      ca: r.serverCert.certificatePem,
      key: r.clientCert.privateKeyPem,
      cert: r.clientCert.certificatePem,
      servername: "localhost",
    });
    const request = (headers: http2.OutgoingHttpHeaders, body: Buffer): Promise<http2.IncomingHttpHeaders> =>
      new Promise((resolve, reject) => {
        const stream = session.request(headers);
        let answer: http2.IncomingHttpHeaders = {};
        stream.on("response", (headers: http2.IncomingHttpHeaders) => {
          answer = { ...headers };
        });
        stream.on("trailers", (trailers: http2.IncomingHttpHeaders) => {
          answer = { ...answer, ...trailers };
        });
        stream.on("error", reject);
        stream.on("data", () => undefined);
        stream.on("end", () => resolve(answer));
        stream.end(body);
      });
    try {
      const compressed = Buffer.from([1, 0, 0, 0, 1, 0x61]);
      const refused = await request({ ":method": "POST", ":path": "/test.Echo/Echo", "content-type": "application/grpc", "grpc-encoding": "gzip" }, compressed);
      expect(refused["grpc-status"]).toBe(String(GrpcCode.UNIMPLEMENTED));
      const notGrpc = await request({ ":method": "POST", ":path": "/test.Echo/Echo", "content-type": "application/json" }, Buffer.from("{}"));
      expect(notGrpc["grpc-status"]).toBe(String(GrpcCode.INTERNAL));
      const twoMessages = Buffer.concat([Buffer.from([0, 0, 0, 0, 1, 0x61]), Buffer.from([0, 0, 0, 0, 1, 0x62])]);
      const refusedTwo = await request({ ":method": "POST", ":path": "/test.Echo/Echo", "content-type": "application/grpc" }, twoMessages);
      expect(refusedTwo["grpc-status"]).toBe(String(GrpcCode.INTERNAL));
    } finally {
      session.close();
    }
  });

  it("shuts down after the calls in flight are answered, and takes no call after", async () => {
    const own = await running();
    const ownClient = grpcClient(own);
    try {
      expect(await call(ownClient, "/test.Echo/Echo", "warm")).toBe("echo: warm");
      const inFlight = call(ownClient, "/test.Echo/Slow", "still answered");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const stopped = own.server.shutdown(10_000);
      expect(await inFlight).toBe("still answered");
      await stopped;
      const late = grpcClient(own);
      try {
        await expect(call(late, "/test.Echo/Echo", "late")).rejects.toMatchObject({ code: grpc.status.UNAVAILABLE });
      } finally {
        late.close();
      }
    } finally {
      ownClient.close();
    }
  });
});
