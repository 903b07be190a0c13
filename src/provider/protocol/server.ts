/**
 * The `tfplugin6.Provider` service: each RPC decoded at the door (DynamicValue → plain values by the
 * schema), routed to the ProviderDefinition, and its answer encoded back. A thrown error becomes an
 * error diagnostic carrying its message only. Calls run concurrently: nothing here serializes them.
 */
import { GrpcCode, GrpcStatusError } from "./grpc-server";
import type { Shape } from "./codec";
import { decodeJson, decodeMsgpack, encodeMsgpack } from "./codec";
import { jsonFits } from "./json-fits";
import { shapeOfSchema, toProtoSchema } from "./schema";
import type { ProtoSchema } from "./schema";
import type { DataSourceType, Diagnostic, ObjectValue, PathStep, ProviderDefinition, ResourceType, Schema, Value } from "./types";
import { UNKNOWN } from "./types";

// ---------------------------------------------------------------------------------------------------
// the messages, as @grpc/proto-loader gives and takes them (only the fields this service reads)

interface DynamicValue {
  msgpack: Buffer;
  json: Buffer;
}
interface ProtoDiagnostic {
  severity: "ERROR" | "WARNING";
  summary: string;
  detail: string;
  attribute: ProtoPath | null;
}
interface ProtoPath {
  steps: ({ attribute_name: string } | { element_key_string: string } | { element_key_int: number })[];
}
interface TypedRequest {
  type_name: string;
}
interface ConfigRequest extends TypedRequest {
  config: DynamicValue | null;
}

type Handler = (request: never) => object | Promise<object>;

/** Answers "…is not supported by the <name> provider" for a feature this protocol room does not offer. */
function notSupported(what: string, providerName: string): ProtoDiagnostic {
  return error(`${what} is not supported by the ${providerName} provider.`);
}

function error(summary: string, detail = ""): ProtoDiagnostic {
  return { severity: "ERROR", summary, detail, attribute: null };
}

/** An error's message only: never its stack, never its properties. */
function errorDiagnostic(thrown: unknown): ProtoDiagnostic {
  const message = thrown instanceof Error ? thrown.message : String(thrown);
  return error(message === "" ? "The provider failed without a message." : message);
}

export function toProtoPath(path: readonly PathStep[]): ProtoPath {
  return {
    steps: path.map((step) =>
      typeof step === "string" ? { attribute_name: step } : "key" in step ? { element_key_string: step.key } : { element_key_int: step.index },
    ),
  };
}

export function toProtoDiagnostic(diagnostic: Diagnostic): ProtoDiagnostic {
  return {
    severity: diagnostic.severity === "error" ? "ERROR" : "WARNING",
    summary: diagnostic.summary,
    detail: diagnostic.detail ?? "",
    attribute: diagnostic.attribute === undefined || diagnostic.attribute.length === 0 ? null : toProtoPath(diagnostic.attribute),
  };
}

function decodeValue(shape: Shape, value: DynamicValue | null | undefined): Value {
  if (value === null || value === undefined || (value.msgpack.length === 0 && value.json.length === 0)) return null;
  return value.msgpack.length > 0 ? decodeMsgpack(shape, value.msgpack) : decodeJson(shape, value.json);
}

function decode(shape: Shape, value: DynamicValue | null | undefined, what: string): ObjectValue | null {
  return notUnknown(decodeValue(shape, value), what);
}

function decodeKnown(shape: Shape, value: DynamicValue | null | undefined, what: string): ObjectValue {
  return known(decodeValue(shape, value), what);
}

/** A decoded value that may be null, but not wholly unknown. */
function notUnknown(decoded: Value, what: string): ObjectValue | null {
  if (decoded === UNKNOWN) throw new Error(`The ${what} is wholly unknown; the provider needs it known.`);
  return decoded as ObjectValue | null;
}

/** A decoded value that must be there and known. */
function known(decoded: Value, what: string): ObjectValue {
  const value = notUnknown(decoded, what);
  if (value === null) throw new Error(`The ${what} is missing from Terraform's request.`);
  return value;
}

/** Validation of a configuration not known yet (wholly unknown) says nothing: Terraform validates it again once known. */
async function validateConfig(
  shape: Shape,
  value: DynamicValue | null | undefined,
  validate: ((config: ObjectValue) => Diagnostic[] | Promise<Diagnostic[]>) | undefined,
  configs?: DecodedValues,
): Promise<{ diagnostics: ProtoDiagnostic[] }> {
  const decoded = configs === undefined ? decodeValue(shape, value) : configs.decode(shape, value);
  if (decoded === UNKNOWN || decoded === null || validate === undefined) return { diagnostics: [] };
  return { diagnostics: noDiagnostics(await validate(decoded as ObjectValue)) };
}

/**
 * Values decoded once, kept by their bytes until the call that takes them. Terraform sends a
 * resource's configuration in the same bytes to ValidateResourceConfig and then PlanResourceChange,
 * and an unchanged resource's state to PlanResourceChange in the bytes ReadResource answered (the
 * bytes it was sent), so its decoded value is answered again. A value is shared, never mutated
 * (the framework copies what it changes). Bounded: the oldest is dropped beyond `limit`.
 */
class DecodedValues {
  private readonly kept = new Map<string, Value>();

  constructor(private readonly limit: number) {}

  /** The value of `value`, decoded now or kept from an earlier decode of the same bytes; kept for the next. */
  decode(shape: Shape, value: DynamicValue | null | undefined): Value {
    if (value === null || value === undefined || value.msgpack.length === 0) return decodeValue(shape, value);
    const key = value.msgpack.toString("latin1");
    const hit = this.kept.get(key);
    if (hit !== undefined) return hit;
    const decoded = decodeValue(shape, value);
    if (this.kept.size >= this.limit) this.kept.delete(this.kept.keys().next().value!);
    this.kept.set(key, decoded);
    return decoded;
  }

  /** The value of `value`, kept from an earlier decode of the same bytes (and no longer kept) or decoded now. */
  take(shape: Shape, value: DynamicValue | null | undefined): Value {
    if (value === null || value === undefined || value.msgpack.length === 0) return decodeValue(shape, value);
    const key = value.msgpack.toString("latin1");
    const hit = this.kept.get(key);
    if (hit === undefined) return decodeValue(shape, value);
    this.kept.delete(key);
    return hit;
  }
}
/**
 * Values kept between the calls that share them. Terraform's walk calls, per resource, UpgradeResourceState,
 * ReadResource, ValidateResourceConfig and PlanResourceChange one after the other, ten resources at a
 * time by default (-parallelism): a value is asked for again within a few calls, and a plan takes
 * it. Kept short, so a process that only validates (Terraform's validation process) holds nothing
 * for long: a value beyond the bound is decoded again where it is asked for, the same value.
 */
const CONFIGS_KEPT = 256;
const STATES_KEPT = 256;

function encode(shape: Shape, value: ObjectValue | null): DynamicValue {
  return { msgpack: encodeMsgpack(shape, value), json: Buffer.alloc(0) };
}

const noDiagnostics = (list: readonly Diagnostic[] | undefined): ProtoDiagnostic[] => (list ?? []).map(toProtoDiagnostic);

interface Kind<T extends { schema: Schema }> {
  definition: T;
  shape: Shape;
  proto: ProtoSchema;
  configs: DecodedValues;
  /** States ReadResource decoded, for the PlanResourceChange that follows it. */
  states: DecodedValues;
}

function index<T extends { schema: Schema }>(types: { [name: string]: T }): Map<string, Kind<T>> {
  const out = new Map<string, Kind<T>>();
  for (const [name, definition] of Object.entries(types)) {
    out.set(name, { definition, shape: shapeOfSchema(definition.schema), proto: toProtoSchema(definition.schema), configs: new DecodedValues(CONFIGS_KEPT), states: new DecodedValues(STATES_KEPT) });
  }
  return out;
}

/** What the handlers of one provider share: its definition, its schemas built once, its types by name. */
interface Served {
  readonly provider: ProviderDefinition;
  readonly providerName: string;
  readonly providerShape: Shape;
  readonly providerSchema: ProtoSchema;
  readonly resources: Map<string, Kind<ResourceType>>;
  readonly dataSources: Map<string, Kind<DataSourceType>>;
  readonly capabilities: { plan_destroy: boolean; get_provider_schema_optional: boolean; move_resource_state: boolean };
  readonly resource: (typeName: string) => Kind<ResourceType>;
  readonly dataSource: (typeName: string) => Kind<DataSourceType>;
}

/**
 * The handlers of `tfplugin6.Provider` for a definition. The schemas are built (and checked) here,
 * once: a schema Terraform would refuse throws now rather than at the first call.
 */
export function providerService(provider: ProviderDefinition, providerName: string): Record<string, (request: unknown) => Promise<unknown>> {
  const resources = index(provider.resources);
  const dataSources = index(provider.dataSources);
  const served: Served = {
    provider,
    providerName,
    providerShape: shapeOfSchema(provider.schema),
    providerSchema: toProtoSchema(provider.schema),
    resources,
    dataSources,
    // MoveResourceState is offered when a resource type takes moves (Terraform asks only then)
    capabilities: { plan_destroy: true, get_provider_schema_optional: true, move_resource_state: [...resources.values()].some((kind) => kind.definition.moveResourceState !== undefined) },
    resource: (typeName) => {
      const kind = resources.get(typeName);
      if (kind === undefined) throw new Error(`The resource type "${typeName}" is not supported by the ${providerName} provider.`);
      return kind;
    },
    dataSource: (typeName) => {
      const kind = dataSources.get(typeName);
      if (kind === undefined) throw new Error(`The data source "${typeName}" is not supported by the ${providerName} provider.`);
      return kind;
    },
  };
  const handlers: Record<string, Handler> = { ...providerHandlers(served), ...resourceHandlers(served), ...stateHandlers(served), ...dataSourceHandlers(served), ...unsupportedHandlers(providerName) };
  const implementation: Record<string, (request: unknown) => Promise<unknown>> = {};
  for (const [name, handler] of Object.entries(handlers)) implementation[name] = unary(name, handler);
  return implementation;
}

/** The provider's own calls: its metadata and schemas, its configuration, and Terraform's stop. */
function providerHandlers({ provider, providerShape, providerSchema, resources, dataSources, capabilities }: Served): Record<string, Handler> {
  return {
    GetMetadata: () => ({
      server_capabilities: capabilities,
      diagnostics: [],
      data_sources: [...dataSources.keys()].map((type_name) => ({ type_name })),
      resources: [...resources.keys()].map((type_name) => ({ type_name })),
      functions: [],
      ephemeral_resources: [],
    }),

    GetProviderSchema: () => ({
      provider: providerSchema,
      resource_schemas: Object.fromEntries([...resources].map(([name, kind]) => [name, kind.proto])),
      data_source_schemas: Object.fromEntries([...dataSources].map(([name, kind]) => [name, kind.proto])),
      functions: {},
      ephemeral_resource_schemas: {},
      diagnostics: [],
      server_capabilities: capabilities,
    }),

    ValidateProviderConfig: (request: { config: DynamicValue | null }) => validateConfig(providerShape, request.config, provider.validateProviderConfig?.bind(provider)),

    ConfigureProvider: async (request: { terraform_version: string; config: DynamicValue | null }) => {
      const config = decodeKnown(providerShape, request.config, "provider configuration");
      return { diagnostics: noDiagnostics(await provider.configureProvider(config, { terraformVersion: request.terraform_version })) };
    },

    StopProvider: async () => {
      try {
        await provider.stopProvider();
        return { Error: "" };
      } catch (thrown) {
        return { Error: thrown instanceof Error ? thrown.message : String(thrown) };
      }
    },
  };
}

/** A resource type's request (every RPC on one names its type). */
interface PlanRequest extends TypedRequest {
  prior_state: DynamicValue | null;
  proposed_new_state: DynamicValue | null;
  config: DynamicValue | null;
  prior_private: Buffer;
}
interface ApplyRequest extends TypedRequest {
  prior_state: DynamicValue | null;
  planned_state: DynamicValue | null;
  config: DynamicValue | null;
  planned_private: Buffer;
}

/** A change's three values decoded: the prior state, the proposed or planned one, and the configuration. */
function decodeChange(shape: Shape, prior: DynamicValue | null, [next, nextWhat]: [DynamicValue | null, string], config: DynamicValue | null, kept?: Pick<Kind<ResourceType>, "configs" | "states">): { prior: ObjectValue | null; next: ObjectValue | null; config: ObjectValue | null } {
  return {
    prior: notUnknown(kept === undefined ? decodeValue(shape, prior) : kept.states.take(shape, prior), "prior state"),
    next: decode(shape, next, nextWhat),
    config: notUnknown(kept === undefined ? decodeValue(shape, config) : kept.configs.take(shape, config), "configuration"),
  };
}

/** ReadResource: the state decoded, the type's read, the new state encoded. */
async function serveReadResource({ resource }: Served, request: TypedRequest & { current_state: DynamicValue | null; private: Buffer }): Promise<object> {
  const kind = resource(request.type_name);
  const state = known(kind.states.decode(kind.shape, request.current_state), "current state");
  const answer = await kind.definition.readResource({ state, private: request.private });
  // the state as it was read: the bytes it came in
  const newState = answer.state === state && request.current_state !== null ? request.current_state : encode(kind.shape, answer.state);
  return { new_state: newState, private: answer.private ?? request.private, diagnostics: noDiagnostics(answer.diagnostics) };
}

/** PlanResourceChange: the prior state, proposed state and configuration decoded, the type's plan, the planned state encoded. */
async function servePlanResourceChange({ resource }: Served, request: PlanRequest): Promise<object> {
  const kind = resource(request.type_name);
  const { prior, next: proposed, config } = decodeChange(kind.shape, request.prior_state, [request.proposed_new_state, "proposed new state"], request.config, kind);
  const answer = await kind.definition.planResourceChange({ prior, proposed, config, priorPrivate: request.prior_private });
  return {
    // a plan of no change: the prior state, in the bytes it came in
    planned_state: answer.planned !== null && answer.planned === prior && request.prior_state !== null ? request.prior_state : encode(kind.shape, answer.planned),
    requires_replace: (answer.requiresReplace ?? []).map(toProtoPath),
    planned_private: answer.plannedPrivate ?? Buffer.alloc(0),
    diagnostics: noDiagnostics(answer.diagnostics),
  };
}

/** ApplyResourceChange: the prior state, planned state and configuration decoded, the type's apply, the new state encoded. */
async function serveApplyResourceChange({ resource }: Served, request: ApplyRequest): Promise<object> {
  const kind = resource(request.type_name);
  const { prior, next: planned, config } = decodeChange(kind.shape, request.prior_state, [request.planned_state, "planned state"], request.config);
  const answer = await kind.definition.applyResourceChange({ prior, planned, config, plannedPrivate: request.planned_private });
  return { new_state: encode(kind.shape, answer.state), private: answer.private ?? request.planned_private, diagnostics: noDiagnostics(answer.diagnostics) };
}

/** ImportResourceState: the type's import, its state encoded (none where it failed). */
async function serveImportResourceState({ resource }: Served, request: TypedRequest & { id: string }): Promise<object> {
  const kind = resource(request.type_name);
  const answer = await kind.definition.importResourceState(request.id);
  const failed = (answer.diagnostics ?? []).some((diagnostic) => diagnostic.severity === "error");
  return {
    imported_resources: failed ? [] : [{ type_name: request.type_name, state: encode(kind.shape, answer.state), private: answer.private ?? Buffer.alloc(0) }],
    diagnostics: noDiagnostics(answer.diagnostics),
  };
}

/** The calls on a resource type: validate, read, plan, apply, import. */
function resourceHandlers(served: Served): Record<string, Handler> {
  return {
    ValidateResourceConfig: (request: ConfigRequest) => {
      const kind = served.resource(request.type_name);
      return validateConfig(kind.shape, request.config, kind.definition.validateResourceConfig?.bind(kind.definition), kind.configs);
    },
    ReadResource: (request: TypedRequest & { current_state: DynamicValue | null; private: Buffer }) => serveReadResource(served, request),
    PlanResourceChange: (request: PlanRequest) => servePlanResourceChange(served, request),
    ApplyResourceChange: (request: ApplyRequest) => serveApplyResourceChange(served, request),
    ImportResourceState: (request: TypedRequest & { id: string }) => serveImportResourceState(served, request),
  };
}

/** The calls that bring a resource's state from elsewhere: an older schema version, another resource type. */
function stateHandlers({ resource, providerName }: Served): Record<string, Handler> {
  return {
    UpgradeResourceState: (request: TypedRequest & { version: number; raw_state: { json: Buffer; flatmap: Record<string, string> } | null }) => {
      const kind = resource(request.type_name);
      const json = request.raw_state?.json ?? Buffer.alloc(0);
      if (json.length === 0) {
        const flat = Object.keys(request.raw_state?.flatmap ?? {}).length > 0;
        throw new Error(flat ? `The stored state of ${request.type_name} is in the legacy flatmap format, which this provider cannot read.` : `The stored state of ${request.type_name} is empty.`);
      }
      // a state that fits the schema as stored, for a type that upgrades nothing, is answered in the
      // JSON it came in (Terraform reads either encoding): checked without being decoded
      if (kind.definition.upgradeResourceState === undefined && jsonFits(kind.shape, json)) return { upgraded_state: { msgpack: Buffer.alloc(0), json }, diagnostics: [] };
      const warnings: ProtoDiagnostic[] = [];
      const stored = decodeJson(kind.shape, json, {
        onExtraAttribute: (path) =>
          warnings.push({
            severity: "WARNING",
            summary: `The stored state of ${request.type_name} has an attribute "${path}" that its schema no longer has; it was dropped.`,
            detail: "",
            attribute: null,
          }),
      }) as ObjectValue | null;
      if (stored === null) throw new Error(`The stored state of ${request.type_name} is null.`);
      const upgraded = kind.definition.upgradeResourceState === undefined ? stored : kind.definition.upgradeResourceState(request.version, stored);
      // a state that fits the schema as stored is answered in the JSON it came in (Terraform reads
      // either encoding): checked by the decode above, not encoded again
      if (upgraded === stored && warnings.length === 0) return { upgraded_state: { msgpack: Buffer.alloc(0), json }, diagnostics: warnings };
      return { upgraded_state: encode(kind.shape, upgraded), diagnostics: warnings };
    },

    MoveResourceState: async (request: {
      source_provider_address: string;
      source_type_name: string;
      source_schema_version: number | string;
      source_state: { json: Buffer } | null;
      target_type_name: string;
      source_private: Buffer;
    }) => {
      const kind = resource(request.target_type_name);
      const move = kind.definition.moveResourceState?.bind(kind.definition);
      if (move === undefined) return { diagnostics: [notSupported(`Moving state into ${request.target_type_name} (a "moved" block from another resource type)`, providerName)] };
      const json = request.source_state?.json ?? Buffer.alloc(0);
      const answer = await move({
        sourceProvider: request.source_provider_address,
        sourceType: request.source_type_name,
        sourceVersion: Number(request.source_schema_version),
        sourceState: json.length === 0 ? null : (JSON.parse(json.toString("utf8")) as unknown),
        sourcePrivate: request.source_private,
      });
      const failed = (answer.diagnostics ?? []).some((diagnostic) => diagnostic.severity === "error");
      return {
        ...(failed ? {} : { target_state: encode(kind.shape, answer.state), target_private: answer.private ?? Buffer.alloc(0) }),
        diagnostics: noDiagnostics(answer.diagnostics),
      };
    },

  };
}

/** The calls on a data source: validate and read. */
function dataSourceHandlers({ dataSource }: Served): Record<string, Handler> {
  return {
    ValidateDataResourceConfig: (request: ConfigRequest) => {
      const kind = dataSource(request.type_name);
      return validateConfig(kind.shape, request.config, kind.definition.validateDataResourceConfig?.bind(kind.definition));
    },

    ReadDataSource: async (request: ConfigRequest) => {
      const kind = dataSource(request.type_name);
      const config = decodeKnown(kind.shape, request.config, "data source configuration");
      const answer = await kind.definition.readDataSource(config);
      return { state: encode(kind.shape, answer.state), diagnostics: noDiagnostics(answer.diagnostics) };
    },

  };
}

/** What this provider does not offer: ephemeral resources and functions. */
function unsupportedHandlers(providerName: string): Record<string, Handler> {
  return {
    ValidateEphemeralResourceConfig: (request: TypedRequest) => ({ diagnostics: [notSupported(`The ephemeral resource "${request.type_name}"`, providerName)] }),
    OpenEphemeralResource: (request: TypedRequest) => ({ diagnostics: [notSupported(`The ephemeral resource "${request.type_name}"`, providerName)] }),
    RenewEphemeralResource: (request: TypedRequest) => ({ diagnostics: [notSupported(`The ephemeral resource "${request.type_name}"`, providerName)] }),
    CloseEphemeralResource: (request: TypedRequest) => ({ diagnostics: [notSupported(`The ephemeral resource "${request.type_name}"`, providerName)] }),

    // no functions: an empty list is the true answer (GetProviderSchema says the same)
    GetFunctions: () => ({ functions: {}, diagnostics: [] }),
    CallFunction: (request: { name: string }) => {
      throw new Unsupported(`The function "${request.name}" is not supported by the ${providerName} provider.`);
    },

  };
}

/** A call this provider does not offer, on an RPC whose response has no diagnostics: gRPC UNIMPLEMENTED. */
class Unsupported extends Error {}

/** RPCs whose responses have no diagnostics: a failure there is a gRPC status. */
const WITHOUT_DIAGNOSTICS = new Set(["StopProvider", "CallFunction"]);

function unary(name: string, handler: Handler): (request: unknown) => Promise<unknown> {
  const answer = (thrown: unknown): object => {
    if (!WITHOUT_DIAGNOSTICS.has(name)) return { diagnostics: [errorDiagnostic(thrown)] };
    throw new GrpcStatusError(thrown instanceof Unsupported ? GrpcCode.UNIMPLEMENTED : GrpcCode.INTERNAL, errorDiagnostic(thrown).summary);
  };
  return (request) =>
    Promise.resolve()
      .then(() => handler(request as never))
      .catch(answer);
}
