/**
 * Access tokens come through a port (STYLE.md rule 7): the token use case decides what a token
 * says, the adapter (adapters/tokens/jose-tokens.ts) does the signing and verifying.
 */
export interface AccessTokenClaims {
  /** The integrator's id (`sub`). */
  readonly integratorId: string;
  /** `preferred_username`. */
  readonly username: string;
  /** `azp` and `client_id` (RFC 9068). */
  readonly clientId: string;
  /** `sid`: the refresh-token family, also answered as `session_state`. */
  readonly sessionId: string;
  readonly scope: string;
}

export interface AccessTokenSigner {
  /** A signed JWT valid from `nowMs` for `ttlS` seconds. */
  sign(claims: AccessTokenClaims, nowMs: number, ttlS: number): Promise<string>;
}

/** What the auth layer needs from a verified token to find the integrator. */
export interface VerifiedToken {
  /** `azp`, else `client_id`. */
  readonly clientId: string | undefined;
  /** `preferred_username`, when the token has one. */
  readonly username: string | undefined;
  readonly subject: string | undefined;
  /** `sid`: the session, when the token names one. */
  readonly sessionId: string | undefined;
}

export type VerifyOutcome = { readonly ok: true; readonly token: VerifiedToken } | { readonly ok: false; readonly reason: string };

export interface AccessTokenVerifier {
  verify(token: string, nowMs: number): Promise<VerifyOutcome>;
}
