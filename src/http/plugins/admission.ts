import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Admission, AdmissionWork } from '../../app/admission.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The admission a route's requests need (plugins/admission.ts): the work it takes on, or how to tell from the request. */
    admission?: AdmissionWork | ((request: FastifyRequest) => AdmissionWork);
  }
}

/**
 * Admission control of the integrator API's intake routes (app/admission.ts), as the first thing
 * after authentication, in `onRequest`: before the body is read, parsed and validated, so a
 * refusal (503 OVERLOADED, Retry-After) costs a header read and a lookup held is counted from its
 * arrival, not after its intake's checks, while a flood of others is being parsed. A route takes
 * part by naming its work in its `config.admission`. Authentication comes first because whether a
 * lookup is held depends on the integrator's configuration; with a remembered credential it
 * costs microseconds. The rate limit comes after: a refused request uses no token.
 * What is admitted stays admitted (a held lookup counted) until its response is sent or its
 * client goes away.
 */
export const admissionPlugin = fp(
  (app: FastifyInstance, options: { admission: Admission }) => {
    const { admission } = options;
    const releases = new WeakMap<FastifyRequest, () => void>();
    const release = (request: FastifyRequest, _reply: unknown, done: () => void): void => {
      releases.get(request)?.();
      releases.delete(request);
      done();
    };
    app.addHook('onRequest', (request, _reply, done: (error?: Error) => void) => {
      const work = request.routeOptions.config.admission;
      if (work === undefined) {
        done();
        return;
      }
      try {
        releases.set(request, admission.admit(typeof work === 'function' ? work(request) : work));
      } catch (error) {
        done(error as Error);
        return;
      }
      done();
    });
    app.addHook('onResponse', release);
    app.addHook('onRequestAbort', (request, done) => release(request, undefined, done));
  },
  { name: 'regpay-admission', fastify: '5.x', dependencies: ['regpay-auth'] },
);
