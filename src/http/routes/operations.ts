import type { FastifyInstance } from 'fastify';
import type { Store } from '../../ports/store.js';

export interface Readiness {
  /** False while starting and once shutdown began: load balancers should stop sending. */
  accepting(): boolean;
}

/** Liveness and readiness probes (no integrator auth, no allowlist: they are for the platform). */
export function operationsRoutes(app: FastifyInstance, deps: { store: Store; readiness: Readiness }): void {
  app.get('/health/live', { schema: { hide: true } }, () => ({ status: 'ok' }));

  app.get('/health/ready', { schema: { hide: true } }, async (request, reply) => {
    if (!deps.readiness.accepting()) {
      return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', reason: 'not accepting traffic' });
    }
    try {
      await deps.store.ping();
    } catch (error) {
      request.log.warn({ err: error }, 'readiness: store unreachable');
      return reply.code(503).header('retry-after', '5').send({ status: 'unavailable', reason: 'store unreachable' });
    }
    return { status: 'ok' };
  });
}
