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
 * The place an admitted request holds in the admission control's counts, until the request has
 * ended: its response is closed (sent, or its client went away) and its handler is not running.
 * A handler still at work when its client goes (an intake's write, a held lookup's wait) keeps
 * the place until it has sent its reply, so what is counted is what the instance still does.
 */
class Place {
  readonly #release: () => void;
  #handling = false;
  #closed = false;

  constructor(release: () => void) {
    this.#release = release;
  }

  handlerStarted(): void {
    if (!this.#closed) this.#handling = true;
  }

  handlerEnded(): void {
    this.#handling = false;
    if (this.#closed) this.#release();
  }

  responseClosed(): void {
    this.#closed = true;
    if (!this.#handling) this.#release();
  }
}

/**
 * Admission control of the integrator API's intake routes (app/admission.ts), as the first thing
 * after authentication, in `onRequest`: before the body is read, parsed and validated, so a
 * refusal (503 OVERLOADED, Retry-After) costs a header read, and what is admitted is counted from
 * its arrival, not after its intake's checks: a lookup as held, an intake as under way (a burst
 * of transfers arriving together is refused beyond the bound before any of them has queued its
 * write). A route takes part by naming its work in its `config.admission`. Authentication comes
 * first because whether a lookup is held depends on the integrator's configuration; with a
 * remembered credential it costs microseconds. The rate limit comes after: a refused request
 * uses no token. What is admitted stays counted until the request ends, whatever the end: its
 * response sent (an answer or an error), or its client gone and its handler done (Place).
 */
export const admissionPlugin = fp(
  (app: FastifyInstance, options: { admission: Admission }) => {
    const { admission } = options;
    const places = new WeakMap<FastifyRequest, Place>();
    app.addHook('onRequest', (request, reply, done: (error?: Error) => void) => {
      const work = request.routeOptions.config.admission;
      if (work === undefined) {
        done();
        return;
      }
      let place: Place;
      try {
        place = new Place(admission.admit(typeof work === 'function' ? work(request) : work));
      } catch (error) {
        done(error as Error);
        return;
      }
      places.set(request, place);
      // A response's `close` comes once it is sent, or once its connection closed before that.
      reply.raw.once('close', () => place.responseClosed());
      done();
    });
    app.addHook('preHandler', (request, _reply, done) => {
      places.get(request)?.handlerStarted();
      done();
    });
    // Every handler ends by sending its reply (an error too), even to a client that went away.
    app.addHook('onSend', (request, _reply, payload, done) => {
      places.get(request)?.handlerEnded();
      done(null, payload);
    });
  },
  { name: 'regpay-admission', fastify: '5.x', dependencies: ['regpay-auth'] },
);
