/**
 * A call answered with its request's own bytes, at the protobuf framing only (bench/lib/floor-provider.ts):
 * the request's top-level fields are found by their tags and lengths, and the chosen ones are
 * written back under the response's field numbers, their bytes untouched. Nothing inside a field
 * is read: a state, a private blob or a configuration crosses as the bytes Terraform sent.
 */

/** Wire types of the protobuf encoding (https://protobuf.dev/programming-guides/encoding/). */
const VARINT = 0;
const FIXED64 = 1;
const LENGTH_DELIMITED = 2;
const FIXED32 = 5;

/** A response field taken from a request field: `[requestField, responseField]`. */
export type FieldMove = readonly [from: number, to: number];

function readVarint(bytes: Buffer, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i]!;
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return { value, next: i + 1 };
    scale *= 128;
  }
  throw new Error(`a protobuf varint runs past the message's end (byte ${at} of ${bytes.length})`);
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    out.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return Buffer.from(out);
}

/** The length-delimited top-level fields of `message`, by field number (the last occurrence, as protobuf reads a repeated scalar-less field). */
export function topLevelFields(message: Buffer): Map<number, Buffer> {
  const fields = new Map<number, Buffer>();
  let at = 0;
  while (at < message.length) {
    const tag = readVarint(message, at);
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    at = tag.next;
    if (wire === VARINT) at = readVarint(message, at).next;
    else if (wire === FIXED64) at += 8;
    else if (wire === FIXED32) at += 4;
    else if (wire === LENGTH_DELIMITED) {
      const length = readVarint(message, at);
      const end = length.next + length.value;
      if (end > message.length) throw new Error(`protobuf field ${field} runs past the message's end`);
      fields.set(field, message.subarray(length.next, end));
      at = end;
    } else throw new Error(`protobuf wire type ${wire} (field ${field}) is not one a tfplugin6 request uses`);
  }
  if (at !== message.length) throw new Error("a protobuf message ends inside its last field");
  return fields;
}

/**
 * The response made of `request`'s fields moved as `moves` says: for each move, the first
 * `from` field the request has (a move whose `from` is missing is skipped, so a list of moves with
 * the same `to` is a fallback order), written as field `to`.
 */
export function echoFields(request: Buffer, moves: readonly FieldMove[]): Buffer {
  return movedFields(topLevelFields(request), moves);
}

/** {@link echoFields} of a request's fields already found by {@link topLevelFields}. */
export function movedFields(fields: ReadonlyMap<number, Buffer>, moves: readonly FieldMove[]): Buffer {
  const parts: Buffer[] = [];
  const written = new Set<number>();
  for (const [from, to] of moves) {
    const bytes = fields.get(from);
    if (bytes === undefined || written.has(to)) continue;
    written.add(to);
    parts.push(varint(to * 8 + LENGTH_DELIMITED), varint(bytes.length), bytes);
  }
  return Buffer.concat(parts);
}

/** `bytes` written as the length-delimited field `field` of a message of its own. */
export function asField(field: number, bytes: Buffer): Buffer {
  return Buffer.concat([varint(field * 8 + LENGTH_DELIMITED), varint(bytes.length), bytes]);
}
