/**
 * The protocol room's public types: what a provider definition gives `serve` and what it receives.
 * Nothing here knows of msgpack, gRPC or of rules; values are plain JavaScript data.
 */

/** A value Terraform does not know yet (it will after an apply). */
export const UNKNOWN: unique symbol = Symbol("unknown");

/**
 * A value of an attribute of type `dynamic`, with the type Terraform gave it: kept whole, so that a
 * plan can return the configuration exactly as it came (a tuple stays a tuple, an object an object).
 */
export class Typed {
  constructor(
    readonly type: CtyType,
    readonly value: Value,
  ) {}
}

export type Value = string | number | boolean | null | typeof UNKNOWN | Typed | Value[] | { [key: string]: Value };
export type ObjectValue = { [key: string]: Value };

/** One step of an attribute path: an attribute name, a map key, or a list index. */
export type PathStep = string | { key: string } | { index: number };

export interface Diagnostic {
  severity: "error" | "warning";
  summary: string;
  detail?: string;
  attribute?: readonly PathStep[];
}

/** A cty type, written as Terraform writes it in a schema. */
export type CtyType =
  | "string"
  | "number"
  | "bool"
  | "dynamic"
  | readonly ["list" | "set" | "map", CtyType]
  | readonly ["tuple", readonly CtyType[]]
  | readonly ["object", { readonly [name: string]: CtyType }];

export interface Attribute {
  name: string;
  description: string;
  /** exactly one of `type` and `nested` */
  type?: CtyType;
  nested?: { nesting: "single" | "list" | "set" | "map"; attributes: readonly Attribute[] };
  /**
   * For a `dynamic` attribute: the shape its value must have (checked by the provider, so that an
   * unknown key is an error instead of dropped) and what documentation shows.
   */
  expects?: { nesting: "map" | "list"; attributes: readonly Attribute[] };
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
  sensitive?: boolean;
}

/**
 * A nested block (`timeouts { create = "5m" }`): written in HCL as a block, not as `name = {…}`.
 * A `single` block that the configuration leaves out is null; its value is an object of its
 * attributes (and of its own blocks), as a nested attribute's is.
 */
export interface Block {
  name: string;
  description: string;
  nesting: "single" | "list" | "set";
  attributes: readonly Attribute[];
  blocks?: readonly Block[];
  /** at most this many (list and set blocks); @default - no limit */
  maxItems?: number;
}

export interface Schema {
  version: number;
  description: string;
  attributes: readonly Attribute[];
  /** @default - none */
  blocks?: readonly Block[];
}

/**
 * A resource type as the protocol calls it: one method per RPC, named as the RPC is (as
 * terraform-plugin-go's tfprotov6.ResourceServer names them), taking and answering plain values.
 */
export interface ResourceType {
  schema: Schema;
  validateResourceConfig?(config: ObjectValue): Diagnostic[] | Promise<Diagnostic[]>;
  /** state as stored (JSON) at `version` → state of the current schema */
  upgradeResourceState?(version: number, state: ObjectValue): ObjectValue;
  readResource(req: { state: ObjectValue; private: Buffer }): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }>;
  planResourceChange(req: {
    prior: ObjectValue | null;
    proposed: ObjectValue | null;
    config: ObjectValue | null;
    priorPrivate: Buffer;
  }): Promise<{ planned: ObjectValue | null; requiresReplace?: (readonly PathStep[])[]; plannedPrivate?: Buffer; diagnostics?: Diagnostic[] }>;
  applyResourceChange(req: {
    prior: ObjectValue | null;
    planned: ObjectValue | null;
    config: ObjectValue | null;
    plannedPrivate: Buffer;
  }): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }>;
  importResourceState(id: string): Promise<{ state: ObjectValue; private?: Buffer; diagnostics?: Diagnostic[] }>;
  /**
   * MoveResourceState (a `moved` block from another resource type, Terraform 1.8 and later): the
   * source's state as Terraform stored it (parsed JSON, in the source's schema) → this type's state.
   * @default - moves into this type are refused
   */
  moveResourceState?(request: MoveRequest): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }>;
}

/** What Terraform says of the resource a `moved` block moves from. */
export interface MoveRequest {
  /** e.g. `registry.terraform.io/hashicorp/null`, `terraform.io/builtin/terraform` */
  sourceProvider: string;
  sourceType: string;
  sourceVersion: number;
  /** the stored state, JSON-parsed (null when Terraform sent none) */
  sourceState: unknown;
  sourcePrivate: Buffer;
}

/** A data source as the protocol calls it: one method per RPC. */
export interface DataSourceType {
  schema: Schema;
  validateDataResourceConfig?(config: ObjectValue): Diagnostic[] | Promise<Diagnostic[]>;
  readDataSource(config: ObjectValue): Promise<{ state: ObjectValue; diagnostics?: Diagnostic[] }>;
}

export interface ProviderDefinition {
  /**
   * The provider's local name (`alertrules` in `terraform-provider-alertrules`), used in messages.
   * @default - "alertrules"
   */
  name?: string;
  /** the provider block */
  schema: Schema;
  validateProviderConfig?(config: ObjectValue): Diagnostic[] | Promise<Diagnostic[]>;
  configureProvider(config: ObjectValue, info: { terraformVersion: string }): Promise<Diagnostic[]>;
  resources: { [typeName: string]: ResourceType };
  dataSources: { [typeName: string]: DataSourceType };
  /** StopProvider (Ctrl-C): start no new call, let calls in flight finish */
  stopProvider(): void | Promise<void>;
}

export interface ServeOptions {
  /** @default - process.env */
  env?: NodeJS.ProcessEnv;
  /** where the handshake line goes; @default - process.stdout */
  stdout?: NodeJS.WritableStream;
  /** where refusals and failures are explained; @default - process.stderr */
  stderr?: NodeJS.WritableStream;
  /**
   * tfplugin6.Provider calls answered by these handlers instead of the provider's (protobuf
   * messages as @grpc/proto-loader gives and takes them). For measurements only: the bench's floor
   * provider (bench/lib/floor-provider.ts) echoes each call's bytes behind the same schema.
   * @default - every call answered by `provider`
   */
  replace?: { readonly [method: string]: (request: unknown) => Promise<unknown> };
  /**
   * tfplugin6.Provider calls answered by these handlers with no protobuf read or written: the
   * request's bytes in, the response's bytes out. For measurements only: the bench's floor
   * provider answers each resource call with its request's own fields (bench/lib/proto-echo.ts).
   * @default - none
   */
  replaceRaw?: { readonly [method: string]: (request: Buffer) => Promise<Buffer> };
}
