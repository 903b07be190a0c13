/**
 * An attempt's turn: what it takes before it is sent. Its ticket at the rate limiter (the wait
 * counts against the request's deadline), its token (asked after the limiter's wait, right before
 * the send: src/api/http/token-renewal.ts), and its time limit (src/api/http/deadline.ts).
 *
 * A guarded call (remove-all-users re-reads its rule first) takes the rate limiter's two tickets
 * at once ({@link RateLimiter.acquirePair}), then the token, then runs its guard's read on the
 * first ticket, and is sent on the second with no wait between the read and the send. When the
 * second cannot go at once (the read took so long that other sends were let out), the pair lapses
 * and the guard reads again on a new pair (the wait comes before that read): a guard read is
 * never followed by a wait. After {@link MAX_GUARD_LAPSES} lapses, or past the deadline, the call
 * is given up, not sent.
 */
import { NotSentError } from "./errors";
import type { RateLimiter } from "./rate-limiter";
import type { RetryDecision } from "./retry";
import type { RequestDeadline } from "./deadline";
import { MAX_RENEWALS, PinnedTokenRefused, unpinned, type RequestTokens } from "./token-renewal";

/** What a guard (`beforeAttempt`) is given for its read. */
export interface GuardSlot {
  /** The rate limiter's ticket for the read (pass it as the read's `ticket`); undefined without a limiter. */
  readonly ticket: number | undefined;
  /** The token the guarded call goes with (pass it as the read's `token`): taken before the read, never renewed between read and call. */
  readonly token: string;
  /**
   * An earlier attempt of the guarded call was sent and not clearly refused (a timeout, a lost
   * answer, a 5xx): it may have landed. False when every earlier attempt was answered 429 or 401,
   * or never reached the service, or there was none.
   */
  readonly mayHaveLanded: boolean;
}

/** The guard of a call: runs right before every attempt; what it throws stops the call unsent. */
export type Guard = (slot: GuardSlot) => Promise<void>;

/** How many times a guarded call's pair may lapse (other sends let out during its read) before the call is given up, not sent. */
const MAX_GUARD_LAPSES = 5;
/**
 * How many 429s a guarded call takes (each on the send right after its guard read, each followed
 * by a new read) before it is given up, not sent: a service that never admits two requests back
 * to back (a burst below two) refuses every one.
 */
const MAX_GUARDED_429S = 4;

/** One request, as its turns see it. */
export interface TurnRequest {
  readonly operation: string;
  readonly ruleId: string | undefined;
  readonly limiter: RateLimiter | undefined;
  readonly tokens: RequestTokens;
  readonly deadline: RequestDeadline;
  readonly guard: Guard | undefined;
  /** A ticket already taken for the first attempt (a guard slot's); its retries take their own. */
  readonly ticket: number | undefined;
}

/** An attempt's turn: send at once on `ticket` (0 without a limiter) with `token`, within `timeoutMs`. */
export interface Turn {
  readonly ticket: number;
  readonly token: string;
  readonly timeoutMs: number;
}

/** Takes the turn of attempt `attempt` (1-based); `mayHaveLanded` is for the guard (GuardSlot.mayHaveLanded). */
export async function takeTurn(request: TurnRequest, attempt: number, mayHaveLanded: boolean): Promise<Turn> {
  const { ticket, token } =
    request.guard === undefined ? await plainTurn(request, attempt) : await guardedTurn(request, request.guard, attempt, mayHaveLanded);
  try {
    return { ticket, token, timeoutMs: request.deadline.attemptBudget(request.operation, request.ruleId, attempt - 1) };
  } catch (error) {
    request.limiter?.cancel(ticket);
    throw error;
  }
}

/** An unguarded attempt: the limiter's ticket, then the token (the ticket goes back when the token fails). */
async function plainTurn(request: TurnRequest, attempt: number): Promise<{ ticket: number; token: string }> {
  const limiter = request.limiter;
  const ticket = limiter === undefined ? 0 : attempt === 1 && request.ticket !== undefined ? request.ticket : await limiter.acquire();
  try {
    return { ticket, token: await request.tokens.take(attempt) };
  } catch (error) {
    limiter?.cancel(ticket);
    throw error;
  }
}

/** A guarded attempt: the pair, then the token, the read and the call with no wait between the last two (no renewal, no ticket). */
async function guardedTurn(request: TurnRequest, guard: Guard, attempt: number, mayHaveLanded: boolean): Promise<{ ticket: number; token: string }> {
  const limiter = request.limiter;
  if (limiter === undefined) return unlimitedGuardedTurn(request.tokens, guard, attempt, mayHaveLanded);
  let refusals = 0;
  for (let lapses = 0; ; lapses += 1) {
    if (lapses >= MAX_GUARD_LAPSES) throw lapsedError(request.operation, request.ruleId, lapses);
    if (request.deadline.passed()) throw request.deadline.reached(request.operation, request.ruleId, attempt - 1);
    const [read, write] = await limiter.acquirePair();
    let token: string;
    try {
      // The token before the read (a renewal here may make the pair lapse: then a new pair, the
      // token cached by then), never between the read and the call.
      token = await request.tokens.take(attempt);
      await guard({ ticket: read, token, mayHaveLanded });
    } catch (error) {
      limiter.cancel(write);
      limiter.cancel(read);
      // The read's token was refused (it expired in the wait for the pair): a new one after the
      // next pair's wait, then the read again; not counted as a lapse.
      if (!(error instanceof PinnedTokenRefused) || ++refusals > MAX_RENEWALS) throw unpinned(error);
      request.tokens.refuse(error.token);
      lapses -= 1;
      continue;
    }
    limiter.cancel(read);
    if (limiter.begin(write)) return { ticket: write, token };
    limiter.cancel(write);
  }
}

/** A guarded attempt without a rate limiter: the token, then the read (again with a new token after a refused one). */
async function unlimitedGuardedTurn(tokens: RequestTokens, guard: Guard, attempt: number, mayHaveLanded: boolean): Promise<{ ticket: number; token: string }> {
  let refusals = 0;
  for (;;) {
    const token = await tokens.take(attempt);
    try {
      await guard({ ticket: undefined, token, mayHaveLanded });
      return { ticket: 0, token };
    } catch (error) {
      if (!(error instanceof PinnedTokenRefused) || ++refusals > MAX_RENEWALS) throw unpinned(error);
      tokens.refuse(error.token);
    }
  }
}

function lapsedError(operation: string, ruleId: string | undefined, lapses: number): NotSentError {
  return new NotSentError(
    `${ruleId === undefined ? operation : `${operation} for rule '${ruleId}'`} was not sent: ${lapses} times its guard read took so long that other requests went out before it, ` +
      `and it is sent only right after a read with nothing in between. Nothing was changed; run apply again (with a lower --parallelism if the service is slow).`,
    operation,
    ruleId,
  );
}

/**
 * A guarded call answered 429 `rateLimited` times (each on the send right after its guard read) is
 * given up, not sent after a wait, which would let a change made after the read be wiped.
 */
export function capGuarded429s(decision: RetryDecision, rateLimited: number): RetryDecision {
  if (!decision.retry || rateLimited < MAX_GUARDED_429S) return decision;
  return {
    retry: false,
    reason: `The service answered 429 to each of ${rateLimited} sends made right after the call's guard read (each time after a new read): it does not admit two requests back to back now; the call is not sent after a wait, which would let a change made after the read be wiped`,
  };
}
