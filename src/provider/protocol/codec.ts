/**
 * Terraform's `DynamicValue`: cty values as msgpack (or JSON), read and written by schema type.
 *
 * msgpack, as cty writes it: strings as str, bools as bool, whole numbers as ints, other numbers as
 * float64 (a number too big for both arrives as a decimal string), lists and sets as arrays, maps and
 * objects as maps with sorted keys, null as nil, and an unknown value as extension type 0 (`d4 00 00`).
 * A refined unknown (extension type 12, with a payload of refinements) is read as plain unknown.
 * JSON, as Terraform stores state: the same shapes, no unknowns.
 *
 * A `dynamic` value carries its type: msgpack writes `[type JSON as bytes, value]`, JSON
 * `{"value": …, "type": …}`; it is read as a {@link Typed}. Maps are read key by key (a key such as
 * `__proto__` is plain data: src/provider/protocol/msgpack-read.ts).
 */
import { Encoder, ExtensionCodec } from "@msgpack/msgpack";
import { Extension, MsgpackReadError, readMsgpack } from "./msgpack-read";
import { NOT_READ, NUMBER_TEXT, readByShape } from "./msgpack-shape-read";
import type { Attribute, CtyType, Schema, Value } from "./types";
import type { Shape } from "./shape";
import { Typed, UNKNOWN } from "./types";
import { keyedObject } from "./keyed-object";
import { readTypeText } from "./type-text";

export type { Shape } from "./shape";

/** A value that does not fit the schema, or bytes that are not a value of it. */
export class CodecError extends Error {
  constructor(
    message: string,
    readonly path: string,
  ) {
    super(message);
    this.name = "CodecError";
  }
}

const UNKNOWN_EXTENSION = 0;
const REFINED_UNKNOWN_EXTENSION = 12;

/** The object type of a schema's attributes. */
export function schemaShape(schema: Pick<Schema, "attributes">): Shape {
  return attributesShape(schema.attributes);
}

function attributesShape(attributes: readonly Attribute[]): Shape {
  const shapes = new Map<string, Shape>();
  for (const attribute of attributes) shapes.set(attribute.name, attributeShape(attribute));
  return { kind: "object", attributes: shapes };
}

function attributeShape(attribute: Attribute): Shape {
  if (attribute.nested !== undefined && attribute.type === undefined) {
    const object = attributesShape(attribute.nested.attributes);
    return attribute.nested.nesting === "single" ? object : { kind: attribute.nested.nesting, element: object };
  }
  if (attribute.type !== undefined && attribute.nested === undefined) return typeShape(attribute.type);
  throw new Error(`Schema attribute "${attribute.name}" must have exactly one of type and nested.`);
}

/** The primitive types' shapes, made once (a type read from a dynamic value has one at every leaf). */
const PRIMITIVE_SHAPES: { readonly [K in "string" | "number" | "bool" | "dynamic"]: Shape } = { string: { kind: "string" }, number: { kind: "number" }, bool: { kind: "bool" }, dynamic: { kind: "dynamic" } };

/** An object type with this many attributes or more is taken for a map written as an object (Terraform types `{ "9102" = {...}, ... }` so): its names are data. */
const KEYED_ATTRIBUTES = 8;

/** Shapes of the types made so far, per type object: a type read once and shared (type-text.ts) has its shape made once. */
const typeShapes = new WeakMap<object, Shape>();

/** The shape of a cty type. */
export function typeShape(type: CtyType): Shape {
  if (typeof type === "string") return PRIMITIVE_SHAPES[type];
  const kept = typeShapes.get(type);
  if (kept !== undefined) return kept;
  let made: Shape;
  if (type[0] === "object") {
    const shapes = new Map<string, Shape>();
    for (const [name, attributeType] of Object.entries(type[1])) shapes.set(name, typeShape(attributeType));
    made = shapes.size >= KEYED_ATTRIBUTES ? { kind: "object", attributes: shapes, keyed: true } : { kind: "object", attributes: shapes };
  } else if (type[0] === "tuple") made = { kind: "tuple", elements: type[1].map(typeShape) };
  else made = { kind: type[0], element: typeShape(type[1]) };
  typeShapes.set(type, made);
  return made;
}

/** A cty type from its JSON (as a dynamic value carries it), or a CodecError. */
export function parseType(json: unknown, path: string): CtyType {
  if (json === "string" || json === "number" || json === "bool" || json === "dynamic") return json;
  if (!Array.isArray(json) || json.length < 2) return badType(json, path);
  const kind: unknown = json[0];
  const inner: unknown = json[1];
  if (kind === "list" || kind === "set" || kind === "map") return [kind, parseType(inner, path)];
  if (kind === "tuple" && Array.isArray(inner)) {
    const elements: CtyType[] = [];
    for (const t of inner) elements.push(parseType(t, path));
    return ["tuple", elements];
  }
  if (kind === "object" && isPlainObject(inner)) {
    const names = Object.keys(inner);
    // an object type of many attributes is a map's in disguise (a configuration's `users`, keyed by user ID): a keyed object
    const attributes: Record<string, CtyType> = names.length >= KEYED_ATTRIBUTES ? keyedObject<CtyType>() : {};
    for (const name of names) setOwn(attributes, name, parseType(inner[name], path));
    return ["object", attributes];
  }
  return badType(json, path);
}

function badType(json: unknown, path: string): never {
  throw new CodecError(`${describe(path)} carries a type this provider does not read: ${JSON.stringify(json)}.`, path);
}

// ---------------------------------------------------------------------------------------------------
// msgpack

const extensions = new ExtensionCodec();
extensions.register({
  type: UNKNOWN_EXTENSION,
  encode: (input: unknown) => (input === UNKNOWN ? new Uint8Array([0]) : null),
  decode: () => UNKNOWN,
});
extensions.register({ type: REFINED_UNKNOWN_EXTENSION, encode: () => null, decode: () => UNKNOWN });

const encoder = new Encoder({ extensionCodec: extensions, sortKeys: true, ignoreUndefined: false });

/** Writes `value` as msgpack of type `shape`. Throws a CodecError naming the path where it does not fit. */
export function encodeMsgpack(shape: Shape, value: Value): Buffer {
  const wire = toWire(shape, value, null, true);
  const bytes = encoder.encode(wire);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Reads msgpack bytes as a value of type `shape`; every attribute of an object is present. Read in
 * one pass by the shape (msgpack-shape-read.ts); bytes that pass does not read whole are read the
 * general way ({@link decodeMsgpackByWalk}), which gives the same value or says what is wrong.
 */
export function decodeMsgpack(shape: Shape, bytes: Uint8Array): Value {
  const read = readByShape(shape, bytes, typeOfText);
  return read === NOT_READ ? decodeMsgpackByWalk(shape, bytes) : read;
}

const typeOfText = (text: string): { type: CtyType; shape: Shape } => readTypeOf(text, () => JSON.parse(text) as unknown, null);

/** Reads msgpack bytes as a value of type `shape` the general way: the msgpack read whole, then walked by the shape, every error named by its path. */
export function decodeMsgpackByWalk(shape: Shape, bytes: Uint8Array): Value {
  let raw: unknown;
  try {
    raw = readMsgpack(bytes);
  } catch (error) {
    if (!(error instanceof MsgpackReadError)) throw error;
    throw new CodecError(`The value is not valid msgpack: ${error.message}.`, "");
  }
  return fromWire(shape, raw, null, { allowUnknown: true, onExtraAttribute: refuseExtra, json: false });
}

// ---------------------------------------------------------------------------------------------------
// JSON

/** Writes `value` (known throughout) as Terraform's JSON of type `shape`, keys sorted. */
export function encodeJson(shape: Shape, value: Value): Buffer {
  return Buffer.from(JSON.stringify(toWire(shape, value, null, false, true)), "utf8");
}

export interface JsonDecodeOptions {
  /**
   * Called for an object attribute the schema does not have; the attribute is dropped.
   * @default - such an attribute is refused with a CodecError
   */
  onExtraAttribute?: (path: string) => void;
}

/** Reads Terraform's JSON (state, never unknown) as a value of type `shape`. */
export function decodeJson(shape: Shape, bytes: Uint8Array | string, options: JsonDecodeOptions = {}): Value {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof bytes === "string" ? bytes : Buffer.from(bytes).toString("utf8"));
  } catch (error) {
    throw new CodecError(`The value is not valid JSON: ${(error as Error).message}.`, "");
  }
  return fromWire(shape, raw, null, { allowUnknown: false, onExtraAttribute: options.onExtraAttribute ?? refuseExtra, json: true });
}

// ---------------------------------------------------------------------------------------------------
// the walk, shared by both encodings

interface ReadOptions {
  allowUnknown: boolean;
  onExtraAttribute: (path: string) => void;
  /** JSON (a dynamic value as {value, type}) rather than msgpack ([type, value]) */
  json: boolean;
}

function refuseExtra(path: string): never {
  throw new CodecError(`${describe(path)} is not an attribute of the schema.`, path);
}

function describe(path: string): string {
  return path === "" ? "The value" : `The attribute ${path}`;
}

function typeName(shape: Shape): string {
  switch (shape.kind) {
    case "string":
    case "number":
    case "bool":
    case "dynamic":
      return shape.kind;
    case "object":
      return "object";
    case "tuple":
      return `tuple of ${shape.elements.length}`;
    default:
      return `${shape.kind} of ${typeName(shape.element)}`;
  }
}

function mismatch(shape: Shape, value: unknown, where: Where | null): CodecError {
  const path = pathOf(where);
  const got = value === UNKNOWN ? "unknown" : Array.isArray(value) ? "an array" : typeof value === "object" ? "an object" : `${typeof value} ${typeof value === "bigint" ? String(value) : JSON.stringify(value)}`;
  return new CodecError(`${describe(path)} must be a ${typeName(shape)}, not ${got}.`, path);
}

/**
 * Where the walk is, written out only when a message or a callback needs it (most values fit, and
 * writing a path for every element cost more than reading the element).
 */
interface Where {
  readonly parent: Where | null;
  /** An attribute's name (string) or an element's key (a map's key or a list's index). */
  readonly step: string | number;
  readonly attribute: boolean;
}

/** The path as messages show it: `users["u-1"].aliases[0]`. */
function pathOf(where: Where | null): string {
  if (where === null) return "";
  const parent = pathOf(where.parent);
  if (!where.attribute) return `${parent}[${JSON.stringify(where.step)}]`;
  return parent === "" ? String(where.step) : `${parent}.${where.step}`;
}

const attributePath = (parent: Where | null, name: string): Where => ({ parent, step: name, attribute: true });
const keyPath = (parent: Where | null, key: string | number): Where => ({ parent, step: key, attribute: false });

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value) && !ArrayBuffer.isView(value) && !(value instanceof Map) && !(value instanceof Typed) && !(value instanceof Extension);
}

/** The fields of a map or object as read: a msgpack map is a `Map`, JSON an object (read in place, not copied). */
interface Fields {
  keys(): Iterable<string>;
  has(name: string): boolean;
  get(name: string): unknown;
}

function fieldsOf(raw: unknown): Fields | null {
  if (raw instanceof Map) return raw as Map<string, unknown>;
  if (!isPlainObject(raw)) return null;
  return { keys: () => Object.keys(raw), has: (name) => Object.prototype.hasOwnProperty.call(raw, name), get: (name) => raw[name] };
}

/** The entries of a map or object as read, or null. */
function entriesOf(raw: unknown): Iterable<[string, unknown]> | null {
  if (raw instanceof Map) return raw as Map<string, unknown>;
  return isPlainObject(raw) ? Object.entries(raw) : null;
}

/** `target[key] = value`, where a key named `__proto__` is an own property like any other. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Value → what the msgpack encoder or JSON.stringify writes. */
function toWire(shape: Shape, value: Value | undefined, where: Where | null, allowUnknown: boolean, json = false): unknown {
  if (value === null || value === undefined) return null;
  if (value === UNKNOWN) {
    if (allowUnknown) return UNKNOWN;
    throw new CodecError(`${describe(pathOf(where))} is unknown, and JSON cannot hold an unknown value.`, pathOf(where));
  }
  if (shape.kind === "dynamic") {
    if (!(value instanceof Typed)) throw new CodecError(`${describe(pathOf(where))} is dynamic and must carry its type.`, pathOf(where));
    if (value.type === "dynamic") return toWire(shape, value.value, where, allowUnknown, json);
    const written = writeTypeOf(value.type);
    const inner = value.value === UNKNOWN && allowUnknown ? UNKNOWN : toWire(written.shape, value.value, where, allowUnknown, json);
    return json ? { value: inner, type: value.type } : [written.bytes, inner];
  }
  if (value instanceof Typed) throw mismatch(shape, value, where);
  switch (shape.kind) {
    case "string":
      if (typeof value !== "string") throw mismatch(shape, value, where);
      return value;
    case "bool":
      if (typeof value !== "boolean") throw mismatch(shape, value, where);
      return value;
    case "number":
      if (typeof value !== "number") throw mismatch(shape, value, where);
      if (!Number.isFinite(value)) throw new CodecError(`${describe(pathOf(where))} must be a finite number, not ${value}.`, pathOf(where));
      return value;
    case "list":
    case "set": {
      if (!Array.isArray(value)) throw mismatch(shape, value, where);
      return value.map((element, index) => toWire(shape.element, element, keyPath(where, index), allowUnknown, json));
    }
    case "tuple": {
      if (!Array.isArray(value) || value.length !== shape.elements.length) throw mismatch(shape, value, where);
      return value.map((element, index) => toWire(shape.elements[index]!, element, keyPath(where, index), allowUnknown, json));
    }
    case "map": {
      if (!isPlainObject(value)) throw mismatch(shape, value, where);
      const out: Record<string, unknown> = {};
      for (const [key, element] of Object.entries(value)) setOwn(out, key, toWire(shape.element, element, keyPath(where, key), allowUnknown, json));
      return out;
    }
    case "object": {
      if (!isPlainObject(value)) throw mismatch(shape, value, where);
      for (const name of Object.keys(value)) {
        if (!shape.attributes.has(name)) refuseExtra(pathOf(attributePath(where, name)));
      }
      const out: Record<string, unknown> = {};
      for (const [name, attributeShape] of shape.attributes) {
        setOwn(out, name, toWire(attributeShape, Object.prototype.hasOwnProperty.call(value, name) ? value[name] : null, attributePath(where, name), allowUnknown, json));
      }
      return out;
    }
  }
}

/** What the msgpack decoder or JSON.parse read → Value. */
function fromWire(shape: Shape, raw: unknown, where: Where | null, options: ReadOptions): Value {
  if (raw === null || raw === undefined) return null;
  if (raw === UNKNOWN || (raw instanceof Extension && (raw.type === UNKNOWN_EXTENSION || raw.type === REFINED_UNKNOWN_EXTENSION))) {
    if (options.allowUnknown) return UNKNOWN;
    throw new CodecError(`${describe(pathOf(where))} is unknown where a known value is required.`, pathOf(where));
  }
  switch (shape.kind) {
    case "string":
      if (typeof raw !== "string") throw mismatch(shape, raw, where);
      return raw;
    case "bool":
      if (typeof raw !== "boolean") throw mismatch(shape, raw, where);
      return raw;
    case "number":
      return readNumber(raw, where);
    case "dynamic":
      return readDynamic(raw, where, options);
    case "list":
    case "set":
      if (!Array.isArray(raw)) throw mismatch(shape, raw, where);
      return raw.map((element: unknown, index) => fromWire(shape.element, element, keyPath(where, index), options));
    case "tuple":
      if (!Array.isArray(raw) || raw.length !== shape.elements.length) throw mismatch(shape, raw, where);
      return raw.map((element: unknown, index) => fromWire(shape.elements[index]!, element, keyPath(where, index), options));
    case "map": {
      const entries = entriesOf(raw);
      if (entries === null) throw mismatch(shape, raw, where);
      const out = keyedObject<Value>();
      for (const [key, element] of entries) setOwn(out, key, fromWire(shape.element, element, keyPath(where, key), options));
      return out;
    }
    case "object": {
      const given = fieldsOf(raw);
      if (given === null) throw mismatch(shape, raw, where);
      for (const name of given.keys()) {
        if (!shape.attributes.has(name)) options.onExtraAttribute(pathOf(attributePath(where, name)));
      }
      const out: Record<string, Value> = {};
      for (const [name, attributeShape] of shape.attributes) {
        setOwn(out, name, given.has(name) ? fromWire(attributeShape, given.get(name), attributePath(where, name), options) : null);
      }
      return out;
    }
  }
}

/**
 * Dynamic types as they were read, by their JSON text, and their shapes: parsing each is a walk,
 * and Terraform sends a type again within a few calls (a configuration's `users` to
 * ValidateResourceConfig, then in the configuration and the proposed state to PlanResourceChange;
 * every refreshed state's `users` the same map type). Bounded, the least recently used dropped
 * first: a configuration's `users` type names its users, so most are read for one resource only.
 */
const readTypes = new Map<string, { type: CtyType; shape: Shape }>();
const READ_TYPES_KEPT = 64;

export function readTypeOf(typeText: string, parse: () => unknown, where: Where | null): { type: CtyType; shape: Shape } {
  const kept = readTypes.get(typeText);
  if (kept !== undefined) {
    // the most recently used last: a type every state carries stays while configurations' come and go
    readTypes.delete(typeText);
    readTypes.set(typeText, kept);
    return kept;
  }
  // Terraform's compact text in one pass (type-text.ts); anything else the general way, which names the error
  const type = readTypeText(typeText) ?? parseType(parse(), pathOf(where));
  const read = { type, shape: typeShape(type) };
  if (readTypes.size >= READ_TYPES_KEPT) readTypes.delete(readTypes.keys().next().value!);
  readTypes.set(typeText, read);
  return read;
}

/** The shape and msgpack type bytes of a type a value carries, kept per type object (types read are shared, above). */
const writeTypes = new WeakMap<object, { shape: Shape; bytes: Buffer }>();

/** The primitive types' shapes and bytes, made once. */
const writePrimitives = new Map<string, { shape: Shape; bytes: Buffer }>(
  (["string", "number", "bool", "dynamic"] as const).map((type) => [type, { shape: typeShape(type), bytes: Buffer.from(JSON.stringify(type), "utf8") }]),
);

function writeTypeOf(type: CtyType): { shape: Shape; bytes: Buffer } {
  if (typeof type === "string") return writePrimitives.get(type)!;
  const kept = writeTypes.get(type);
  if (kept !== undefined) return kept;
  const made = { shape: typeShape(type), bytes: Buffer.from(JSON.stringify(type), "utf8") };
  writeTypes.set(type, made);
  return made;
}

/** A dynamic value: msgpack `[type JSON, value]`, JSON `{"value", "type"}`; a bare null or unknown has no type. */
function readDynamic(raw: unknown, where: Where | null, options: ReadOptions): Value {
  const refuse = (why: string): never => {
    const path = pathOf(where);
    throw new CodecError(`${describe(path)} ${why}`, path);
  };
  if (options.json) {
    const fields = fieldsOf(raw);
    if (fields === null || !fields.has("type")) return refuse('is dynamic and must be stored as {"value", "type"}.');
    const typeJson = fields.get("type");
    const read = readTypeOf(JSON.stringify(typeJson) ?? "", () => typeJson, where);
    return new Typed(read.type, fromWire(read.shape, fields.get("value"), where, options));
  }
  if (!Array.isArray(raw) || raw.length !== 2) return refuse("is dynamic and must be sent as [type, value].");
  const [typeBytes, value] = raw as [unknown, unknown];
  const typeText = typeof typeBytes === "string" ? typeBytes : typeBytes instanceof Uint8Array ? Buffer.from(typeBytes).toString("utf8") : null;
  if (typeText === null) return refuse("is dynamic and its type is not JSON text.");
  const read = readTypeOf(
    typeText,
    () => {
      try {
        return JSON.parse(typeText) as unknown;
      } catch {
        return refuse("is dynamic and its type is not JSON text.");
      }
    },
    where,
  );
  return new Typed(read.type, fromWire(read.shape, value, where, options));
}

function readNumber(raw: unknown, where: Where | null): number {
  if (typeof raw === "number") return raw;
  // beyond 2^53: read as the nearest number (no longer a safe integer: checks that need one refuse it)
  if (typeof raw === "bigint") return Number(raw);
  // cty writes a number that fits neither int64 nor float64 exactly as its decimal text
  if (typeof raw === "string" && NUMBER_TEXT.test(raw.trim())) return Number(raw);
  throw mismatch({ kind: "number" }, raw, where);
}
