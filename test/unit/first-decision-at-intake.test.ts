import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { acceptCreditTransfer } from '../../src/app/accept-credit-transfer.js';
import { schemeRulesOf } from '../../src/connectors/registry.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import { validateCreditTransfer } from '../../src/domain/messages/validate.js';
import type { Engine } from '../../src/engine/engine.js';
import { newTraceparent } from '../../src/lib/trace.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { NewTransaction, StateChange, Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { eventually, integratorConfig, memoryStore } from '../support/delivery.js';
import { DEMO_INSTITUTION, recordingWrites, zaRppEngine } from '../support/engine.js';

/** A store that remembers every intake and change written through it, and a started engine on it over the simulator. */
async function rig(): Promise<{ store: Store; intakes: NewTransaction[]; changes: StateChange[]; engine: Engine; connector: SchemeConnector }> {
  const { store, intakes, changes } = recordingWrites(await memoryStore());
  const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: systemClock, latencyMs: 0, lateAnswerMs: 60_000, entriesMax: 100, deliveryAttemptsMax: 3 });
  const { engine, connector } = await zaRppEngine(store, simulator, 'instance-a', { transportRecordHoldMs: 5_000 });
  engine.start();
  return { store, intakes, changes, engine, connector };
}

/** Accept a ZA_RPP transfer of `bank-a` through the intake use case with `engine` as this instance's processing. */
async function accept(store: Store, engine: Engine, creditorAccount?: string): Promise<string> {
  const integrator = await integratorConfig('bank-a', 'http://127.0.0.1:9', DEMO_INSTITUTION);
  const body = creditTransfer('ZA_RPP');
  if (creditorAccount !== undefined) body.creditorAccount = { identification: { schema: 'GENERIC', value: creditorAccount }, name: 'Creditor' };
  const valid = validateCreditTransfer(JSON.parse(JSON.stringify(body)));
  assert.ok(valid.ok);
  await acceptCreditTransfer(
    { store, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf, processing: engine },
    { integrator, transfer: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null } },
  );
  const transaction = await store.findTransaction('bank-a', body.transactionIdentifiers.uetr);
  assert.ok(transaction);
  return transaction.id;
}

void describe("the engine's first decision on a new transaction", () => {
  const rigs: Awaited<ReturnType<typeof rig>>[] = [];
  after(async () => {
    for (const { engine, connector, store } of rigs) {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });

  void it('is committed with the intake: a transfer answered at once takes two commits of its state, the intake and the answer', async () => {
    const running = await rig();
    rigs.push(running);
    const id = await accept(running.store, running.engine);
    await eventually(async () => (await running.store.getTransaction(id))?.state === CT.RESPONSE_PENDING, 'the verdict is decided', 10_000);

    const intake = running.intakes.find((tx) => tx.id === id);
    assert.ok(intake);
    assert.equal(intake.state, CT.RECEIVED);
    assert.deepEqual(
      (intake.entered ?? []).map((step) => step.state),
      [CT.ACCEPTED, CT.REQUEST_PENDING],
      'the intake holds the first decision',
    );
    assert.deepEqual(
      intake.outbox.map((message) => message.payloadVersion),
      [1, 2, 3],
      'one event per state the intake enters, each with its version',
    );
    const changes = running.changes.filter((change) => change.transactionId === id);
    assert.equal(changes.length, 1, `after the intake, one change (the transport record and the answer); got ${changes.map((change) => change.toState).join(', ')}`);

    const history = await running.store.history(id);
    assert.deepEqual(
      history.map((row) => [row.version, row.toState]),
      [
        [1, CT.RECEIVED],
        [2, CT.ACCEPTED],
        [3, CT.REQUEST_PENDING],
        [4, CT.REQUEST_DELIVERED],
        [5, CT.RESPONSE_RECEIVED],
        [6, CT.RESPONSE_ACCEPTED],
        [7, CT.RESPONSE_PENDING],
      ],
    );
    assert.equal(new Set(history.slice(0, 3).map((row) => row.at)).size, 1, 'the first three states are one commit');
    const events = (await running.store.outbox(id)).filter((message) => message.channel === 'event');
    assert.deepEqual(
      events.map((message) => (JSON.parse(message.body) as { type: string }).type),
      history.map((row) => row.toState),
      'every state entered has its event, in order',
    );
  });

  void it('leaves the transaction as the decision left it, so a crash after the commit sends again from its timer', async () => {
    const running = await rig();
    rigs.push(running);
    // The scheme never answers this account: the transfer rests in REQUEST_DELIVERED until its budget runs out.
    const id = await accept(running.store, running.engine, testValue('silent').value);
    const stored = await running.store.getTransaction(id);
    assert.ok(stored);
    assert.equal(stored.version >= 3, true);
    const intake = running.intakes.find((tx) => tx.id === id);
    assert.ok(intake);
    assert.equal(typeof intake.data?.deadlineAt, 'number', 'the working data the first decision set is written with the intake');
    assert.equal(intake.data?.submissions, 1);
    assert.ok(intake.dueAt !== null && intake.dueAt > intake.receivedAt, 'the intake is written with the resubmission timer, not due at once');
  });
});
