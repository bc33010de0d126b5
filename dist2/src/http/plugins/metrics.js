import fp from 'fastify-plugin';
/** Times every request by route pattern (unknown paths share one label) and serves GET /metrics. */
export const metricsPlugin = fp((app, options) => {
    const { metrics } = options;
    app.addHook('onResponse', (request, reply, done) => {
        metrics.httpRequestSeconds.observe({ method: request.method, route: request.routeOptions.url ?? 'unmatched', status: String(reply.statusCode) }, reply.elapsedTime / 1000);
        done();
    });
    const metricsSchema = {
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        description: 'Request timings by route, states entered, deliveries and process metrics, in the Prometheus text format.',
        tags: ['operations'],
        security: [],
        response: { 200: { description: 'The metrics', content: { 'text/plain': { schema: { type: 'string' } } } } },
    };
    app.get('/metrics', { schema: metricsSchema }, async (_request, reply) => {
        const body = await metrics.registry.metrics();
        return reply.type(metrics.registry.contentType).send(body);
    });
}, { name: 'regpay-metrics' });
//# sourceMappingURL=metrics.js.map