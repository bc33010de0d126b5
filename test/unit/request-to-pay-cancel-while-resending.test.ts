import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { cancelRequestToPay, requestToPay as initiateRequestToPay } from '../../src/app/request-to-pay.js';
import { schemeRulesOf } from '../../src/connectors/registry.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import type { InboundHandler, SchemeMessage, SchemeTransport } from '../../src/connectors/transport.js';
import { RTP } from '../../src/domain/machines/request-to-pay.js';
import { validateRequestToPay, validateRequestToPayCancellation } from '../../src/domain/messages/request-to-pay.js';
import type { Engine } from '../../src/engine/engine.js';
import { newTraceparent } from '../../src/lib/trace.js';
import type { SchemeConnector, SubmitOutcome } from '../../src/ports/scheme.js';
import type { Store } from '../../src/ports/store.js';
import { requestToPay, requestToPayCancellation } from '../fixtures/request-to-pay.js';
import { eventually, integratorConfig, memoryStore } from '../support/delivery.js';
import { DEMO_INSTITUTION, zaRppEngine } from '../support/engine.js';

/** Long enough that the simulated operator's PDNG, PRES, ACSC (one latency apart) cannot cross the service's camt.056 by accident. */
const LATENCY_MS = 300;

/**
 * The built-in simulated operator behind a transport whose pain.013 submissions fail, retryably,
 * while `failing` says so: `refused` keeps the pain.013 from the operator (it never took it),
 * `timed-out` hands it over and reports a failure anyway (the operator took it, the service cannot
 * know). Every message sent and every one the operator sends back is kept, in order.
 */
class FlakyRequestTransport implements SchemeTransport {
  readonly log: { readonly what: string; readonly outcome?: SubmitOutcome['kind'] }[] = [];
  failing: 'refused' | 'timed-out' | 'no' = 'no';
  readonly #operator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: LATENCY_MS, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });

  async send(message: SchemeMessage): Promise<SubmitOutcome> {
    const pain013 = message.messageName.startsWith('pain.013.');
    if (pain013 && this.failing === 'refused') return this.#kept(message, { kind: 'failed', retryable: true, error: 'connection refused' });
    const outcome = await this.#operator.send(message);
    if (pain013 && this.failing === 'timed-out') return this.#kept(message, { kind: 'failed', retryable: true, error: 'timed out waiting for the operator' });
    return this.#kept(message, outcome);
  }

  start(handler: InboundHandler): Promise<void> {
    return this.#operator.start((message) => {
      this.log.push({ what: message.document.includes('<TxSts>ACSC</TxSts>') ? 'received ACSC' : 'received' });
      return handler(message);
    });
  }

  stop(): Promise<void> {
    return this.#operator.stop();
  }

  #kept(message: SchemeMessage, outcome: SubmitOutcome): SubmitOutcome {
    this.log.push({ what: message.messageName.slice(0, 'pain.013'.length), outcome: outcome.kind });
    return outcome;
  }

  /** Index of the first entry matching, or -1. */
  first(what: string, outcome?: SubmitOutcome['kind']): number {
    return this.log.findIndex((entry) => entry.what === what && (outcome === undefined || entry.outcome === outcome));
  }
}

void describe('an integrator cancelling a request-to-pay whose pain.013 is being resent (engine, store and simulated operator)', () => {
  let store: Store | undefined;
  let running: { engine: Engine; connector: SchemeConnector } | undefined;

  afterEach(async () => {
    await running?.engine.stop();
    await running?.connector.stop();
    await store?.close();
    running = undefined;
    store = undefined;
  });

  /** Initiates a request-to-pay (the simulator pays any debtor it does not know), waits until its first send failed, cancels it, and follows it to its end. */
  async function cancelWhileFailing(mode: 'refused' | 'timed-out') {
    const transport = new FlakyRequestTransport();
    transport.failing = mode;
    store = await memoryStore();
    running = await zaRppEngine(store, transport, 'instance-a', { resubmitDelayMs: 50, resubmitDelayMaxMs: 100 }, pino({ level: 'silent' }));
    const { engine } = running;
    const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
    const deps = { store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf, processing: engine, expiryHorizonMs: 24 * 60 * 60 * 1000 };
    engine.start();

    const body = requestToPay('MOBILE');
    const valid = validateRequestToPay(structuredClone(body));
    assert.ok(valid.ok);
    await initiateRequestToPay(deps, { integrator, request: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null } });
    const id = (await store.findTransaction('bank-a', valid.value.uetr, 'REQUEST_TO_PAY'))?.id ?? '';
    const s = store;
    await eventually(async () => (await s.getTransaction(id))?.state === RTP.REQUEST_DELIVERY_FAILURE, 'the first pain.013 failed');

    const cancellation = requestToPayCancellation(body);
    const validCancellation = validateRequestToPayCancellation(structuredClone(cancellation));
    assert.ok(validCancellation.ok);
    await cancelRequestToPay(deps, { integrator, request: validCancellation.value, rawBody: JSON.stringify(cancellation), trace: { traceparent: newTraceparent(), tracestate: null } });
    // The pain.013 is resent, still failing (within one latency: before the operator could report on a pain.013 it took).
    await eventually(() => transport.log.filter((entry) => entry.what === 'pain.013').length >= 3, 'the pain.013 resent');
    const camt056WhileFailing = transport.first('camt.056');
    transport.failing = 'no';
    await eventually(async () => ['REQUEST_TO_PAY_STATUS_CANCELLED', 'REQUEST_TO_PAY_STATUS_PAID', 'REQUEST_TO_PAY_STATUS_REJECTED'].includes((await s.getTransaction(id))?.state ?? ''), 'the request ended', 10_000);
    // Anything the operator would still say about it.
    await new Promise((resolve) => setTimeout(resolve, 4 * LATENCY_MS));

    const callbacks = (await s.outbox(id)).filter((row) => row.channel === 'callback').map((row) => JSON.parse(row.body) as Record<string, any>);
    return {
      transport,
      camt056WhileFailing,
      state: (await s.getTransaction(id))?.state,
      statuses: callbacks.filter((callback) => callback.schema === 'RequestToPayResponse').map((callback) => callback.status.status as string),
      answers: callbacks.filter((callback) => callback.schema === 'RequestToPayCancellationResponse').map((callback) => [callback.cancellationStatus.status, callback.cancellationStatus.reasonInfo.map((info: any) => info.reason.value), callback.requestToPayStatus.status]),
    };
  }

  void it('sends no camt.056 while the pain.013 is refused, then cancels it once the operator takes the pain.013: never refused NOOR, never PAID', async () => {
    const run = await cancelWhileFailing('refused');
    assert.deepEqual(run.answers, [['ACCEPTED', [], 'CANCELLED']], 'the cancellation accepted, not refused NOOR');
    assert.deepEqual(run.statuses, ['PENDING', 'CANCELLED'], 'never PAID');
    assert.equal(run.state, RTP.CANCELLED);
    assert.equal(run.transport.first('received ACSC'), -1, 'the operator never had it paid');
    assert.equal(run.camt056WhileFailing, -1, 'no camt.056 while the scheme has not taken the pain.013');
    assert.ok(run.transport.first('camt.056') > run.transport.first('pain.013', 'delivered'), 'the camt.056 follows the pain.013 taken');
  });

  void it('still sends the camt.056 of a request whose failed pain.013 the operator had taken, once a resend is taken, and the operator withdraws it', async () => {
    const run = await cancelWhileFailing('timed-out');
    // The service learns the operator holds the request from a resend taken or from the operator's first report.
    const held = Math.min(...[run.transport.first('pain.013', 'delivered'), run.transport.first('received')].filter((index) => index >= 0));
    assert.ok(run.transport.first('camt.056') > held, 'the camt.056 is sent, after the service knows the operator holds the request');
    assert.equal(run.transport.first('received ACSC'), -1, 'withdrawn at the scheme before it was paid');
    assert.equal(run.state, RTP.CANCELLED);
    assert.deepEqual(run.statuses.at(-1), 'CANCELLED');
    assert.deepEqual(run.answers, [['ACCEPTED', [], 'CANCELLED']]);
  });
});
