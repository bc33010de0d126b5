import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openStore } from '../../src/adapters/store.js';
import type { SchemeMessage, SchemeTransport } from '../../src/connectors/transport.js';
import { CT } from '../../src/domain/machines/credit-transfer.js';
import type { Engine } from '../../src/engine/engine.js';
import type { InboundReport, SubmitOutcome } from '../../src/ports/scheme.js';
import type { ChangeOutcome, Store } from '../../src/ports/store.js';
import { eventually, withStoreMethods } from '../support/delivery.js';
import { acceptedTransfer, zaRppEngine } from '../support/engine.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';

/** A transport that hands each pacs.008 to `onSubmit` and says delivered once it returns (the operator's 2xx). */
class SubmitHook implements SchemeTransport {
  onSubmit: (message: SchemeMessage) => Promise<void> = () => Promise.resolve();

  async send(message: SchemeMessage): Promise<SubmitOutcome> {
    if (message.messageName.startsWith('pacs.008')) await this.onSubmit(message);
    return { kind: 'delivered' };
  }

  start(): Promise<void> {
    return Promise.resolve();
  }

  stop(): Promise<void> {
    return Promise.resolve();
  }
}

/** Never called: the answering instance sends nothing. */
const SILENT: SchemeTransport = {
  send: () => Promise.reject(new Error('the answering instance sends nothing')),
  start: () => Promise.resolve(),
  stop: () => Promise.resolve(),
};

/** A promise with its resolver. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

interface Instances {
  readonly sender: Engine;
  readonly answering: Engine;
  readonly transport: SubmitHook;
  /** Changes refused as stale, by instance. */
  readonly stale: { sender: number; answering: number };
  readonly store: Store;
  /** The answering instance's reads of the transaction and its message. */
  readonly answeringReads: { getTransactionWithMessage: number; getTransaction: number; findMessage: number };
  /** Hooks around the answering instance's store calls. */
  readonly answeringHooks: { afterRead: () => void; beforeChange: () => Promise<void> };
  /** Resolves once the sender's record of its submission (the state REQUEST_DELIVERED or nothing) is committed. */
  readonly submissionRecorded: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Two instances on one database: the sender takes the transfer to the scheme; the operator's answer
 * reaches the other (a load balancer in front of the operator link).
 */
async function twoInstances(database: string): Promise<Instances> {
  const first = await openStore(database);
  const second = database.startsWith('postgres') ? await openStore(database) : first;
  const stale = { sender: 0, answering: 0 };
  const counted = async (who: 'sender' | 'answering', outcome: Promise<ChangeOutcome>): Promise<ChangeOutcome> => {
    const result = await outcome;
    if (!result.ok && result.reason === 'stale') stale[who] += 1;
    return result;
  };
  const recorded = signal();
  const senderStore = withStoreMethods(first, {
    applyChange: (target) => async (change) => {
      const outcome = await counted('sender', target.applyChange(change));
      // The sender's record of its submission: its change carries the pacs.008 as sent.
      if (change.schemeMessages?.some((message) => message.direction === 'sent') === true) recorded.resolve();
      return outcome;
    },
    recordSchemeMessages: (target) => async (messages) => {
      await target.recordSchemeMessages(messages);
      if (messages.some((message) => message.direction === 'sent')) recorded.resolve();
    },
  });
  const answeringHooks = { afterRead: (): void => undefined, beforeChange: (): Promise<void> => Promise.resolve() };
  const reads = { getTransactionWithMessage: 0, getTransaction: 0, findMessage: 0 };
  const answeringStore = withStoreMethods(second, {
    getTransactionWithMessage: (target) => async (id) => {
      reads.getTransactionWithMessage += 1;
      const read = await target.getTransactionWithMessage(id);
      answeringHooks.afterRead();
      return read;
    },
    getTransaction: (target) => async (id) => {
      reads.getTransaction += 1;
      const read = await target.getTransaction(id);
      answeringHooks.afterRead();
      return read;
    },
    findMessage: (target) => (integratorId, messageId) => {
      reads.findMessage += 1;
      return target.findMessage(integratorId, messageId);
    },
    applyChange: (target) => async (change) => {
      await answeringHooks.beforeChange();
      return counted('answering', target.applyChange(change));
    },
  });
  const transport = new SubmitHook();
  const sender = await zaRppEngine(senderStore, transport, 'instance-a');
  const answering = await zaRppEngine(answeringStore, SILENT, 'instance-b');
  return {
    sender: sender.engine,
    answering: answering.engine,
    transport,
    stale,
    store: first,
    answeringHooks,
    answeringReads: reads,
    submissionRecorded: recorded.promise,
    stop: async () => {
      for (const { engine, connector } of [sender, answering]) {
        await engine.stop();
        await connector.stop();
      }
      if (second !== first) await second.close();
      await first.close();
    },
  };
}

/** The scheme's approval of the transfer, as the operator link hands it to the engine. */
function approval(transactionId: string, uetr: string): InboundReport {
  return {
    scheme: 'ZA_RPP',
    uetr,
    idempotencyKey: transactionId,
    kind: 'status',
    status: 'ACCEPTED',
    message: { schema: 'pacs.002.001.10' },
    receivedAt: Date.now(),
    received: { messageName: 'pacs.002.001.10', messageId: `ANSWER${transactionId.replaceAll('-', '').slice(0, 26)}`, document: '<Document>pacs.002</Document>' },
  };
}

/**
 * What both orders must leave: every state entered once, in the machine's order, one event each,
 * one callback, both scheme messages kept; no change refused as stale on either instance; and
 * the answering instance read the transfer with its message once.
 */
async function assertRecordedOnce(instances: Instances, transactionId: string): Promise<void> {
  const { store } = instances;
  assert.deepEqual(instances.stale, { sender: 0, answering: 0 });
  assert.deepEqual(instances.answeringReads, { getTransactionWithMessage: 1, getTransaction: 0, findMessage: 0 }, 'the transfer it did not send, with its message, in one read');
  const history = await store.history(transactionId);
  assert.deepEqual(
    history.map((row) => row.toState),
    [CT.RECEIVED, CT.ACCEPTED, CT.REQUEST_PENDING, CT.REQUEST_DELIVERED, CT.RESPONSE_RECEIVED, CT.RESPONSE_ACCEPTED, CT.RESPONSE_PENDING],
  );
  assert.deepEqual(
    history.map((row) => row.version),
    history.map((_, index) => index + 1),
  );
  const outbox = await store.outbox(transactionId);
  const events = outbox.filter((message) => message.channel === 'event').map((message) => (JSON.parse(message.body) as { type: string }).type);
  assert.deepEqual(events, history.map((row) => row.toState), 'one event per state entered, none twice');
  assert.equal(outbox.filter((message) => message.channel === 'callback').length, 1, 'one outcome callback');
  const kept = (await store.schemeMessages(transactionId)).map((message) => message.direction).sort();
  assert.deepEqual(kept, ['received', 'sent'], 'the pacs.008 as sent and the answer are each kept once');
  const transaction = await store.getTransaction(transactionId);
  assert.equal(transaction?.state, CT.RESPONSE_PENDING);
  assert.deepEqual((transaction?.data as { verdict?: unknown }).verdict, { outcome: 'APPROVED' });
}

function raceTests(name: string, database: () => Promise<string>): void {
  void describe(`${name}: the operator's answer reaches another instance before the sender records its submission`, () => {
    void it('the answer is recorded at once, and the late submission record is already made: no change is refused as stale', { timeout: 30_000 }, async () => {
      const url = await database();
      const instances = await twoInstances(url);
      try {
        const { transactionId, uetr } = await acceptedTransfer(instances.store);
        // The operator answers before its 2xx to the sender arrives: the answer is committed first.
        instances.transport.onSubmit = () => instances.answering.receive(approval(transactionId, uetr));
        instances.sender.start();
        await instances.submissionRecorded;
        await eventually(async () => (await instances.store.schemeMessages(transactionId)).length === 2, 'both scheme messages kept');
        await assertRecordedOnce(instances, transactionId);
      } finally {
        await instances.stop();
        await dropTestDatabase(url);
      }
    });

    void it('an answer decided before the submission record commits is applied after it without being refused as stale', { timeout: 30_000 }, async () => {
      const url = await database();
      const instances = await twoInstances(url);
      try {
        const { transactionId, uetr } = await acceptedTransfer(instances.store);
        const answerRead = signal();
        instances.answeringHooks.afterRead = answerRead.resolve;
        // The answering instance decides on the row as it was before the submission was recorded, and writes after.
        instances.answeringHooks.beforeChange = () => instances.submissionRecorded;
        let answered: Promise<void> | undefined;
        instances.transport.onSubmit = async () => {
          answered = instances.answering.receive(approval(transactionId, uetr));
          await answerRead.promise;
        };
        instances.sender.start();
        await eventually(() => answered !== undefined, 'the operator answered');
        await answered;
        await assertRecordedOnce(instances, transactionId);
      } finally {
        await instances.stop();
        await dropTestDatabase(url);
      }
    });
  });
}

raceTests('SQLite', () => Promise.resolve('sqlite::memory:'));
raceTests('PostgreSQL', freshPostgresUrl);
