/**
 * The model of the provider block (docs/contract.md §11.1): decoded once from the wire value, so
 * that configure reads typed fields and a new argument is one the compiler asks for.
 */
import type { ObjectValue, Value } from "./protocol";
import type { Codec } from "./framework/resource";
import { asNumber, asString, type NumberValue, type StringValue } from "./framework/values";

export interface ProviderModel {
  readonly url: StringValue;
  readonly tenantId: StringValue;
  readonly token: StringValue;
  readonly tokenCommand: StringValue;
  readonly maxRps: NumberValue;
  readonly requestTimeout: StringValue;
  readonly runTimeout: StringValue;
}

/** Each field's argument in the provider block (the schema's names, src/provider/schema.ts), in the schema's order. */
export const PROVIDER_ARGUMENTS = {
  url: "url",
  tenantId: "tenant_id",
  token: "token",
  tokenCommand: "token_command",
  maxRps: "max_rps",
  requestTimeout: "request_timeout",
  runTimeout: "run_timeout",
} as const satisfies { readonly [field in keyof ProviderModel]: string };

export type ProviderArgument = (typeof PROVIDER_ARGUMENTS)[keyof ProviderModel];

export const providerModel: Codec<ProviderModel> = {
  decode: (wire: ObjectValue): ProviderModel => ({
    url: asString(wire["url"]),
    tenantId: asString(wire["tenant_id"]),
    token: asString(wire["token"]),
    tokenCommand: asString(wire["token_command"]),
    maxRps: asNumber(wire["max_rps"]),
    requestTimeout: asString(wire["request_timeout"]),
    runTimeout: asString(wire["run_timeout"]),
  }),
  encode: (model: ProviderModel): { [name in ProviderArgument]: Value } => ({
    url: model.url,
    tenant_id: model.tenantId,
    token: model.token,
    token_command: model.tokenCommand,
    max_rps: model.maxRps,
    request_timeout: model.requestTimeout,
    run_timeout: model.runTimeout,
  }),
};
