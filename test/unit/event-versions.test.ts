import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { schemeRulesOf } from '../../src/connectors/registry.js';
import { acceptCreditTransfer } from '../../src/app/accept-credit-transfer.js';
import type { IntegratorConfig } from '../../src/config/types.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { Engine } from '../../src/engine/engine.js';
import { newTraceparent } from '../../src/lib/trace.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { DEMO_INSTITUTION } from '../support/engine.js';
import { eventually, integratorConfig, memoryStore } from '../support/delivery.js';
import { answersOnly } from '../support/inbound.js';

/**
 * Every event carries, as its `payload`, the message that caused the state it announces: the
 * cause of that state's history version (the original request for the first). The engine names
 * the version (one per state entered, also when one decision enters several); the store splices
 * its cause in when it reads the event. Shown here directly, on the real engine and store, for
 * credit transfers that the scheme answers in each way that enters several states at once.
 */
interface EventBody {
  readonly type: string;
  readonly stageVersion: number;
  readonly payload: unknown;
}

interface EventBody {
  readonly type: string;
  readonly stageVersion: number;
  readonly tranInfo: { readonly tranUetr: string };
  readonly payload: unknown;
}

void describe("an event's payload is the cause of the state it announces", () => {
  let store: Store;
  let engine: Engine;
  let connector: SchemeConnector;
  let integrator: IntegratorConfig;

  before(async () => {
    store = await memoryStore();
    integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', { ...DEMO_INSTITUTION, events: true });
    const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: 0, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
    connector = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport: simulator, clock: systemClock });
    engine = new Engine({
      store,
      clock: systemClock,
      ids: systemIds,
      connectors: new Map([['ZA_RPP', connector]]),
      integrators: new Map([[integrator.id, integrator]]),
      schemes: {},
      instanceId: 'instance-a',
      log: pino({ level: 'silent' }),
      options: { pollIntervalMs: 10 },
    });
    await connector.start(answersOnly(engine));
    engine.start();
  });
  after(async () => {
    await engine.stop();
    await connector.stop();
    await store.close();
  });

  /** A ZA_RPP transfer to `account` (the simulator's test values choose its answer), once it waits to tell the integrator of its outcome. */
  async function answered(account: string | undefined): Promise<{ id: string; rawBody: string }> {
    const body = creditTransfer('ZA_RPP');
    if (account !== undefined) body.creditorAccount = { identification: { schema: 'GENERIC', value: account }, name: 'Test Account' };
    const rawBody = JSON.stringify(body);
    const valid = validateCreditTransfer(JSON.parse(rawBody));
    assert.ok(valid.ok);
    await acceptCreditTransfer({ store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf }, { integrator, transfer: valid.value, rawBody, trace: { traceparent: newTraceparent(), tracestate: null } });
    const uetr = body.transactionIdentifiers.uetr;
    await eventually(async () => (await store.findTransaction('bank-a', uetr))?.state === CT.RESPONSE_PENDING, 'the outcome is ready for the integrator');
    const id = (await store.findTransaction('bank-a', uetr))?.id;
    assert.ok(id);
    return { id, rawBody };
  }

  /** The transaction's events, each checked against the history version it announces. */
  async function eventsOf(id: string, rawBody: string): Promise<EventBody[]> {
    const history = await store.history(id);
    const events = (await store.outbox(id)).filter((row) => row.channel === 'event').map((row) => JSON.parse(row.body) as EventBody);
    assert.deepEqual(
      events.map((event) => event.type),
      history.map((row) => row.toState),
      'one event per state entered, in order',
    );
    history.forEach((row, index) => {
      const event = events[index];
      assert.ok(event);
      // The first state's cause is the request itself.
      assert.deepEqual(event.payload, JSON.parse(row.cause ?? rawBody), `the payload of version ${row.version} (${row.toState}) is its own cause`);
      assert.equal(event.stageVersion, 1);
    });
    return events;
  }

  void it('for an approved transfer: the request is the payload of the states it led to, the scheme answer of the states it led to, the outcome callback of the state that queues it', async () => {
    const { id, rawBody } = await answered(undefined);
    const events = await eventsOf(id, rawBody);
    const types = events.map((event) => event.type);
    assert.deepEqual(types.slice(0, 3), [CT.RECEIVED, CT.ACCEPTED, CT.REQUEST_PENDING]);
    assert.deepEqual(types.slice(-3), [CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING]);
    const request = JSON.parse(rawBody) as unknown;
    const payloadOf = (type: string): unknown => events.find((event) => event.type === type)?.payload;
    assert.deepEqual(payloadOf(CT.ACCEPTED), request, 'entered in the same decision as the request: its payload');
    const answer = payloadOf(CT.RESPONSE_RECEIVED);
    assert.match(JSON.stringify(answer), /pacs\.002/, 'the scheme answer');
    assert.deepEqual(payloadOf(CT.RESPONSE_ACCEPTED), answer, 'the second state the answer entered carries it too');
    const callback = payloadOf(CT.RESPONSE_PENDING) as { schema?: string; status?: { outcome?: string } } | undefined;
    assert.equal(callback?.schema, 'PaymentStatusReport', 'the third carries the callback it queues');
    assert.equal(callback?.status?.outcome, 'APPROVED');
    assert.deepEqual(payloadOf(CT.REQUEST_DELIVERED), request, 'the state before the answer does not carry it');
  });

  void it('for a rejected transfer: the rejection is the payload of the states it led to', async () => {
    const { id, rawBody } = await answered(testValue('reject', 'AC01').value);
    const events = await eventsOf(id, rawBody);
    const rejection = events.filter((event) => event.type === CT.RESPONSE_RECEIVED || event.type === CT.RESPONSE_ACCEPTED);
    assert.equal(rejection.length, 2);
    for (const event of rejection) assert.match(JSON.stringify(event.payload), /AC01/, event.type);
  });
});
