/**
 * The model of the provider block (docs/contract.md §11.1): decoded once from the wire value, so
 * that configure reads typed fields and a new argument is one the compiler asks for.
 */
import { modelCodec } from "./framework/model";
import { providerSchema } from "./schema";
import { ATTRIBUTE_NAMES } from "../io/door-words";

/** The block's arguments by the connection's settings they set (the core's names: `baseUrl` is `url`), each named by the provider's one table. */
export const providerModel = modelCodec(providerSchema, {
  baseUrl: [ATTRIBUTE_NAMES.baseUrl, "string"],
  tenantId: [ATTRIBUTE_NAMES.tenantId, "string"],
  token: [ATTRIBUTE_NAMES.token, "string"],
  tokenCommand: [ATTRIBUTE_NAMES.tokenCommand, "string"],
  maxRps: [ATTRIBUTE_NAMES.maxRps, "number"],
  requestDeadline: [ATTRIBUTE_NAMES.requestDeadline, "string"],
  runDeadline: [ATTRIBUTE_NAMES.runDeadline, "string"],
} as const);

export type ProviderModel = ReturnType<typeof providerModel.decode>;

/** Each field's argument in the provider block, in the schema's order. */
export const PROVIDER_ARGUMENTS = providerModel.names;
