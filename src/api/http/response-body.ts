/**
 * The body of a successful response, read with the operation's schema: an empty body, a body that
 * is not JSON, or one the schema refuses becomes a ResponseShapeError that quotes only redacted text.
 */
import type { z } from "zod";
import { ResponseShapeError } from "./errors";
import { redactString } from "./redact";
import { formatIssues, snippet } from "./response-errors";
import type { ResponseAnswer } from "./attempt";

/** Parses `response`'s body with `schema`; `secrets` are redacted from whatever the error quotes. */
export function parseBody<T>(operation: string, ruleId: string | undefined, response: ResponseAnswer, schema: z.ZodType<T>, secrets: readonly string[]): T {
  // What was received is redacted only for an error: a body read well quotes nothing.
  const received = (): { status: number; contentType: string | undefined; snippet: string } => ({
    status: response.status,
    contentType: response.contentType,
    snippet: redactString(snippet(response.text), secrets),
  });
  const where = `status ${response.status}, content-type ${response.contentType ?? "(none)"}`;
  if (response.text.trim() === "") {
    throw new ResponseShapeError({ operation, ruleId, problems: [`empty body (${where})`], received: received() });
  }
  let json: unknown;
  try {
    json = JSON.parse(response.text);
  } catch {
    const quoted = received();
    throw new ResponseShapeError({
      operation,
      ruleId,
      problems: [`body is not valid JSON (${where}; starts with ${JSON.stringify(quoted.snippet)})`],
      received: quoted,
    });
  }
  const parsed = schema.safeParse(json);
  if (parsed.success) return parsed.data;
  // The issues quote received values, which a hostile service may fill with the token.
  const problems = formatIssues(parsed.error.issues, json).map((p) => redactString(p, secrets));
  throw new ResponseShapeError({ operation, ruleId, problems });
}
