import { schemeRulesOf } from '../../src/connectors/registry.js';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { acceptCreditTransfer } from '../../src/app/accept-credit-transfer.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { Engine } from '../../src/engine/engine.js';
import { newTraceparent } from '../../src/lib/trace.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { DEMO_INSTITUTION, zaRppEngine } from '../support/engine.js';
import { eventually, integratorConfig, memoryStore, withStoreMethods } from '../support/delivery.js';

/** The institution of the fixtures' debtor agent. */

/** An engine on `store` as instance `instanceId`, its ZA_RPP scheme an in-process simulator answering at once. */
function engineOn(store: Store, instanceId: string, log = pino({ level: 'silent' })): Promise<{ engine: Engine; connector: SchemeConnector }> {
  const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: 0, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
  return zaRppEngine(store, simulator, instanceId, {}, log);
}

type Instance = Awaited<ReturnType<typeof engineOn>>;

/** Two engines (instances a and b) on one memory store, everything stopped and closed afterwards. */
async function withTwoInstances(test: (store: Store, first: Instance, second: Instance) => Promise<void>): Promise<void> {
  const store = await memoryStore();
  const instances = [await engineOn(store, 'instance-a'), await engineOn(store, 'instance-b')] as const;
  try {
    await test(store, ...instances);
  } finally {
    for (const { engine, connector } of instances) {
      await engine.stop();
      await connector.stop();
    }
    await store.close();
  }
}

/** A new credit transfer accepted into `store` as the intake route would, handed to `engine` when given; returns its uetr. */
async function accepted(store: Store, change: (body: ReturnType<typeof creditTransfer>) => void = () => undefined, engine?: Engine): Promise<string> {
  const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
  const body = creditTransfer('ZA_RPP');
  change(body);
  const valid = validateCreditTransfer(JSON.parse(JSON.stringify(body)));
  assert.ok(valid.ok);
  await acceptCreditTransfer(
    { store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf, ...(engine === undefined ? {} : { processing: engine }) },
    { integrator, transfer: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null } },
  );
  return body.transactionIdentifiers.uetr;
}

/** Waits until the transfer is in `state`; returns its transaction id. */
async function reaches(store: Store, uetr: string, state: string): Promise<string> {
  let transactionId = '';
  await eventually(async () => {
    const transaction = await store.findTransaction('bank-a', uetr);
    transactionId = transaction?.id ?? '';
    return transaction?.state === state;
  }, `the transfer reaches ${state}`);
  return transactionId;
}

void describe('engine: rows it remembers from its own commits', () => {
  void it('decides again on the stored row when another instance moved the transaction on meanwhile', async () => {
    await withTwoInstances(async (store, first, second) => {
      const uetr = await accepted(store);

      // Instance a carries the transfer until its outcome callback waits for delivery, remembering the row it wrote.
      first.engine.start();
      const transactionId = await reaches(store, uetr, CT.RESPONSE_PENDING);
      await first.engine.stop();
      const callback = (await store.outbox(transactionId)).find((row) => row.channel === 'callback');
      assert.ok(callback);

      // Instance b learns first that the callback was delivered, and moves the transfer on.
      await second.engine.callbackOutcome(callback, true);
      assert.equal((await store.getTransaction(transactionId))?.state, CT.RESPONSE_DELIVERED);

      // Instance a hears the same, deciding on the row it remembers (now stale): nothing is entered twice.
      await first.engine.callbackOutcome(callback, true);
      const history = await store.history(transactionId);
      assert.equal(history.filter((row) => row.toState === CT.RESPONSE_DELIVERED).length, 1, 'RESPONSE_DELIVERED entered once');
      assert.deepEqual(
        history.map((row) => row.version),
        history.map((_, index) => index + 1),
        'one version per state entered, none skipped or repeated',
      );
      const events = (await store.outbox(transactionId)).filter((row) => row.channel === 'event').map((row) => (JSON.parse(row.body) as { type: string }).type);
      assert.equal(events.filter((type) => type === CT.RESPONSE_DELIVERED).length, 1, 'one RESPONSE_DELIVERED event');
    });
  });

  void it('takes the outcome callback another instance queued, though the row it remembers predates that callback', async () => {
    await withTwoInstances(async (store, first, second) => {
      // The simulated scheme never answers this account: instance a submits and remembers the row waiting for the answer.
      const uetr = await accepted(store, (body) => {
        body.creditorAccount = { identification: { schema: 'GENERIC', value: '9990000202' }, name: 'Silent Scheme' };
      });
      first.engine.start();
      const transactionId = await reaches(store, uetr, CT.REQUEST_DELIVERED);
      await first.engine.stop();

      // Instance b gets the scheme's approval and queues the outcome callback.
      await second.engine.receive({ scheme: 'ZA_RPP', uetr, idempotencyKey: transactionId, kind: 'status', status: 'ACCEPTED', message: { schema: 'pacs.002.001.10' }, receivedAt: Date.now() });
      await reaches(store, uetr, CT.RESPONSE_PENDING);
      const callback = (await store.outbox(transactionId)).find((row) => row.channel === 'callback');
      assert.ok(callback);

      // Instance a's dispatcher delivered it: its engine must judge the notice on the stored row, which names this callback.
      await first.engine.callbackOutcome(callback, true);
      assert.equal((await store.getTransaction(transactionId))?.state, CT.RESPONSE_DELIVERED);
    });
  });

  void it('gives a decision refused as stale up after five retries, leaving it to the timer, without failing', async () => {
    const store = await memoryStore();
    let changesTried = 0;
    const warnings: { msg: string; changesTried: number }[] = [];
    // Another instance always got there first: every change is refused as stale.
    const alwaysStale = withStoreMethods(store, {
      applyChange: () => () => {
        changesTried += 1;
        return Promise.resolve({ ok: false, reason: 'stale' });
      },
    });
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push({ msg: (JSON.parse(line) as { msg: string }).msg, changesTried }) });
    const { engine, connector } = await engineOn(alwaysStale, 'instance-a', log);
    try {
      const uetr = await accepted(store);
      engine.start();
      await eventually(() => Promise.resolve(warnings.length > 0), 'the engine gives the decision up');
      assert.deepEqual(warnings[0], { msg: 'engine: decision stayed stale; the timer retries it', changesTried: 6 }, 'one try and five retries, then a warning');
      assert.equal((await store.findTransaction('bank-a', uetr))?.state, CT.RECEIVED, 'nothing was changed');
    } finally {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });

  void it('takes up a transfer this process accepted without reading or parsing its message again', async () => {
    const store = await memoryStore();
    const messagesRead: string[] = [];
    // The store as the engine sees it, counting the reads of stored messages.
    const counting = withStoreMethods(store, {
      findMessage: (target) => (integratorId, messageId) => {
        messagesRead.push(messageId);
        return target.findMessage(integratorId, messageId);
      },
    });
    const { engine, connector } = await engineOn(counting, 'instance-a');
    try {
      const handedOver = await accepted(store, undefined, engine);
      const readBack = await accepted(store);
      engine.start();
      await reaches(store, handedOver, CT.RESPONSE_PENDING);
      await reaches(store, readBack, CT.RESPONSE_PENDING);
      const messageIdOf = async (uetr: string) => (await store.findTransaction('bank-a', uetr))?.messageId;
      // Only the transfer accepted without the hand-over (as by another instance) had its message read from the store.
      assert.deepEqual(messagesRead, [await messageIdOf(readBack)]);
    } finally {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });

  void it('takes up a transfer accepted while it runs without claiming it, and leaves one accepted while it is stopped to its claims', async () => {
    const store = await memoryStore();
    const claimedIds: string[] = [];
    const counting = withStoreMethods(store, {
      claimDue: (target) => async (options) => {
        const claimed = await target.claimDue(options);
        claimedIds.push(...claimed.map((record) => record.id));
        return claimed;
      },
    });
    const { engine, connector } = await engineOn(counting, 'instance-a');
    try {
      const whileStopped = await accepted(store, undefined, engine);
      engine.start();
      const whileRunning = await accepted(store, undefined, engine);
      const [stoppedId, runningId] = [await reaches(store, whileStopped, CT.RESPONSE_PENDING), await reaches(store, whileRunning, CT.RESPONSE_PENDING)];
      assert.ok(claimedIds.includes(stoppedId), 'the one accepted while stopped was claimed');
      assert.ok(!claimedIds.includes(runningId), 'the one accepted while running was never claimed');
    } finally {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });

  void it('ignores, with a warning, a scheme answer naming an unknown transaction or another transfer\'s UETR', async () => {
    const store = await memoryStore();
    const warnings: string[] = [];
    const log = pino({ level: 'warn' }, { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) });
    const { engine, connector } = await engineOn(store, 'instance-a', log);
    try {
      const uetr = await accepted(store);
      const transaction = await store.findTransaction('bank-a', uetr);
      assert.ok(transaction);
      const approval = { scheme: 'ZA_RPP', kind: 'status', status: 'ACCEPTED', message: { schema: 'pacs.002.001.10' }, receivedAt: Date.now() } as const;
      await engine.receive({ ...approval, uetr: '8a562c67-ca16-48ba-b074-65581be6f011', idempotencyKey: transaction.id });
      await engine.receive({ ...approval, uetr, idempotencyKey: 'no-such-transaction' });
      assert.deepEqual(warnings, ['scheme answer for an unknown transfer ignored', 'scheme answer for an unknown transfer ignored']);
      assert.equal((await store.getTransaction(transaction.id))?.version, 1, 'nothing was changed');
    } finally {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });
});
