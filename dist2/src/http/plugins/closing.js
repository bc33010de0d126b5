import fp from 'fastify-plugin';
import { ApiError } from '../../domain/errors.js';
/** Retry-After of a request refused while the app closes: by then another instance can take it. */
const CLOSING_RETRY_AFTER_S = 1;
/**
 * Requests that arrive while the app closes (on a connection kept alive behind one still in
 * flight) are answered `503 NOT_READY` with Retry-After, as an ErrorDetail like every other
 * error (CONTRACT §5); Fastify's own answer for them (`return503OnClosing`) is neither. Fastify
 * marks the response `Connection: close`, so the client opens its next connection elsewhere.
 * Register it after the allowlist: an address outside every allowlist still gets no answer.
 */
export const closingPlugin = fp((app) => {
    let closing = false;
    // preClose runs before the server stops accepting connections and closes the idle ones.
    app.addHook('preClose', (done) => {
        closing = true;
        done();
    });
    app.addHook('onRequest', (_request, _reply, done) => {
        if (!closing) {
            done();
            return;
        }
        done(new ApiError('NOT_READY', 'the service is shutting down; retry the identical request', [], { 'Retry-After': String(CLOSING_RETRY_AFTER_S) }));
    });
}, { name: 'regpay-closing', fastify: '5.x', dependencies: ['regpay-errors', 'regpay-allowlist'] });
//# sourceMappingURL=closing.js.map