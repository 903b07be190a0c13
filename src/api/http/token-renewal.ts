/**
 * The token of one request, and its renewal after a 401. The token is asked of the TokenSource
 * (src/api/http/credentials.ts) right before each attempt (before the guard's read for a guarded
 * call): a token command's token is renewed ahead of its expiry there. After a 401 the request
 * asks the source once for a new token, after its next wait and right before the send (a token
 * renewed before a long wait may expire in it: a bare token of 5 s behind a rate limit), and is
 * sent again, once; more when the token refused was one another request had fetched, which may
 * have gone stale while this one waited. A static token has no other, so its 401 is final.
 */
import { ApiError } from "./errors";
import { StaticToken, type TokenSource } from "./credentials";
import type { AttemptResult } from "./attempt";
import { InvalidArgumentError } from "../../errors";

/** Most renewals after a 401 in one request (each with a token another request fetched; one fetched for it is final). */
export const MAX_RENEWALS = 3;

/** What a 401 for a request's token leads to: a resend with a new token, the guard's own handling (a pinned token), or the error. */
export type RefusalOutcome =
  | { readonly kind: "renew" }
  | { readonly kind: "final" }
  | { readonly kind: "pinned"; readonly error: PinnedTokenRefused };

/** The token of one request: which one each attempt goes with, and what a 401 leads to. */
export class RequestTokens {
  readonly #source: TokenSource;
  /** Told of every token handed out, for the redaction of what comes back. */
  readonly #onSent: (token: string) => void;
  /** The token the first attempt goes with, when the caller took it already (a guarded call's read). */
  readonly #pinned: string | undefined;
  /** After a 401: the refused token, renewed by the next {@link take}. */
  #refused: string | null = null;
  #renewals = 0;
  /**
   * The last token the source fetched for this request (a renewal that ran the command for it):
   * a 401 for that one is final ("refused twice in a row").
   */
  #fetchedForThis: string | null = null;

  constructor(source: TokenSource, onSent: (token: string) => void, pinned: string | undefined) {
    this.#source = source;
    this.#onSent = onSent;
    this.#pinned = pinned;
  }

  /** The token for attempt `attempt` (1-based): the renewal after a 401, the pinned one, or the source's. */
  async take(attempt: number): Promise<string> {
    let next: string;
    if (this.#refused !== null) {
      const renewal = await this.#source.renew(this.#refused);
      this.#refused = null;
      if (renewal === null) throw new InvalidArgumentError("A token source that cannot renew was asked to.");
      if (renewal.fetched) this.#fetchedForThis = renewal.token;
      next = renewal.token;
    } else {
      next = attempt === 1 && this.#pinned !== undefined ? this.#pinned : await this.#source.token();
    }
    this.#onSent(next);
    return next;
  }

  /** `token` was answered 401: the next {@link take} renews it; no other request is handed it meanwhile (each fetches a new one, one run for all). */
  refuse(token: string): void {
    this.#refused = token;
    this.#source.markRefused?.(token);
  }

  /**
   * Attempt `attempt` went with `token` and was answered 401. The read of a guard, on the token its
   * call is to go with, is "pinned": the guard's to handle (a new token, then a new pair and read),
   * not the read's (a renewal and a resend there would come between the read and the call).
   */
  afterRefusal(token: string, attempt: number): RefusalOutcome {
    if (this.#source instanceof StaticToken) return { kind: "final" };
    if (attempt === 1 && this.#pinned !== undefined) return { kind: "pinned", error: new PinnedTokenRefused(this.#pinned) };
    if (token === this.#fetchedForThis || this.#renewals >= MAX_RENEWALS) return { kind: "final" };
    this.#renewals += 1;
    this.refuse(token);
    return { kind: "renew" };
  }

  /** For a 401 of a token source that renews (a token command): that a new token was refused too. */
  refusalNote(result: AttemptResult): string | undefined {
    if (result.type !== "response" || result.status !== 401 || this.#renewals === 0 || this.#source instanceof StaticToken) return undefined;
    return "The service refused the token twice in a row, the second time one just fetched again";
  }

  /** For the error of a 401: where the token came from, when the source renews (a token command). */
  originFor(status: number): string | undefined {
    return status === 401 && !(this.#source instanceof StaticToken) ? this.#source.origin : undefined;
  }
}

/**
 * A guard's read refused (401) with the token its call was to go with: handled by the guarded
 * call (a new token, a new pair, the read again), never shown as such.
 */
export class PinnedTokenRefused extends Error {
  readonly #token: string;

  constructor(token: string) {
    super("the token of a guard's read was refused (401)");
    this.#token = token;
  }

  get token(): string {
    return this.#token;
  }
}

/** What a guard threw, as the guarded call throws it: a refused read's token as the 401 error it is. */
export function unpinned(error: unknown): unknown {
  if (!(error instanceof PinnedTokenRefused)) return error;
  return new ApiError({ operation: "query-users", kind: "http", status: 401, retryable: false, attempts: 1, note: "The token was refused again right after it was fetched" });
}
