/**
 * What a resource type and a data source are, the way HashiCorp's plugin framework reads them: a
 * schema that declares its defaults, what replaces the resource and what a plan keeps from state;
 * a model that the wire value decodes into and that encodes back; and one method for each part of
 * its life. The one server (src/provider/framework/server.ts) calls these methods for every type,
 * in one order; a type never sees the wire and never wraps another.
 */
import type { Attribute, Diagnostic, MoveRequest, ObjectValue, PathStep, Schema, Value } from "../protocol";
import { UNKNOWN } from "../protocol";
import type { Deadline } from "./timeouts";

/** An attribute of a resource's schema, with the plan modifiers the framework applies beside it. */
export interface ResourceAttribute extends Attribute {
  /** The value planned and decoded where the configuration (or state) leaves the attribute null. @default - none */
  readonly default?: Value;
  /**
   * `"identity"`: a plan that resolves the resource to another `id` than its state's replaces it,
   * shown on this attribute where the configuration sets it (a change that resolves to the same
   * `id` is an update). @default - the attribute never replaces the resource
   */
  readonly requiresReplace?: "identity";
  /**
   * Where the configuration leaves the attribute null, the plan keeps the state's value (null
   * included); a create plans it unknown, for the type's `plan` to fill. @default - the proposed value
   */
  readonly useStateForUnknown?: true;
}

/** A resource's schema: the attribute names `N` are the keys its model encodes to. */
export interface ResourceSchema<N extends string = string> extends Schema {
  readonly attributes: readonly (ResourceAttribute & { readonly name: N })[];
}

/** A wire value (configuration, state or plan) read into a typed model, and the model written back. */
export interface Codec<M> {
  decode(value: ObjectValue): M;
  encode(model: M): ObjectValue;
}

/** A state answered with its private data and what Terraform shows. */
export interface StateAnswer<M> {
  readonly state: M | null;
  readonly private?: Buffer;
  readonly diagnostics?: Diagnostic[];
}

/** A plan answered: the planned model (null: destroyed), what apply must honour, and what Terraform shows. */
export interface PlanAnswer<M> {
  readonly planned: M | null;
  readonly plannedPrivate?: Buffer;
  readonly diagnostics?: Diagnostic[];
}

/** What an apply runs on: the configured run, and the deadline the schema's `timeouts` set for it. */
export interface ApplyCall<R> {
  readonly run: R;
  readonly deadline: Deadline;
}

/**
 * One resource type, a method for each part of its life, on its model `M`; `R` is what a
 * configured provider runs on. Every method that reads or writes takes the run; the server checks
 * that there is one (and that the provider is not offline) before it calls.
 */
/** A type's validation alone: its model and its checks of a configuration (what Terraform's validation process calls). */
export interface Validation<M> {
  readonly model: Codec<M>;
  validate(config: M): Diagnostic[] | Promise<Diagnostic[]>;
}

export interface Resource<M, R> extends Validation<M> {
  readonly schema: ResourceSchema;
  /** Refresh: the state as it is live, or null when the object is gone. The server bounds it by `timeouts.read`. */
  read(request: { readonly state: M; readonly private: Buffer }, run: R): Promise<StateAnswer<M>>;
  /** A create's or update's plan: `planned` is the configuration with the schema's defaults and kept state applied. */
  plan(request: { readonly prior: M | null; readonly config: M; readonly planned: M; readonly priorPrivate: Buffer }, run: R): Promise<PlanAnswer<M>>;
  /** A destroy's plan. */
  planDelete(request: { readonly prior: M; readonly priorPrivate: Buffer }, run: R): Promise<PlanAnswer<M>>;
  create(request: { readonly planned: M; readonly config: M | null; readonly plannedPrivate: Buffer }, call: ApplyCall<R>): Promise<StateAnswer<M>>;
  update(request: { readonly prior: M; readonly planned: M; readonly config: M | null; readonly plannedPrivate: Buffer }, call: ApplyCall<R>): Promise<StateAnswer<M>>;
  /** `prior` is null only where Terraform asks to destroy what it never had. */
  delete(request: { readonly prior: M | null; readonly plannedPrivate: Buffer }, call: ApplyCall<R>): Promise<StateAnswer<M>>;
  importState(id: string): Promise<StateAnswer<M>>;
  /** @default - moves into this type are refused */
  moveState?(request: MoveRequest): Promise<StateAnswer<M>>;
}

/** One data source, on its model `M`. */
export interface DataSource<M, R> {
  readonly schema: Schema;
  readonly model: Codec<M>;
  validate(config: M): Diagnostic[] | Promise<Diagnostic[]>;
  read(config: M, run: R): Promise<{ readonly state: M; readonly diagnostics?: Diagnostic[] }>;
}

/**
 * The planned value of a create or update before the type fills it, by the schema's declarations:
 * each attribute only the configuration sets as configured; the default where the configuration
 * leaves one null; the state's value where it leaves a `useStateForUnknown` one null (unknown at
 * a create); every other computed attribute as Terraform proposed it.
 */
export function plannedFromConfig(schema: ResourceSchema, prior: ObjectValue | null, proposed: ObjectValue, config: ObjectValue): ObjectValue {
  const planned: ObjectValue = { ...proposed };
  for (const attribute of schema.attributes) {
    const configured = config[attribute.name] ?? null;
    if (attribute.default !== undefined) planned[attribute.name] = configured ?? attribute.default;
    else if (attribute.useStateForUnknown === true) planned[attribute.name] = configured ?? (prior === null ? UNKNOWN : (prior[attribute.name] ?? null));
    else if (attribute.computed !== true) planned[attribute.name] = configured;
  }
  return planned;
}

/** Whether a plan that resolves to `plannedId` replaces a state of `priorId` (the schema's `requiresReplace: "identity"`). */
export function replacesIdentity(priorId: Value | undefined, plannedId: Value | undefined): boolean {
  return typeof plannedId === "string" && plannedId !== (typeof priorId === "string" ? priorId : null);
}

/** The attribute paths a plan replaces the resource on (none when it keeps its identity). */
export function requiresReplace(schema: ResourceSchema, prior: ObjectValue | null, planned: ObjectValue | null, config: ObjectValue): PathStep[][] {
  if (prior === null || planned === null || !replacesIdentity(prior["id"], planned["id"])) return [];
  return schema.attributes.filter((a) => a.requiresReplace === "identity" && (config[a.name] ?? null) !== null).map((a) => [a.name]);
}
