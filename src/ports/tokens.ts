/**
 * Access tokens come through a port (STYLE.md rule 7): the token use case decides what a token
 * says, the adapter (adapters/tokens/jose-tokens.ts) does the signing and verifying.
 */
export interface AccessTokenClaims {
  /** `iss`: the issuer identifier the token was asked for (see EmbeddedProvider.issuerFor). */
  readonly issuer: string;
  /** The integrator's id (`sub`). */
  readonly integratorId: string;
  /** `preferred_username`: the user of a password grant; absent when the client acts for itself (client credentials). */
  readonly username?: string;
  /** `azp` and `client_id` (RFC 9068). */
  readonly clientId: string;
  /** `sid`: the refresh-token family, also answered as `session_state`; absent without a refresh token (client credentials). */
  readonly sessionId?: string;
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
  /**
   * `origin` is the origin the request carrying the token was made to (http/request-origin.ts;
   * undefined when its Host names none): without `auth.publicUrl`, the embedded provider's
   * tokens must carry it as their issuer. An external issuer's tokens do not depend on it.
   */
  verify(token: string, nowMs: number, origin: string | undefined): Promise<VerifyOutcome>;
}
