/**
 * What the transport says about a response it cannot use: the message and code of an error body
 * (readServiceError), a short snippet of any body, and zod issues as `path: problem` lines built
 * from the issue codes (formatIssues).
 */
import type { z } from "zod";
import { formatPath } from "../../shared/text";
import { errorBodySchema } from "./error-body";

const SNIPPET_LENGTH = 80;
const MAX_LISTED_PROBLEMS = 10;

/** The first characters of a body, whitespace collapsed, HTML tags dropped. */
export function snippet(text: string): string {
  const flat = text.replace(/<[^>]*>/g, " ").replace(/\s+/g, " ").trim();
  const source = flat === "" ? text.replace(/\s+/g, " ").trim() : flat;
  return source.length > SNIPPET_LENGTH ? `${source.slice(0, SNIPPET_LENGTH)}...` : source;
}

/**
 * Reads the message and code of an error body: `{type$:"ERROR",code,message}` as the simulator
 * sends; else common fields (`message`, `error`, `problems`, `code`); else a short text snippet.
 */
export function readServiceError(text: string, contentType?: string): { message?: string; code?: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const short = snippet(text);
    if (short === "") return {};
    return { message: contentType === undefined ? short : `${short} (${contentType.split(";")[0]?.trim()})` };
  }
  const exact = errorBodySchema.safeParse(json);
  if (exact.success) return { code: exact.data.code, message: exact.data.message };
  if (typeof json !== "object" || json === null || Array.isArray(json)) return { message: snippet(text) };
  const record = json as Record<string, unknown>;
  const code = firstString(record["code"], record["errorCode"], record["error_code"]);
  const message =
    firstString(record["message"], record["error_description"], record["error"], record["detail"]) ??
    messageField(record["error"]) ??
    problemsText(record["problems"]) ??
    snippet(text);
  return { ...(code === undefined ? {} : { code }), ...(message === "" ? {} : { message }) };
}

function firstString(...values: unknown[]): string | undefined {
  return values.find((v): v is string => typeof v === "string" && v.trim() !== "");
}

function messageField(value: unknown): string | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  return firstString((value as Record<string, unknown>)["message"]);
}

function problemsText(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const texts = value.map((p) =>
    typeof p === "string" ? p : (messageField(p) ?? firstString((p as Record<string, unknown> | null)?.["type"]) ?? JSON.stringify(p)),
  );
  const joined = texts.join("; ");
  return joined.length > 300 ? `${joined.slice(0, 300)}...` : joined;
}

/**
 * `users[0].userAliasList: expected array, received string`, at most MAX_LISTED_PROBLEMS lines.
 * With the parsed input, absent fields read "missing" and wrong enum values are quoted.
 */
export function formatIssues(issues: readonly z.core.$ZodIssue[], input?: unknown): string[] {
  const lines = issues.slice(0, MAX_LISTED_PROBLEMS).map((issue) => `${formatPath(issue.path)}: ${issueText(issue, input)}`);
  if (issues.length > MAX_LISTED_PROBLEMS) lines.push(`and ${issues.length - MAX_LISTED_PROBLEMS} more problems`);
  return lines;
}

const ABSENT = Symbol("absent");

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (typeof current !== "object" || current === null || !(key in current)) return ABSENT;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

/** The value at the issue's path: from the input when given, else the issue's own (zod's reportInput). */
function receivedValue(issue: z.core.$ZodIssue, input: unknown): unknown {
  if (input !== undefined && issue.path.length > 0) return valueAt(input, issue.path);
  return "input" in issue ? issue.input : ABSENT;
}

function issueText(issue: z.core.$ZodIssue, input: unknown): string {
  const value = receivedValue(issue, input);
  const known = value !== ABSENT;
  const text = expectation(issue, value, known);
  if (issue.code === "invalid_type" && (known ? value === undefined : text === `expected ${issue.expected}, received undefined`)) {
    return `missing (expected ${issue.expected})`;
  }
  if (input === undefined || issue.path.length === 0) return text;
  if (!known) return `missing (${text})`;
  if (issue.code === "invalid_value") {
    const shown = JSON.stringify(value) ?? String(value);
    return `${text}, received ${shown.length > 40 ? `${shown.slice(0, 40)}...` : shown}`;
  }
  return text;
}

/**
 * One issue about a value inside `input` (the document the schema parsed): `missing (expected
 * string)` for an absent field, else what was expected (and the type received).
 */
export function describeIssue(issue: z.core.$ZodIssue, input: unknown): string {
  const value = valueAt(input, issue.path);
  const known = value !== ABSENT;
  if (issue.code === "invalid_type" && (!known || value === undefined)) return `missing (expected ${issue.expected})`;
  return expectation(issue, value, known);
}

/** What the schema expected, from the issue's code and fields; zod's own message for other codes. */
function expectation(issue: z.core.$ZodIssue, value: unknown, known: boolean): string {
  switch (issue.code) {
    case "invalid_type":
      return known ? `expected ${issue.expected}, received ${typeName(value)}` : zodText(issue.message);
    case "invalid_value":
      return issue.values.length === 1 ? `expected ${primitive(issue.values[0])}` : `expected one of ${issue.values.map(primitive).join("|")}`;
    default:
      return issue.message;
  }
}

/** The type name zod reports for a received value: `null`, `array`, `NaN`, a class name, or typeof. */
function typeName(value: unknown): string {
  if (typeof value === "number") return Number.isFinite(value) ? "number" : String(value);
  if (typeof value !== "object") return typeof value;
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null && typeof value.constructor === "function") return value.constructor.name;
  return "object";
}

/**
 * zod's message without its generic lead-in, for an issue whose value is not at hand (no input
 * given, and zod reports inputs only with `reportInput`).
 */
function zodText(message: string): string {
  const lead = ["Invalid input: ", "Invalid option: ", "Invalid value: "].find((prefix) => message.startsWith(prefix));
  return lead === undefined ? message : message.slice(lead.length);
}

function primitive(value: unknown): string {
  if (typeof value === "bigint") return `${value.toString()}n`;
  if (typeof value === "string") return `"${value}"`;
  return String(value);
}
