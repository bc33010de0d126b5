import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { revocationWindowMs } from '../../app/issue-token.js';
import type { AuthConfig } from '../../config/types.js';
import type { Clock } from '../../ports/clock.js';
import type { Store } from '../../ports/store.js';

/**
 * The sessions revoked lately, so that the API refuses their access tokens (CONTRACT §7: a reused
 * refresh token revokes every token of its session), without a store read per request.
 *
 * A session is revoked in the store by the reuse of one of its refresh tokens, on whichever
 * instance it happens. Each instance keeps in memory the sessions revoked within
 * `revocationWindowMs` (twice the longest an access token is accepted; older ones have no
 * acceptable token left), reads them from the store every `auth.revocationPollMs`, and adds the
 * revocations it makes itself at once. So an access token of a revoked session is refused at once
 * by the instance that revoked it, and by every other within `auth.revocationPollMs` plus one
 * store read. An instance that cannot read the store keeps refusing what it has read (its
 * readiness fails as well: the store is unreachable). Revocations are never undone, so what was
 * read is only ever added to, and dropped once out of the window.
 *
 * Only the embedded provider revokes sessions; with basic auth or an external issuer the set stays
 * empty and the store is not read.
 */
declare module 'fastify' {
  interface FastifyInstance {
    /** Sessions revoked lately, by this instance or another one. */
    revokedSessions: RevokedSessions;
  }
}

export interface RevokedSessionsOptions {
  readonly auth: AuthConfig;
  readonly store: Store;
  readonly clock: Clock;
}

export class RevokedSessions {
  /** Session id to when it was revoked. */
  readonly #revokedAt = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    readonly windowMs: number,
  ) {}

  /** Whether access tokens of this session are refused: one map lookup, on every request. */
  has(sessionId: string): boolean {
    return this.#revokedAt.has(sessionId);
  }

  /** A revocation this instance made (already committed). */
  revoked(sessionId: string, at: number): void {
    if (!this.#revokedAt.has(sessionId)) this.#revokedAt.set(sessionId, at);
  }

  /** Add the revocations every instance committed within the window, and drop older ones. */
  async refresh(): Promise<void> {
    const since = this.clock.now() - this.windowMs;
    for (const session of await this.store.revokedSessions(since)) this.revoked(session.sessionId, session.revokedAt);
    for (const [sessionId, at] of this.#revokedAt) if (at < since) this.#revokedAt.delete(sessionId);
  }
}

export const revokedSessionsPlugin = fp(
  async (app: FastifyInstance, options: RevokedSessionsOptions) => {
    const { auth } = options;
    const sessions = new RevokedSessions(options.store, options.clock, revocationWindowMs(auth));
    app.decorate('revokedSessions', sessions);
    if (auth.mode !== 'oauth2' || auth.issuer !== undefined) return;

    // Read before the first request is served; then every poll interval, one read at a time.
    await sessions.refresh();
    let timer: NodeJS.Timeout | undefined;
    let reading: Promise<void> = Promise.resolve();
    const poll = (): void => {
      reading = sessions
        .refresh()
        .catch((error: unknown) => app.log.warn({ err: error }, 'revoked sessions could not be read; those read before still apply'))
        .finally(() => {
          if (timer !== undefined) timer = setTimeout(poll, auth.revocationPollMs);
        });
    };
    timer = setTimeout(poll, auth.revocationPollMs);
    app.addHook('onClose', async () => {
      clearTimeout(timer);
      timer = undefined;
      await reading;
    });
  },
  { name: 'regpay-revoked-sessions', fastify: '5.x' },
);
