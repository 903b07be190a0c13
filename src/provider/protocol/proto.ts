/**
 * Loads the project's own .proto files (src/provider/protocol/proto, copied beside the compiled code
 * by the build) with @grpc/proto-loader, and gives each service's unary methods to the gRPC server
 * (grpc-server.ts) with the functions that read and write their messages.
 */
import { loadSync } from "@grpc/proto-loader";
import type { MethodDefinition, PackageDefinition } from "@grpc/proto-loader";
import { join } from "node:path";
import type { UnaryMethod } from "./grpc-server";

export const PROTO_DIRECTORY = join(__dirname, "proto");

/** The services the provider process serves. */
export type ServiceName = "tfplugin6.Provider" | "plugin.GRPCController" | "grpc.health.v1.Health";

/** int64 as JS numbers, enums by name, bytes as Buffers, every field present (defaults), snake_case names. */
export const LOADER_OPTIONS = { keepCase: true, longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true } as const;

let loaded: PackageDefinition | undefined;

/** The package definition of the three .proto files (for a gRPC client too: `loadPackageDefinition`). */
export function protocolDefinition(): PackageDefinition {
  if (loaded === undefined) {
    // scripts/bundle-provider.mjs replaces this statement with the descriptor it embeds: keep its shape
    const definition = loadSync(["tfplugin6.proto", "go-plugin.proto", "health.proto"], { ...LOADER_OPTIONS, includeDirs: [PROTO_DIRECTORY] });
    loaded = definition;
  }
  return loaded;
}

/** The method `name` of `service`: throws when the service has none of that name. */
function methodOf(service: ServiceName, name: string): MethodDefinition<unknown, unknown> {
  const definition = protocolDefinition()[service] as Record<string, MethodDefinition<unknown, unknown>> | undefined;
  if (definition === undefined) throw new Error(`The service ${service} is not in the provider's .proto files.`);
  const method = definition[name];
  if (method === undefined) throw new Error(`The service ${service} has no method ${name}.`);
  return method;
}

/**
 * The server's methods of `service`, by path, for the handlers given (a method of the service with
 * no handler is left out: the server answers it UNIMPLEMENTED). Throws when a handler names no
 * method of the service.
 */
export function unaryMethods(service: ServiceName, handlers: { readonly [method: string]: (request: unknown) => Promise<unknown> }): Map<string, UnaryMethod> {
  const out = new Map<string, UnaryMethod>();
  for (const [name, handle] of Object.entries(handlers)) {
    const method = methodOf(service, name);
    out.set(method.path, { deserialize: (bytes) => method.requestDeserialize(bytes), serialize: (message) => method.responseSerialize(message), handle });
  }
  return out;
}

/** Like {@link unaryMethods}, for handlers that take and give a message's bytes (no protobuf read or written). */
export function rawMethods(service: ServiceName, handlers: { readonly [method: string]: (request: Buffer) => Promise<Buffer> }): Map<string, UnaryMethod> {
  const out = new Map<string, UnaryMethod>();
  for (const [name, handle] of Object.entries(handlers)) {
    out.set(methodOf(service, name).path, { deserialize: (bytes) => bytes, serialize: (message) => message as Buffer, handle: (request) => handle(request as Buffer) });
  }
  return out;
}
