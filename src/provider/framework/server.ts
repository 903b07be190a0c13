/**
 * The one server: the only place that knows the order of a call, for every resource type and
 * data source, as terraform-plugin-framework's fwserver does. The protocol room decodes the wire
 * (msgpack) into plain values by the schema; from there, each call reads top to bottom:
 *
 *   decode    the request's values into the type's model (its `model.decode`)
 *   validate  ValidateResourceConfig: the type's `validate`, then the blocks the schema declares (`timeouts`)
 *   offline?  a property of the run, checked once: offline, a call plans from the configuration
 *             alone, reads nothing and writes nothing (src/provider/framework/offline.ts), and a
 *             data source is answered from the trusted job's file (offline-data.ts)
 *   deadline  the `timeouts` the schema declares: a read is bounded here; an apply's deadline is
 *             handed to the method, which bounds the part before its first write
 *   method    read, plan (the schema's defaults and kept state applied first; requires-replace
 *             after), planDelete, create, update, delete, importState, moveState
 *   encode    the answer's model back into plain values (`model.encode`); a model answered as
 *             it was decoded is answered as it came
 *
 * The table's types are built on first use (the engine loads then, after the handshake): the
 * server itself loads with the schemas, and imports nothing of the engine.
 */
import type { DataSourceType, Diagnostic, MoveRequest, ObjectValue, PathStep, ProviderDefinition, ResourceType, Schema, Value } from "../protocol";
import { sameValue } from "./values";
import { OFFLINE_APPLY, plannedObject } from "./offline";
import { offlineDataSources } from "./offline-data";
import { plannedFromConfig, requiresReplace, type Codec, type DataSource, type PlanAnswer, type Resource, type ResourceSchema, type StateAnswer, type Validation } from "./resource";
import { Deadline, timeoutProblems, timeoutsBlock } from "./timeouts";

/** What the calls of a provider run on: its own run once configured, or offline, or nothing yet. */
export type Configured<R> = { readonly kind: "unconfigured" } | { readonly kind: "offline" } | { readonly kind: "online"; readonly run: R };

/** The provider block: its model, and the run a configuration of it opens. */
export interface ProviderBlock<P, R> {
  readonly model: Codec<P>;
  configure(config: P, stop: AbortSignal): Promise<{ readonly run: Configured<R>; readonly diagnostics: Diagnostic[] }>;
}

/** What a served type asks the server for: the provider's run now, and its offline answers (a data source's). */
interface ServeContext<R> {
  readonly runs: () => Configured<R>;
  readonly offline: () => DataSourceType;
}

/** A type of the provider's table as the server serves it; its model stays inside. */
export interface Row<T, R> {
  readonly schema: Schema;
  readonly serve: (context: ServeContext<R>) => T;
}

/** What the server serves: the provider block and its table, each built on first use. */
export interface ServedProvider<P, R> {
  readonly schema: Schema;
  readonly block: () => ProviderBlock<P, R>;
  readonly resources: { readonly [name: string]: Row<ResourceType, R> };
  readonly dataSources: { readonly [name: string]: Row<DataSourceType, R> };
  /** The environment the offline data sources read their files' names from. */
  readonly env: NodeJS.ProcessEnv;
  /** Lines for Terraform's log (the provider's stderr). */
  readonly log: (line: string) => void;
}

/** A value made on first use. */
function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

/** The run of a call that reads or writes; a provider Terraform has not configured cannot. */
function online<R>(configured: Configured<R>): R {
  if (configured.kind !== "online") throw new Error("the alertrules provider is not configured (Terraform configures it before it reads or plans): run terraform again.");
  return configured.run;
}

/**
 * A model's plain value: as it came where the answer is the model decoded from it, or the same
 * value (the protocol room then answers the bytes it was sent: an unchanged list's read and plan
 * encode nothing), else encoded.
 */
function encoded<M>(codec: Codec<M>, answer: M | null, decoded: M | null, wire: ObjectValue | null): ObjectValue | null {
  if (answer === null) return null;
  return wire !== null && decoded !== null && (answer === decoded || sameValue(answer as Value, decoded as Value)) ? wire : codec.encode(answer);
}

const OFFLINE_ERROR: Diagnostic = { severity: "error", summary: "Offline provider", detail: OFFLINE_APPLY };

/**
 * A resource type's row: `build` makes the type on first use; `validation`, where given, makes
 * the half ValidateResourceConfig needs (the same model), so that a process that only validates
 * loads only that half.
 */
export function resourceRow<M, R>(schema: ResourceSchema, build: () => Resource<M, R>, validation?: () => Validation<M>): Row<ResourceType, R> {
  return { schema, serve: ({ runs }) => new ResourceServer(schema, lazy(build), runs, lazy(validation ?? build)) };
}

/** A data source's row, likewise; offline, it is answered from the trusted job's file. */
export function dataSourceRow<M, R>(schema: Schema, build: () => DataSource<M, R>): Row<DataSourceType, R> {
  return { schema, serve: ({ runs, offline }) => new DataSourceServer(schema, lazy(build), runs, offline) };
}

/** Terraform's calls on one resource type, each in the server's order. */
class ResourceServer<M, R> implements ResourceType {
  constructor(
    readonly schema: ResourceSchema,
    private readonly type: () => Resource<M, R>,
    private readonly runs: () => Configured<R>,
    private readonly validation: () => Validation<M>,
  ) {}

  async validateResourceConfig(config: ObjectValue): Promise<Diagnostic[]> {
    const validation = this.validation();
    const model = validation.model.decode(config);
    return [...(await validation.validate(model)), ...(this.declaresTimeouts() ? timeoutProblems(config) : [])];
  }

  async readResource(request: { state: ObjectValue; private: Buffer }): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }> {
    const configured = this.runs();
    if (configured.kind === "offline") return { state: request.state, private: request.private };
    const run = online<R>(configured);
    const type = this.type();
    const state = type.model.decode(request.state);
    const deadline = Deadline.of(this.schema.blocks, request.state, "read");
    const answer = await deadline.race(type.read({ state, private: request.private }, run), (exceeded): StateAnswer<M> => ({ state, private: request.private, diagnostics: [exceeded("the list was not read (the state is as it was).")] }));
    return this.stateAnswer(answer, state, request.state);
  }

  async planResourceChange(request: { prior: ObjectValue | null; proposed: ObjectValue | null; config: ObjectValue | null; priorPrivate: Buffer }): Promise<{ planned: ObjectValue | null; requiresReplace?: PathStep[][]; plannedPrivate?: Buffer; diagnostics?: Diagnostic[] }> {
    const configured = this.runs();
    if (configured.kind === "offline") return { planned: request.proposed === null || request.config === null ? null : plannedObject(this.schema.attributes, request.config, this.schema.blocks) };
    const run = online<R>(configured);
    const type = this.type();
    const { model } = type;
    const prior = request.prior === null ? null : model.decode(request.prior);
    if (request.proposed === null || request.config === null) return prior === null ? { planned: null } : this.planAnswer(await type.planDelete({ prior, priorPrivate: request.priorPrivate }, run), model);
    const planned = model.decode(plannedFromConfig(this.schema, request.prior, request.proposed, request.config));
    const answer = this.planAnswer(await type.plan({ prior, config: model.decode(request.config), planned, priorPrivate: request.priorPrivate }, run), model, prior, request.prior);
    const replace = requiresReplace(this.schema, request.prior, answer.planned, request.config);
    return replace.length === 0 ? answer : { ...answer, requiresReplace: replace };
  }

  async applyResourceChange(request: { prior: ObjectValue | null; planned: ObjectValue | null; config: ObjectValue | null; plannedPrivate: Buffer }): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }> {
    const { prior, planned, config, plannedPrivate } = request;
    const configured = this.runs();
    if (configured.kind === "offline") return { state: prior, diagnostics: [OFFLINE_ERROR] };
    const run = online<R>(configured);
    const type = this.type();
    const { model } = type;
    const priorModel = prior === null ? null : model.decode(prior);
    if (planned === null) {
      const answer = await type.delete({ prior: priorModel, plannedPrivate }, { run, deadline: Deadline.of(this.schema.blocks, prior, "delete") });
      return this.stateAnswer(answer, priorModel, prior);
    }
    const change = { planned: model.decode(planned), config: config === null ? null : model.decode(config), plannedPrivate };
    const answer =
      priorModel === null
        ? await type.create(change, { run, deadline: Deadline.of(this.schema.blocks, planned, "create") })
        : await type.update({ ...change, prior: priorModel }, { run, deadline: Deadline.of(this.schema.blocks, planned, "update") });
    return this.stateAnswer(answer, priorModel, prior);
  }

  async importResourceState(id: string): Promise<{ state: ObjectValue; private?: Buffer; diagnostics?: Diagnostic[] }> {
    if (this.runs().kind === "offline") return { state: {}, diagnostics: [OFFLINE_ERROR] };
    const type = this.type();
    const answer = await type.importState(id);
    return { ...this.stateAnswer(answer, null, null), state: answer.state === null ? {} : type.model.encode(answer.state) };
  }

  async moveResourceState(request: MoveRequest): Promise<{ state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] }> {
    const type = this.type();
    if (type.moveState === undefined) return { state: null, diagnostics: [{ severity: "error", summary: "Cannot move this resource", detail: "This resource type takes no moved block from another type." }] };
    return this.stateAnswer(await type.moveState(request), null, null);
  }

  private declaresTimeouts(): boolean {
    return (this.schema.blocks ?? []).some((b) => b.name === timeoutsBlock.name);
  }

  private stateAnswer(answer: StateAnswer<M>, decoded: M | null, wire: ObjectValue | null): { state: ObjectValue | null; private?: Buffer; diagnostics?: Diagnostic[] } {
    return {
      state: encoded(this.type().model, answer.state, decoded, wire),
      ...(answer.private === undefined ? {} : { private: answer.private }),
      ...(answer.diagnostics === undefined ? {} : { diagnostics: answer.diagnostics }),
    };
  }

  private planAnswer(answer: PlanAnswer<M>, model: Codec<M>, prior: M | null = null, priorWire: ObjectValue | null = null): { planned: ObjectValue | null; plannedPrivate?: Buffer; diagnostics?: Diagnostic[] } {
    return {
      // a plan of no change answers the prior state as it came
      planned: encoded(model, answer.planned, prior, priorWire),
      ...(answer.plannedPrivate === undefined ? {} : { plannedPrivate: answer.plannedPrivate }),
      ...(answer.diagnostics === undefined ? {} : { diagnostics: answer.diagnostics }),
    };
  }
}

/** Terraform's calls on one data source, in the server's order. */
class DataSourceServer<M, R> implements DataSourceType {
  constructor(
    readonly schema: Schema,
    private readonly type: () => DataSource<M, R>,
    private readonly runs: () => Configured<R>,
    private readonly offline: () => DataSourceType,
  ) {}

  validateDataResourceConfig(config: ObjectValue): Diagnostic[] | Promise<Diagnostic[]> {
    const type = this.type();
    return type.validate(type.model.decode(config));
  }

  async readDataSource(config: ObjectValue): Promise<{ state: ObjectValue; diagnostics?: Diagnostic[] }> {
    const configured = this.runs();
    if (configured.kind === "offline") return this.offline().readDataSource(config);
    const run = online<R>(configured);
    const type = this.type();
    const decoded = type.model.decode(config);
    const answer = await type.read(decoded, run);
    return { state: encoded(type.model, answer.state, decoded, config) ?? config, ...(answer.diagnostics === undefined ? {} : { diagnostics: answer.diagnostics }) };
  }
}

/** The provider as the protocol room serves it: its block, and its table served by the one server. */
export function serveProvider<P, R>(served: ServedProvider<P, R>): ProviderDefinition {
  let configured: Configured<R> = { kind: "unconfigured" };
  const stopping = new AbortController();
  const runs = (): Configured<R> => configured;
  const block = lazy(served.block);
  const schemas = Object.fromEntries(Object.entries(served.dataSources).map(([name, row]) => [name, row.schema]));
  const offlineData = lazy(() => offlineDataSources(schemas, served.env));
  const table = <T>(rows: { readonly [name: string]: Row<T, R> }): { [name: string]: T } =>
    Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, row.serve({ runs, offline: () => offlineData()[name]! })]));
  return {
    schema: served.schema,
    async configureProvider(config) {
      const provider = block();
      const answer = await provider.configure(provider.model.decode(config), stopping.signal);
      configured = answer.run;
      return answer.diagnostics;
    },
    resources: table(served.resources),
    dataSources: table(served.dataSources),
    stopProvider() {
      // Terraform's Ctrl-C: no new call starts; calls in flight finish (src/io/execute.ts).
      served.log("[INFO] stop requested: no new call starts; calls in flight finish");
      stopping.abort();
    },
  };
}
