/**
 * The simulator's bearer tokens: the static token (`--token`), and tokens it mints at its OAuth
 * endpoint (`POST /v1/oauth`, client credentials with HTTP Basic, like the vendor's), each valid
 * for a time. With a token TTL (`--token-ttl S`) only minted tokens are accepted, each for S
 * seconds; without one the static token is accepted too and minted tokens live 900 s, the
 * vendor's `expires_in`. Spec: README.md beside this file, "Tokens".
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { monotonicNow } from "./rate-limit";

/** The OAuth endpoint's path. */
export const OAUTH_PATH = "/v1/oauth";
/** Life of a minted token when no TTL is set, in seconds (the vendor's `expires_in`). */
export const DEFAULT_MINTED_TTL_SECONDS = 900;

/** What a bearer token turned out to be. */
export type TokenCheck =
  | { readonly ok: true; /** The minted token's number (1 for the first minted), absent for the static token. */ readonly serial?: number }
  | { readonly ok: false; readonly reason: "missing" | "unknown" | "expired"; readonly serial?: number };

export interface MintedToken {
  readonly token: string;
  readonly expiresInSeconds: number;
  readonly serial: number;
}

interface Minted {
  readonly serial: number;
  readonly expiresAtMs: number;
}

/** Compares two secrets in a time that does not depend on where they differ. */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash("sha256").update(given).digest();
  const b = createHash("sha256").update(expected).digest();
  return timingSafeEqual(a, b);
}

export class TokenAuthority {
  readonly #staticToken: string;
  readonly #ttlSeconds: number | undefined;
  readonly #minted = new Map<string, Minted>();
  readonly #now: () => number;

  constructor(staticToken: string, ttlSeconds: number | undefined, now: () => number = monotonicNow) {
    this.#staticToken = staticToken;
    this.#ttlSeconds = ttlSeconds;
    this.#now = now;
  }

  /** How many tokens were minted. */
  get minted(): number {
    return this.#minted.size;
  }

  /** A new token, valid for the TTL (or 900 s without one). */
  mint(): MintedToken {
    const serial = this.#minted.size + 1;
    const token = `sim-${randomBytes(24).toString("base64url")}`;
    const expiresInSeconds = this.#ttlSeconds ?? DEFAULT_MINTED_TTL_SECONDS;
    this.#minted.set(token, { serial, expiresAtMs: this.#now() + expiresInSeconds * 1000 });
    return { token, expiresInSeconds, serial };
  }

  /** The client secret the OAuth endpoint takes: the static token (any client ID). */
  acceptsClientSecret(secret: string): boolean {
    return sameSecret(secret, this.#staticToken);
  }

  /** Checks the bearer token of a request. */
  check(token: string | undefined): TokenCheck {
    if (token === undefined) return { ok: false, reason: "missing" };
    const minted = this.#minted.get(token);
    if (minted !== undefined) {
      return this.#now() < minted.expiresAtMs ? { ok: true, serial: minted.serial } : { ok: false, reason: "expired", serial: minted.serial };
    }
    if (this.#ttlSeconds === undefined && sameSecret(token, this.#staticToken)) return { ok: true };
    return { ok: false, reason: "unknown" };
  }
}
