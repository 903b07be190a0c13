/**
 * A resource as a type, the way HashiCorp's plugin framework reads one: a schema that declares its
 * defaults and what replaces it, a model decoded once from the wire value, and one method for each
 * part of its life (`read`, `plan`, `create`, `update`, `delete`, `importState`, `moveState`).
 *
 * {@link adaptResource} turns Terraform's calls (PlanResourceChange, ApplyResourceChange, …) into
 * those methods once, for every resource:
 *
 *   plan     a destroy (no proposed value) → `planDelete`, else `plan` with the proposed value as
 *            planned: the configuration's own attributes as configured, the schema's defaults where
 *            it leaves one null; the replacement the schema declares is added to the answer
 *   apply    no planned value → `delete`; no prior value → `create`; else `update`
 */
import type { Attribute, Diagnostic, MoveRequest, ObjectValue, PathStep, ResourceType, Schema, Value } from "../protocol";

/** An attribute of a resource's schema, with what the framework declares beside it. */
export interface ResourceAttribute extends Attribute {
  /** The value planned and read where the configuration (or state) leaves the attribute null. @default - none */
  readonly default?: Value;
  /**
   * `"identity"`: a plan that resolves the resource to another `id` than its state's replaces it,
   * shown on this attribute where the configuration sets it (a change that resolves to the same
   * `id` is an update). @default - the attribute never replaces the resource
   */
  readonly requiresReplace?: "identity";
}

/** A resource's schema: the attribute names `N` are the model's keys. */
export interface ResourceSchema<N extends string = string> extends Schema {
  readonly attributes: readonly (ResourceAttribute & { readonly name: N })[];
}

/** The attribute names of a schema. */
export type AttributeName<S> = S extends ResourceSchema<infer N> ? N : never;

/** A wire value read once by its schema's names (the compiler checks each key), with the schema's defaults. */
export type Values<N extends string> = { readonly [K in N]: Value };

/** The attributes of a wire value by name, each null where absent, the schema's default where null. */
export function valuesOf<N extends string>(schema: ResourceSchema<N>, value: ObjectValue): Values<N> {
  const out: Record<string, Value> = {};
  for (const attribute of schema.attributes) out[attribute.name] = value[attribute.name] ?? attribute.default ?? null;
  return out as Values<N>;
}

/**
 * The planned value of a create or update before the resource fills it: the proposed value, with
 * each attribute that only the configuration sets as configured, and the schema's default where
 * the configuration leaves one null.
 */
export function plannedFromConfig(schema: ResourceSchema, proposed: ObjectValue, config: ObjectValue): ObjectValue {
  const planned: ObjectValue = { ...proposed };
  for (const attribute of schema.attributes) {
    if (attribute.default !== undefined) planned[attribute.name] = config[attribute.name] ?? attribute.default;
    else if (attribute.computed !== true) planned[attribute.name] = config[attribute.name] ?? null;
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

export type ReadAnswer = Awaited<ReturnType<ResourceType["read"]>>;
export type PlanAnswer = Awaited<ReturnType<ResourceType["plan"]>>;
export type ApplyAnswer = Awaited<ReturnType<ResourceType["apply"]>>;
export type ImportAnswer = Awaited<ReturnType<ResourceType["importState"]>>;

/** One resource type, a method for each part of its life; `M` is its model, decoded once from a wire value. */
export interface Resource<M> {
  readonly schema: ResourceSchema;
  /** The model of a configuration, state or planned value. */
  decode(value: ObjectValue): M;
  validate(config: ObjectValue): Diagnostic[] | Promise<Diagnostic[]>;
  /** Refresh: the state as it is live, or null when the object is gone. */
  read(request: { readonly state: M; readonly private: Buffer }): Promise<ReadAnswer>;
  /** A create's or update's plan: `planned` is {@link plannedFromConfig}'s. */
  plan(request: { readonly prior: M | null; readonly config: M; readonly planned: M; readonly priorPrivate: Buffer }): Promise<PlanAnswer>;
  /** A destroy's plan. */
  planDelete(request: { readonly prior: M; readonly priorPrivate: Buffer }): Promise<PlanAnswer>;
  create(request: { readonly planned: M; readonly config: M | null; readonly plannedPrivate: Buffer }): Promise<ApplyAnswer>;
  update(request: { readonly prior: M; readonly planned: M; readonly config: M | null; readonly plannedPrivate: Buffer }): Promise<ApplyAnswer>;
  /** `prior` is null only where Terraform asks to destroy what it never had. */
  delete(request: { readonly prior: M | null; readonly plannedPrivate: Buffer }): Promise<ApplyAnswer>;
  importState(id: string): Promise<ImportAnswer>;
  /** @default - moves into this type are refused */
  moveState?(request: MoveRequest): Promise<ApplyAnswer>;
}

/** Terraform's calls → the resource's methods (the one adapter of every resource). */
export function adaptResource<M>(resource: Resource<M>): ResourceType {
  const decode = (value: ObjectValue | null): M | null => (value === null ? null : resource.decode(value));
  const { schema } = resource;
  return {
    schema,
    validate: (config) => resource.validate(config),
    upgrade: (_version, state) => state,
    read: ({ state, private: kept }) => resource.read({ state: resource.decode(state), private: kept }),
    async plan({ prior, proposed, config, priorPrivate }) {
      if (proposed === null || config === null) return prior === null ? { planned: null } : resource.planDelete({ prior: resource.decode(prior), priorPrivate });
      const answer = await resource.plan({ prior: decode(prior), config: resource.decode(config), planned: resource.decode(plannedFromConfig(schema, proposed, config)), priorPrivate });
      const replace = requiresReplace(schema, prior, answer.planned, config);
      return replace.length === 0 ? answer : { ...answer, requiresReplace: replace };
    },
    apply({ prior, planned, config, plannedPrivate }) {
      if (planned === null) return resource.delete({ prior: decode(prior), plannedPrivate });
      const request = { planned: resource.decode(planned), config: decode(config), plannedPrivate };
      return prior === null ? resource.create(request) : resource.update({ ...request, prior: resource.decode(prior) });
    },
    importState: (id) => resource.importState(id),
    ...(resource.moveState === undefined ? {} : { move: (request: MoveRequest) => resource.moveState!(request) }),
  };
}
