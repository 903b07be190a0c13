/**
 * The values a model holds, as the protocol room decodes them: an attribute of type string is a
 * string, null or not known yet (UNKNOWN), and so on. The codec of each type (its `model`) reads
 * its attributes through these, so a model's fields are typed as what Terraform can send.
 */
import { Typed, UNKNOWN, type ObjectValue, type Value } from "../protocol";
import type { ResourceSchema } from "./resource";

export type StringValue = string | null | typeof UNKNOWN;
export type BoolValue = boolean | null | typeof UNKNOWN;
export type NumberValue = number | null | typeof UNKNOWN;

/** A string attribute's value (anything else, which the protocol's codec never gives one, as null). */
export const asString = (v: Value | undefined): StringValue => (typeof v === "string" || v === UNKNOWN ? v : null);
export const asBool = (v: Value | undefined): BoolValue => (typeof v === "boolean" || v === UNKNOWN ? v : null);
export const asNumber = (v: Value | undefined): NumberValue => (typeof v === "number" || v === UNKNOWN ? v : null);

/** A string attribute's value when it is known: null when it is null, unknown or not a string. */
export const stringValue = (v: Value | undefined): string | null => (typeof v === "string" ? v : null);

/** A planned value, or `fallback` where the plan did not know it. */
export const known = <T extends Value, F extends Value>(planned: T, fallback: F): Exclude<T, typeof UNKNOWN> | F => (planned === UNKNOWN ? fallback : (planned as Exclude<T, typeof UNKNOWN>));

/** True when the value, or anything inside it, is not known yet. */
export function hasUnknown(value: Value): boolean {
  if (value === UNKNOWN) return true;
  if (value instanceof Typed) return hasUnknown(value.value);
  if (Array.isArray(value)) return value.some(hasUnknown);
  if (value !== null && typeof value === "object") return Object.values(value).some(hasUnknown);
  return false;
}

const typeText = (type: Typed["type"]): string => JSON.stringify(type);

/**
 * Whether two values are the same value of the same type, as Terraform compares them (a dynamic
 * value's type counts; lists in order). An unknown value is the same as nothing but itself.
 */
export function sameValue(a: Value | undefined, b: Value | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null || a === UNKNOWN || b === UNKNOWN) return false;
  if (a instanceof Typed || b instanceof Typed) return a instanceof Typed && b instanceof Typed && (a.type === b.type || typeText(a.type) === typeText(b.type)) && sameValue(a.value, b.value);
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  if (typeof a !== "object" || typeof b !== "object") return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && sameValue(a[k], b[k]));
}

/**
 * How a codec reads a wire value of the schema: each attribute by name (the compiler checks it),
 * null where absent, the schema's default where null. The defaults are read from the schema once.
 */
export function attributesOf<N extends string>(schema: ResourceSchema<N>): (value: ObjectValue, name: N) => Value {
  const defaults = new Map<string, Value>(schema.attributes.flatMap((a) => (a.default === undefined ? [] : [[a.name, a.default] as const])));
  return (value, name) => value[name] ?? defaults.get(name) ?? null;
}
