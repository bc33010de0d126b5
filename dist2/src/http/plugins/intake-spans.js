import { traceFromHeaders } from '../../lib/trace.js';
/**
 * Every request of the scope (the integrators' API) is a span, the child of the integrator's own
 * `traceparent` when it sent a valid one. The request's trace as the routes read it then
 * continues from that span: the transaction stores it, so the scheme calls and deliveries it
 * causes are spans under it (same trace id as the integrator's, as before).
 */
export function intakeSpans(scope, tracing) {
    scope.addHook('onRequest', (request, _reply, done) => {
        const header = request.headers.traceparent;
        const incoming = typeof header === 'string' && traceFromHeaders(header, undefined).traceparent === header.trim() ? header.trim() : null;
        const span = tracing.start(`${request.method} ${request.routeOptions.url ?? 'unmatched'}`, 'server', incoming, {
            'http.request.method': request.method,
            'http.route': request.routeOptions.url ?? 'unmatched',
        });
        request.intakeSpan = span;
        if (span.traceparent !== undefined)
            request.headers.traceparent = span.traceparent;
        done();
    });
    scope.addHook('onResponse', (request, reply, done) => {
        request.intakeSpan?.end(reply.statusCode >= 500 ? `HTTP ${reply.statusCode}` : undefined);
        done();
    });
}
//# sourceMappingURL=intake-spans.js.map