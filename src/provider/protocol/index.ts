/**
 * The protocol room: Terraform's plugin protocol 6 served from Node.js (handshake, mutual TLS, gRPC,
 * the msgpack codec, the schema builder). It knows nothing of rules: a ProviderDefinition says what
 * the provider offers, and `serve` speaks the protocol for it. docs/provider-protocol.md describes it.
 */
export type { Attribute, Block, CtyType, DataSourceType, Diagnostic, MoveRequest, ObjectValue, PathStep, ProviderDefinition, ResourceType, Schema, ServeOptions, Value } from "./types";
export { Typed, UNKNOWN } from "./types";
export { keyedObject } from "./keyed-object";
export type { JsonDecodeOptions, Shape } from "./codec";
export { CodecError, decodeJson, decodeMsgpack, encodeJson, encodeMsgpack, schemaShape, typeShape } from "./codec";
export { serve } from "./serve";
export { shapeOfSchema, toProtoSchema } from "./schema";
export { makeServerCertificate } from "./certificate";
export type { ServerCertificate } from "./certificate";
export { checkHandshake, handshakeLine, MAGIC_COOKIE_KEY, MAGIC_COOKIE_VALUE } from "./handshake";
export { protocolDefinition, LOADER_OPTIONS, PROTO_DIRECTORY } from "./proto";
