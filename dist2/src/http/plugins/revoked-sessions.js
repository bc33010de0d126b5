import fp from 'fastify-plugin';
import { revocationWindowMs } from '../../app/issue-token.js';
export class RevokedSessions {
    store;
    clock;
    windowMs;
    /** Session id to when it was revoked. */
    #revokedAt = new Map();
    constructor(store, clock, windowMs) {
        this.store = store;
        this.clock = clock;
        this.windowMs = windowMs;
    }
    /** Whether access tokens of this session are refused: one map lookup, on every request. */
    has(sessionId) {
        return this.#revokedAt.has(sessionId);
    }
    /** A revocation this instance made (already committed). */
    revoked(sessionId, at) {
        if (!this.#revokedAt.has(sessionId))
            this.#revokedAt.set(sessionId, at);
    }
    /** Add the revocations every instance committed within the window, and drop older ones. */
    async refresh() {
        const since = this.clock.now() - this.windowMs;
        for (const session of await this.store.revokedSessions(since))
            this.revoked(session.sessionId, session.revokedAt);
        for (const [sessionId, at] of this.#revokedAt)
            if (at < since)
                this.#revokedAt.delete(sessionId);
    }
}
export const revokedSessionsPlugin = fp(async (app, options) => {
    const { auth } = options;
    const sessions = new RevokedSessions(options.store, options.clock, revocationWindowMs(auth));
    app.decorate('revokedSessions', sessions);
    if (auth.mode !== 'oauth2' || auth.issuer !== undefined)
        return;
    // Read before the first request is served; then every poll interval, one read at a time.
    await sessions.refresh();
    let timer;
    let reading = Promise.resolve();
    const poll = () => {
        reading = sessions
            .refresh()
            .catch((error) => app.log.warn({ err: error }, 'revoked sessions could not be read; those read before still apply'))
            .finally(() => {
            if (timer !== undefined)
                timer = setTimeout(poll, auth.revocationPollMs);
        });
    };
    timer = setTimeout(poll, auth.revocationPollMs);
    app.addHook('onClose', async () => {
        clearTimeout(timer);
        timer = undefined;
        await reading;
    });
}, { name: 'regpay-revoked-sessions', fastify: '5.x' });
//# sourceMappingURL=revoked-sessions.js.map