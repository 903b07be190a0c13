/**
 * msgpack read straight into a value of a known type: one pass over the bytes, each value read as
 * the shape at its place expects (a string where a string attribute is, a map where an object is),
 * with no intermediate value and no path kept. It answers only what it reads whole and as expected:
 * anything else (bytes that are not msgpack, a value of another type, an attribute the schema does
 * not have, an extension that is not unknown, bytes after the value) is {@link NOT_READ}, and the
 * codec reads those bytes again the general way (msgpack-read.ts, then the walk), which says
 * exactly what is wrong and where. So both ways give the same value, or the same error.
 */
import type { Shape } from "./shape";
import type { CtyType, Value } from "./types";
import { Typed, UNKNOWN } from "./types";
import { keyedObject } from "./keyed-object";

/** What {@link readByShape} answers where it does not read the bytes as expected. */
export const NOT_READ: unique symbol = Symbol("not read");

/** A dynamic value's type from its JSON text, and its shape (kept by the codec across values). */
export type TypeOfText = (text: string) => { readonly type: CtyType; readonly shape: Shape };

/** A reason to give up; caught once, at the top. */
class NotRead extends Error {}
const notRead = new NotRead();

const UNKNOWN_EXTENSION = 0;
const REFINED_UNKNOWN_EXTENSION = 12;
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Reads `bytes` as one value of `shape` that fills them exactly, or answers NOT_READ. */
export function readByShape(shape: Shape, bytes: Uint8Array, typeOf: TypeOfText): Value | typeof NOT_READ {
  const reader = new ShapeReader(bytes, typeOf);
  try {
    const value = reader.value(shape);
    return reader.offset === bytes.length ? value : NOT_READ;
  } catch (error) {
    if (error === notRead) return NOT_READ;
    throw error;
  }
}

class ShapeReader {
  offset = 0;
  private readonly view: DataView;

  /** The same bytes as a Buffer (not copied), for its native slice of ASCII text. */
  private readonly ascii: Buffer;

  constructor(
    private readonly bytes: Uint8Array,
    private readonly typeOf: TypeOfText,
  ) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.ascii = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): number {
    const at = this.offset;
    if (at + n > this.bytes.length) throw notRead;
    this.offset += n;
    return at;
  }

  private byte(): number {
    if (this.offset >= this.bytes.length) throw notRead;
    return this.bytes[this.offset++]!;
  }

  value(shape: Shape): Value {
    const b = this.byte();
    if (b === 0xc0) return null;
    // an extension: unknown (plain or refined) wherever it is; any other is not read here
    if ((b >= 0xd4 && b <= 0xd8) || (b >= 0xc7 && b <= 0xc9)) return this.extension(b);
    switch (shape.kind) {
      case "string":
        return this.string(b);
      case "bool":
        if (b === 0xc2) return false;
        if (b === 0xc3) return true;
        throw notRead;
      case "number":
        return this.number(b);
      case "dynamic":
        return this.dynamic(b);
      case "list":
      case "set": {
        const n = this.arrayLength(b);
        const out: Value[] = [];
        for (let i = 0; i < n; i++) out.push(this.value(shape.element));
        return out;
      }
      case "tuple": {
        const n = this.arrayLength(b);
        if (n !== shape.elements.length) throw notRead;
        const out: Value[] = [];
        for (let i = 0; i < n; i++) out.push(this.value(shape.elements[i]!));
        return out;
      }
      case "map": {
        const n = this.mapLength(b);
        const out = keyedObject<Value>();
        for (let i = 0; i < n; i++) setOwn(out, this.key(), this.value(shape.element));
        return out;
      }
      case "object": {
        const n = this.mapLength(b);
        // every attribute, in the schema's order, null where the bytes leave it out
        const out: Record<string, Value> = shape.keyed === true ? keyedObject<Value>() : {};
        for (const name of shape.attributes.keys()) setOwn(out, name, null);
        for (let i = 0; i < n; i++) {
          const name = this.key();
          const attribute = shape.attributes.get(name);
          if (attribute === undefined) throw notRead;
          setOwn(out, name, this.value(attribute));
        }
        return out;
      }
    }
  }

  private extension(b: number): Value {
    const length = b === 0xc7 ? this.byte() : b === 0xc8 ? this.view.getUint16(this.need(2)) : b === 0xc9 ? this.view.getUint32(this.need(4)) : 1 << (b - 0xd4);
    const type = this.view.getInt8(this.need(1));
    this.need(length);
    if (type === UNKNOWN_EXTENSION || type === REFINED_UNKNOWN_EXTENSION) return UNKNOWN;
    throw notRead;
  }

  private arrayLength(b: number): number {
    if (b >= 0x90 && b <= 0x9f) return b & 0x0f;
    if (b === 0xdc) return this.view.getUint16(this.need(2));
    if (b === 0xdd) return this.view.getUint32(this.need(4));
    throw notRead;
  }

  private mapLength(b: number): number {
    if (b >= 0x80 && b <= 0x8f) return b & 0x0f;
    if (b === 0xde) return this.view.getUint16(this.need(2));
    if (b === 0xdf) return this.view.getUint32(this.need(4));
    throw notRead;
  }

  private stringLength(b: number): number {
    if (b >= 0xa0 && b <= 0xbf) return b & 0x1f;
    if (b === 0xd9) return this.byte();
    if (b === 0xda) return this.view.getUint16(this.need(2));
    if (b === 0xdb) return this.view.getUint32(this.need(4));
    return -1;
  }

  private key(): string {
    return this.string(this.byte());
  }

  private string(b: number): string {
    const n = this.stringLength(b);
    if (n < 0) throw notRead;
    return this.text(this.need(n), n);
  }

  private text(at: number, n: number): string {
    const end = at + n;
    for (let i = at; i < end; i++) if (this.bytes[i]! >= 0x80) return this.utf8(at, n);
    // ASCII: each byte its character
    return this.ascii.toString("latin1", at, end);
  }

  private utf8(at: number, n: number): string {
    try {
      return utf8.decode(this.bytes.subarray(at, at + n));
    } catch {
      throw notRead;
    }
  }

  /** A number in any of cty's forms: an int of any width, a float, or (beyond both) its decimal text. */
  private number(b: number): number {
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    switch (b) {
      case 0xca:
        return this.view.getFloat32(this.need(4));
      case 0xcb:
        return this.view.getFloat64(this.need(8));
      case 0xcc:
        return this.byte();
      case 0xcd:
        return this.view.getUint16(this.need(2));
      case 0xce:
        return this.view.getUint32(this.need(4));
      case 0xcf:
        return Number(this.view.getBigUint64(this.need(8)));
      case 0xd0:
        return this.view.getInt8(this.need(1));
      case 0xd1:
        return this.view.getInt16(this.need(2));
      case 0xd2:
        return this.view.getInt32(this.need(4));
      case 0xd3:
        return Number(this.view.getBigInt64(this.need(8)));
    }
    const n = this.stringLength(b);
    if (n < 0) throw notRead;
    const text = this.text(this.need(n), n);
    if (!NUMBER_TEXT.test(text.trim())) throw notRead;
    return Number(text);
  }

  /** A dynamic value: `[type JSON (str or bin), value]`, the value read by the type it carries. */
  private dynamic(b: number): Value {
    if (this.arrayLength(b) !== 2) throw notRead;
    const t = this.byte();
    let typeText: string;
    const n = this.stringLength(t);
    if (n >= 0) typeText = this.text(this.need(n), n);
    else {
      const length = t === 0xc4 ? this.byte() : t === 0xc5 ? this.view.getUint16(this.need(2)) : t === 0xc6 ? this.view.getUint32(this.need(4)) : -1;
      if (length < 0) throw notRead;
      const at = this.need(length);
      typeText = Buffer.from(this.bytes.buffer, this.bytes.byteOffset + at, length).toString("utf8");
    }
    let read: { readonly type: CtyType; readonly shape: Shape };
    try {
      read = this.typeOf(typeText);
    } catch {
      throw notRead;
    }
    return new Typed(read.type, this.value(read.shape));
  }
}

/** A number as cty writes one that fits neither int64 nor float64 exactly: its decimal text. */
export const NUMBER_TEXT = /^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

/** `target[key] = value`, where a key named `__proto__` is an own property like any other. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
