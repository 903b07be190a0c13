/**
 * The protocol room: Terraform's plugin protocol 6 served from Node.js (handshake, mutual TLS, gRPC,
 * the msgpack codec, the schema builder). It knows nothing of rules: a ProviderDefinition says what
 * the provider offers, and `serve` speaks the protocol for it. docs/provider-protocol.md describes it.
 */
export type { Attribute, CtyType, DataSourceType, Diagnostic, ObjectValue, PathStep, ProviderDefinition, ResourceType, Schema, ServeOptions, Value } from "./types";
export { UNKNOWN } from "./types";
export type { JsonDecodeOptions, Shape } from "./codec";
export { CodecError, decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, schemaShape, typeShape } from "./codec";
