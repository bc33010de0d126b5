import { Type } from '@sinclair/typebox';
const health = { content: { 'application/json': { schema: Type.Ref('HealthStatus') } } };
const probe = { tags: ['operations'], security: [] };
const LIVE_SCHEMA = {
    ...probe,
    operationId: 'healthLive',
    summary: 'Liveness probe',
    description: 'Answers 200 while the process runs; restart it when this fails.',
    response: { 200: { description: 'Alive', ...health } },
};
const READY_SCHEMA = {
    ...probe,
    operationId: 'healthReady',
    summary: 'Readiness probe',
    description: 'Answers 200 when the instance takes traffic: started, not shutting down, and its store answers.',
    response: {
        200: { description: 'Ready', ...health },
        503: {
            description: 'Not accepting traffic (starting or shutting down) or the store is unreachable',
            headers: { 'Retry-After': { type: 'string', description: 'Seconds before asking again' } },
            ...health,
        },
    },
};
/** Liveness and readiness probes (no integrator auth, no allowlist: they are for the platform). */
export function operationsRoutes(app, deps) {
    app.get('/health/live', { schema: LIVE_SCHEMA }, () => ({ status: 'ok' }));
    app.get('/health/ready', { schema: READY_SCHEMA }, async (request, reply) => {
        if (!deps.readiness.accepting()) {
            return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', reason: 'not accepting traffic' });
        }
        try {
            await deps.store.ping();
        }
        catch (error) {
            request.log.warn({ err: error }, 'readiness: store unreachable');
            return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', reason: 'store unreachable' });
        }
        return { status: 'ok' };
    });
}
//# sourceMappingURL=operations.js.map