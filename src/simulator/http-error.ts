/**
 * The refusals the simulator answers with: an HTTP status, a stable `code`, a message, and the
 * error body of src/api/rules/schemas.ts (`{ "type$": "ERROR", "code", "message" }`).
 */
import type { ErrorBody } from "../api/rules/schemas";
import { formatPath } from "../shared/text";

export type SimErrorCode =
  | "UNAUTHORIZED"
  | "TENANT_MISMATCH"
  | "NOT_FOUND"
  | "RULE_NOT_FOUND"
  | "METHOD_NOT_ALLOWED"
  | "UNSUPPORTED_MEDIA_TYPE"
  | "PAYLOAD_TOO_LARGE"
  | "INVALID_JSON"
  | "INVALID_REQUEST"
  | "INVALID_FILTER"
  | "RULE_IS_SYSTEM"
  | "RULE_MONITORS_ALL_USERS"
  | "RATE_LIMITED"
  | "SERVICE_UNAVAILABLE"
  | "BAD_GATEWAY"
  | "PERSISTENCE_FAILED"
  | "INTERNAL_ERROR";

export class SimHttpError extends Error {
  readonly status: number;
  readonly code: SimErrorCode;
  readonly headers: Readonly<Record<string, string>>;

  constructor(status: number, code: SimErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message);
    this.name = "SimHttpError";
    this.status = status;
    this.code = code;
    this.headers = headers;
  }

  body(): ErrorBody {
    return { type$: "ERROR", code: this.code, message: this.message };
  }
}

/** Formats zod issues as `field.path: message; ...` so a refusal names the offending field. */
export function describeIssues(issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>): string {
  return issues.map((issue) => `${formatPath(issue.path)}: ${issue.message}`).join("; ");
}
