import { schemeRulesOf } from '../../src/connectors/registry.js';
import { answersOnly } from '../support/inbound.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { acceptCreditTransfer } from '../../src/app/accept-credit-transfer.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { Engine } from '../../src/engine/engine.js';
import { newTraceparent } from '../../src/lib/trace.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { CALLBACK_PATH, EVENTS_PATH, TestReceiver, eventually, integratorConfig, memoryStore, withStoreMethods } from '../support/delivery.js';

/**
 * The intake, the engine and the dispatcher wired as main.ts wires them, with the real SQLite
 * store, an in-process scheme simulator and a real integrator endpoint: the work each of them
 * does at once is written leased to the next one and handed over, so no claim ever finds it.
 */
void describe('work done at once is written leased and handed over', () => {
  void it('takes a transfer from intake to its callback and all its events without a claim finding any of them', async () => {
    const store = await memoryStore();
    const bank = await TestReceiver.start();
    const integrator = await integratorConfig('bank-a', bank.url, { institution: { bicfi: 'DEMOZAJJ', memberId: '210001' } });
    const claimed: string[] = [];
    // Claims still run (at start, and on the pollers' timers): what they find is what was not handed over.
    const counting = withStoreMethods(store, {
      claimDue: (target) => async (options) => {
        const found = await target.claimDue(options);
        claimed.push(...found.map((record) => `transaction ${record.id}`));
        return found;
      },
      claimOutbox: (target) => async (options) => {
        const found = await target.claimOutbox(options);
        claimed.push(...found.map((record) => `${record.channel} ${record.id}`));
        return found;
      },
    });
    const sender = new HttpPartnerSender({ clock: systemClock, timeoutMs: 2_000, connectionsPerOriginMax: 8, responseBytesMax: 4_096 });
    const integrators = new Map([[integrator.id, integrator]]);
    const silent = pino({ level: 'silent' });
    const dispatcher = new Dispatcher({ store: counting, sender, integrators, clock: systemClock, instanceId: 'instance-a', log: silent, pollIntervalMs: 60_000 });
    const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: 0, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
    const connector = createIsoConnector(ZA_RPP, { scheme: 'ZA_RPP', transport: simulator, clock: systemClock });
    const engine = new Engine({
      store: counting,
      clock: systemClock,
      ids: systemIds,
      connectors: new Map([['ZA_RPP', connector]]),
      integrators,
      schemes: {},
      instanceId: 'instance-a',
      log: silent,
      delivery: dispatcher,
      options: { pollIntervalMs: 60_000 },
    });
    await connector.start(answersOnly(engine));
    engine.start();
    dispatcher.start();
    try {
      const body = creditTransfer('ZA_RPP');
      const valid = validateCreditTransfer(JSON.parse(JSON.stringify(body)));
      assert.ok(valid.ok);
      await acceptCreditTransfer(
        { store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf, processing: engine, delivery: dispatcher },
        { integrator, transfer: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null } },
      );
      await eventually(() => bank.to(CALLBACK_PATH).length === 1, 'the outcome callback arrives');
      // Up to the callback's delivery: its acknowledgement adds one more state, and event, after it.
      await eventually(() => bank.to(EVENTS_PATH).length >= 7, 'the events up to the callback arrive');
      assert.deepEqual(claimed, [], 'no claim found the transfer or any of its messages');
    } finally {
      await engine.stop();
      await dispatcher.stop();
      await connector.stop();
      await sender.close();
      await bank.down();
      await store.close();
    }
  });
});
