/**
 * A small reader of the HCL subset the generators write (src/core/import/import-hcl.ts, init-hcl.ts):
 * blocks with labels, attributes, quoted strings (with HCL's escapes, `$${` and `%%{`), objects,
 * tuples, traversals, numbers, `#` comments. It refuses a template interpolation or directive in a
 * string (`${`, `%{` not doubled): a generated value must never run. For tests: it proves the text
 * reads back as the values that went in.
 */
export type HclValue = string | number | boolean | null | HclValue[] | { [key: string]: HclValue } | { traversal: string };

export interface HclBlock {
  readonly type: string;
  readonly labels: string[];
  readonly attributes: Record<string, HclValue>;
  readonly blocks: HclBlock[];
}

export function readHcl(text: string): HclBlock {
  let i = 0;
  const fail = (message: string): never => {
    const line = text.slice(0, i).split("\n").length;
    throw new Error(`HCL line ${line}: ${message}`);
  };
  const skip = (newlines: boolean): void => {
    for (;;) {
      const c = text[i];
      if (c === " " || c === "\t" || c === "\r" || (newlines && c === "\n")) i += 1;
      else if (c === "#") while (i < text.length && text[i] !== "\n") i += 1;
      else return;
    }
  };
  const ident = (): string => {
    const m = /^[A-Za-z_][A-Za-z0-9_-]*/.exec(text.slice(i));
    if (m === null) return fail(`an identifier expected, got ${JSON.stringify(text.slice(i, i + 10))}`);
    i += m[0].length;
    return m[0];
  };
  const string = (): string => {
    if (text[i] !== '"') fail("a string expected");
    i += 1;
    let out = "";
    for (;;) {
      const c = text[i];
      if (c === undefined || c === "\n") return fail("unterminated string");
      if (c === '"') {
        i += 1;
        return out;
      }
      if (c === "\\") {
        const e = text[i + 1];
        const simple: Record<string, string> = { n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\" };
        if (e !== undefined && e in simple) {
          out += simple[e];
          i += 2;
        } else if (e === "u") {
          out += String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16));
          i += 6;
        } else if (e === "U") {
          out += String.fromCodePoint(parseInt(text.slice(i + 2, i + 10), 16));
          i += 10;
        } else fail(`unknown escape \\${e ?? ""}`);
        continue;
      }
      if ((c === "$" || c === "%") && text[i + 1] === c && text[i + 2] === "{") {
        out += `${c}{`;
        i += 3;
        continue;
      }
      if ((c === "$" || c === "%") && text[i + 1] === "{") fail(`a template ${c}{ in a string: it would run`);
      out += c;
      i += 1;
    }
  };
  const value = (): HclValue => {
    skip(false);
    const c = text[i];
    if (c === '"') return string();
    if (c === "[") {
      i += 1;
      const items: HclValue[] = [];
      for (;;) {
        skip(true);
        if (text[i] === "]") {
          i += 1;
          return items;
        }
        items.push(value());
        skip(true);
        if (text[i] === ",") i += 1;
      }
    }
    if (c === "{") {
      i += 1;
      const object: Record<string, HclValue> = {};
      for (;;) {
        skip(true);
        if (text[i] === "}") {
          i += 1;
          return object;
        }
        const key = text[i] === '"' ? string() : ident();
        skip(false);
        if (text[i] !== "=") fail("= expected in an object");
        i += 1;
        if (key in object) fail(`duplicate key ${JSON.stringify(key)}`);
        object[key] = value();
        skip(false);
        if (text[i] === ",") i += 1;
      }
    }
    const number = /^-?\d+(\.\d+)?/.exec(text.slice(i));
    if (number !== null) {
      i += number[0].length;
      return Number(number[0]);
    }
    let path = ident();
    while (text[i] === ".") {
      i += 1;
      path += `.${ident()}`;
    }
    if (path === "true" || path === "false") return path === "true";
    if (path === "null") return null;
    return { traversal: path };
  };
  const body = (closing: string | null): Pick<HclBlock, "attributes" | "blocks"> => {
    const attributes: Record<string, HclValue> = {};
    const blocks: HclBlock[] = [];
    for (;;) {
      skip(true);
      if (closing === null && i >= text.length) return { attributes, blocks };
      if (closing !== null && text[i] === closing) {
        i += 1;
        return { attributes, blocks };
      }
      const name = ident();
      skip(false);
      if (text[i] === "=") {
        i += 1;
        if (name in attributes) fail(`attribute ${name} set twice`);
        attributes[name] = value();
        continue;
      }
      const labels: string[] = [];
      while (text[i] === '"') {
        labels.push(string());
        skip(false);
      }
      if (text[i] !== "{") fail(`{ expected after block ${name}`);
      i += 1;
      blocks.push({ type: name, labels, ...body("}") });
    }
  };
  return { type: "", labels: [], ...body(null) };
}
