/**
 * The type of a value as the codec walks it (src/provider/protocol/codec.ts): a schema's
 * attributes become an object type, a dynamic value's type its own shape. Its own module: the
 * codec and the msgpack reader by shape (msgpack-shape-read.ts) both walk it, and neither imports
 * the other for it.
 */
export type Shape =
  | { readonly kind: "string" | "number" | "bool" | "dynamic" }
  | { readonly kind: "list" | "set" | "map"; readonly element: Shape }
  | { readonly kind: "tuple"; readonly elements: readonly Shape[] }
  | {
      readonly kind: "object";
      readonly attributes: ReadonlyMap<string, Shape>;
      /** Its attributes' names are data (a map literal, typed as an object: `users`), so its values are keyed objects (src/provider/protocol/keyed-object.ts). */
      readonly keyed?: true;
    };

