/**
 * A dynamic value's type read straight from its JSON text, as Terraform writes it (compact, no
 * escapes): one pass, no intermediate JSON value, and each inner type that repeats (a
 * configuration's `users` names 20 users of one type, `["object",{"aliases":[…]}]`) read once
 * and shared. It answers exactly what `parseType(JSON.parse(text))` answers, or null where the text
 * is anything else (whitespace, an escape, a repeated or `__proto__` key, a type it does not know,
 * text that is not JSON): the codec then reads it the general way, which names the error.
 */
import type { CtyType } from "./types";
import { keyedObject } from "./keyed-object";

/** An object type with this many attributes or more holds them in a keyed object (keyed-object.ts), as parseType does. */
const KEYED_ATTRIBUTES = 8;

/** Inner types read, by their text (bounded: emptied when full). */
const inner = new Map<string, CtyType>();
const INNER_KEPT = 512;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;

/** Thrown where the text is not one this reader answers; caught once, at the top. */
const notRead = new Error("not read");

class TypeTextReader {
  at = 0;

  constructor(private readonly text: string) {}

  private expect(code: number): void {
    if (this.text.charCodeAt(this.at) !== code) throw notRead;
    this.at++;
  }

  /** A string without escapes or control characters, its quotes consumed. */
  string(): string {
    this.expect(QUOTE);
    const start = this.at;
    const text = this.text;
    for (;;) {
      const c = text.charCodeAt(this.at);
      if (c === QUOTE) break;
      // the end of the text (NaN), an escape, or a control character JSON does not allow
      if (!(c >= 0x20) || c === BACKSLASH) throw notRead;
      this.at++;
    }
    return text.slice(start, this.at++);
  }

  /** Where the type starting here ends: brackets and braces counted, strings skipped (checked when read). */
  private endOfComposite(): number {
    const text = this.text;
    let depth = 0;
    for (let i = this.at; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        i++;
        while (i < text.length && text.charCodeAt(i) !== QUOTE) i++;
      } else if (c === OPEN_BRACKET || c === OPEN_BRACE) depth++;
      else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
        depth--;
        if (depth === 0) return i + 1;
      }
    }
    throw notRead;
  }

  /** A type; `top` is the whole text's, which the caller keeps (inner ones are shared here). */
  type(top: boolean): CtyType {
    const c = this.text.charCodeAt(this.at);
    if (c === QUOTE) {
      const name = this.string();
      if (name === "string" || name === "number" || name === "bool" || name === "dynamic") return name;
      throw notRead;
    }
    if (c !== OPEN_BRACKET) throw notRead;
    if (top) return this.composite();
    const end = this.endOfComposite();
    const key = this.text.slice(this.at, end);
    const kept = inner.get(key);
    if (kept !== undefined) {
      this.at = end;
      return kept;
    }
    const read = this.composite();
    if (this.at !== end) throw notRead;
    if (inner.size >= INNER_KEPT) inner.clear();
    inner.set(key, read);
    return read;
  }

  private composite(): CtyType {
    this.expect(OPEN_BRACKET);
    const kind = this.string();
    this.expect(COMMA);
    let read: CtyType;
    if (kind === "list" || kind === "set" || kind === "map") read = [kind, this.type(false)];
    else if (kind === "tuple") read = ["tuple", this.elements()];
    else if (kind === "object") read = ["object", this.attributes()];
    else throw notRead;
    this.expect(CLOSE_BRACKET);
    return read;
  }

  private elements(): CtyType[] {
    this.expect(OPEN_BRACKET);
    const out: CtyType[] = [];
    if (this.text.charCodeAt(this.at) === CLOSE_BRACKET) {
      this.at++;
      return out;
    }
    for (;;) {
      out.push(this.type(false));
      const c = this.text.charCodeAt(this.at++);
      if (c === CLOSE_BRACKET) return out;
      if (c !== COMMA) throw notRead;
    }
  }

  private attributes(): Record<string, CtyType> {
    this.expect(OPEN_BRACE);
    const names: string[] = [];
    const types: CtyType[] = [];
    if (this.text.charCodeAt(this.at) === CLOSE_BRACE) this.at++;
    else {
      for (;;) {
        names.push(this.string());
        this.expect(COLON);
        types.push(this.type(false));
        const c = this.text.charCodeAt(this.at++);
        if (c === CLOSE_BRACE) break;
        if (c !== COMMA) throw notRead;
      }
    }
    const out: Record<string, CtyType> = names.length >= KEYED_ATTRIBUTES ? keyedObject<CtyType>() : {};
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      // JSON.parse keeps the last of a repeated key, and makes __proto__ an own key: the general way reads those
      if (name === "__proto__" || Object.prototype.hasOwnProperty.call(out, name)) throw notRead;
      out[name] = types[i]!;
    }
    return out;
  }
}

/** The type `text` holds, as `parseType(JSON.parse(text))` reads it, or null where this reader does not answer (see above). */
export function readTypeText(text: string): CtyType | null {
  const reader = new TypeTextReader(text);
  try {
    const type = reader.type(true);
    return reader.at === text.length ? type : null;
  } catch (error) {
    if (error === notRead) return null;
    throw error;
  }
}
