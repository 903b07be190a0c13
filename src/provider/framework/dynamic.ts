/**
 * The resource's `dynamic` attributes (`users`, `policies`): Terraform keeps every key a
 * configuration writes in such a value, so an unknown or misspelled key reaches the provider and is
 * an error naming it (with nested attributes Terraform drops it silently: hashicorp/terraform#33570).
 * The value keeps the type Terraform gave it ({@link Typed}); the engine sees it as plain data.
 */
import { Typed, UNKNOWN, type Attribute, type CtyType, type Diagnostic, type PathStep, type Value } from "../protocol";
import { keyedObject } from "../protocol";

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/** `target[key] = value`, where a key named `__proto__` is an own key like any other. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** The value without its types: dynamic values unwrapped, all the way down. */
export function plain(value: Value | undefined): Value {
  if (value === undefined) return null;
  if (value instanceof Typed) return plain(value.value);
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value);
    // many keys are data (a map's: users by ID), not names: a keyed object (src/provider/protocol/keyed-object.ts)
    const out: Record<string, Value> = entries.length >= KEYED_KEYS ? keyedObject<Value>() : {};
    for (const [key, inner] of entries) setOwn(out, key, plain(inner));
    return out;
  }
  return value;
}

/** An object with this many keys or more is copied into a keyed object. */
const KEYED_KEYS = 8;

/** The type HCL gives a literal of this plain value: objects, tuples, strings, numbers, bools. */
export function literalType(value: Value): CtyType {
  if (value === null || value === UNKNOWN) return "dynamic";
  if (value instanceof Typed) return value.type;
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "bool";
  if (Array.isArray(value)) return ["tuple", value.map(literalType)];
  const attributes: Record<string, CtyType> = {};
  for (const [key, inner] of Object.entries(value)) setOwn(attributes, key, literalType(inner));
  return ["object", attributes];
}

/** A plain value as a dynamic one, typed as its HCL literal would be. */
export function typedLiteral(value: Value): Typed {
  return new Typed(literalType(value), value);
}

/** The type of the element `key` of an object or map type, or null. */
export function elementType(type: CtyType, key: string): CtyType | null {
  if (typeof type === "string") return null;
  if (type[0] === "object") return hasOwn(type[1], key) ? type[1][key]! : null;
  if (type[0] === "map") return type[1];
  return null;
}

const NAMES: Record<string, string> = { string: "a string", number: "a number", bool: "true or false" };

function describeType(type: CtyType): string {
  if (typeof type === "string") return NAMES[type] ?? type;
  if (type[0] === "list" || type[0] === "set") return `a list of ${describeType(type[1]).replace(/^an? /, "")}s`;
  return "an object";
}

/** The closest expected name to a misspelled key (by edit distance), for "did you mean". */
function closest(key: string, names: readonly string[]): string | null {
  const distance = (a: string, b: string): number => {
    const row = Array.from({ length: b.length + 1 }, (_, i) => i);
    for (let i = 1; i <= a.length; i++) {
      let previous = row[0]!;
      row[0] = i;
      for (let j = 1; j <= b.length; j++) {
        const current = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, previous + (a[i - 1]!.toLowerCase() === b[j - 1]!.toLowerCase() ? 0 : 1));
        previous = current;
      }
    }
    return row[b.length]!;
  };
  const normalized = key.toLowerCase().replace(/[^a-z]/g, "");
  const ranked = names.map((name) => ({ name, d: name.replace(/_/g, "") === normalized ? 0 : distance(key, name) })).sort((a, b) => a.d - b.d);
  const best = ranked[0];
  return best !== undefined && best.d <= Math.max(2, Math.floor(best.name.length / 3)) ? best.name : null;
}

/**
 * The problems of a dynamic attribute's value against what it expects: a key that is not one of
 * the expected attributes (named, with "did you mean"), a required one missing, a value of the
 * wrong kind, a number that is not a whole number below 2^53. Unknown values are not judged yet.
 */
export function expectedShapeProblems(attribute: Attribute, value: Value | undefined): Diagnostic[] {
  const expects = attribute.expects;
  if (expects === undefined || value === null || value === undefined || value === UNKNOWN) return [];
  const inner = value instanceof Typed ? value.value : value;
  if (inner === null || inner === UNKNOWN) return [];
  const problems: Diagnostic[] = [];
  const problem = (attributePath: readonly PathStep[], detail: string) => problems.push({ severity: "error", summary: `Invalid ${attribute.name}`, detail, attribute: attributePath });
  const elements: [PathStep, string, Value][] = [];
  if (expects.nesting === "map") {
    if (Array.isArray(inner) || typeof inner !== "object" || inner instanceof Typed) {
      problem([attribute.name], `${attribute.name} must be a map keyed by user ID, e.g. ${attribute.name} = { "9102" = { aliases = ["alice@example.com"] } }.`);
      return problems;
    }
    for (const [key, element] of Object.entries(inner)) elements.push([{ key }, `${attribute.name}[${JSON.stringify(key)}]`, element]);
  } else {
    if (!Array.isArray(inner)) {
      problem([attribute.name], `${attribute.name} must be a list of objects, e.g. ${attribute.name} = [{ ${expects.attributes[0]?.name ?? "name"} = … }].`);
      return problems;
    }
    inner.forEach((element, index) => elements.push([{ index }, `${attribute.name}[${index}]`, element]));
  }
  const names = expects.attributes.map((a) => a.name);
  for (const [step, label, raw] of elements) {
    const element = raw instanceof Typed ? raw.value : raw;
    if (element === UNKNOWN) continue;
    if (element === null || Array.isArray(element) || typeof element !== "object" || element instanceof Typed) {
      problem([attribute.name, step], `${label} must be an object with ${names.join(", ")}.`);
      continue;
    }
    for (const key of Object.keys(element)) {
      if (names.includes(key)) continue;
      const guess = closest(key, names);
      problem([attribute.name, step], `${label}: ${JSON.stringify(key)} is not an argument of ${attribute.name}${guess === null ? "" : ` (did you mean ${JSON.stringify(guess)}?)`}; the arguments are ${names.join(", ")}.`);
    }
    for (const expected of expects.attributes) {
      const given = hasOwn(element, expected.name) ? plain(element[expected.name]) : null;
      if (given === UNKNOWN) continue;
      if (given === null) {
        if (expected.required === true) problem([attribute.name, step], `${label}: ${expected.name} is required.`);
        continue;
      }
      const wrong = kindProblem(expected.type ?? "dynamic", given);
      if (wrong !== null) problem([attribute.name, step, expected.name], `${label}.${expected.name} ${wrong}`);
    }
  }
  return problems;
}

/** Why a plain value is not of the type (a sentence after the attribute's name), or null. */
function kindProblem(type: CtyType, value: Value): string | null {
  if (value === UNKNOWN || type === "dynamic") return null;
  if (type === "string") return typeof value === "string" ? null : `must be ${NAMES.string}.`;
  if (type === "bool") return typeof value === "boolean" ? null : `must be ${NAMES.bool}.`;
  if (type === "number") {
    if (typeof value !== "number") return `must be ${NAMES.number}.`;
    return Number.isSafeInteger(value) || (!Number.isInteger(value) && Math.abs(value) < 2 ** 53) ? null : `must be below 2^53 (9007199254740991): ${value} cannot be held exactly.`;
  }
  if (typeof type !== "string" && (type[0] === "list" || type[0] === "set")) {
    if (!Array.isArray(value)) return `must be ${describeType(type)}.`;
    for (const element of value) {
      const inner = kindProblem(type[1], element);
      if (inner !== null) return `must be ${describeType(type)}.`;
    }
    return null;
  }
  return null;
}
