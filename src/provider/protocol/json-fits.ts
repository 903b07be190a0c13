/**
 * A stored state checked against the schema without being decoded: UpgradeResourceState answers a
 * state that fits as it came (src/provider/protocol/server.ts). True exactly where the codec's
 * `decodeJson` would read the value without an error or a dropped attribute.
 */
import { isPlainObject, readTypeOf, type Shape } from "./codec";
import { NUMBER_TEXT } from "./msgpack-shape-read";

/** Whether Terraform's JSON `text` reads as a value of type `shape` with nothing dropped. */
export function jsonFits(shape: Shape, text: Uint8Array | string): boolean {
  let raw: unknown;
  try {
    raw = JSON.parse(typeof text === "string" ? text : Buffer.from(text).toString("utf8"));
  } catch {
    return false;
  }
  try {
    return fits(shape, raw);
  } catch {
    return false; // a dynamic type this provider does not read
  }
}

function fits(shape: Shape, raw: unknown): boolean {
  if (raw === null) return true;
  switch (shape.kind) {
    case "string":
      return typeof raw === "string";
    case "bool":
      return typeof raw === "boolean";
    case "number":
      return typeof raw === "number" || (typeof raw === "string" && NUMBER_TEXT.test(raw.trim()));
    case "dynamic": {
      if (!isPlainObject(raw) || !Object.prototype.hasOwnProperty.call(raw, "type")) return false;
      const typeJson = raw["type"];
      const read = readTypeOf(JSON.stringify(typeJson) ?? "", () => typeJson, null);
      return fits(read.shape, Object.prototype.hasOwnProperty.call(raw, "value") ? raw["value"] : null);
    }
    case "list":
    case "set":
      return Array.isArray(raw) && raw.every((element: unknown) => fits(shape.element, element));
    case "tuple":
      return Array.isArray(raw) && raw.length === shape.elements.length && raw.every((element: unknown, index) => fits(shape.elements[index]!, element));
    case "map":
      return isPlainObject(raw) && Object.values(raw).every((element) => fits(shape.element, element));
    case "object": {
      if (!isPlainObject(raw)) return false;
      for (const name of Object.keys(raw)) if (!shape.attributes.has(name)) return false;
      for (const [name, attributeShape] of shape.attributes) {
        if (Object.prototype.hasOwnProperty.call(raw, name) && !fits(attributeShape, raw[name])) return false;
      }
      return true;
    }
  }
}
