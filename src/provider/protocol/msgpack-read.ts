/**
 * A msgpack reader for Terraform's values: maps become `Map`s, so a key such as `__proto__` is a
 * key like any other (the library decoder refuses it, and a plain object would take it as its
 * prototype). 64-bit integers come back as `bigint` when they do not fit a safe integer. An
 * extension comes back as {@link Extension}; the codec decides what it means.
 */
export class Extension {
  constructor(
    readonly type: number,
    readonly data: Uint8Array,
  ) {}
}

export class MsgpackReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "MsgpackReadError";
  }
}

export type Wire = null | boolean | number | bigint | string | Uint8Array | Wire[] | Map<string, Wire> | Extension;

const text = new TextDecoder("utf-8", { fatal: true });

/** Reads one msgpack value that fills `bytes` exactly. */
export function readMsgpack(bytes: Uint8Array): Wire {
  const reader = new Reader(bytes);
  const value = reader.value();
  if (reader.offset !== bytes.length) throw new MsgpackReadError(`${bytes.length - reader.offset} bytes follow the value`);
  return value;
}

class Reader {
  offset = 0;
  private readonly view: DataView;

  constructor(private readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  private need(n: number): number {
    const at = this.offset;
    if (at + n > this.bytes.length) throw new MsgpackReadError(`the value ends early (at byte ${at})`);
    this.offset += n;
    return at;
  }
  private u8(): number {
    return this.view.getUint8(this.need(1));
  }
  private u16(): number {
    return this.view.getUint16(this.need(2));
  }
  private u32(): number {
    return this.view.getUint32(this.need(4));
  }
  private raw(n: number): Uint8Array {
    const at = this.need(n);
    return this.bytes.subarray(at, at + n);
  }
  private str(n: number): string {
    try {
      return text.decode(this.raw(n));
    } catch {
      throw new MsgpackReadError("a string is not valid UTF-8");
    }
  }
  private big(value: bigint): number | bigint {
    return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }
  private array(n: number): Wire[] {
    const out: Wire[] = [];
    for (let i = 0; i < n; i++) out.push(this.value());
    return out;
  }
  private map(n: number): Map<string, Wire> {
    const out = new Map<string, Wire>();
    for (let i = 0; i < n; i++) {
      const key = this.value();
      if (typeof key !== "string") throw new MsgpackReadError("a map key is not a string");
      out.set(key, this.value());
    }
    return out;
  }
  private ext(n: number): Extension {
    const type = this.view.getInt8(this.need(1));
    return new Extension(type, this.raw(n));
  }

  value(): Wire {
    const b = this.u8();
    if (b <= 0x7f) return b;
    if (b >= 0xe0) return b - 0x100;
    if (b >= 0x80 && b <= 0x8f) return this.map(b & 0x0f);
    if (b >= 0x90 && b <= 0x9f) return this.array(b & 0x0f);
    if (b >= 0xa0 && b <= 0xbf) return this.str(b & 0x1f);
    switch (b) {
      case 0xc0:
        return null;
      case 0xc2:
        return false;
      case 0xc3:
        return true;
      case 0xc4:
        return this.raw(this.u8());
      case 0xc5:
        return this.raw(this.u16());
      case 0xc6:
        return this.raw(this.u32());
      case 0xc7:
        return this.ext(this.u8());
      case 0xc8:
        return this.ext(this.u16());
      case 0xc9:
        return this.ext(this.u32());
      case 0xca:
        return this.view.getFloat32(this.need(4));
      case 0xcb:
        return this.view.getFloat64(this.need(8));
      case 0xcc:
        return this.u8();
      case 0xcd:
        return this.u16();
      case 0xce:
        return this.u32();
      case 0xcf:
        return this.big(this.view.getBigUint64(this.need(8)));
      case 0xd0:
        return this.view.getInt8(this.need(1));
      case 0xd1:
        return this.view.getInt16(this.need(2));
      case 0xd2:
        return this.view.getInt32(this.need(4));
      case 0xd3:
        return this.big(this.view.getBigInt64(this.need(8)));
      case 0xd4:
        return this.ext(1);
      case 0xd5:
        return this.ext(2);
      case 0xd6:
        return this.ext(4);
      case 0xd7:
        return this.ext(8);
      case 0xd8:
        return this.ext(16);
      case 0xd9:
        return this.str(this.u8());
      case 0xda:
        return this.str(this.u16());
      case 0xdb:
        return this.str(this.u32());
      case 0xdc:
        return this.array(this.u16());
      case 0xdd:
        return this.array(this.u32());
      case 0xde:
        return this.map(this.u16());
      case 0xdf:
        return this.map(this.u32());
      default:
        throw new MsgpackReadError(`byte 0x${b.toString(16)} does not start a value`);
    }
  }
}
