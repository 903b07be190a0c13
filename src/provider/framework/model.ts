/**
 * A type's model as data: one table, a field for each attribute and block of its schema (the
 * field's name, the attribute it reads, the kind of value it holds), from which the model's type,
 * its decode and its encode all follow. The schema's defaults are applied as it decodes.
 *
 *   const fields = { ruleId: ["rule_id", "string"], users: ["users", "value"] } as const;
 *   type Model = ModelOf<typeof fields>;          // { readonly ruleId: StringValue; readonly users: Value }
 *   const model = modelCodec(schema, fields);     // Codec<Model>
 */
import type { ObjectValue, Schema, Value } from "../protocol";
import type { Codec, ResourceAttribute } from "./resource";
import { asBool, asNumber, asString, type BoolValue, type NumberValue, type StringValue } from "./values";

/** What a field holds: a string, a bool or a number attribute's value (null or unknown included), or any value (a list, a dynamic value, a block). */
export type FieldKind = "string" | "bool" | "number" | "value";

/** A model's fields: each its attribute's name and kind. */
export type ModelFields = { readonly [field: string]: readonly [attribute: string, kind: FieldKind] };

type ValueOf<K extends FieldKind> = K extends "string" ? StringValue : K extends "bool" ? BoolValue : K extends "number" ? NumberValue : Value;

/** The model a table of fields describes. */
export type ModelOf<F extends ModelFields> = { readonly [K in keyof F]: ValueOf<F[K][1]> };

const AS: Readonly<Record<FieldKind, (v: Value | undefined) => Value>> = { string: asString, bool: asBool, number: asNumber, value: (v) => v ?? null };

/**
 * The codec of a table of fields over `schema`. Every attribute and block of the schema must have
 * a field, and every field an attribute or block: checked once, here, so a schema and its model
 * cannot drift.
 */
export function modelCodec<F extends ModelFields>(schema: Schema, fields: F): Codec<ModelOf<F>> & { readonly names: { readonly [K in keyof F]: F[K][0] } } {
  const defaultOf = (attribute: string): Value => (schema.attributes.find((a) => a.name === attribute) as ResourceAttribute | undefined)?.default ?? null;
  const entries: readonly { field: string; attribute: string; as: (v: Value | undefined) => Value; fallback: Value }[] = Object.entries(fields).map(([field, [attribute, kind]]) => ({ field, attribute, as: AS[kind], fallback: defaultOf(attribute) }));
  const declared = [...schema.attributes.map((a) => a.name), ...(schema.blocks ?? []).map((b) => b.name)];
  const read = new Set(entries.map((e) => e.attribute));
  const unread = declared.filter((name) => !read.has(name));
  const unknown = [...read].filter((name) => !declared.includes(name));
  if (unread.length > 0 || unknown.length > 0) throw new Error(`The model of a schema must read each of its attributes once: ${[...unread.map((n) => `${n} has no field`), ...unknown.map((n) => `${n} is not in the schema`)].join("; ")}.`);
  // a value decoded once is one model: the server hands the same configuration to validate and plan
  const models = new WeakMap<ObjectValue, ModelOf<F>>();
  return {
    /** Each field's attribute. */
    names: Object.fromEntries(entries.map((e) => [e.field, e.attribute])) as { readonly [K in keyof F]: F[K][0] },
    decode(wire: ObjectValue): ModelOf<F> {
      const known = models.get(wire);
      if (known !== undefined) return known;
      const model: Record<string, Value> = {};
      for (const e of entries) model[e.field] = e.as(wire[e.attribute] ?? e.fallback);
      models.set(wire, model as ModelOf<F>);
      return model as ModelOf<F>;
    },
    encode(model: ModelOf<F>): ObjectValue {
      const wire: ObjectValue = {};
      for (const e of entries) wire[e.attribute] = (model as Record<string, Value>)[e.field] ?? null;
      return wire;
    },
  };
}
