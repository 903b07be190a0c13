/**
 * gRPC over Node's own HTTP/2, unary calls only: what go-plugin's client speaks to a plugin (the
 * provider, health and controller services are all unary). One request message in, one response
 * message or a status out, over mutual TLS. It replaces @grpc/grpc-js's server, whose channel,
 * interceptor and stream layers cost more CPU per call than the provider's own work on a call
 * (docs/performance.md); the wire format is the one grpc-js and Go's grpc speak
 * (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md):
 *
 *   request   HEADERS (:method POST, :path /package.Service/Method, content-type application/grpc…)
 *             DATA    1 byte "compressed" flag (0), 4 bytes length (big-endian), the message
 *   response  HEADERS (:status 200, content-type application/grpc), DATA (the same framing),
 *             trailers grpc-status 0; a failure is one HEADERS frame with grpc-status and grpc-message
 */
import * as http2 from "node:http2";
import type { ServerHttp2Session, ServerHttp2Stream, IncomingHttpHeaders } from "node:http2";

/** The gRPC status codes this server answers with. */
export const GrpcCode = { OK: 0, NOT_FOUND: 5, RESOURCE_EXHAUSTED: 8, UNIMPLEMENTED: 12, INTERNAL: 13 } as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/** A call's answer that is a gRPC status rather than a response message. */
export class GrpcStatusError extends Error {
  constructor(
    readonly code: GrpcCode,
    message: string,
  ) {
    super(message);
  }
}

/** One unary method: how its messages are read and written (proto-loader's functions), and its handler. */
export interface UnaryMethod {
  readonly deserialize: (bytes: Buffer) => unknown;
  readonly serialize: (message: unknown) => Buffer;
  /** The response, or a rejection: a GrpcStatusError is that status, anything else INTERNAL. */
  readonly handle: (request: unknown) => Promise<unknown>;
}

export interface GrpcServerTls {
  readonly keyPem: string;
  readonly certificatePem: string;
  /** The only client certificate accepted (go-plugin's AutoMTLS: Terraform's own, self-signed). */
  readonly clientCertificatePem: string;
}

/** Largest request accepted; Terraform's biggest messages (a plan of a large list) are far below it. */
const MAX_REQUEST_BYTES = 256 * 1024 * 1024;

/** grpc-message is percent-encoded: every byte outside printable ASCII, and `%` itself. */
function percentEncode(message: string): string {
  let out = "";
  for (const byte of Buffer.from(message, "utf8")) out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}

/** A message in gRPC's length-prefixed framing, uncompressed. */
function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(5 + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, 5);
  return out;
}

/** The one message of a unary request's body; a GrpcStatusError when the body is not exactly one uncompressed message. */
function unframe(body: Buffer): Buffer {
  if (body.length < 5) throw new GrpcStatusError(GrpcCode.INTERNAL, "The request carries no gRPC message.");
  if (body[0] !== 0) throw new GrpcStatusError(GrpcCode.UNIMPLEMENTED, "Compressed messages are not supported; send them uncompressed (grpc-encoding identity).");
  const length = body.readUInt32BE(1);
  if (body.length !== 5 + length) throw new GrpcStatusError(GrpcCode.INTERNAL, "A unary request must carry exactly one gRPC message.");
  return body.subarray(5);
}

/** A server of unary gRPC methods, keyed by their path (`/tfplugin6.Provider/PlanResourceChange`). */
export class GrpcServer {
  private readonly server: http2.Http2SecureServer;
  private readonly sessions = new Set<ServerHttp2Session>();

  constructor(
    private readonly methods: ReadonlyMap<string, UnaryMethod>,
    tls: GrpcServerTls,
  ) {
    this.server = http2.createSecureServer({
      key: tls.keyPem,
      cert: tls.certificatePem,
      ca: [tls.clientCertificatePem],
      requestCert: true,
      rejectUnauthorized: true, // only Terraform's certificate
      minVersion: "TLSv1.2",
      allowHTTP1: false,
      maxSessionMemory: 256, // MB: Terraform sends up to 10 calls at once, some of them large
    });
    this.server.on("session", (session: ServerHttp2Session) => {
      this.sessions.add(session);
      session.on("close", () => this.sessions.delete(session));
      session.on("error", () => undefined); // a dropped connection: its streams end with it
    });
    this.server.on("stream", (stream, headers) => this.onStream(stream, headers));
  }

  /** Listens on 127.0.0.1:`port`; rejects when the port cannot be bound. Resolves to the port. */
  listen(port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      const failed = (error: Error): void => reject(error);
      this.server.once("error", failed);
      this.server.listen(port, "127.0.0.1", () => {
        this.server.off("error", failed);
        const address = this.server.address();
        resolve(typeof address === "object" && address !== null ? address.port : port);
      });
    });
  }

  /** Stops taking connections and calls; resolves when the calls in flight are answered, or after `graceMs`, when what is left is closed. */
  shutdown(graceMs: number): Promise<void> {
    return new Promise((resolve) => {
      const force = setTimeout(() => {
        for (const session of this.sessions) session.destroy();
      }, graceMs);
      force.unref();
      this.server.close(() => {
        clearTimeout(force);
        resolve();
      });
      for (const session of this.sessions) session.close();
    });
  }

  private onStream(stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
    stream.on("error", () => undefined); // the client went away: nothing to answer
    const path = headers[":path"] ?? "";
    const method = this.methods.get(path);
    if (headers[":method"] !== "POST" || !String(headers["content-type"] ?? "").startsWith("application/grpc")) {
      return this.fail(stream, new GrpcStatusError(GrpcCode.INTERNAL, "Not a gRPC request (POST, content-type application/grpc)."));
    }
    if (method === undefined) return this.fail(stream, new GrpcStatusError(GrpcCode.UNIMPLEMENTED, `The method ${path} is not implemented.`));
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    stream.on("end", () => {
      if (size > MAX_REQUEST_BYTES) return this.fail(stream, new GrpcStatusError(GrpcCode.RESOURCE_EXHAUSTED, `The request is larger than ${MAX_REQUEST_BYTES} bytes.`));
      Promise.resolve()
        .then(() => method.handle(method.deserialize(unframe(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)))))
        .then((response) => method.serialize(response))
        .then(
          (message) => this.answer(stream, message),
          (thrown: unknown) => this.fail(stream, thrown),
        );
    });
  }

  private answer(stream: ServerHttp2Stream, message: Buffer): void {
    if (stream.destroyed || stream.closed) return;
    stream.respond({ ":status": 200, "content-type": "application/grpc" }, { waitForTrailers: true });
    stream.once("wantTrailers", () => stream.sendTrailers({ "grpc-status": String(GrpcCode.OK) }));
    stream.end(frame(message));
  }

  /** A status alone ("trailers-only": one HEADERS frame that ends the stream). */
  private fail(stream: ServerHttp2Stream, thrown: unknown): void {
    if (stream.destroyed || stream.closed) return;
    const code = thrown instanceof GrpcStatusError ? thrown.code : GrpcCode.INTERNAL;
    const message = thrown instanceof Error ? thrown.message : String(thrown);
    stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": String(code), "grpc-message": percentEncode(message) }, { endStream: true });
  }
}
