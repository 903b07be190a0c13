/**
 * Loads the project's own .proto files (src/provider/protocol/proto, copied beside the compiled code
 * by the build) into gRPC service definitions.
 */
import { loadPackageDefinition } from "@grpc/grpc-js";
import type { GrpcObject, ServiceClientConstructor, ServiceDefinition } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { join } from "node:path";

export const PROTO_DIRECTORY = join(__dirname, "proto");

export interface ProtocolServices {
  provider: ServiceDefinition;
  controller: ServiceDefinition;
  health: ServiceDefinition;
  /** the package tree, for clients (tests) */
  packages: GrpcObject;
}

/** int64 as JS numbers, enums by name, bytes as Buffers, every field present (defaults), snake_case names. */
export const LOADER_OPTIONS = { keepCase: true, longs: Number, enums: String, bytes: Buffer, defaults: true, oneofs: true } as const;

let loaded: ProtocolServices | undefined;

export function protocolServices(): ProtocolServices {
  if (loaded === undefined) {
    const definition = loadSync(["tfplugin6.proto", "go-plugin.proto", "health.proto"], { ...LOADER_OPTIONS, includeDirs: [PROTO_DIRECTORY] });
    const packages = loadPackageDefinition(definition);
    const service = (path: string): ServiceDefinition => {
      let node: unknown = packages;
      for (const part of path.split(".")) node = (node as Record<string, unknown>)[part];
      return (node as ServiceClientConstructor).service;
    };
    loaded = {
      provider: service("tfplugin6.Provider"),
      controller: service("plugin.GRPCController"),
      health: service("grpc.health.v1.Health"),
      packages,
    };
  }
  return loaded;
}
