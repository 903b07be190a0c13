/**
 * The model of the provider block (docs/contract.md §11.1): decoded once from the wire value, so
 * that configure reads typed fields and a new argument is one the compiler asks for.
 */
import type { ObjectValue, Value } from "./protocol";
import type { Codec } from "./framework/resource";
import { asNumber, asString, type NumberValue, type StringValue } from "./framework/values";
import { ATTRIBUTE_NAMES } from "../io/door-words";

/** The block's arguments by the connection's settings they set (the core's names: `baseUrl` is `url`). */
export interface ProviderModel {
  readonly baseUrl: StringValue;
  readonly tenantId: StringValue;
  readonly token: StringValue;
  readonly tokenCommand: StringValue;
  readonly maxRps: NumberValue;
  readonly requestDeadline: StringValue;
  readonly runDeadline: StringValue;
}

/** Each field's argument in the provider block: the provider's one table of names (src/shared/field-names.ts), in the schema's order. */
export const PROVIDER_ARGUMENTS = {
  baseUrl: ATTRIBUTE_NAMES.baseUrl,
  tenantId: ATTRIBUTE_NAMES.tenantId,
  token: ATTRIBUTE_NAMES.token,
  tokenCommand: ATTRIBUTE_NAMES.tokenCommand,
  maxRps: ATTRIBUTE_NAMES.maxRps,
  requestDeadline: ATTRIBUTE_NAMES.requestDeadline,
  runDeadline: ATTRIBUTE_NAMES.runDeadline,
} as const satisfies { readonly [field in keyof ProviderModel]: string };

export const providerModel: Codec<ProviderModel> = {
  decode: (wire: ObjectValue): ProviderModel => ({
    baseUrl: asString(wire[PROVIDER_ARGUMENTS.baseUrl]),
    tenantId: asString(wire[PROVIDER_ARGUMENTS.tenantId]),
    token: asString(wire[PROVIDER_ARGUMENTS.token]),
    tokenCommand: asString(wire[PROVIDER_ARGUMENTS.tokenCommand]),
    maxRps: asNumber(wire[PROVIDER_ARGUMENTS.maxRps]),
    requestDeadline: asString(wire[PROVIDER_ARGUMENTS.requestDeadline]),
    runDeadline: asString(wire[PROVIDER_ARGUMENTS.runDeadline]),
  }),
  encode: (model: ProviderModel): ObjectValue => Object.fromEntries((Object.keys(PROVIDER_ARGUMENTS) as (keyof ProviderModel)[]).map((field): [string, Value] => [PROVIDER_ARGUMENTS[field], model[field]])),
};
