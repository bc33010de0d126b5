import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { systemClock } from '../../src/adapters/system/system.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import type { Engine } from '../../src/engine/engine.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { StateChange, Store } from '../../src/ports/store.js';
import { acceptedTransfer, recordingWrites, zaRppEngine } from '../support/engine.js';
import { eventually, memoryStore } from '../support/delivery.js';

/** The store, every change the engine applied to it (in order), and an engine on it over a simulator answering after `latencyMs`. */
async function engineCountingChanges(latencyMs: number, holdMs: number): Promise<{ store: Store; changes: StateChange[]; engine: Engine; connector: SchemeConnector }> {
  const store = await memoryStore();
  const { store: counting, changes } = recordingWrites(store);
  const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
  const { engine, connector } = await zaRppEngine(counting, simulator, 'instance-a', { transportRecordHoldMs: holdMs });
  return { store, changes, engine, connector };
}

void describe("the transport's record of a message it took", () => {
  const running: { engine: Engine; connector: SchemeConnector; store: Store }[] = [];
  after(async () => {
    for (const { engine, connector, store } of running) {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });

  void it('is committed with the scheme answer that follows within the hold, its state still entered before the answer', async () => {
    const rig = await engineCountingChanges(0, 5_000);
    running.push(rig);
    const { transactionId } = await acceptedTransfer(rig.store);
    rig.engine.start();
    await eventually(async () => (await rig.store.getTransaction(transactionId))?.state === CT.RESPONSE_PENDING, 'the verdict is decided', 10_000);
    const history = await rig.store.history(transactionId);
    assert.deepEqual(
      history.map((row) => row.toState),
      [CT.RECEIVED, CT.ACCEPTED, CT.REQUEST_PENDING, CT.REQUEST_DELIVERED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING],
    );
    const mine = rig.changes.filter((change) => change.transactionId === transactionId);
    assert.equal(mine.length, 2, 'the first decision, then the transport record and the answer in one change');
    const second = mine[1];
    assert.ok(second);
    assert.deepEqual([...(second.via ?? []).map((step) => step.state), second.toState], [CT.REQUEST_DELIVERED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING]);
    assert.deepEqual(
      (second.schemeMessages ?? []).map((message) => [message.direction, message.messageName]),
      [
        ['sent', 'pacs.008.001.10'],
        ['received', 'pacs.002.001.12'],
      ],
      'the message sent and the answer are kept in the same commit',
    );
  });

  void it('is committed alone once the hold is over when nothing else comes for the transaction', async () => {
    const holdMs = 400;
    const rig = await engineCountingChanges(0, holdMs);
    running.push(rig);
    // The scheme never answers this account.
    const silent = await silentTransfer(rig.store);
    rig.engine.start();
    await eventually(async () => (await rig.store.getTransaction(silent))?.state === CT.REQUEST_DELIVERED, 'the transport record is committed', 10_000);
    const history = await rig.store.history(silent);
    const pending = history.find((row) => row.toState === CT.REQUEST_PENDING);
    const delivered = history.find((row) => row.toState === CT.REQUEST_DELIVERED);
    assert.ok(pending && delivered);
    assert.ok(delivered.at - pending.at >= holdMs, `recorded ${delivered.at - pending.at} ms after the submission was decided, not held ${holdMs} ms`);
    const mine = rig.changes.filter((change) => change.transactionId === silent);
    assert.equal(mine.length, 2);
    assert.deepEqual(
      (mine[1]?.schemeMessages ?? []).map((message) => message.direction),
      ['sent'],
    );
  });

  void it('is committed when the engine stops, not left to the timer to send again', async () => {
    const rig = await engineCountingChanges(0, 60_000);
    running.push(rig);
    const silent = await silentTransfer(rig.store);
    rig.engine.start();
    await eventually(() => rig.changes.some((change) => change.transactionId === silent && change.toState === CT.REQUEST_PENDING), 'the submission is decided', 10_000);
    // The transport's outcome arrives just after the decision's commit.
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await rig.store.getTransaction(silent))?.state, CT.REQUEST_PENDING, 'held, not yet recorded');
    await rig.engine.stop();
    assert.equal((await rig.store.getTransaction(silent))?.state, CT.REQUEST_DELIVERED);
    assert.deepEqual(
      (await rig.store.schemeMessages(silent)).map((message) => message.direction),
      ['sent'],
    );
  });
});

/** A transfer to the account the simulator never answers, accepted as another instance's intake would. */
async function silentTransfer(store: Store): Promise<string> {
  const { transactionId } = await acceptedTransfer(store, (body) => {
    body.creditorAccount = { identification: { schema: 'GENERIC', value: testValue('silent').value }, name: 'Silent Scheme' };
  });
  return transactionId;
}
