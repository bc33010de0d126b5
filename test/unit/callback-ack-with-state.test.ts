import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { pino } from 'pino';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { Engine } from '../../src/engine/engine.js';
import type { DeliveryAttempt, Store } from '../../src/ports/store.js';
import { answersOnly } from '../support/inbound.js';
import { TestReceiver, eventually, integratorConfig, memoryStore, withStoreMethods } from '../support/delivery.js';
import { DEMO_INSTITUTION, acceptedTransfer, recordingWrites } from '../support/engine.js';

void describe("a callback's acknowledgement", () => {
  const stops: (() => Promise<void>)[] = [];
  after(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  void it('is recorded in the commit of the state it leads to (RESPONSE_DELIVERED), not in a write of its own', async () => {
    const bank = await TestReceiver.start();
    stops.push(() => bank.down());
    const integrator = await integratorConfig('bank-a', bank.url, DEMO_INSTITUTION);
    const memory = await memoryStore();
    stops.push(() => memory.close());
    const recording = recordingWrites(memory);
    // Every acknowledgement the dispatcher records itself.
    const recordedAlone: DeliveryAttempt[] = [];
    const store: Store = withStoreMethods(recording.store, {
      recordDelivery: (target) => (attempt) => {
        recordedAlone.push(attempt);
        return target.recordDelivery(attempt);
      },
      recordDeliveries: (target) => (attempts) => {
        recordedAlone.push(...attempts);
        return target.recordDeliveries(attempts);
      },
    });
    const sender = new HttpPartnerSender({ clock: systemClock, timeoutMs: 2_000, connectionsPerOriginMax: 8, responseBytesMax: 4_096 });
    stops.push(() => sender.close());
    const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: 0, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
    const connector = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport: simulator, clock: systemClock });
    // The engine and the dispatcher know each other, as main.ts wires them.
    const wired: { engine?: Engine } = {};
    const dispatcher = new Dispatcher({
      store,
      sender,
      integrators: new Map([[integrator.id, integrator]]),
      clock: systemClock,
      instanceId: 'instance-a',
      pollIntervalMs: 20,
      onCallbackOutcome: (record, outcome) => wired.engine?.callbackOutcome(record, outcome.delivered),
      recordCallbackAck: async (record, attempt) => {
        assert.ok(wired.engine);
        await wired.engine.callbackAcknowledged(record, attempt);
      },
    });
    const engine = new Engine({
      store,
      clock: systemClock,
      ids: systemIds,
      connectors: new Map([['ZA_RPP', connector]]),
      integrators: new Map([[integrator.id, integrator]]),
      schemes: {},
      instanceId: 'instance-a',
      log: pino({ level: 'silent' }),
      delivery: dispatcher,
      options: { pollIntervalMs: 10 },
    });
    wired.engine = engine;
    await connector.start(answersOnly(engine));
    stops.push(() => connector.stop());
    const { transactionId } = await acceptedTransfer(memory);
    dispatcher.start();
    engine.start();
    stops.push(() => dispatcher.stop());
    stops.push(() => engine.stop());

    await eventually(async () => (await memory.getTransaction(transactionId))?.state === CT.RESPONSE_DELIVERED, 'the callback is acknowledged', 10_000);
    const callback = (await memory.outbox(transactionId)).find((row) => row.channel === 'callback');
    assert.ok(callback);
    assert.equal(callback.status, 'DELIVERED');
    const delivered = recording.changes.filter((change) => change.transactionId === transactionId && change.toState === CT.RESPONSE_DELIVERED);
    assert.equal(delivered.length, 1);
    assert.deepEqual(
      (delivered[0]?.deliveries ?? []).map((attempt) => [attempt.outboxId, attempt.delivered]),
      [[callback.id, true]],
      'the acknowledgement is in the change that enters RESPONSE_DELIVERED',
    );
    assert.deepEqual(
      recordedAlone.filter((attempt) => attempt.outboxId === callback.id),
      [],
      'and in no write of its own',
    );
  });
});
