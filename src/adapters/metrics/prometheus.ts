import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { PartnerSender } from '../../ports/partner.js';

/**
 * The service's Prometheus metrics (served at /metrics). Names follow Prometheus conventions,
 * units last; labels are bounded sets (route patterns, status codes, states, channels), never ids.
 */
export interface Metrics {
  readonly registry: Registry;
  readonly httpRequestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly statesEntered: Counter<'state'>;
  readonly transitionsRefused: Counter<'kind'>;
  readonly deliveries: Counter<'channel' | 'result'>;
  readonly storeBatchRetries: Counter<'reason'>;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'regpay_' });
  return {
    registry,
    httpRequestSeconds: new Histogram({
      name: 'regpay_http_request_duration_seconds',
      help: 'Time from request to response, by route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
      registers: [registry],
    }),
    statesEntered: new Counter({
      name: 'regpay_transaction_states_entered_total',
      help: 'Transaction states entered (one event each)',
      labelNames: ['state'],
      registers: [registry],
    }),
    transitionsRefused: new Counter({
      name: 'regpay_transitions_refused_total',
      help: 'Inputs a state machine refused as illegal transitions (e.g. a PAID report after EXPIRED): logged, never reported',
      labelNames: ['kind'],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: 'regpay_delivery_attempts_total',
      help: 'Attempts to deliver callbacks and events to integrators, by outcome',
      labelNames: ['channel', 'result'],
      registers: [registry],
    }),
    storeBatchRetries: new Counter({
      name: 'regpay_store_batch_retries_total',
      help: 'Store write batches PostgreSQL aborted (deadlock, serialization failure) and that were run again',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}

/** Wraps a sender so every attempt is counted by channel and result (delivered, rejected by status, or failed without one). */
export function countingSender(sender: PartnerSender, metrics: Metrics): PartnerSender {
  return {
    async send(message, integrator, options) {
      const result = await sender.send(message, integrator, options);
      const outcome = result.delivered ? 'delivered' : result.httpStatus === null ? 'no_answer' : `http_${Math.floor(result.httpStatus / 100)}xx`;
      metrics.deliveries.inc({ channel: message.channel, result: outcome });
      return result;
    },
    close: () => sender.close(),
  };
}
