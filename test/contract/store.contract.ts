/**
 * The one behavioural contract of the Store port (src/ports/store.ts). Both adapters run it
 * unchanged: test/contract/store-sqlite.test.ts and store-postgres.test.ts.
 *
 * The suite is given a way to make an empty database rather than a store, because several
 * behaviours need more than one store on the same database: two instances claiming at once,
 * and close-then-reopen durability.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { NewOutboxMessage, NewRequest, NewTransaction, OutboxEndpoint, RefreshTokenRecord, RefreshTokenRotationOutcome, StateChange, Store, TransactionRecord } from '../../src/ports/store.js';

export interface TestDatabase {
  /** A new store instance (its own connection or pool) on this database; migrations run on open. */
  open(): Promise<Store>;
  /** Delete the database. */
  drop(): Promise<void>;
}

const T0 = 1_700_000_000_000;
const LEASE_MS = 30_000;

function event(overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  const id = randomUUID();
  return {
    id,
    channel: 'event',
    url: 'https://bank.example/events-api/v1/events',
    body: JSON.stringify({ id, schema: 'Event' }),
    headers: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' },
    availableAt: T0,
    ...overrides,
  };
}

function callback(overrides: Partial<NewOutboxMessage> = {}): NewOutboxMessage {
  return event({ channel: 'callback', url: 'https://bank.example/partner-api/v1/transactions/outbound/credit-transfer-response', ...overrides });
}

function transfer(overrides: Partial<NewTransaction> = {}): NewTransaction {
  const messageId = `MSG${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const uetr = randomUUID();
  const rawBody = JSON.stringify({ schema: 'CreditTransfer', messageIdentifiers: { messageIdentification: messageId }, uetr });
  return {
    id: randomUUID(),
    integratorId: 'bank-a',
    kind: 'CREDIT_TRANSFER',
    uetr,
    scheme: 'ZA_RPP',
    messageId,
    payloadHash: `hash-of-${rawBody}`,
    rawBody,
    amountMinor: 12_345n,
    currency: 'ZAR',
    state: 'PAYMENT_AUTH_REQUEST_RECEIVED',
    receivedAt: T0,
    dueAt: T0,
    traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
    tracestate: 'regpay=1',
    outbox: [event()],
    ...overrides,
  };
}

function statusRequest(tx: NewTransaction, overrides: Partial<NewRequest> = {}): NewRequest {
  const messageId = `REQ${randomUUID().replaceAll('-', '').slice(0, 20)}`;
  const rawBody = JSON.stringify({ schema: 'StatusRequest', messageIdentifiers: { messageIdentification: messageId }, uetr: tx.uetr });
  return {
    integratorId: tx.integratorId,
    messageId,
    transactionId: tx.id,
    payloadHash: `hash-of-${rawBody}`,
    rawBody,
    receivedAt: T0 + 50,
    outbox: [callback({ availableAt: T0 + 50 })],
    ...overrides,
  };
}

async function accept(store: Store, tx: NewTransaction = transfer()): Promise<NewTransaction> {
  const outcome = await store.intake(tx);
  assert.deepEqual(outcome, { kind: 'accepted', transactionId: tx.id, leased: [] });
  return tx;
}

function ids(records: readonly { id: string }[]): string[] {
  return records.map((record) => record.id).sort();
}

export function storeContract(name: string, newDatabase: () => Promise<TestDatabase>): void {
  /** One empty database and one store on it per test; more stores on it via `database.open()`. */
  async function withStore(fn: (store: Store, database: TestDatabase) => Promise<void>): Promise<void> {
    const database = await newDatabase();
    const stores: Store[] = [];
    const tracked: TestDatabase = {
      open: async () => {
        const store = await database.open();
        stores.push(store);
        return store;
      },
      drop: () => database.drop(),
    };
    try {
      await fn(await tracked.open(), tracked);
    } finally {
      for (const store of stores) await store.close();
      await database.drop();
    }
  }

  void describe(`${name} store contract`, () => {
    void describe('intake', () => {
      void it('keeps the scheme message that started a transaction in the same commit, and nothing of a duplicate', () =>
        withStore(async (store) => {
          const id = randomUUID();
          const received = { transactionId: id, direction: 'received' as const, messageName: 'pacs.008.001.08', messageId: 'SSCHEME1', at: T0, document: '<Document>pacs.008</Document>' };
          const tx = await accept(store, transfer({ id, kind: 'INBOUND_CREDIT_TRANSFER', schemeMessages: [received] }));
          assert.deepEqual(await store.schemeMessages(tx.id), [received]);
          const duplicate = await store.intake({ ...tx, id: randomUUID(), schemeMessages: [{ ...received, transactionId: 'another' }] });
          assert.equal(duplicate.kind, 'duplicate');
          assert.deepEqual(await store.schemeMessages('another'), []);
        }));

      void it('stores a new transaction with its raw message, first state and outbox rows', () =>
        withStore(async (store) => {
          const tx = await accept(store, transfer({ outbox: [event(), callback()] }));
          const stored = await store.getTransaction(tx.id);
          assert.ok(stored);
          assert.deepEqual(stored, {
            id: tx.id,
            integratorId: 'bank-a',
            kind: 'CREDIT_TRANSFER',
            uetr: tx.uetr,
            scheme: 'ZA_RPP',
            messageId: tx.messageId,
            state: 'PAYMENT_AUTH_REQUEST_RECEIVED',
            version: 1,
            amountMinor: 12_345n,
            currency: 'ZAR',
            createdAt: T0,
            updatedAt: T0,
            dueAt: T0,
            traceparent: tx.traceparent,
            tracestate: 'regpay=1',
            data: {},
          } satisfies TransactionRecord);
          assert.deepEqual(await store.findTransaction('bank-a', tx.uetr), stored);
          assert.deepEqual(await store.findMessage('bank-a', tx.messageId), {
            integratorId: 'bank-a',
            messageId: tx.messageId,
            transactionId: tx.id,
            payloadHash: tx.payloadHash,
            rawBody: tx.rawBody,
            response: null,
            receivedAt: T0,
          });
          assert.deepEqual(await store.history(tx.id), [
            { transactionId: tx.id, version: 1, fromState: null, toState: 'PAYMENT_AUTH_REQUEST_RECEIVED', at: T0, cause: null },
          ]);
          const outbox = await store.outbox(tx.id);
          assert.deepEqual(
            outbox.map(({ seq, channel, status, attempts, nextAttemptAt, createdAt, deliveredAt, lastError, integratorId, transactionId }) => ({
              seq,
              channel,
              status,
              attempts,
              nextAttemptAt,
              createdAt,
              deliveredAt,
              lastError,
              integratorId,
              transactionId,
            })),
            [
              { seq: 1, channel: 'event', status: 'PENDING', attempts: 0, nextAttemptAt: T0, createdAt: T0, deliveredAt: null, lastError: null, integratorId: 'bank-a', transactionId: tx.id },
              { seq: 2, channel: 'callback', status: 'PENDING', attempts: 0, nextAttemptAt: T0, createdAt: T0, deliveredAt: null, lastError: null, integratorId: 'bank-a', transactionId: tx.id },
            ],
          );
          const [first] = outbox;
          const sent = tx.outbox[0];
          assert.ok(first && sent);
          assert.equal(first.id, sent.id);
          assert.equal(first.body, sent.body);
          assert.equal(first.url, sent.url);
          assert.deepEqual(first.headers, sent.headers);
          assert.equal(first.availableAt, T0);
        }));

      void it('answers duplicate for an identical payload under the same message id, with the answer given before', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          assert.deepEqual(await store.intake({ ...tx, id: randomUUID() }), { kind: 'duplicate', transactionId: tx.id, response: null });
          await store.setMessageResponse('bank-a', tx.messageId, '{"outcome":"APPROVED"}');
          assert.deepEqual(await store.intake({ ...tx, id: randomUUID() }), { kind: 'duplicate', transactionId: tx.id, response: '{"outcome":"APPROVED"}' });
          assert.equal((await store.findMessage('bank-a', tx.messageId))?.response, '{"outcome":"APPROVED"}');
          assert.equal((await store.history(tx.id)).length, 1, 'a duplicate is not processed again');
          assert.equal((await store.outbox(tx.id)).length, 1, 'a duplicate emits no extra events');
        }));

      void it('hands back the stored body when a message id is reused with another body, storing nothing', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const differs = { kind: 'message_differs', transactionId: tx.id, response: null, storedRawBody: tx.rawBody };
          assert.deepEqual(await store.intake({ ...tx, id: randomUUID(), payloadHash: 'another', rawBody: '{}', amountMinor: 1n }), differs);
          assert.deepEqual(await store.intake({ ...tx, id: randomUUID(), uetr: randomUUID(), payloadHash: 'another' }), differs);
          assert.equal((await store.history(tx.id)).length, 1);
          assert.equal((await store.findMessage('bank-a', tx.messageId))?.rawBody, tx.rawBody);
        }));

      void it('answers uetr_conflict when a new message id names a uetr already in use', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          assert.deepEqual(await store.intake(transfer({ uetr: tx.uetr })), { kind: 'uetr_conflict' });
          assert.equal(await store.findMessage('bank-a', 'never'), undefined);
        }));

      void it('keeps message ids and uetrs apart per integrator', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          await accept(store, { ...tx, id: randomUUID(), integratorId: 'bank-b', outbox: [event()] });
          assert.equal((await store.findTransaction('bank-b', tx.uetr))?.integratorId, 'bank-b');
          assert.equal((await store.findTransaction('bank-a', tx.uetr))?.id, tx.id);
        }));

      void it('reads a transaction as stored now together with the raw body of its own message, not another integrator\'s under the same message id', () =>
        withStore(async (store) => {
          const tx = await accept(store, transfer({ amountMinor: 2n ** 60n + 1n }));
          const other = await accept(store, transfer({ integratorId: 'bank-b', messageId: tx.messageId, rawBody: '{"schema":"CreditTransfer","of":"bank-b"}' }));
          await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0 + 5, cause: null, dueAt: T0 + 9, data: { submissions: 1 }, outbox: [] });
          const read = await store.getTransactionWithMessage(tx.id);
          assert.deepEqual(read, { transaction: await store.getTransaction(tx.id), rawBody: tx.rawBody });
          assert.equal(read?.transaction.state, 'B');
          assert.equal(read?.transaction.version, 2);
          assert.equal(read?.transaction.amountMinor, 2n ** 60n + 1n);
          assert.deepEqual(read?.transaction.data, { submissions: 1 });
          assert.equal((await store.getTransactionWithMessage(other.id))?.rawBody, other.rawBody);
          assert.equal(await store.getTransactionWithMessage(randomUUID()), undefined);
        }));

      void it('lets transactions of different kinds share a uetr (a determination and the payment it resolved), each found by its kind', () =>
        withStore(async (store) => {
          const payment = await accept(store);
          const determination = transfer({ uetr: payment.uetr, kind: 'IDENTIFIER_DETERMINATION', amountMinor: null, currency: null, lookupKey: 'ZA_RPP|MOBILE|ZA_MOBILE|+27-821234567' });
          await accept(store, determination);
          assert.equal((await store.findTransaction('bank-a', payment.uetr))?.id, payment.id, 'a credit transfer unless said');
          assert.equal((await store.findTransaction('bank-a', payment.uetr, 'IDENTIFIER_DETERMINATION'))?.id, determination.id);
          assert.equal(await store.findTransaction('bank-a', payment.uetr, 'REQUEST_TO_PAY'), undefined);
          assert.deepEqual(await store.intake(transfer({ uetr: payment.uetr, kind: 'IDENTIFIER_DETERMINATION' })), { kind: 'uetr_conflict' }, 'but not two of one kind');
        }));

      void it('finds the recent determinations of one lookup key, newest first, within the window, of one integrator', () =>
        withStore(async (store) => {
          const key = 'ZA_RPP|CUSTOM|ZA_CUSTOM|thandi@shap';
          const determination = (receivedAt: number, overrides: Partial<NewTransaction> = {}) =>
            transfer({ kind: 'IDENTIFIER_DETERMINATION', amountMinor: null, currency: null, lookupKey: key, receivedAt, data: { mode: 'sync' }, ...overrides });
          const old = await accept(store, determination(T0 - 10_000));
          const first = await accept(store, determination(T0));
          const second = await accept(store, determination(T0 + 5));
          await accept(store, determination(T0 + 6, { lookupKey: 'ZA_RPP|CUSTOM|ZA_CUSTOM|other@shap' }));
          await accept(store, determination(T0 + 7, { integratorId: 'bank-b' }));
          await accept(store, transfer({ lookupKey: key, receivedAt: T0 + 8 }));
          const inOrder = async (limit: number) => (await store.recentDeterminations('bank-a', key, T0, limit)).map((record) => record.id);
          assert.deepEqual(await inOrder(10), [second.id, first.id], 'newest first');
          assert.deepEqual(await inOrder(1), [second.id]);
          assert.ok(!(await inOrder(10)).includes(old.id), 'outside the window');
          assert.deepEqual((await store.recentDeterminations('bank-a', key, T0, 10))[0]?.data, { mode: 'sync' }, 'with its working data as written');
        }));

      void it('tells its change listeners of a committed change made with notify, and not of others', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const heard: string[] = [];
          const stop = store.onChange((id) => heard.push(id));
          const change = (version: number, notify: boolean) =>
            store.applyChange({ transactionId: tx.id, expectedVersion: version, toState: tx.state, at: T0 + version, cause: null, dueAt: null, outbox: [], ...(notify ? { notify: true } : {}) });
          assert.equal((await change(1, false)).ok, true);
          assert.equal((await change(2, true)).ok, true);
          assert.equal((await change(2, true)).ok, false, 'a stale change commits nothing and tells nobody');
          await new Promise((resolve) => setTimeout(resolve, 200));
          stop();
          assert.ok(heard.length >= 1 && heard.every((id) => id === tx.id), `heard ${JSON.stringify(heard)}`);
          const heardBefore = heard.length;
          assert.equal((await change(3, true)).ok, true);
          await new Promise((resolve) => setTimeout(resolve, 200));
          assert.equal(heard.length, heardBefore, 'a stopped listener hears nothing');
        }));

      void it('counts one durable commit for each intake written alone, and fewer commits than intakes written at once', () =>
        withStore(async (store) => {
          const before = store.durableCounts();
          for (let n = 0; n < 5; n += 1) await accept(store, transfer());
          const alone = store.durableCounts();
          assert.equal(alone.commits - before.commits, 5, 'five intakes one after another: five commits');
          assert.equal(alone.commitsHolding.transactions - before.commitsHolding.transactions, 5, "each holding a transaction's state");
          await Promise.all(Array.from({ length: 40 }, () => accept(store, transfer())));
          const together = store.durableCounts();
          const grouped = together.commits - alone.commits;
          assert.ok(grouped >= 1 && grouped < 40, `40 intakes at once group-committed in ${grouped} commits`);
          // SQLite tells its fsyncs (one per commit that changed rows, and the checkpointer's) and
          // does not count a commit that changed nothing; PostgreSQL's fsyncs are the server's own.
          await store.claimDue({ now: T0 - 1, limit: 10, owner: 'nobody', leaseMs: LEASE_MS });
          const afterEmptyClaim = store.durableCounts();
          if (store.kind === 'sqlite') {
            assert.equal(afterEmptyClaim.commits, together.commits, 'a claim that found nothing wrote nothing');
            assert.ok(afterEmptyClaim.fsyncs !== undefined && afterEmptyClaim.checkpointFsyncs !== undefined);
            assert.equal(afterEmptyClaim.fsyncs, afterEmptyClaim.commits + afterEmptyClaim.checkpointFsyncs);
          } else assert.equal(afterEmptyClaim.fsyncs, undefined);
        }));

      void it('accepts exactly one of many identical intakes racing, and answers the rest duplicate', () =>
        withStore(async (store) => {
          const tx = transfer();
          const outcomes = await Promise.all(Array.from({ length: 40 }, () => store.intake({ ...tx, id: randomUUID() })));
          const accepted = outcomes.filter((outcome) => outcome.kind === 'accepted');
          assert.equal(accepted.length, 1);
          const winner = accepted[0]?.transactionId;
          assert.ok(winner);
          for (const outcome of outcomes) {
            if (outcome.kind !== 'accepted') assert.deepEqual(outcome, { kind: 'duplicate', transactionId: winner, response: null });
          }
          assert.equal((await store.findTransaction('bank-a', tx.uetr))?.id, winner);
        }));

      void it('accepts exactly one of identical intakes racing on two instances', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          for (let round = 0; round < 10; round += 1) {
            const tx = transfer();
            const outcomes = await Promise.all(
              Array.from({ length: 10 }, (_, index) => (index % 2 === 0 ? first : second).intake({ ...tx, id: randomUUID() })),
            );
            assert.equal(outcomes.filter((outcome) => outcome.kind === 'accepted').length, 1, `round ${round}: one accepted`);
            assert.equal(outcomes.filter((outcome) => outcome.kind === 'duplicate').length, 9, `round ${round}: the rest duplicate`);
          }
        }));

      void it('classifies a mixed batch of new, duplicate and conflicting intakes each on its own', () =>
        withStore(async (store) => {
          const original = await accept(store);
          const fresh = transfer();
          const sameUetrInBatch = transfer({ uetr: fresh.uetr });
          const outcomes = await Promise.all([
            store.intake(fresh),
            store.intake({ ...original, id: randomUUID() }),
            store.intake({ ...original, id: randomUUID(), payloadHash: 'changed' }),
            store.intake(transfer({ uetr: original.uetr })),
            store.intake(sameUetrInBatch),
          ]);
          assert.deepEqual(outcomes, [
            { kind: 'accepted', transactionId: fresh.id, leased: [] },
            { kind: 'duplicate', transactionId: original.id, response: null },
            { kind: 'message_differs', transactionId: original.id, response: null, storedRawBody: original.rawBody },
            { kind: 'uetr_conflict' },
            { kind: 'uetr_conflict' },
          ]);
        }));

      void it('money round-trips as bigint beyond 2^53', () =>
        withStore(async (store) => {
          for (const amountMinor of [9_007_199_254_740_993n, 9_223_372_036_854_775_807n, 0n]) {
            const tx = await accept(store, transfer({ amountMinor }));
            const stored = await store.getTransaction(tx.id);
            assert.equal(typeof stored?.amountMinor, 'bigint');
            assert.equal(stored?.amountMinor, amountMinor);
          }
          const noAmount = await accept(store, transfer({ kind: 'IDENTIFIER_DETERMINATION', amountMinor: null, currency: null }));
          assert.equal((await store.getTransaction(noAmount.id))?.amountMinor, null);
        }));

      void it('a bad write in a batch fails alone and the others in the batch still commit', () =>
        withStore(async (store) => {
          const good = Array.from({ length: 5 }, () => transfer());
          // Out of the signed 64-bit range: the database refuses it.
          const bad = transfer({ amountMinor: 2n ** 63n });
          const settled = await Promise.allSettled([good[0], good[1], bad, good[2], good[3], good[4]].map((tx) => store.intake(tx!)));
          assert.equal(settled[2]?.status, 'rejected');
          for (const index of [0, 1, 3, 4, 5]) {
            assert.equal(settled[index]?.status, 'fulfilled');
          }
          for (const tx of good) assert.equal((await store.getTransaction(tx.id))?.state, 'PAYMENT_AUTH_REQUEST_RECEIVED');
          assert.equal(await store.getTransaction(bad.id), undefined);
          assert.equal(await store.findMessage('bank-a', bad.messageId), undefined);
        }));

      void it('a write that fails part-way leaves nothing of itself, and the others in its batch still commit', () =>
        withStore(async (store) => {
          const stored = await accept(store, transfer({ outbox: [event()] }));
          const good = Array.from({ length: 4 }, () => transfer({ outbox: [event()] }));
          // Its transaction, message and first state are written before its event, whose id is taken.
          const bad = transfer({ outbox: [event({ id: stored.outbox[0]!.id })] });
          const settled = await Promise.allSettled([good[0], good[1], bad, good[2], good[3]].map((tx) => store.intake(tx!)));
          assert.deepEqual(
            settled.map((outcome) => outcome.status),
            ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled'],
          );
          for (const tx of good) {
            assert.equal((await store.getTransaction(tx.id))?.state, 'PAYMENT_AUTH_REQUEST_RECEIVED');
            assert.equal((await store.outbox(tx.id)).length, 1);
          }
          assert.equal(await store.getTransaction(bad.id), undefined);
          assert.equal(await store.findMessage('bank-a', bad.messageId), undefined);
          assert.deepEqual(await store.history(bad.id), []);
        }));

      void it('refuses to remember an answer for a message it never stored', () =>
        withStore(async (store) => {
          await assert.rejects(store.setMessageResponse('bank-a', 'unknown', '{}'));
        }));
    });

    void describe('state changes', () => {
      void it('applies a change with its history row, data, timer and outbox rows', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const outcome = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
            at: T0 + 10,
            cause: '{"decision":"valid"}',
            dueAt: T0 + 10_000,
            data: { attempt: 1, schemeRef: 'abc' },
            outbox: [event({ availableAt: T0 + 10 }), callback({ availableAt: T0 + 10 })],
          });
          assert.deepEqual(outcome, { ok: true, version: 2, leased: [] });
          const stored = await store.getTransaction(tx.id);
          assert.equal(stored?.state, 'PAYMENT_AUTH_REQUEST_ACCEPTED');
          assert.equal(stored?.version, 2);
          assert.equal(stored?.updatedAt, T0 + 10);
          assert.equal(stored?.createdAt, T0);
          assert.equal(stored?.dueAt, T0 + 10_000);
          assert.deepEqual(stored?.data, { attempt: 1, schemeRef: 'abc' });
          assert.deepEqual((await store.history(tx.id))[1], {
            transactionId: tx.id,
            version: 2,
            fromState: 'PAYMENT_AUTH_REQUEST_RECEIVED',
            toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
            at: T0 + 10,
            cause: '{"decision":"valid"}',
          });
          const outbox = await store.outbox(tx.id);
          assert.deepEqual(
            outbox.map((row) => [row.seq, row.channel, row.createdAt]),
            [
              [1, 'event', T0],
              [2, 'event', T0 + 10],
              [3, 'callback', T0 + 10],
            ],
          );
        }));

      void it('gives every event back with the message it refers to spliced in as its payload, through every read', () =>
        withStore(async (store) => {
          const envelope = (type: string) => JSON.stringify({ type, schema: 'Event' });
          const first = event({ body: envelope('RECEIVED'), payloadVersion: 1 });
          const tx = await accept(store, transfer({ outbox: [first] }));
          const cause = '{"schema":"PaymentStatusReport","status":"ACCC"}';
          const viaEvent = event({ body: envelope('ACCEPTED'), payloadVersion: 2, availableAt: T0 + 10 });
          const lastEvent = event({ body: envelope('RESPONSE_RECEIVED'), payloadVersion: 3, availableAt: T0 + 10 });
          const complete = callback({ availableAt: T0 + 10 });
          await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            via: [{ state: 'PAYMENT_AUTH_REQUEST_ACCEPTED', cause: null }],
            toState: 'PAYMENT_AUTH_RESPONSE_RECEIVED',
            at: T0 + 10,
            cause,
            dueAt: null,
            outbox: [viaEvent, lastEvent, complete],
          });
          const expected = new Map([
            // Version 1's cause is the request itself; so is a null cause of a later version.
            [first.id, JSON.stringify({ type: 'RECEIVED', schema: 'Event', payload: JSON.parse(tx.rawBody) })],
            [viaEvent.id, JSON.stringify({ type: 'ACCEPTED', schema: 'Event', payload: JSON.parse(tx.rawBody) })],
            [lastEvent.id, JSON.stringify({ type: 'RESPONSE_RECEIVED', schema: 'Event', payload: JSON.parse(cause) })],
            // Without payloadVersion the body is given back as written.
            [complete.id, complete.body],
          ]);
          const check = (records: readonly { id: string; body: string }[], how: string) => {
            for (const record of records) assert.equal(record.body, expected.get(record.id), `${how}: ${record.id}`);
          };
          check(await store.outbox(tx.id), 'outbox of a transaction');
          check(await store.listOutbox({ status: 'PENDING', limit: 10 }), 'pending list');
          for (const id of expected.keys()) check([(await store.outboxMessage(id))!], 'by id');
          const claimed: { id: string; body: string }[] = [];
          for (let round = 0; round < 3; round += 1) {
            const batch = await store.claimOutbox({ now: T0 + 20 + round, limit: 10, owner: 'me', leaseMs: LEASE_MS });
            claimed.push(...batch);
            for (const record of batch) await store.recordDelivery({ outboxId: record.id, at: T0 + 20 + round, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
          }
          assert.deepEqual(ids(claimed), [...expected.keys()].sort());
          check(claimed, 'claimed');
        }));

      void it('keeps the working data when a change carries none, and clears the timer when asked', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0, cause: null, dueAt: T0, data: { keep: true }, outbox: [] });
          await store.applyChange({ transactionId: tx.id, expectedVersion: 2, toState: 'C', at: T0, cause: null, dueAt: null, outbox: [] });
          const stored = await store.getTransaction(tx.id);
          assert.deepEqual(stored?.data, { keep: true });
          assert.equal(stored?.dueAt, null);
          assert.equal(stored?.version, 3);
        }));

      void it('refuses a change decided on a stale version and writes nothing for it', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0, cause: null, dueAt: null, outbox: [] });
          const stale = await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'X', at: T0, cause: null, dueAt: null, outbox: [event()] });
          assert.deepEqual(stale, { ok: false, reason: 'stale' });
          assert.equal((await store.getTransaction(tx.id))?.state, 'B');
          assert.equal((await store.history(tx.id)).length, 2);
          assert.equal((await store.outbox(tx.id)).length, 1);
        }));

      void it('answers not_found for a change to an unknown transaction', () =>
        withStore(async (store) => {
          assert.deepEqual(
            await store.applyChange({ transactionId: randomUUID(), expectedVersion: 1, toState: 'B', at: T0, cause: null, dueAt: null, outbox: [] }),
            { ok: false, reason: 'not_found' },
          );
        }));

      void it('of changes racing on the same version exactly one wins, also across instances', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const tx = await accept(first);
          const outcomes = await Promise.all(
            Array.from({ length: 8 }, (_, index) =>
              (index % 2 === 0 ? first : second).applyChange({
                transactionId: tx.id,
                expectedVersion: 1,
                toState: `S${index}`,
                at: T0,
                cause: null,
                dueAt: null,
                outbox: [event()],
              }),
            ),
          );
          assert.equal(outcomes.filter((outcome) => outcome.ok).length, 1);
          assert.equal(outcomes.filter((outcome) => !outcome.ok && outcome.reason === 'stale').length, 7);
          assert.equal((await first.history(tx.id)).length, 2);
          assert.deepEqual((await first.outbox(tx.id)).map((row) => row.seq), [1, 2]);
        }));

      void it('numbers outbox messages of a transaction in one sequence across changes and channels', () =>
        withStore(async (store) => {
          const tx = await accept(store, transfer({ outbox: [event(), callback()] }));
          let version = 1;
          for (let step = 0; step < 3; step += 1) {
            const outcome = await store.applyChange({
              transactionId: tx.id,
              expectedVersion: version,
              toState: `STEP${step}`,
              at: T0 + step,
              cause: null,
              dueAt: null,
              outbox: [callback(), event()],
            });
            assert.ok(outcome.ok);
            version = outcome.version;
          }
          assert.deepEqual((await store.outbox(tx.id)).map((row) => row.seq), [1, 2, 3, 4, 5, 6, 7, 8]);
        }));

      void it('a change through two intermediate states writes three history rows and moves the version by three', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const outcome = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            via: [
              { state: 'PAYMENT_AUTH_REQUEST_ACCEPTED', cause: '{"decision":"valid"}' },
              { state: 'PAYMENT_SENT_TO_SCHEME', cause: '{"decision":"send"}' },
            ],
            toState: 'PAYMENT_SETTLED',
            at: T0 + 10,
            cause: '{"scheme":"ACSC"}',
            dueAt: null,
            outbox: [event({ availableAt: T0 + 10 })],
          });
          assert.deepEqual(outcome, { ok: true, version: 4, leased: [] });
          const stored = await store.getTransaction(tx.id);
          assert.equal(stored?.state, 'PAYMENT_SETTLED');
          assert.equal(stored?.version, 4);
          assert.deepEqual((await store.history(tx.id)).slice(1), [
            { transactionId: tx.id, version: 2, fromState: 'PAYMENT_AUTH_REQUEST_RECEIVED', toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', at: T0 + 10, cause: '{"decision":"valid"}' },
            { transactionId: tx.id, version: 3, fromState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', toState: 'PAYMENT_SENT_TO_SCHEME', at: T0 + 10, cause: '{"decision":"send"}' },
            { transactionId: tx.id, version: 4, fromState: 'PAYMENT_SENT_TO_SCHEME', toState: 'PAYMENT_SETTLED', at: T0 + 10, cause: '{"scheme":"ACSC"}' },
          ]);
          assert.deepEqual((await store.outbox(tx.id)).map((row) => row.seq), [1, 2]);
          assert.deepEqual(
            await store.applyChange({ transactionId: tx.id, expectedVersion: 2, toState: 'X', at: T0 + 11, cause: null, dueAt: null, outbox: [] }),
            { ok: false, reason: 'stale' },
            'a decision made on an intermediate version is stale',
          );
        }));

      void describe('a change that commutes (decided on an older version, recording a fact another change recorded first)', () => {
        const envelope = (type: string, payloadVersion: number) => event({ body: JSON.stringify({ type, schema: 'Event' }), payloadVersion, availableAt: T0 + 10 });
        const basis = { submissions: 1 };
        const sentDoc = { direction: 'sent' as const, messageName: 'pacs.008.001.10', messageId: 'SENT0001', at: T0 + 10, document: '<Document>pacs.008</Document>' };
        const receivedDoc = { direction: 'received' as const, messageName: 'pacs.002.001.10', messageId: 'ANSWER0001', at: T0 + 10, document: '<Document>pacs.002</Document>' };
        /** A transfer at version 2, in PENDING with working data `basis`: both changes below are decided on it. */
        async function pending(store: Store): Promise<NewTransaction> {
          const tx = await accept(store);
          const outcome = await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'PENDING', at: T0 + 5, cause: null, dueAt: T0 + 1_000, data: basis, outbox: [] });
          assert.deepEqual(outcome, { ok: true, version: 2, leased: [] });
          return tx;
        }
        /** The transport's acknowledgement: PENDING → DELIVERED, nothing else of its own. */
        const submission = (tx: NewTransaction, overrides: Partial<StateChange> = {}): StateChange => ({
          transactionId: tx.id,
          expectedVersion: 2,
          toState: 'DELIVERED',
          at: T0 + 10,
          cause: null,
          dueAt: T0 + 60_000,
          data: basis,
          outbox: [envelope('DELIVERED', 3)],
          schemeMessages: [{ transactionId: tx.id, ...sentDoc }],
          commutes: { data: basis },
          ...overrides,
        });
        /** The scheme's answer, which proves the submission arrived: PENDING → DELIVERED → ANSWERED, with a verdict and a callback. */
        const answer = (tx: NewTransaction, overrides: Partial<StateChange> = {}): StateChange => ({
          transactionId: tx.id,
          expectedVersion: 2,
          via: [{ state: 'DELIVERED', cause: '{"answer":"ACSC"}' }],
          toState: 'ANSWERED',
          at: T0 + 20,
          cause: '{"answer":"ACSC"}',
          dueAt: T0 + 30_000,
          data: { ...basis, verdict: 'APPROVED' },
          outbox: [envelope('DELIVERED', 3), envelope('ANSWERED', 4), callback({ availableAt: T0 + 20 })],
          outcome: { outcome: 'APPROVED', reasonCode: null },
          schemeMessages: [{ transactionId: tx.id, ...receivedDoc }],
          commutes: { data: basis },
          ...overrides,
        });
        const types = async (store: Store, id: string) =>
          // After the intake's own event: each event by its type, a callback by its channel.
          (await store.outbox(id)).slice(1).map((row) => (row.channel === 'event' ? (JSON.parse(row.body) as { type: string }).type : row.channel));

        void it('applies the rest of a change on the version a change entering its first states made, entering none of them twice', () =>
          withStore(async (store) => {
            const tx = await pending(store);
            assert.deepEqual(await store.applyChange(submission(tx)), { ok: true, version: 3, leased: [] });
            assert.deepEqual(await store.applyChange(answer(tx)), { ok: true, version: 4, leased: [], alreadyEntered: 1 });
            const stored = await store.getTransaction(tx.id);
            assert.equal(stored?.state, 'ANSWERED');
            assert.equal(stored?.version, 4);
            assert.equal(stored?.dueAt, T0 + 30_000);
            assert.deepEqual(stored?.data, { ...basis, verdict: 'APPROVED' });
            assert.deepEqual(
              (await store.history(tx.id)).slice(2).map((row) => [row.version, row.fromState, row.toState, row.cause]),
              [
                [3, 'PENDING', 'DELIVERED', null],
                [4, 'DELIVERED', 'ANSWERED', '{"answer":"ACSC"}'],
              ],
            );
            assert.deepEqual(await types(store, tx.id), ['DELIVERED', 'ANSWERED', 'callback'], 'the event of DELIVERED once, the answer\'s own left out');
            assert.deepEqual((await store.schemeMessages(tx.id)).map((row) => row.direction).sort(), ['received', 'sent']);
            assert.equal((await store.searchTransactions({ integratorIds: ['bank-a'], id: tx.id, limit: 1 }))[0]?.outcome, 'APPROVED');
          }));

        void it('a change whose states were all entered since, bringing nothing else, is already made: only its scheme messages are kept', () =>
          withStore(async (store) => {
            const tx = await pending(store);
            assert.deepEqual(await store.applyChange(answer(tx)), { ok: true, version: 4, leased: [] });
            const before = { transaction: await store.getTransaction(tx.id), history: await store.history(tx.id), outbox: await store.outbox(tx.id) };
            assert.deepEqual(await store.applyChange(submission(tx)), { ok: true, version: 4, leased: [], alreadyEntered: 1 });
            assert.deepEqual({ transaction: await store.getTransaction(tx.id), history: await store.history(tx.id), outbox: await store.outbox(tx.id) }, before);
            assert.deepEqual((await store.schemeMessages(tx.id)).map((row) => row.direction).sort(), ['received', 'sent']);
          }));

        void it('is stale when it does not commute: without commutes, after a version that entered other states or none, after the working data changed, or when it brings something of its own', () =>
          withStore(async (store) => {
            const stale = { ok: false, reason: 'stale' };
            // Without commutes: today's optimistic rule.
            const plain = await pending(store);
            await store.applyChange(submission(plain));
            const { commutes: _, ...uncommuted } = answer(plain);
            assert.deepEqual(await store.applyChange(uncommuted), stale);
            // The version since entered another state.
            const failed = await pending(store);
            await store.applyChange(submission(failed, { toState: 'DELIVERY_FAILED', outbox: [] }));
            assert.deepEqual(await store.applyChange(answer(failed)), stale);
            // The version since entered no state (a timer-only change writes no history row).
            const timer = await pending(store);
            await store.applyChange(submission(timer, { toState: 'PENDING', outbox: [] }));
            assert.deepEqual(await store.applyChange(answer(timer)), stale);
            // The working data changed since.
            const counted = await pending(store);
            await store.applyChange(submission(counted, { data: { submissions: 2 } }));
            assert.deepEqual(await store.applyChange(answer(counted)), stale);
            // Already entered, but the late change brings a callback, data or an outcome of its own.
            for (const own of [{ outbox: [envelope('DELIVERED', 3), callback()] }, { data: { submissions: 2 } }, { outcome: { outcome: 'APPROVED', reasonCode: null } }]) {
              const answered = await pending(store);
              await store.applyChange(answer(answered));
              assert.deepEqual(await store.applyChange(submission(answered, own)), stale, JSON.stringify(own));
              assert.deepEqual((await store.schemeMessages(answered.id)).map((row) => row.direction), ['received'], 'nothing of a stale change is kept');
            }
            // Each left as the change that came first made it.
            assert.equal((await store.getTransaction(plain.id))?.state, 'DELIVERED');
            assert.equal((await store.getTransaction(failed.id))?.state, 'DELIVERY_FAILED');
          }));

        void it('a change and the one it commutes with, written at once, both apply in their order', () =>
          withStore(async (store) => {
            const tx = await pending(store);
            const [first, second] = await Promise.all([store.applyChange(submission(tx)), store.applyChange(answer(tx))]);
            assert.deepEqual(first, { ok: true, version: 3, leased: [] });
            assert.deepEqual(second, { ok: true, version: 4, leased: [], alreadyEntered: 1 });
            assert.deepEqual(await types(store, tx.id), ['DELIVERED', 'ANSWERED', 'callback']);
          }));
      });

      void it('a timer-only change writes no history row but makes an older decision stale', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const moved = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            toState: 'PAYMENT_AUTH_REQUEST_RECEIVED',
            at: T0 + 20,
            cause: '{"timer":"retry"}',
            dueAt: T0 + 5_000,
            data: { attempt: 2 },
            outbox: [event({ availableAt: T0 + 20 })],
          });
          assert.deepEqual(moved, { ok: true, version: 2, leased: [] });
          const stored = await store.getTransaction(tx.id);
          assert.equal(stored?.state, 'PAYMENT_AUTH_REQUEST_RECEIVED');
          assert.equal(stored?.version, 2);
          assert.equal(stored?.dueAt, T0 + 5_000);
          assert.equal(stored?.updatedAt, T0 + 20);
          assert.deepEqual(stored?.data, { attempt: 2 });
          assert.deepEqual((await store.history(tx.id)).map((row) => row.version), [1], 'no state was entered');
          assert.deepEqual((await store.outbox(tx.id)).map((row) => [row.seq, row.createdAt]), [
            [1, T0],
            [2, T0 + 20],
          ]);
          const older = await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', at: T0 + 21, cause: null, dueAt: null, outbox: [] });
          assert.deepEqual(older, { ok: false, reason: 'stale' });
          const next = await store.applyChange({ transactionId: tx.id, expectedVersion: 2, toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', at: T0 + 22, cause: null, dueAt: null, outbox: [] });
          assert.deepEqual(next, { ok: true, version: 3, leased: [] });
          assert.deepEqual((await store.history(tx.id)).at(-1), {
            transactionId: tx.id,
            version: 3,
            fromState: 'PAYMENT_AUTH_REQUEST_RECEIVED',
            toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
            at: T0 + 22,
            cause: null,
          });
        }));

      void it('a change that leaves through another state and comes back enters both', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const outcome = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            via: [{ state: 'RETRYING', cause: '{"retry":1}' }],
            toState: 'PAYMENT_AUTH_REQUEST_RECEIVED',
            at: T0 + 5,
            cause: '{"retried":true}',
            dueAt: null,
            outbox: [],
          });
          assert.deepEqual(outcome, { ok: true, version: 3, leased: [] });
          assert.deepEqual(
            (await store.history(tx.id)).map((row) => [row.version, row.fromState, row.toState, row.cause]),
            [
              [1, null, 'PAYMENT_AUTH_REQUEST_RECEIVED', null],
              [2, 'PAYMENT_AUTH_REQUEST_RECEIVED', 'RETRYING', '{"retry":1}'],
              [3, 'RETRYING', 'PAYMENT_AUTH_REQUEST_RECEIVED', '{"retried":true}'],
            ],
          );
        }));

      void it('multi-state changes to many transactions committed together each keep their own history', () =>
        withStore(async (store) => {
          const txs = await Promise.all(Array.from({ length: 12 }, () => accept(store)));
          const outcomes = await Promise.all(
            txs.map((tx, index) =>
              store.applyChange({
                transactionId: tx.id,
                expectedVersion: 1,
                via: Array.from({ length: index % 3 }, (_, step) => ({ state: `VIA${step}`, cause: null })),
                toState: index % 4 === 0 && index % 3 === 0 ? 'PAYMENT_AUTH_REQUEST_RECEIVED' : 'DONE',
                at: T0 + 1,
                cause: null,
                dueAt: null,
                outbox: [event()],
              }),
            ),
          );
          for (const [index, tx] of txs.entries()) {
            const timerOnly = index % 4 === 0 && index % 3 === 0;
            const entered = timerOnly ? 0 : (index % 3) + 1;
            assert.deepEqual(outcomes[index], { ok: true, version: 1 + Math.max(entered, 1), leased: [] }, `transaction ${index}`);
            const history = await store.history(tx.id);
            assert.equal(history.length, 1 + entered, `transaction ${index} history`);
            assert.deepEqual(history.map((row) => row.version), history.map((_, position) => position + 1));
            assert.deepEqual((await store.outbox(tx.id)).map((row) => row.seq), [1, 2]);
          }
        }));
    });

    void describe('requests about a transaction', () => {
      void it('stores a status request with its raw message and outbox rows, continuing the transaction\'s sequence', () =>
        withStore(async (store) => {
          const tx = await accept(store, transfer({ outbox: [event(), callback()] }));
          const request = statusRequest(tx);
          assert.deepEqual(await store.recordRequest(request), { kind: 'accepted' });
          assert.deepEqual(await store.findMessage('bank-a', request.messageId), {
            integratorId: 'bank-a',
            messageId: request.messageId,
            transactionId: tx.id,
            payloadHash: request.payloadHash,
            rawBody: request.rawBody,
            response: null,
            receivedAt: T0 + 50,
          });
          const outbox = await store.outbox(tx.id);
          assert.deepEqual(
            outbox.map((row) => [row.seq, row.channel, row.createdAt, row.status, row.integratorId]),
            [
              [1, 'event', T0, 'PENDING', 'bank-a'],
              [2, 'callback', T0, 'PENDING', 'bank-a'],
              [3, 'callback', T0 + 50, 'PENDING', 'bank-a'],
            ],
          );
          assert.equal(outbox[2]?.id, request.outbox[0]?.id);
          const stored = await store.getTransaction(tx.id);
          assert.equal(stored?.version, 1, 'a request is not a state change');
          assert.equal((await store.history(tx.id)).length, 1);
        }));

      void it('a repeated status request is a duplicate and queues nothing', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const request = statusRequest(tx);
          assert.deepEqual(await store.recordRequest(request), { kind: 'accepted' });
          assert.deepEqual(await store.recordRequest({ ...request, outbox: [callback()] }), { kind: 'duplicate', transactionId: tx.id, response: null });
          await store.setMessageResponse('bank-a', request.messageId, '{"status":"ACSC"}');
          assert.deepEqual(await store.recordRequest({ ...request, outbox: [callback()] }), { kind: 'duplicate', transactionId: tx.id, response: '{"status":"ACSC"}' });
          assert.equal((await store.outbox(tx.id)).length, 2, 'only the first request queued its callback');
        }));

      void it('hands back the stored body when a request reuses a message id with another body, queueing nothing', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const request = statusRequest(tx);
          await store.recordRequest(request);
          assert.deepEqual(await store.recordRequest({ ...request, payloadHash: 'another', outbox: [callback()] }), {
            kind: 'message_differs',
            transactionId: tx.id,
            response: null,
            storedRawBody: request.rawBody,
          });
          assert.deepEqual(
            await store.recordRequest(statusRequest(tx, { messageId: tx.messageId })),
            { kind: 'message_differs', transactionId: tx.id, response: null, storedRawBody: tx.rawBody },
            'the id of the transfer itself',
          );
          assert.equal((await store.outbox(tx.id)).length, 2);
        }));

      void it('accepts exactly one of many identical requests racing, also across instances, and answers the rest duplicate', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const tx = await accept(first);
          const request = statusRequest(tx);
          const outcomes = await Promise.all(
            Array.from({ length: 20 }, (_, index) => (index % 2 === 0 ? first : second).recordRequest({ ...request, outbox: [callback()] })),
          );
          assert.equal(outcomes.filter((outcome) => outcome.kind === 'accepted').length, 1);
          assert.equal(outcomes.filter((outcome) => outcome.kind === 'duplicate').length, 19);
          assert.deepEqual((await first.outbox(tx.id)).map((row) => row.seq), [1, 2]);
        }));

      void it('requests and state changes of one transaction committed together share one outbox sequence', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const tx = await accept(first);
          const writes = await Promise.all([
            first.recordRequest(statusRequest(tx)),
            first.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0 + 1, cause: null, dueAt: null, outbox: [event(), callback()] }),
            first.recordRequest(statusRequest(tx, { outbox: [callback(), callback()] })),
            second.recordRequest(statusRequest(tx)),
            second.recordRequest(statusRequest(tx)),
          ]);
          assert.ok(writes.every((outcome) => ('kind' in outcome ? outcome.kind === 'accepted' : outcome.ok)));
          assert.deepEqual((await first.outbox(tx.id)).map((row) => row.seq), [1, 2, 3, 4, 5, 6, 7, 8]);
        }));

      void it('refuses a request about an unknown transaction, without failing the others in its batch', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const good = statusRequest(tx);
          const orphan = statusRequest(transfer());
          const settled = await Promise.allSettled([store.recordRequest(orphan), store.recordRequest(good)]);
          assert.equal(settled[0]?.status, 'rejected');
          assert.deepEqual(settled[1], { status: 'fulfilled', value: { kind: 'accepted' } });
          assert.equal(await store.findMessage('bank-a', orphan.messageId), undefined);
          assert.equal((await store.outbox(tx.id)).length, 2);
        }));

      void it('refuses a request naming another integrator\'s transaction', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          await assert.rejects(store.recordRequest(statusRequest(tx, { integratorId: 'bank-b' })));
          assert.equal(await store.findMessage('bank-b', tx.messageId), undefined);
          assert.equal((await store.outbox(tx.id)).length, 1);
        }));
    });

    void describe('timers and leases', () => {
      void it('leases due transactions oldest timer first, skipping future and leased ones', () =>
        withStore(async (store) => {
          const late = await accept(store, transfer({ dueAt: T0 + 2 }));
          const early = await accept(store, transfer({ dueAt: T0 + 1 }));
          await accept(store, transfer({ dueAt: T0 + 60_000 }));
          await accept(store, transfer({ dueAt: null }));
          const claimed = await store.claimDue({ now: T0 + 5, limit: 10, owner: 'a', leaseMs: LEASE_MS });
          assert.deepEqual(claimed.map((record) => record.id), [early.id, late.id]);
          assert.deepEqual(await store.claimDue({ now: T0 + 6, limit: 10, owner: 'b', leaseMs: LEASE_MS }), [], 'leased rows are not handed out again');
          const limited = await store.claimDue({ now: T0 + LEASE_MS + 10, limit: 1, owner: 'b', leaseMs: LEASE_MS });
          assert.deepEqual(limited.map((record) => record.id), [early.id], 'the limit is respected, oldest first');
        }));

      void it('a lapsed lease lets another owner claim the transaction', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          assert.equal((await store.claimDue({ now: T0, limit: 10, owner: 'a', leaseMs: 1_000 })).length, 1);
          assert.equal((await store.claimDue({ now: T0 + 1_000, limit: 10, owner: 'b', leaseMs: 1_000 })).length, 0, 'still live at its last millisecond');
          assert.deepEqual(ids(await store.claimDue({ now: T0 + 1_001, limit: 10, owner: 'b', leaseMs: 1_000 })), [tx.id]);
        }));

      void it('releasing a lease makes the transaction claimable again, but only its owner can release it', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          await store.claimDue({ now: T0, limit: 10, owner: 'a', leaseMs: LEASE_MS });
          await store.releaseTransaction(tx.id, 'b');
          assert.equal((await store.claimDue({ now: T0 + 1, limit: 10, owner: 'b', leaseMs: LEASE_MS })).length, 0);
          await store.releaseTransaction(tx.id, 'a');
          assert.deepEqual(ids(await store.claimDue({ now: T0 + 2, limit: 10, owner: 'b', leaseMs: LEASE_MS })), [tx.id]);
        }));

      void it('names the holders of live leases, and releasing an owner\'s leases makes its transactions and messages claimable at once', () =>
        withStore(async (store) => {
          const byGone = await accept(store, transfer({ outbox: [event()] }));
          const byLive = await accept(store, transfer({ outbox: [] }));
          await accept(store, transfer({ dueAt: T0 + 60_000, outbox: [] }));
          assert.deepEqual(ids(await store.claimDue({ now: T0, limit: 1, owner: 'gone', leaseMs: LEASE_MS })), [byGone.id]);
          assert.deepEqual(ids(await store.claimDue({ now: T0, limit: 1, owner: 'live', leaseMs: LEASE_MS })), [byLive.id]);
          const [message] = await store.claimOutbox({ now: T0, limit: 10, owner: 'gone-too', leaseMs: LEASE_MS });
          assert.ok(message);
          assert.deepEqual(await store.leaseOwners(T0 + 1), ['gone', 'gone-too', 'live']);
          assert.deepEqual(await store.leaseOwners(T0 + LEASE_MS + 1), [], 'lapsed leases hold nothing');

          assert.equal(await store.releaseLeases(['gone', 'gone-too'], T0 + 1), 2);
          assert.deepEqual(await store.leaseOwners(T0 + 1), ['live']);
          assert.deepEqual(ids(await store.claimDue({ now: T0 + 2, limit: 10, owner: 'next', leaseMs: LEASE_MS })), [byGone.id], 'claimable at once; the live lease holds');
          assert.deepEqual(ids(await store.claimOutbox({ now: T0 + 2, limit: 10, owner: 'next', leaseMs: LEASE_MS })), [message.id]);
          assert.equal(await store.releaseLeases(['nobody'], T0 + 3), 0);
        }));

      void it('wakes the transactions that wait on a timer although the callback they wait for was delivered, and only those', () =>
        withStore(async (store) => {
          const later = T0 + 60_000;
          /** A transaction waiting for the acknowledgement of the last of `callbacks` (its data names it, as the engine's drivers do). */
          const waitingFor = (callbacks: NewOutboxMessage[], dueAt: number | null) => transfer({ dueAt, outbox: callbacks, data: { callbackId: callbacks.at(-1)!.id } });
          const answered = await accept(store, waitingFor([callback()], later));
          const unanswered = await accept(store, waitingFor([callback()], later));
          const answeredThenAgain = await accept(store, waitingFor([callback(), callback()], later));
          const done = await accept(store, waitingFor([callback()], null));
          const waitingOnNothing = await accept(store, transfer({ dueAt: later, outbox: [callback()] }));
          await store.claimOutbox({ now: T0, limit: 100, owner: 'w', leaseMs: LEASE_MS });
          for (const tx of [answered, answeredThenAgain, done, waitingOnNothing]) {
            await store.recordDelivery({ outboxId: tx.outbox[0]!.id, at: T0, durationMs: 1, httpStatus: 204, error: null, delivered: true, nextAttemptAt: null });
          }
          assert.deepEqual(await store.claimDue({ now: T0 + 1, limit: 10, owner: 'e', leaseMs: LEASE_MS }), [], 'nothing is due yet');

          assert.equal(await store.wakeDeliveredCallbacks(T0 + 1), 1);
          assert.deepEqual(ids(await store.claimDue({ now: T0 + 1, limit: 10, owner: 'e', leaseMs: LEASE_MS })), [answered.id]);
          assert.equal((await store.getTransaction(unanswered.id))?.dueAt, later, 'its callback is not delivered yet');
          assert.equal((await store.getTransaction(answeredThenAgain.id))?.dueAt, later, 'the callback it waits for is not delivered yet');
          assert.equal((await store.getTransaction(waitingOnNothing.id))?.dueAt, later, 'it waits on no callback (a request-to-pay waits on its expiry)');
          assert.equal(await store.wakeDeliveredCallbacks(T0 + 2), 0, 'a woken transaction is due, not waiting');
        }));

      void it('two instances never claim the same due transaction', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const txs = Array.from({ length: 120 }, (_, index) => transfer({ dueAt: T0 + (index % 7) }));
          await Promise.all(txs.map((tx) => first.intake(tx)));
          const claimedBy = new Map<string, string>();
          const worker = async (store: Store, owner: string): Promise<void> => {
            for (;;) {
              const claimed = await store.claimDue({ now: T0 + 10, limit: 7, owner, leaseMs: LEASE_MS });
              if (claimed.length === 0) return;
              for (const record of claimed) {
                assert.equal(claimedBy.get(record.id), undefined, `${record.id} claimed by ${claimedBy.get(record.id)} and ${owner}`);
                claimedBy.set(record.id, owner);
              }
            }
          };
          await Promise.all([worker(first, 'a1'), worker(first, 'a2'), worker(second, 'b1'), worker(second, 'b2')]);
          assert.deepEqual([...claimedBy.keys()].sort(), ids(txs));
        }));

      void it('a transaction written with leaseTransaction is its owner\'s until released or lapsed, as if claimed', () =>
        withStore(async (store, database) => {
          const other = await database.open();
          const claimDue = (at: Store, now: number, owner: string) => at.claimDue({ now, limit: 100, owner, leaseMs: LEASE_MS }).then(ids);
          const [mine, lapsing] = [transfer({ leaseTransaction: { owner: 'w', leaseMs: LEASE_MS } }), transfer({ leaseTransaction: { owner: 'w', leaseMs: LEASE_MS } })];
          await accept(store, mine);
          await accept(store, lapsing);
          assert.deepEqual(await store.leaseOwners(T0 + 1), ['w']);
          assert.deepEqual(await claimDue(other, T0 + 1, 'other'), [], 'due, but leased');
          await store.releaseTransaction(mine.id, 'w');
          assert.deepEqual(await claimDue(other, T0 + 2, 'other'), [mine.id], 'released: claimable by its timer');
          assert.deepEqual(await claimDue(other, T0 + LEASE_MS + 1, 'other'), [lapsing.id], 'claimable once the lease lapsed');
        }));

      void it('claim cost does not grow with the number of due transactions under a live lease', (t) =>
        withStore(async (store) => {
          const busy = Array.from({ length: 2_000 }, (_, index) => transfer({ dueAt: T0 + (index % 100), outbox: [] }));
          await Promise.all(busy.map((tx) => accept(store, tx)));
          // Leased: being worked on, or kept after a failed attempt until the lease lapses.
          let leased = 0;
          while (leased < busy.length) leased += (await store.claimDue({ now: T0 + 100, limit: 500, owner: 'busy', leaseMs: LEASE_MS })).length;
          const fresh = Array.from({ length: 10 }, (_, index) => transfer({ dueAt: T0 + 200 + index, outbox: [] }));
          await Promise.all(fresh.map((tx) => accept(store, tx)));
          const started = performance.now();
          const claimed = await store.claimDue({ now: T0 + 300, limit: 100, owner: 'w', leaseMs: LEASE_MS });
          const ms = performance.now() - started;
          assert.deepEqual(claimed.map((record) => record.id), fresh.map((tx) => tx.id), 'only the ones not leased, oldest timer first');
          assert.deepEqual(await store.claimDue({ now: T0 + 100 + LEASE_MS, limit: 100, owner: 'w', leaseMs: LEASE_MS }), [], 'leases live through their last millisecond');
          const lapsed = await store.claimDue({ now: T0 + 101 + LEASE_MS, limit: 5_000, owner: 'w', leaseMs: LEASE_MS });
          assert.deepEqual(ids(lapsed), ids(busy), 'claimable again once their leases lapsed');
          t.diagnostic(`claim of 10 due transactions beside ${busy.length} due under a live lease: ${ms.toFixed(1)} ms`);
        }));
    });

    void describe('outbox', () => {
      const claim = (store: Store, now: number, owner = 'w'): Promise<string[]> =>
        store.claimOutbox({ now, limit: 100, owner, leaseMs: LEASE_MS }).then((rows) => rows.map((row) => row.id));

      void it('hands out only the oldest pending message of each transaction and channel', () =>
        withStore(async (store) => {
          const e1 = event();
          const e2 = event();
          const c1 = callback();
          const c2 = callback();
          await accept(store, transfer({ outbox: [e1, c1, e2, c2] }));
          assert.deepEqual((await claim(store, T0)).sort(), [c1.id, e1.id].sort());
          assert.deepEqual(await claim(store, T0 + 1), [], 'heads are leased, their successors wait');
          await store.recordDelivery({ outboxId: e1.id, at: T0 + 2, durationMs: 12.6, httpStatus: 204, error: null, delivered: true, nextAttemptAt: null });
          assert.deepEqual(await claim(store, T0 + 3), [e2.id], 'the next event goes once the first is delivered');
        }));

      void it('holds back a queue while its head is not yet due', () =>
        withStore(async (store) => {
          const later = event({ availableAt: T0 + 1_000 });
          const next = event({ availableAt: T0 });
          await accept(store, transfer({ outbox: [later, next] }));
          assert.deepEqual(await claim(store, T0), []);
          assert.deepEqual(await claim(store, T0 + 1_000), [later.id]);
        }));

      void it('an event that keeps failing does not hold back the callback queue', () =>
        withStore(async (store) => {
          const failing = event();
          const answer = callback();
          const tx = await accept(store, transfer({ outbox: [failing, answer] }));
          let now = T0;
          for (let attempt = 1; attempt <= 3; attempt += 1) {
            const claimed = await claim(store, now);
            assert.ok(claimed.includes(failing.id), `attempt ${attempt} hands out the event again`);
            if (attempt === 1) assert.ok(claimed.includes(answer.id));
            if (claimed.includes(answer.id)) {
              await store.recordDelivery({ outboxId: answer.id, at: now, durationMs: 5, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
            }
            await store.recordDelivery({ outboxId: failing.id, at: now, durationMs: 5, httpStatus: 503, error: null, delivered: false, nextAttemptAt: now + 5_000 });
            now += 5_000;
          }
          const rows = await store.outbox(tx.id);
          const failed = rows.find((row) => row.id === failing.id);
          assert.equal(failed?.status, 'PENDING');
          assert.equal(failed?.attempts, 3);
          assert.equal(failed?.lastError, 'HTTP 503');
          assert.equal(failed?.nextAttemptAt, now);
          assert.equal(rows.find((row) => row.id === answer.id)?.status, 'DELIVERED');
          assert.equal(rows.find((row) => row.id === answer.id)?.deliveredAt, T0);
          assert.deepEqual(await claim(store, now - 1), [], 'not before its next attempt time');
        }));

      void it('a message given up on becomes UNDELIVERED and no longer holds back its queue', () =>
        withStore(async (store) => {
          const lost = callback();
          const next = callback();
          const tx = await accept(store, transfer({ outbox: [lost, next] }));
          assert.deepEqual(await claim(store, T0), [lost.id]);
          await store.recordDelivery({ outboxId: lost.id, at: T0, durationMs: 3, httpStatus: null, error: 'ECONNREFUSED', delivered: false, nextAttemptAt: null });
          const row = (await store.outbox(tx.id)).find((message) => message.id === lost.id);
          assert.equal(row?.status, 'UNDELIVERED');
          assert.equal(row?.lastError, 'ECONNREFUSED');
          assert.deepEqual(await claim(store, T0 + 1), [next.id]);
        }));

      void it('a late acknowledgement still marks a message delivered, and a late failure does not undo a delivery', () =>
        withStore(async (store) => {
          const first = event();
          const second = event();
          const tx = await accept(store, transfer({ outbox: [first, second] }));
          await store.recordDelivery({ outboxId: first.id, at: T0, durationMs: 1, httpStatus: null, error: 'timeout', delivered: false, nextAttemptAt: null });
          await store.recordDelivery({ outboxId: first.id, at: T0 + 1, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
          await store.recordDelivery({ outboxId: second.id, at: T0 + 2, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
          await store.recordDelivery({ outboxId: second.id, at: T0 + 3, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: T0 + 100 });
          const rows = await store.outbox(tx.id);
          assert.deepEqual(
            rows.map((row) => [row.status, row.deliveredAt, row.attempts]),
            [
              ['DELIVERED', T0 + 1, 2],
              ['DELIVERED', T0 + 2, 2],
            ],
          );
        }));

      void it('replays undelivered messages by id, by integrator and since a time', () =>
        withStore(async (store) => {
          const giveUp = (outboxId: string, at: number): Promise<unknown> =>
            store.recordDelivery({ outboxId, at, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: null });
          const old = event();
          const recent = event();
          const otherBank = event();
          const pending = event();
          await accept(store, transfer({ outbox: [old], receivedAt: T0 }));
          const recentTx = await accept(store, transfer({ outbox: [recent], receivedAt: T0 + 1_000 }));
          await accept(store, transfer({ integratorId: 'bank-b', outbox: [otherBank], receivedAt: T0 + 1_000 }));
          await accept(store, transfer({ outbox: [pending], receivedAt: T0 + 1_000 }));
          for (const id of [old.id, recent.id, otherBank.id]) await giveUp(id, T0 + 2_000);

          assert.equal(await store.replayUndelivered({ integratorId: 'bank-a', since: T0 + 500 }, T0 + 5_000), 1);
          assert.deepEqual((await claim(store, T0 + 5_000)).sort(), [recent.id, pending.id].sort());
          const replayed = (await store.outbox(recentTx.id))[0];
          assert.equal(replayed?.status, 'PENDING');
          assert.equal(replayed?.nextAttemptAt, T0 + 5_000);
          assert.equal(replayed?.attempts, 0, 'a replayed message starts a new retry schedule');

          assert.equal(await store.replayUndelivered({ outboxId: old.id }, T0 + 6_000), 1);
          assert.equal(await store.replayUndelivered({ outboxId: old.id }, T0 + 6_000), 0, 'only undelivered messages are replayed');
          assert.equal(await store.replayUndelivered({ integratorId: 'bank-b' }, T0 + 6_000), 1);
          assert.deepEqual((await claim(store, T0 + 6_000, 'w2')).sort(), [old.id, otherBank.id].sort());
        }));

      void it('refuses to record an attempt for an unknown message, without failing the others in its batch', () =>
        withStore(async (store) => {
          const known = event();
          const tx = await accept(store, transfer({ outbox: [known] }));
          const settled = await Promise.allSettled([
            store.recordDelivery({ outboxId: 'unknown', at: T0, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null }),
            store.recordDelivery({ outboxId: known.id, at: T0, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null }),
          ]);
          assert.equal(settled[0]?.status, 'rejected');
          assert.equal(settled[1]?.status, 'fulfilled');
          assert.equal((await store.outbox(tx.id))[0]?.status, 'DELIVERED');
        }));

      void it('two instances never claim the same outbox message', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const txs = Array.from({ length: 60 }, () => transfer({ outbox: [event(), callback(), event()] }));
          await Promise.all(txs.map((tx) => first.intake(tx)));
          const claimedBy = new Map<string, string>();
          const worker = async (store: Store, owner: string): Promise<void> => {
            for (let now = T0; ; now += 1) {
              const claimed = await store.claimOutbox({ now, limit: 9, owner, leaseMs: LEASE_MS });
              if (claimed.length === 0) return;
              for (const row of claimed) {
                assert.equal(claimedBy.get(row.id), undefined, `${row.id} claimed by ${claimedBy.get(row.id)} and ${owner}`);
                claimedBy.set(row.id, owner);
                await store.recordDelivery({ outboxId: row.id, at: now, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
              }
            }
          };
          await Promise.all([worker(first, 'a1'), worker(first, 'a2'), worker(second, 'b1'), worker(second, 'b2')]);
          assert.equal(claimedBy.size, txs.length * 3);
        }));
    });

    void describe('outbox queue heads', () => {
      const claim = (store: Store, now: number, owner = 'w'): Promise<string[]> =>
        store.claimOutbox({ now, limit: 1_000, owner, leaseMs: LEASE_MS }).then((rows) => rows.map((row) => row.id).sort());
      const deliver = (store: Store, outboxId: string, at: number): Promise<unknown> =>
        store.recordDelivery({ outboxId, at, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
      const giveUp = (store: Store, outboxId: string, at: number): Promise<unknown> =>
        store.recordDelivery({ outboxId, at, durationMs: 1, httpStatus: 503, error: null, delivered: false, nextAttemptAt: null });
      const nextAttemptAt = async (store: Store, outboxId: string): Promise<number | undefined> => (await store.outboxMessage(outboxId))?.nextAttemptAt;

      void it('an attempt that lets the next message of its queue through hands it back leased, so no claim takes it', () =>
        withStore(async (store, database) => {
          const other = await database.open();
          const [e1, e2, e3] = [event(), event({ payloadVersion: 1, body: '{"type":"second"}' }), event()];
          const c1 = callback();
          const tx = await accept(store, transfer({ outbox: [e1, c1, e2, e3] }));
          assert.deepEqual(await claim(store, T0), [e1.id, c1.id].sort());
          const leaseNext = { owner: 'w', leaseMs: LEASE_MS };
          const ack = (outboxId: string, at: number) =>
            store.recordDelivery({ outboxId, at, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null, leaseNext });
          const next = await ack(e1.id, T0 + 1);
          assert.equal(next?.id, e2.id);
          assert.equal(next?.body, JSON.stringify({ type: 'second', payload: JSON.parse(tx.rawBody) }), 'complete, with its payload');
          assert.equal(next?.status, 'PENDING');
          assert.deepEqual(await claim(other, T0 + 2, 'other'), [], 'leased to the one who was handed it');
          assert.equal((await ack(e2.id, T0 + 3))?.id, e3.id);
          assert.equal(await ack(e3.id, T0 + 4), undefined, 'the queue is empty');
          assert.equal(await ack(c1.id, T0 + 5), undefined, 'nothing behind the callback');
        }));

      void it('records a batch of attempts in one write as recordDelivery would one by one: each message, its attempt, the next of each queue leased', () =>
        withStore(async (store, database) => {
          const other = await database.open();
          const [e1, e2] = [event(), event({ payloadVersion: 1, body: '{"type":"second"}' })];
          const [f1, f2] = [event(), event()];
          const c1 = callback();
          const g1 = event();
          const tx = await accept(store, transfer({ outbox: [e1, c1, e2] }));
          const fx = await accept(store, transfer({ outbox: [f1, f2] }));
          const gx = await accept(store, transfer({ outbox: [g1] }));
          assert.deepEqual(await claim(store, T0), [e1.id, c1.id, f1.id, g1.id].sort());
          const leaseNext = { owner: 'w', leaseMs: LEASE_MS };
          const ack = { durationMs: 2.4, httpStatus: 204, error: null, delivered: true, nextAttemptAt: null, leaseNext };
          const recorded = await store.recordDeliveries([
            { outboxId: e1.id, at: T0 + 1, ...ack },
            { outboxId: c1.id, at: T0 + 2, ...ack },
            { outboxId: 'unknown', at: T0 + 2, ...ack },
            { outboxId: f1.id, at: T0 + 3, ...ack, leaseNext: undefined },
            { outboxId: g1.id, at: T0 + 4, durationMs: 1, httpStatus: 503, error: null, delivered: false, nextAttemptAt: T0 + 5_000 },
          ]);
          assert.deepEqual(recorded.unknown, ['unknown'], 'the unknown message is named, and stops none of the others');
          assert.deepEqual(
            recorded.leased.map((next) => next.id),
            [e2.id],
            'the next of a queue an attempt with leaseNext let through (f1 asked for none, the callback has none behind it)',
          );
          assert.equal(recorded.leased[0]?.body, JSON.stringify({ type: 'second', payload: JSON.parse(tx.rawBody) }), 'complete, with its payload');
          assert.deepEqual(await claim(other, T0 + 5, 'other'), [f2.id], 'e2 is leased to the batch\'s owner; f2 was let through unleased');
          const rows = new Map([...(await store.outbox(tx.id)), ...(await store.outbox(fx.id)), ...(await store.outbox(gx.id))].map((row) => [row.id, row]));
          for (const [id, at] of [[e1.id, T0 + 1], [c1.id, T0 + 2], [f1.id, T0 + 3]] as const) {
            assert.equal(rows.get(id)?.status, 'DELIVERED', id);
            assert.equal(rows.get(id)?.deliveredAt, at, 'delivered when its answer came');
            assert.equal(rows.get(id)?.attempts, 1);
            assert.deepEqual(await store.deliveryAttempts(id), [{ outboxId: id, at, durationMs: 2, httpStatus: 204, error: null, delivered: true }]);
          }
          assert.equal(rows.get(g1.id)?.status, 'PENDING', 'a failure in a batch schedules its retry as alone');
          assert.equal(rows.get(g1.id)?.nextAttemptAt, T0 + 5_000);
          assert.equal(rows.get(g1.id)?.lastError, 'HTTP 503');
          assert.deepEqual(await store.recordDeliveries([]), { leased: [], unknown: [] }, 'nothing to record writes nothing');
        }));

      void it('records the attempts of one message in a batch in their order, as one by one', () =>
        withStore(async (store) => {
          const [e1, e2] = [event(), event()];
          const tx = await accept(store, transfer({ outbox: [e1, e2] }));
          await claim(store, T0);
          const recorded = await store.recordDeliveries([
            { outboxId: e1.id, at: T0 + 1, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: T0 + 100 },
            { outboxId: e1.id, at: T0 + 2, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null, leaseNext: { owner: 'w', leaseMs: LEASE_MS } },
          ]);
          assert.deepEqual(recorded.leased.map((next) => next.id), [e2.id]);
          const [first] = await store.outbox(tx.id);
          assert.equal(first?.status, 'DELIVERED');
          assert.equal(first?.attempts, 2);
          assert.deepEqual((await store.deliveryAttempts(e1.id)).map((attempt) => attempt.delivered), [false, true]);
        }));

      void it('hands nothing back while the message stays pending, or when the next one is not yet due; giving up lets the next through', () =>
        withStore(async (store) => {
          const [e1, e2] = [event(), event({ availableAt: T0 + 10_000 })];
          const [f1, f2] = [event(), event()];
          await accept(store, transfer({ outbox: [e1, e2] }));
          await accept(store, transfer({ outbox: [f1, f2] }));
          await claim(store, T0);
          const leaseNext = { owner: 'w', leaseMs: LEASE_MS };
          const retry = { at: T0 + 1, durationMs: 1, httpStatus: 503, error: null, delivered: false, nextAttemptAt: T0 + 5_000, leaseNext };
          assert.equal(await store.recordDelivery({ outboxId: e1.id, ...retry }), undefined, 'a retry keeps the queue where it is');
          assert.equal(await store.recordDelivery({ outboxId: e1.id, ...retry, at: T0 + 5_001, httpStatus: 200, delivered: true, nextAttemptAt: null }), undefined, 'the next one is due only at its availableAt');
          assert.deepEqual(await claim(store, T0 + 10_000), [e2.id], 'and a claim takes it then');
          const given = await store.recordDelivery({ outboxId: f1.id, at: T0 + 2, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: null, leaseNext });
          assert.equal(given?.id, f2.id);
        }));

      void it('a change written with leaseOutbox leases the messages due at once to its owner and returns them as a claim would', () =>
        withStore(async (store, database) => {
          const other = await database.open();
          const tx = await accept(store, transfer({ outbox: [] }));
          const [e1, e2] = [event({ availableAt: T0 + 10, payloadVersion: 2, body: '{"type":"accepted"}' }), event({ availableAt: T0 + 10 })];
          const [c1, c2] = [callback({ availableAt: T0 + 10 }), callback({ availableAt: T0 + 10_000 })];
          const outcome = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
            at: T0 + 10,
            cause: '{"decision":"valid"}',
            dueAt: null,
            outbox: [e1, e2, c1],
            leaseOutbox: { owner: 'w', leaseMs: LEASE_MS },
          });
          assert.ok(outcome.ok);
          assert.deepEqual(
            outcome.leased.map((record) => record.id),
            [e1.id, c1.id],
            'the head of each queue, in seq order; e2 waits behind e1',
          );
          const [leasedEvent] = outcome.leased;
          assert.equal(leasedEvent?.body, JSON.stringify({ type: 'accepted', payload: { decision: 'valid' } }), 'complete, with its payload');
          assert.deepEqual(
            { status: leasedEvent?.status, attempts: leasedEvent?.attempts, seq: leasedEvent?.seq, nextAttemptAt: leasedEvent?.nextAttemptAt, integratorId: leasedEvent?.integratorId },
            { status: 'PENDING', attempts: 0, seq: 1, nextAttemptAt: T0 + 10, integratorId: 'bank-a' },
          );
          assert.deepEqual(outcome.leased, [await store.outboxMessage(e1.id), await store.outboxMessage(c1.id)], 'as stored');
          assert.deepEqual(await claim(other, T0 + 11, 'other'), [], 'nobody else can claim them while the lease is live');
          assert.deepEqual(await claim(other, T0 + 10 + LEASE_MS + 1, 'other'), [e1.id, c1.id].sort(), 'a lapsed lease lets another owner claim them');
          // A message not yet due, or behind a PENDING one of its queue, is written unleased.
          const later = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 2,
            toState: 'PAYMENT_AUTH_REQUEST_PENDING',
            at: T0 + 20,
            cause: null,
            dueAt: null,
            outbox: [c2, event({ availableAt: T0 + 20 })],
            leaseOutbox: { owner: 'w', leaseMs: LEASE_MS },
          });
          assert.ok(later.ok);
          assert.deepEqual(later.leased, []);
          const sameWithoutLease = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 3,
            toState: 'PAYMENT_AUTH_REQUEST_PENDING',
            at: T0 + 30,
            cause: null,
            dueAt: null,
            outbox: [callback({ channel: 'callback', availableAt: T0 + 30 })],
          });
          assert.deepEqual(sameWithoutLease, { ok: true, version: 4, leased: [] }, 'without leaseOutbox nothing is leased');
        }));

      void it('an intake written with leaseOutbox leases its first event, whose payload is the request itself', () =>
        withStore(async (store, database) => {
          const other = await database.open();
          const first = event({ payloadVersion: 1, body: '{"type":"received"}' });
          const tx = transfer({ outbox: [first, event()], leaseOutbox: { owner: 'w', leaseMs: LEASE_MS } });
          const outcome = await store.intake(tx);
          assert.ok(outcome.kind === 'accepted', outcome.kind);
          assert.deepEqual(outcome.leased, [await store.outboxMessage(first.id)], 'the head only, as stored');
          assert.equal(outcome.leased[0]?.body, JSON.stringify({ type: 'received', payload: JSON.parse(tx.rawBody) }));
          assert.deepEqual(await claim(other, T0 + 1, 'other'), []);
          const retried = await store.intake({ ...tx, id: randomUUID() });
          assert.deepEqual(retried, { kind: 'duplicate', transactionId: tx.id, response: null }, 'a duplicate leases nothing');
        }));

      void it('a change written with leaseOutbox leases a new queue\'s head and leaves it unclaimable for others, in a batch with other writes', () =>
        withStore(async (store, database) => {
          const other = await database.open();
          const txs = await Promise.all([accept(store, transfer({ outbox: [] })), accept(store, transfer({ outbox: [] }))]);
          const callbacks = txs.map(() => callback({ availableAt: T0 + 5 }));
          const outcomes = await Promise.all(
            txs.map((tx, index) =>
              store.applyChange({
                transactionId: tx.id,
                expectedVersion: 1,
                toState: 'PAYMENT_COMPLETED',
                at: T0 + 5,
                cause: null,
                dueAt: null,
                outbox: [callbacks[index]!],
                ...(index === 0 ? { leaseOutbox: { owner: 'w', leaseMs: LEASE_MS } } : {}),
              }),
            ),
          );
          assert.deepEqual(
            outcomes.map((outcome) => (outcome.ok ? outcome.leased.map((record) => record.id) : outcome.reason)),
            [[callbacks[0]!.id], []],
          );
          assert.deepEqual(await claim(other, T0 + 6, 'other'), [callbacks[1]!.id], 'only the unleased one is claimable');
        }));

      void it('does not hand back the next message while another owner holds its lease', () =>
        withStore(async (store) => {
          const [e1, e2] = [event(), event()];
          await accept(store, transfer({ outbox: [e1, e2] }));
          assert.deepEqual(await claim(store, T0, 'a'), [e1.id]);
          const leaseNext = (owner: string) => ({ owner, leaseMs: LEASE_MS });
          // a gives e1 up and is handed e2; an operator replays e1, which b then delivers.
          const given = await store.recordDelivery({ outboxId: e1.id, at: T0 + 1, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: null, leaseNext: leaseNext('a') });
          assert.equal(given?.id, e2.id);
          assert.equal(await store.replayUndelivered({ outboxId: e1.id }, T0 + 2), 1);
          const delivered = await store.recordDelivery({ outboxId: e1.id, at: T0 + 3, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null, leaseNext: leaseNext('b') });
          assert.equal(delivered, undefined, 'e2 stays with a while its lease is live');
          assert.deepEqual(await claim(store, T0 + 4, 'c'), [], 'nor can anyone claim it');
          assert.deepEqual(await claim(store, T0 + LEASE_MS + 2, 'c'), [e2.id], 'once the lease lapses it is claimable');
        }));

      void it('only the head of a transaction\'s event queue is claimable, and the next becomes claimable once the head is delivered', () =>
        withStore(async (store) => {
          const [e1, e2, e3] = [event(), event(), event({ availableAt: T0 + 1 })];
          const [c1, c2] = [callback({ availableAt: T0 + 1 }), callback({ availableAt: T0 + 100 })];
          assert.ok(e1 && e2 && e3 && c1 && c2);
          // Rows queued by the intake itself, by a later change and by a later request.
          const tx = await accept(store, transfer({ outbox: [e1, e2] }));
          assert.deepEqual(
            await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0 + 1, cause: null, dueAt: null, outbox: [e3, c1] }),
            { ok: true, version: 2, leased: [] },
          );
          assert.deepEqual(await store.recordRequest(statusRequest(tx, { receivedAt: T0 + 2, outbox: [c2] })), { kind: 'accepted' });

          assert.deepEqual(await claim(store, T0 + 2), [e1.id, c1.id].sort(), 'one head per (transaction, channel)');
          assert.deepEqual(await claim(store, T0 + 3), [], 'heads are leased, the rows behind them wait');
          // Operators see when a waiting row may go at the earliest, never a placeholder.
          const pending = await store.listOutbox({ status: 'PENDING', limit: 10 });
          assert.equal(pending.length, 5);
          for (const row of pending) {
            assert.ok(Number.isSafeInteger(row.nextAttemptAt) && row.nextAttemptAt <= T0 + 100, `${row.seq}: nextAttemptAt ${row.nextAttemptAt}`);
            assert.doesNotThrow(() => new Date(row.nextAttemptAt).toISOString());
          }
          assert.deepEqual(
            pending.filter((row) => row.id !== e1.id && row.id !== c1.id).map((row) => [row.id, row.nextAttemptAt]).sort(),
            [
              [e2.id, T0],
              [e3.id, T0 + 1],
              [c2.id, T0 + 100],
            ].sort(),
            'a waiting row reports its availableAt',
          );

          await deliver(store, e1.id, T0 + 10);
          assert.equal(await nextAttemptAt(store, e2.id), T0 + 10, 'due from when the row ahead of it was delivered');
          assert.equal(await nextAttemptAt(store, e3.id), T0 + 1, 'still waiting');
          assert.deepEqual(await claim(store, T0 + 10), [e2.id]);
          await deliver(store, e2.id, T0 + 20);
          assert.deepEqual(await claim(store, T0 + 20), [e3.id]);

          await deliver(store, c1.id, T0 + 21);
          assert.equal(await nextAttemptAt(store, c2.id), T0 + 100, 'not before its own availableAt');
          assert.deepEqual(await claim(store, T0 + 99), []);
          assert.deepEqual(await claim(store, T0 + 100), [c2.id]);
          await deliver(store, e3.id, T0 + 101);
          await deliver(store, c2.id, T0 + 101);
          assert.deepEqual(await claim(store, T0 + LEASE_MS * 10), []);
          assert.deepEqual(await store.listOutbox({ status: 'PENDING', limit: 10 }), []);
        }));

      void it('a message given up on (UNDELIVERED) lets the next one through', () =>
        withStore(async (store) => {
          const [lost, next, last] = [callback(), callback(), callback()];
          assert.ok(lost && next && last);
          await accept(store, transfer({ outbox: [lost, next, last] }));
          assert.deepEqual(await claim(store, T0), [lost.id]);
          await giveUp(store, lost.id, T0 + 5);
          assert.equal((await store.outboxMessage(lost.id))?.status, 'UNDELIVERED');
          assert.equal(await nextAttemptAt(store, next.id), T0 + 5, 'due from when the one ahead was given up on');
          assert.deepEqual(await claim(store, T0 + 5), [next.id]);

          // A late acknowledgement of the lost one does not let a second message through.
          await deliver(store, lost.id, T0 + 6);
          assert.equal((await store.outboxMessage(lost.id))?.status, 'DELIVERED');
          assert.equal(await nextAttemptAt(store, last.id), T0, 'the last one still waits');
          assert.deepEqual(await claim(store, T0 + LEASE_MS), [], 'next is leased, last waits behind it');

          // A message whose retry is scheduled keeps its queue waiting until then.
          await store.recordDelivery({ outboxId: next.id, at: T0 + 7, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: T0 + 1_000 });
          assert.deepEqual(await claim(store, T0 + 999), []);
          assert.deepEqual(await claim(store, T0 + 1_000), [next.id]);
          await giveUp(store, next.id, T0 + 1_001);
          assert.deepEqual(await claim(store, T0 + 1_001), [last.id]);
        }));

      void it('a replayed message goes out before the ones queued behind it', () =>
        withStore(async (store) => {
          // Replayed ahead of a message that was already due.
          const [m1, m2, m3] = [event(), event(), event()];
          assert.ok(m1 && m2 && m3);
          await accept(store, transfer({ outbox: [m1, m2, m3] }));
          await giveUp(store, m1.id, T0 + 1);
          assert.equal(await nextAttemptAt(store, m2.id), T0 + 1);
          assert.equal(await store.replayUndelivered({ outboxId: m1.id }, T0 + 2), 1);
          assert.equal(await nextAttemptAt(store, m1.id), T0 + 2);
          assert.deepEqual(await claim(store, T0 + 2), [m1.id], 'the replayed message first; the one that was due waits');
          await deliver(store, m1.id, T0 + 3);
          assert.deepEqual(await claim(store, T0 + 3), [m2.id]);
          await deliver(store, m2.id, T0 + 4);
          assert.deepEqual(await claim(store, T0 + 4), [m3.id]);

          // Two messages of one queue replayed together, the second behind the first.
          const [n1, n2, n3] = [event(), event(), event()];
          assert.ok(n1 && n2 && n3);
          await accept(store, transfer({ integratorId: 'bank-r', outbox: [n1, n2, n3] }));
          await giveUp(store, n1.id, T0 + 1);
          await giveUp(store, n2.id, T0 + 2);
          assert.equal(await store.replayUndelivered({ integratorId: 'bank-r' }, T0 + 10), 2);
          assert.equal(await nextAttemptAt(store, n1.id), T0 + 10);
          assert.equal(await nextAttemptAt(store, n2.id), T0, 'waits behind the first: reports its availableAt');
          assert.deepEqual(await claim(store, T0 + 10), [n1.id]);
          await store.recordDelivery({ outboxId: n1.id, at: T0 + 11, durationMs: 1, httpStatus: 503, error: null, delivered: false, nextAttemptAt: T0 + 500 });
          assert.deepEqual(await claim(store, T0 + 499), [], 'the queue waits for its head\'s retry');
          assert.deepEqual(await claim(store, T0 + 500), [n1.id]);
          await deliver(store, n1.id, T0 + 501);
          assert.deepEqual(await claim(store, T0 + 501), [n2.id]);
          await deliver(store, n2.id, T0 + 502);
          assert.deepEqual(await claim(store, T0 + 502), [n3.id]);

          // Replayed behind a message still pending: it waits for that one.
          const [p1, p2, p3] = [callback(), callback(), callback()];
          assert.ok(p1 && p2 && p3);
          await accept(store, transfer({ integratorId: 'bank-p', outbox: [p1, p2, p3] }));
          await giveUp(store, p1.id, T0 + 1);
          await giveUp(store, p2.id, T0 + 2);
          assert.equal(await store.replayUndelivered({ outboxId: p1.id }, T0 + 3), 1);
          assert.equal(await store.replayUndelivered({ outboxId: p2.id }, T0 + 4), 1);
          assert.equal(await nextAttemptAt(store, p2.id), T0);
          assert.deepEqual(await claim(store, T0 + 4), [p1.id]);
          await deliver(store, p1.id, T0 + 5);
          assert.equal(await nextAttemptAt(store, p2.id), T0 + 5);
          assert.deepEqual(await claim(store, T0 + 5), [p2.id]);
          await deliver(store, p2.id, T0 + 6);
          assert.deepEqual(await claim(store, T0 + 6), [p3.id]);

          // A replayed message at the head of its queue is due at once, whatever its availableAt.
          const early = event({ availableAt: T0 + 1_000 });
          await accept(store, transfer({ integratorId: 'bank-e', outbox: [early] }));
          await giveUp(store, early.id, T0 + 7);
          assert.equal(await store.replayUndelivered({ outboxId: early.id }, T0 + 8), 1);
          assert.equal(await nextAttemptAt(store, early.id), T0 + 8);
          assert.deepEqual(await claim(store, T0 + 8), [early.id]);
        }));

      void it('a message queued while another instance delivers the head is never stranded', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          for (let round = 0; round < 20; round += 1) {
            const head = event();
            const tx = await accept(first, transfer({ outbox: [head] }));
            assert.deepEqual(await claim(first, T0 + round), [head.id]);
            const queued = [event(), event()];
            // The change queues behind the head while the head's delivery is being recorded elsewhere.
            const [change] = await Promise.all([
              first.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0 + round, cause: null, dueAt: null, outbox: queued }),
              deliver(second, head.id, T0 + round),
            ]);
            assert.ok(change.ok);
            assert.deepEqual(await claim(second, T0 + round + 1), [queued[0]?.id], `round ${round}: the next one is due`);
            await deliver(first, queued[0]?.id ?? '', T0 + round + 1);
            assert.deepEqual(await claim(first, T0 + round + 2), [queued[1]?.id], `round ${round}: and the one after it`);
            await deliver(second, queued[1]?.id ?? '', T0 + round + 2);
          }
        }));

      void it('claim cost does not grow with the number of queued non-head messages', (t) =>
        withStore(async (store) => {
          const queues = 50;
          const behind = 100;
          const timedClaim = async (now: number, owner: string): Promise<{ ids: string[]; ms: number }> => {
            const started = performance.now();
            const ids = await claim(store, now, owner);
            return { ids, ms: performance.now() - started };
          };
          await claim(store, T0 - 1, 'warm-up');
          // The same number of heads, first with nothing queued behind them, then with 5 000 rows.
          const alone = Array.from({ length: queues }, () => transfer({ integratorId: 'bank-alone', outbox: [event()] }));
          await Promise.all(alone.map((tx) => accept(store, tx)));
          const few = await timedClaim(T0, 'w1');
          assert.deepEqual(few.ids, alone.map((tx) => tx.outbox[0]?.id).sort());

          const busy = Array.from({ length: queues }, () => transfer({ outbox: Array.from({ length: behind + 1 }, () => event()) }));
          await Promise.all(busy.map((tx) => accept(store, tx)));
          const many = await timedClaim(T0, 'w2');
          assert.deepEqual(many.ids, busy.map((tx) => tx.outbox[0]?.id).sort(), 'the heads, and nothing behind them');
          const again = await timedClaim(T0 + 1, 'w3');
          assert.deepEqual(again.ids, [], 'heads leased: nothing else is claimable');
          await Promise.all(busy.map((tx) => deliver(store, tx.outbox[0]?.id ?? '', T0 + 2)));
          const next = await timedClaim(T0 + 2, 'w4');
          assert.deepEqual(next.ids, busy.map((tx) => tx.outbox[1]?.id).sort(), 'the second rows, once the heads are delivered');
          t.diagnostic(
            `claim of ${queues} heads: ${few.ms.toFixed(1)} ms with nothing queued; with ${queues * behind} queued behind them ` +
              `${many.ms.toFixed(1)} ms, ${again.ms.toFixed(1)} ms with every head leased, ${next.ms.toFixed(1)} ms for the next heads`,
          );
        }));

      void it('claim cost does not grow with the due messages of an excluded endpoint', (t) =>
        withStore(async (store) => {
          const slow = 2_000;
          const timedClaim = async (now: number, owner: string, excludeEndpoints: OutboxEndpoint[]): Promise<{ ids: string[]; ms: number }> => {
            const started = performance.now();
            const rows = await store.claimOutbox({ now, limit: 100, owner, leaseMs: LEASE_MS, excludeEndpoints });
            return { ids: rows.map((row) => row.id).sort(), ms: performance.now() - started };
          };
          const excluded: OutboxEndpoint[] = [{ integratorId: 'bank-slow', channel: 'event' }];
          await timedClaim(T0 - 1, 'warm-up', excluded);
          const first = Array.from({ length: 10 }, () => transfer({ outbox: [event()] }));
          await Promise.all(first.map((tx) => accept(store, tx)));
          const alone = await timedClaim(T0, 'w1', excluded);
          assert.deepEqual(alone.ids, first.map((tx) => tx.outbox[0]?.id).sort());

          const backlog = Array.from({ length: slow }, () => transfer({ integratorId: 'bank-slow', outbox: [event(), event()] }));
          await Promise.all(backlog.map((tx) => accept(store, tx)));
          const second = Array.from({ length: 10 }, () => transfer({ outbox: [event()] }));
          await Promise.all(second.map((tx) => accept(store, tx)));
          const behind = await timedClaim(T0, 'w2', excluded);
          assert.deepEqual(behind.ids, second.map((tx) => tx.outbox[0]?.id).sort(), 'only the endpoints not excluded');
          const all = await timedClaim(T0, 'w3', []);
          assert.equal(all.ids.length, 100, 'the excluded messages were left unleased');
          assert.ok(all.ids.every((id) => backlog.some((tx) => tx.outbox[0]?.id === id)));
          t.diagnostic(`claim of 10 heads: ${alone.ms.toFixed(1)} ms alone, ${behind.ms.toFixed(1)} ms beside ${slow} due heads of an excluded endpoint`);
        }));
    });

    void describe('outbox for the dispatcher and operators', () => {
      const giveUp = (store: Store, outboxId: string, at: number): Promise<unknown> =>
        store.recordDelivery({ outboxId, at, durationMs: 1, httpStatus: 500, error: null, delivered: false, nextAttemptAt: null });

      void it('leaves the messages of excluded endpoints unclaimed and unleased', () =>
        withStore(async (store) => {
          const eventA = event();
          const callbackA = callback();
          const eventB = event();
          await accept(store, transfer({ outbox: [eventA, callbackA] }));
          await accept(store, transfer({ integratorId: 'bank-b', outbox: [eventB] }));
          const first = await store.claimOutbox({
            now: T0,
            limit: 100,
            owner: 'w',
            leaseMs: LEASE_MS,
            excludeEndpoints: [{ integratorId: 'bank-a', channel: 'event' }],
          });
          assert.deepEqual(ids(first), [callbackA.id, eventB.id].sort(), 'only the events of bank-a are held back');
          const second = await store.claimOutbox({ now: T0 + 1, limit: 100, owner: 'w', leaseMs: LEASE_MS, excludeEndpoints: [] });
          assert.deepEqual(ids(second), [eventA.id], 'an excluded message was never leased');
        }));

      void it('reads one message by id, and every attempt recorded for it in order', () =>
        withStore(async (store) => {
          const message = callback();
          const tx = await accept(store, transfer({ outbox: [message] }));
          assert.equal(await store.outboxMessage('no-such-id'), undefined);
          assert.deepEqual(await store.deliveryAttempts(message.id), []);
          await store.recordDelivery({ outboxId: message.id, at: T0 + 1, durationMs: 15_000, httpStatus: null, error: 'timed out after 15000 ms', delivered: false, nextAttemptAt: T0 + 5_000 });
          await store.recordDelivery({ outboxId: message.id, at: T0 + 5_001, durationMs: 7.4, httpStatus: 503, error: null, delivered: false, nextAttemptAt: T0 + 300_000 });
          await store.recordDelivery({ outboxId: message.id, at: T0 + 300_001, durationMs: 3, httpStatus: 202, error: null, delivered: true, nextAttemptAt: null });
          assert.deepEqual(await store.outboxMessage(message.id), (await store.outbox(tx.id))[0]);
          assert.deepEqual(await store.deliveryAttempts(message.id), [
            { outboxId: message.id, at: T0 + 1, durationMs: 15_000, httpStatus: null, error: 'timed out after 15000 ms', delivered: false },
            { outboxId: message.id, at: T0 + 5_001, durationMs: 7, httpStatus: 503, error: null, delivered: false },
            { outboxId: message.id, at: T0 + 300_001, durationMs: 3, httpStatus: 202, error: null, delivered: true },
          ]);
        }));

      void it('lists undelivered or pending messages oldest first, by integrator, page by page', () =>
        withStore(async (store) => {
          const lost = [event(), event(), event()];
          await accept(store, transfer({ outbox: [lost[0] ?? event()], receivedAt: T0 }));
          await accept(store, transfer({ outbox: [lost[1] ?? event()], receivedAt: T0 + 10 }));
          await accept(store, transfer({ outbox: [lost[2] ?? event()], receivedAt: T0 + 10 }));
          const otherBank = event();
          await accept(store, transfer({ integratorId: 'bank-b', outbox: [otherBank], receivedAt: T0 + 5 }));
          const pending = callback();
          await accept(store, transfer({ outbox: [pending], receivedAt: T0 + 20 }));
          for (const message of [...lost, otherBank]) await giveUp(store, message.id, T0 + 100);

          const all = await store.listOutbox({ status: 'UNDELIVERED', limit: 10 });
          const order = [lost[0], otherBank, ...[lost[1], lost[2]].sort((a, b) => ((a?.id ?? '') < (b?.id ?? '') ? -1 : 1))].map((m) => m?.id);
          assert.deepEqual(all.map((row) => row.id), order, 'oldest first, ties by id');
          assert.ok(all.every((row) => row.status === 'UNDELIVERED'));

          const bankA = await store.listOutbox({ status: 'UNDELIVERED', integratorId: 'bank-a', limit: 2 });
          assert.deepEqual(bankA.map((row) => row.id), order.filter((id) => id !== otherBank.id).slice(0, 2));
          const last = bankA.at(-1);
          assert.ok(last);
          const rest = await store.listOutbox({ status: 'UNDELIVERED', integratorId: 'bank-a', limit: 2, after: { createdAt: last.createdAt, id: last.id } });
          assert.deepEqual(rest.map((row) => row.id), order.filter((id) => id !== otherBank.id).slice(2));

          assert.deepEqual((await store.listOutbox({ status: 'PENDING', limit: 10 })).map((row) => row.id), [pending.id]);
          assert.deepEqual(await store.listOutbox({ status: 'UNDELIVERED', integratorId: 'bank-c', limit: 10 }), []);
        }));
    });

    void describe('operators finding transactions', () => {
      const summaryIds = (rows: readonly { id: string }[]) => rows.map((row) => row.id);
      const BANKS = ['bank-a', 'bank-b'];

      void it('finds a transaction by its id, uetr, message id (also of a later request about it) and end-to-end id, among the integrators asked', () =>
        withStore(async (store) => {
          const tx = await accept(store, transfer({ endToEndId: 'E2E-0001' }));
          const sameUetrOtherBank = await accept(store, transfer({ integratorId: 'bank-b', uetr: tx.uetr, endToEndId: 'E2E-0001' }));
          await accept(store, transfer());
          const request = statusRequest(tx);
          assert.deepEqual(await store.recordRequest(request), { kind: 'accepted' });

          const [found] = await store.searchTransactions({ integratorIds: ['bank-a'], uetr: tx.uetr, limit: 10 });
          assert.deepEqual(found, {
            id: tx.id,
            integratorId: 'bank-a',
            kind: 'CREDIT_TRANSFER',
            uetr: tx.uetr,
            scheme: 'ZA_RPP',
            messageId: tx.messageId,
            endToEndId: 'E2E-0001',
            state: 'PAYMENT_AUTH_REQUEST_RECEIVED',
            amountMinor: 12_345n,
            currency: 'ZAR',
            createdAt: T0,
            updatedAt: T0,
            outcome: null,
            reasonCode: null,
          });
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: ['bank-a'], id: tx.id, limit: 10 })), [tx.id]);
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: ['bank-a'], messageId: tx.messageId, limit: 10 })), [tx.id]);
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: ['bank-a'], messageId: request.messageId, limit: 10 })), [tx.id], 'a status request leads to its transaction');
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: ['bank-a'], endToEndId: 'E2E-0001', limit: 10 })), [tx.id]);
          assert.deepEqual(
            summaryIds(await store.searchTransactions({ integratorIds: BANKS, uetr: tx.uetr, limit: 10 })).sort(),
            [tx.id, sameUetrOtherBank.id].sort(),
            'one uetr, two integrators',
          );
          assert.deepEqual(await store.searchTransactions({ integratorIds: ['bank-c'], uetr: tx.uetr, limit: 10 }), [], 'only the integrators asked');
          assert.deepEqual(await store.searchTransactions({ integratorIds: BANKS, messageId: 'no-such-message', limit: 10 }), []);
          assert.equal((await store.searchTransactions({ integratorIds: ['bank-a'], uetr: randomUUID(), limit: 10 })).length, 0);
        }));

      void it('lists the transactions of a time range newest first, filtered by state, scheme, kind and outcome, page by page', () =>
        withStore(async (store) => {
          const made: NewTransaction[] = [];
          for (let i = 0; i < 7; i += 1) {
            made.push(await accept(store, transfer({ receivedAt: T0 + i * 10, integratorId: i === 3 ? 'bank-b' : 'bank-a', scheme: i === 5 ? 'ZA_RTC' : 'ZA_RPP' })));
          }
          // Two created in the same millisecond are ordered by id.
          made.push(await accept(store, transfer({ receivedAt: T0 + 60 })));
          const decided = made[1]!;
          await store.applyChange({
            transactionId: decided.id,
            expectedVersion: 1,
            toState: 'PAYMENT_AUTH_REQUEST_REJECTED',
            at: T0 + 100,
            cause: null,
            dueAt: null,
            outbox: [],
            outcome: { outcome: 'REJECTED', reasonCode: 'AM02' },
          });
          const newestFirst = [...made].sort((a, b) => b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : -1));

          const everything = await store.searchTransactions({ integratorIds: BANKS, limit: 100 });
          assert.deepEqual(summaryIds(everything), newestFirst.map((tx) => tx.id));
          const pages: string[] = [];
          let before: { createdAt: number; id: string } | undefined;
          for (;;) {
            const page = await store.searchTransactions({ integratorIds: BANKS, limit: 3, ...(before === undefined ? {} : { before }) });
            pages.push(...summaryIds(page));
            const last = page.at(-1);
            if (page.length < 3 || last === undefined) break;
            before = { createdAt: last.createdAt, id: last.id };
          }
          assert.deepEqual(pages, newestFirst.map((tx) => tx.id), 'pages continue where the last one ended');

          const range = await store.searchTransactions({ integratorIds: BANKS, from: T0 + 10, to: T0 + 40, limit: 100 });
          assert.deepEqual(summaryIds(range), [made[3]!.id, made[2]!.id, made[1]!.id], 'from inclusive, to exclusive');
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: ['bank-b'], limit: 100 })), [made[3]!.id]);
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: BANKS, scheme: 'ZA_RTC', limit: 100 })), [made[5]!.id]);
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: BANKS, state: 'PAYMENT_AUTH_REQUEST_REJECTED', limit: 100 })), [decided.id]);
          const rejected = await store.searchTransactions({ integratorIds: BANKS, outcome: 'REJECTED', limit: 100 });
          assert.deepEqual(rejected.map((row) => [row.id, row.outcome, row.reasonCode]), [[decided.id, 'REJECTED', 'AM02']]);
          assert.equal((await store.searchTransactions({ integratorIds: BANKS, kinds: ['REQUEST_TO_PAY'], limit: 100 })).length, 0);
          assert.equal((await store.searchTransactions({ integratorIds: BANKS, kinds: ['CREDIT_TRANSFER'], limit: 100 })).length, made.length);
        }));

      void it('lists exactly the transactions of the kinds asked for, such as the inbound ones, newest first and page by page, with every other filter', () =>
        withStore(async (store) => {
          const inboundKinds = ['INBOUND_CREDIT_TRANSFER', 'INBOUND_IDENTIFIER_DETERMINATION'];
          const outbound = [
            await accept(store, transfer({ receivedAt: T0 })),
            await accept(store, transfer({ kind: 'IDENTIFIER_DETERMINATION', state: 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED', receivedAt: T0 + 20 })),
            await accept(store, transfer({ kind: 'REQUEST_TO_PAY', state: 'REQUEST_TO_PAY_RECEIVED', receivedAt: T0 + 40 })),
          ];
          const lookup = await accept(store, transfer({ kind: 'INBOUND_IDENTIFIER_DETERMINATION', state: 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED', receivedAt: T0 + 10 }));
          // The credit after the lookup carries its uetr, as a scheme's lookup-then-credit does.
          const credit = await accept(store, transfer({ kind: 'INBOUND_CREDIT_TRANSFER', uetr: lookup.uetr, receivedAt: T0 + 30 }));
          const elsewhere = await accept(store, transfer({ kind: 'INBOUND_CREDIT_TRANSFER', integratorId: 'bank-b', scheme: 'ZA_RTC', receivedAt: T0 + 50 }));

          const inbound = await store.searchTransactions({ integratorIds: BANKS, kinds: inboundKinds, limit: 100 });
          assert.deepEqual(summaryIds(inbound), [elsewhere.id, credit.id, lookup.id], 'exactly the inbound ones, newest first');
          assert.deepEqual(
            inbound.map((row) => row.kind),
            ['INBOUND_CREDIT_TRANSFER', 'INBOUND_CREDIT_TRANSFER', 'INBOUND_IDENTIFIER_DETERMINATION'],
          );
          const outboundKinds = ['CREDIT_TRANSFER', 'IDENTIFIER_DETERMINATION', 'REQUEST_TO_PAY'];
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: BANKS, kinds: outboundKinds, limit: 100 })), outbound.map((tx) => tx.id).reverse());
          const page = await store.searchTransactions({ integratorIds: BANKS, kinds: inboundKinds, limit: 2 });
          assert.deepEqual(summaryIds(page), [elsewhere.id, credit.id], 'a page of them');
          const last = page.at(-1);
          assert.ok(last);
          assert.deepEqual(
            summaryIds(await store.searchTransactions({ integratorIds: BANKS, kinds: inboundKinds, before: { createdAt: last.createdAt, id: last.id }, limit: 2 })),
            [lookup.id],
            'the next page continues among them',
          );
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: BANKS, uetr: lookup.uetr, kinds: inboundKinds, limit: 100 })), [credit.id, lookup.id], 'by uetr');
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: BANKS, uetr: lookup.uetr, kinds: ['INBOUND_CREDIT_TRANSFER'], limit: 100 })), [credit.id]);
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: ['bank-a'], kinds: inboundKinds, limit: 100 })), [credit.id, lookup.id], 'of the integrators asked');
          assert.deepEqual(summaryIds(await store.searchTransactions({ integratorIds: BANKS, kinds: inboundKinds, scheme: 'ZA_RTC', limit: 100 })), [elsewhere.id]);
          assert.deepEqual(await store.searchTransactions({ integratorIds: BANKS, kinds: [], limit: 100 }), [], 'no kind, no transaction');
        }));

      void it('keeps the outcome a change decided through later changes that decide none', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const change = { transactionId: tx.id, at: T0 + 1, cause: null, dueAt: null, outbox: [] };
          await store.applyChange({ ...change, expectedVersion: 1, toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', outcome: { outcome: 'APPROVED', reasonCode: null } });
          await store.applyChange({ ...change, expectedVersion: 2, toState: 'PAYMENT_AUTH_REQUEST_PENDING' });
          const [row] = await store.searchTransactions({ integratorIds: ['bank-a'], id: tx.id, limit: 1 });
          assert.deepEqual([row?.state, row?.outcome, row?.reasonCode], ['PAYMENT_AUTH_REQUEST_PENDING', 'APPROVED', null]);
        }));

      void it("reports each scheme's health: in flight now, and of the window's transactions the timeouts, outcomes by reason code and the time to outcome", () =>
        withStore(async (store) => {
          const decide = (tx: NewTransaction, after: number, toState: string, outcome: { outcome: string; reasonCode: string | null } | undefined, dueAt: number | null = null) =>
            store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState, at: tx.receivedAt + after, cause: null, dueAt, outbox: [], ...(outcome === undefined ? {} : { outcome }) });
          const rpp: NewTransaction[] = [];
          for (let i = 0; i < 6; i += 1) rpp.push(await accept(store, transfer({ receivedAt: T0 + i })));
          // Approved after 100..400 ms; one rejected AC01 after 1,000 ms; one left waiting (in flight).
          for (const [index, after] of [100, 200, 300, 400].entries()) await decide(rpp[index]!, after, 'PAYMENT_AUTH_REQUEST_ACCEPTED', { outcome: 'APPROVED', reasonCode: null });
          await decide(rpp[4]!, 1_000, 'PAYMENT_AUTH_REQUEST_REJECTED', { outcome: 'REJECTED', reasonCode: 'AC01' });
          const rtc = await accept(store, transfer({ scheme: 'ZA_RTC', receivedAt: T0 + 10 }));
          // Past its time budget, still waiting (enquiries due): timed out and in flight.
          await decide(rtc, 5_000, 'PAYMENT_AUTH_TIMEOUT', undefined, T0 + 60_000);
          // Before the window: counts in flight only.
          await accept(store, transfer({ scheme: 'ZA_RTC', receivedAt: T0 - 10_000 }));

          const health = await store.schemeHealth(T0, T0 + 60_000);
          assert.deepEqual(health, [
            { scheme: 'ZA_RPP', inFlight: 1, created: 6, timedOut: 0, outcomes: [{ outcome: 'APPROVED', reasonCode: null, count: 4 }, { outcome: 'REJECTED', reasonCode: 'AC01', count: 1 }], latencyMs: { count: 5, p50: 300, p95: 1_000, max: 1_000 } },
            { scheme: 'ZA_RTC', inFlight: 2, created: 1, timedOut: 1, outcomes: [], latencyMs: null },
          ]);
          assert.deepEqual(await store.schemeHealth(T0 + 100_000, T0 + 200_000), [
            { scheme: 'ZA_RPP', inFlight: 1, created: 0, timedOut: 0, outcomes: [], latencyMs: null },
            { scheme: 'ZA_RTC', inFlight: 2, created: 0, timedOut: 0, outcomes: [], latencyMs: null },
          ], 'a window without transactions still shows what is in flight');
        }));
    });

    void describe('operators finding what waits', () => {
      const OPEN = [
        { kind: 'CREDIT_TRANSFER', states: ['PAYMENT_AUTH_REQUEST_RECEIVED', 'PAYMENT_AUTH_REQUEST_DELIVERED', 'PAYMENT_AUTH_TIMEOUT'] },
        { kind: 'REQUEST_TO_PAY', states: ['REQUEST_TO_PAY_STATUS_PENDING'] },
      ];
      const move = (store: Store, tx: NewTransaction, toState: string, dueAt: number | null) =>
        store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState, at: tx.receivedAt + 1, cause: null, dueAt, outbox: [] });

      void it('lists the transactions not final with their next timer, waiting longest first, narrowed, a page at a time', () =>
        withStore(async (store) => {
          const oldest = await accept(store, transfer({ receivedAt: T0 - 5_000, dueAt: T0 + 1 }));
          const timedOut = await accept(store, transfer({ receivedAt: T0 - 4_000, scheme: 'ZA_RTC', integratorId: 'bank-b' }));
          await move(store, timedOut, 'PAYMENT_AUTH_TIMEOUT', T0 + 30_000);
          const done = await accept(store, transfer({ receivedAt: T0 - 3_000 }));
          await move(store, done, 'PAYMENT_AUTH_RESPONSE_DELIVERED', null);
          // Final, though a timer is left (a last notice to the scheme): not waiting.
          const expired = await accept(store, transfer({ receivedAt: T0 - 2_500, kind: 'REQUEST_TO_PAY', state: 'REQUEST_TO_PAY_STATUS_EXPIRED', dueAt: T0 + 5 }));
          // A state another kind can leave, in a kind that is not asked for.
          const otherKind = await accept(store, transfer({ receivedAt: T0 - 2_000, kind: 'INBOUND_CREDIT_TRANSFER', dueAt: T0 + 9 }));
          const newest = await accept(store, transfer({ receivedAt: T0 - 1_000, dueAt: T0 + 2 }));
          const sameMs = [await accept(store, transfer({ receivedAt: T0, dueAt: T0 + 3 })), await accept(store, transfer({ receivedAt: T0, dueAt: T0 + 4 }))].sort((a, b) => (a.id < b.id ? -1 : 1));

          const all = await store.waitingTransactions({ open: OPEN, limit: 100 });
          assert.deepEqual(all.map((row) => row.id), [oldest.id, timedOut.id, newest.id, ...sameMs.map((tx) => tx.id)], 'longest waiting first, by id within a millisecond');
          assert.ok(!all.some((row) => [done.id, expired.id, otherKind.id].includes(row.id)), 'final states and other kinds are not waiting');
          const first = all[1]!;
          assert.deepEqual([first.state, first.dueAt, first.createdAt, first.scheme, first.integratorId, first.outcome], ['PAYMENT_AUTH_TIMEOUT', T0 + 30_000, T0 - 4_000, 'ZA_RTC', 'bank-b', null]);

          assert.deepEqual((await store.waitingTransactions({ open: OPEN, scheme: 'ZA_RTC', limit: 100 })).map((row) => row.id), [timedOut.id]);
          assert.deepEqual((await store.waitingTransactions({ open: OPEN, integratorId: 'bank-b', limit: 100 })).map((row) => row.id), [timedOut.id]);
          assert.deepEqual((await store.waitingTransactions({ open: OPEN, state: 'PAYMENT_AUTH_TIMEOUT', limit: 100 })).map((row) => row.id), [timedOut.id]);
          // Decided, its callback still due: waiting, but not for an answer.
          await store.applyChange({ transactionId: newest.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_REQUEST_DELIVERED', at: T0, cause: null, dueAt: T0 + 2, outbox: [], outcome: { outcome: 'APPROVED', reasonCode: null } });
          assert.deepEqual((await store.waitingTransactions({ open: OPEN, decided: true, limit: 100 })).map((row) => row.id), [newest.id]);
          assert.deepEqual((await store.waitingTransactions({ open: OPEN, decided: false, limit: 100 })).map((row) => row.id), [oldest.id, timedOut.id, ...sameMs.map((tx) => tx.id)]);
          assert.deepEqual(await store.waitingTransactions({ open: [], limit: 100 }), [], 'no state open, nothing waits');

          const page = await store.waitingTransactions({ open: OPEN, limit: 3 });
          const last = page.at(-1)!;
          const rest = await store.waitingTransactions({ open: OPEN, limit: 3, after: { createdAt: last.createdAt, id: last.id } });
          assert.deepEqual([...page, ...rest].map((row) => row.id), all.map((row) => row.id), 'the pages continue each other');
        }));

      void it("cuts each scheme's window into buckets: accepted, outcomes and the p95 time to outcome of each, empty buckets included", () =>
        withStore(async (store) => {
          const decide = (tx: NewTransaction, after: number, outcome: string, reasonCode: string | null = null) =>
            store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED', at: tx.receivedAt + after, cause: null, dueAt: null, outbox: [], outcome: { outcome, reasonCode } });
          const MINUTE = 60_000;
          // Minute 0: three approved after 100, 200, 900 ms, one rejected after 50 ms; minute 2: one waiting.
          for (const [index, after] of [100, 200, 900].entries()) await decide(await accept(store, transfer({ receivedAt: T0 + index * 1_000 })), after, 'APPROVED');
          await decide(await accept(store, transfer({ receivedAt: T0 + 59_999 })), 50, 'REJECTED', 'AC01');
          await accept(store, transfer({ receivedAt: T0 + 2 * MINUTE + 5 }));
          await decide(await accept(store, transfer({ scheme: 'ZA_RTC', receivedAt: T0 + MINUTE })), 70, 'APPROVED');
          // Outside the window.
          await accept(store, transfer({ receivedAt: T0 + 3 * MINUTE }));
          await accept(store, transfer({ receivedAt: T0 - 1 }));

          const series = await store.schemeSeries(T0, T0 + 3 * MINUTE, MINUTE);
          assert.deepEqual(series, [
            {
              scheme: 'ZA_RPP',
              buckets: [
                { from: T0, accepted: 4, outcomes: [{ outcome: 'APPROVED', count: 3 }, { outcome: 'REJECTED', count: 1 }], p95Ms: 900 },
                { from: T0 + MINUTE, accepted: 0, outcomes: [], p95Ms: null },
                { from: T0 + 2 * MINUTE, accepted: 1, outcomes: [], p95Ms: null },
              ],
            },
            {
              scheme: 'ZA_RTC',
              buckets: [
                { from: T0, accepted: 0, outcomes: [], p95Ms: null },
                { from: T0 + MINUTE, accepted: 1, outcomes: [{ outcome: 'APPROVED', count: 1 }], p95Ms: 70 },
                { from: T0 + 2 * MINUTE, accepted: 0, outcomes: [], p95Ms: null },
              ],
            },
          ]);
          assert.deepEqual(await store.schemeSeries(T0 + 10 * MINUTE, T0 + 12 * MINUTE, MINUTE), [], 'a window without transactions has no series');
        }));
    });

    void describe('scheme messages', () => {
      const xml = (name: string, id: string) => `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:${name}"><MsgId>${id}</MsgId></Document>`;

      void it('keeps the messages a change records and those recorded alone, each message once, in order', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const sent = { transactionId: tx.id, direction: 'sent' as const, messageName: 'pacs.008.001.08', messageId: 'M1', at: T0 + 5, document: xml('pacs.008.001.08', 'M1') };
          await store.recordSchemeMessages([sent]);
          // A resend of the same message is kept once.
          await store.recordSchemeMessages([{ ...sent, at: T0 + 7, document: xml('pacs.008.001.08', 'M1-resent') }]);
          const received = { transactionId: tx.id, direction: 'received' as const, messageName: 'pacs.002.001.10', messageId: 'A1', at: T0 + 9, document: xml('pacs.002.001.10', 'A1') };
          const outcome = await store.applyChange({
            transactionId: tx.id,
            expectedVersion: 1,
            toState: 'PAYMENT_AUTH_REQUEST_ACCEPTED',
            at: T0 + 9,
            cause: null,
            dueAt: null,
            outbox: [],
            schemeMessages: [received, received],
          });
          assert.equal(outcome.ok, true);
          assert.deepEqual(await store.schemeMessages(tx.id), [sent, received]);
          assert.deepEqual(await store.schemeMessages('no-such-transaction'), []);
        }));

      void it('refuses a message of an unknown transaction without failing the others written with it', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const message = { transactionId: tx.id, direction: 'sent' as const, messageName: 'pacs.028.001.05', messageId: 'E1', at: T0, document: xml('pacs.028.001.05', 'E1') };
          const results = await Promise.allSettled([
            store.recordSchemeMessages([{ ...message, transactionId: randomUUID() }]),
            store.recordSchemeMessages([message]),
          ]);
          assert.equal(results[0]?.status, 'rejected');
          assert.equal(results[1]?.status, 'fulfilled');
          assert.deepEqual(await store.schemeMessages(tx.id), [message]);
        }));

      void it('forgets the messages kept before a time, oldest first, at most as many as asked', () =>
        withStore(async (store) => {
          const tx = await accept(store);
          const message = (n: number) => ({ transactionId: tx.id, direction: 'sent' as const, messageName: 'pacs.028.001.05', messageId: `E${n}`, at: T0 + n, document: xml('pacs.028.001.05', `E${n}`) });
          await store.recordSchemeMessages([1, 2, 3, 4, 5].map(message));
          assert.equal(await store.pruneSchemeMessages(T0 + 4, 2), 2);
          assert.deepEqual((await store.schemeMessages(tx.id)).map((row) => row.messageId), ['E3', 'E4', 'E5']);
          assert.equal(await store.pruneSchemeMessages(T0 + 4, 100), 1);
          assert.deepEqual((await store.schemeMessages(tx.id)).map((row) => row.messageId), ['E4', 'E5']);
        }));
    });

    void describe('outbox backlog', () => {
      void it('counts the messages still pending per integrator and channel, with the oldest one', () =>
        withStore(async (store) => {
          assert.deepEqual(await store.outboxBacklog(), []);
          const first = event();
          await accept(store, transfer({ outbox: [first, callback()], receivedAt: T0 }));
          await accept(store, transfer({ outbox: [event()], receivedAt: T0 + 50 }));
          await accept(store, transfer({ integratorId: 'bank-b', outbox: [event()], receivedAt: T0 + 70 }));
          await store.recordDelivery({ outboxId: first.id, at: T0 + 80, durationMs: 1, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
          assert.deepEqual(await store.outboxBacklog(), [
            { integratorId: 'bank-a', channel: 'callback', pending: 1, oldestCreatedAt: T0 },
            { integratorId: 'bank-a', channel: 'event', pending: 1, oldestCreatedAt: T0 + 50 },
            { integratorId: 'bank-b', channel: 'event', pending: 1, oldestCreatedAt: T0 + 70 },
          ]);
        }));
    });

    void describe('refresh tokens', () => {
      const token = (overrides: Partial<{ tokenHash: string; familyId: string; expiresAt: number }> = {}) => ({
        tokenHash: randomUUID(),
        familyId: 'family-1',
        integratorId: 'bank-a',
        expiresAt: T0 + 60_000,
        ...overrides,
      });
      /** Spend `tokenHash` at `now` for a successor of `familyId` (its sealed pair named after the token), as a refresh grant does. */
      const rotate = (
        store: Store,
        tokenHash: string,
        now: number,
        options: { familyId?: string; successor?: RefreshTokenRecord; reuseIntervalMs?: number; forgetExpiredBefore?: number } = {},
      ): Promise<RefreshTokenRotationOutcome> =>
        store.rotateRefreshToken({
          tokenHash,
          now,
          successor: options.successor ?? token({ familyId: options.familyId ?? 'family-1', expiresAt: now + 60_000 }),
          sealedSuccessor: `sealed successor of ${tokenHash}`,
          reuseIntervalMs: options.reuseIntervalMs ?? 0,
          forgetExpiredBefore: options.forgetExpiredBefore ?? 0,
          forgetRevokedBefore: 0,
        });

      void it('a refresh token is spent once, for a successor stored in the same write', () =>
        withStore(async (store) => {
          const record = token();
          const successor = token();
          await store.saveRefreshToken(record);
          assert.deepEqual(await store.refreshToken(record.tokenHash), record);
          assert.deepEqual(await rotate(store, record.tokenHash, T0, { successor }), { kind: 'rotated' });
          assert.deepEqual(await store.refreshToken(successor.tokenHash), successor);
          assert.deepEqual(await store.refreshToken(record.tokenHash), record, 'a spent token is still found (its reuse is told apart)');
          assert.equal(await store.refreshToken('never-issued'), undefined);
        }));

      void it('a reused refresh token revokes its family', () =>
        withStore(async (store) => {
          const first = token();
          const rotated = token();
          const otherFamily = token({ familyId: 'family-2' });
          await store.saveRefreshToken(first);
          assert.equal((await rotate(store, first.tokenHash, T0, { successor: rotated })).kind, 'rotated');
          await store.saveRefreshToken(otherFamily);
          assert.deepEqual(await rotate(store, first.tokenHash, T0 + 1), { kind: 'reused', familyId: 'family-1' });
          assert.deepEqual(await rotate(store, rotated.tokenHash, T0 + 2), { kind: 'unknown' }, 'the rotated token died with its family');
          assert.equal((await rotate(store, otherFamily.tokenHash, T0 + 2, { familyId: 'family-2' })).kind, 'rotated', 'other families are untouched');
        }));

      void it('a spent refresh token presented again within the reuse interval gets the successor sealed when it was spent and stores nothing; after it, or once its session is revoked, it revokes the session', () =>
        withStore(async (store) => {
          const first = token();
          const rotated = token();
          await store.saveRefreshToken(first);
          assert.equal((await rotate(store, first.tokenHash, T0, { successor: rotated, reuseIntervalMs: 5_000 })).kind, 'rotated');
          const unsaved = token();
          const again = await rotate(store, first.tokenHash, T0 + 4_999, { successor: unsaved, reuseIntervalMs: 5_000 });
          assert.deepEqual(again, { kind: 'replayed', sealedSuccessor: `sealed successor of ${first.tokenHash}`, usedAt: T0 });
          assert.equal(await store.refreshToken(unsaved.tokenHash), undefined, 'the successor offered by the reuse is not stored');
          assert.deepEqual(await store.revokedSessions(0), []);
          assert.deepEqual(await rotate(store, first.tokenHash, T0 + 5_000, { reuseIntervalMs: 5_000 }), { kind: 'reused', familyId: 'family-1' }, 'at the end of the interval');
          assert.deepEqual(await store.revokedSessions(0), [{ sessionId: 'family-1', revokedAt: T0 + 5_000 }]);

          const other = token({ familyId: 'family-2' });
          await store.saveRefreshToken(other);
          const otherSuccessor = token({ familyId: 'family-2' });
          assert.equal((await rotate(store, other.tokenHash, T0, { successor: otherSuccessor, reuseIntervalMs: 5_000 })).kind, 'rotated');
          assert.equal((await rotate(store, otherSuccessor.tokenHash, T0 + 1, { familyId: 'family-2' })).kind, 'rotated');
          assert.equal((await rotate(store, otherSuccessor.tokenHash, T0 + 2, { familyId: 'family-2' })).kind, 'reused', 'the successor reused: session revoked');
          assert.deepEqual(await rotate(store, other.tokenHash, T0 + 3, { reuseIntervalMs: 5_000 }), { kind: 'reused', familyId: 'family-2' }, 'within the interval, but of a revoked session');
        }));

      void it("a spent refresh token's sealed successor is erased by the next token write after its reuse interval, whatever interval a later reuse names", () =>
        withStore(async (store) => {
          // Erased by a save (a password grant) told to forget what was sealed before then.
          const saved = token();
          await store.saveRefreshToken(saved);
          assert.equal((await rotate(store, saved.tokenHash, T0, { reuseIntervalMs: 5_000 })).kind, 'rotated');
          await store.saveRefreshToken(token({ familyId: 'family-2' }), undefined, undefined, T0 + 1);
          assert.deepEqual(await rotate(store, saved.tokenHash, T0 + 2, { reuseIntervalMs: 60_000 }), { kind: 'reused', familyId: 'family-1' }, 'nothing sealed is left to answer');

          // Erased by a rotation of another token, after the interval that rotation names.
          const spent = token({ familyId: 'family-3' });
          const other = token({ familyId: 'family-4' });
          for (const record of [spent, other]) await store.saveRefreshToken(record);
          assert.equal((await rotate(store, spent.tokenHash, T0, { familyId: 'family-3', reuseIntervalMs: 5_000 })).kind, 'rotated');
          assert.equal((await rotate(store, other.tokenHash, T0 + 5_001, { familyId: 'family-4', reuseIntervalMs: 5_000 })).kind, 'rotated');
          assert.deepEqual(await rotate(store, spent.tokenHash, T0 + 5_002, { reuseIntervalMs: 60_000 }), { kind: 'reused', familyId: 'family-3' }, 'nothing sealed is left to answer');

          // Within its interval it is kept: a rotation at its last millisecond leaves it.
          const kept = token({ familyId: 'family-5' });
          const third = token({ familyId: 'family-6' });
          for (const record of [kept, third]) await store.saveRefreshToken(record);
          assert.equal((await rotate(store, kept.tokenHash, T0, { familyId: 'family-5', reuseIntervalMs: 5_000 })).kind, 'rotated');
          assert.equal((await rotate(store, third.tokenHash, T0 + 4_999, { familyId: 'family-6', reuseIntervalMs: 5_000 })).kind, 'rotated');
          assert.equal((await rotate(store, kept.tokenHash, T0 + 4_999, { reuseIntervalMs: 5_000 })).kind, 'replayed');
        }));

      void it('a reused refresh token revokes its session, which every instance reads from the time of the first reuse on', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const record = token();
          const other = token({ familyId: 'family-2' });
          for (const saved of [record, other]) {
            await first.saveRefreshToken(saved);
            assert.equal((await rotate(first, saved.tokenHash, T0, { familyId: saved.familyId })).kind, 'rotated');
          }
          assert.deepEqual(await second.revokedSessions(0), []);
          assert.equal((await rotate(first, record.tokenHash, T0 + 5)).kind, 'reused');
          assert.equal((await rotate(second, record.tokenHash, T0 + 9)).kind, 'reused', 'presented once more');
          const revoked = [{ sessionId: 'family-1', revokedAt: T0 + 5 }];
          assert.deepEqual(await second.revokedSessions(T0), revoked, 'on another instance, at the first revocation\'s time');
          assert.deepEqual(await first.revokedSessions(T0 + 5), revoked, 'revoked at the time given: listed');
          assert.deepEqual(await first.revokedSessions(T0 + 6), [], 'revoked before the time given: not listed');
        }));

      void it('saving a refresh token forgets the revocations made before the time given of which no refresh token is left, and only those', () =>
        withStore(async (store) => {
          const revoke = async (familyId: string, at: number): Promise<void> => {
            const record = token({ familyId, expiresAt: T0 + 100 });
            await store.saveRefreshToken(record);
            assert.equal((await rotate(store, record.tokenHash, T0, { successor: token({ familyId, expiresAt: T0 + 100 }) })).kind, 'rotated');
            assert.equal((await rotate(store, record.tokenHash, at)).kind, 'reused');
          };
          const sessions = async (): Promise<string[]> => (await store.revokedSessions(0)).map((session) => session.sessionId).sort();
          await revoke('early', T0 + 1);
          await revoke('late', T0 + 50);
          await store.saveRefreshToken(token({ familyId: 'new-1', expiresAt: T0 + 10_000 }), undefined, T0 + 60);
          assert.deepEqual(await sessions(), ['early', 'late'], 'a token of each session is still kept');
          await store.saveRefreshToken(token({ familyId: 'new-2', expiresAt: T0 + 10_000 }), T0 + 101, T0 + 50);
          assert.deepEqual(await sessions(), ['late'], 'early is forgotten; late was revoked at the time given: kept');
          await store.saveRefreshToken(token({ familyId: 'new-3', expiresAt: T0 + 10_000 }), T0 + 101, T0 + 51);
          assert.deepEqual(await sessions(), []);
        }));

      void it('refuses a refresh token of a revoked session although it was stored after the revocation (a rotation racing the reuse)', () =>
        withStore(async (store) => {
          const first = token();
          await store.saveRefreshToken(first);
          assert.equal((await rotate(store, first.tokenHash, T0)).kind, 'rotated');
          assert.equal((await rotate(store, first.tokenHash, T0 + 1)).kind, 'reused');
          const late = token();
          await store.saveRefreshToken(late);
          assert.deepEqual(await rotate(store, late.tokenHash, T0 + 2), { kind: 'unknown' });
        }));

      void it('spending a refresh token forgets the tokens that expired before the time given, and only those', () =>
        withStore(async (store) => {
          // Used tokens: while a row is kept, presenting it again is detected as reuse.
          const expiresEarly = token({ familyId: 'family-early', expiresAt: T0 + 10 });
          const expiresLate = token({ familyId: 'family-late', expiresAt: T0 + 30 });
          for (const record of [expiresEarly, expiresLate]) {
            await store.saveRefreshToken(record);
            assert.equal((await rotate(store, record.tokenHash, T0, { successor: token({ familyId: record.familyId, expiresAt: T0 + 100 }) })).kind, 'rotated');
          }
          const fresh = async (familyId: string): Promise<string> => {
            const record = token({ familyId, expiresAt: T0 + 100 });
            await store.saveRefreshToken(record);
            return record.tokenHash;
          };
          await rotate(store, await fresh('family-new'), T0 + 5, { familyId: 'family-new', forgetExpiredBefore: T0 + 10 });
          assert.equal((await rotate(store, expiresEarly.tokenHash, T0 + 40)).kind, 'reused', 'expired exactly at the time given: kept');
          await rotate(store, await fresh('family-newer'), T0 + 5, { familyId: 'family-newer', forgetExpiredBefore: T0 + 11 });
          assert.deepEqual(await rotate(store, expiresEarly.tokenHash, T0 + 40), { kind: 'unknown' }, 'forgotten');
          assert.equal((await rotate(store, expiresLate.tokenHash, T0 + 40)).kind, 'reused', 'expired later: kept');
        }));

      void it('an expired or unknown refresh token is refused, and not spent', () =>
        withStore(async (store) => {
          const record = token({ expiresAt: T0 });
          await store.saveRefreshToken(record);
          assert.deepEqual(await rotate(store, record.tokenHash, T0), { kind: 'unknown' });
          assert.deepEqual(await rotate(store, record.tokenHash, T0 + 1), { kind: 'unknown' }, 'not spent by the refusal, so not a reuse either');
          assert.deepEqual(await rotate(store, 'never-issued', T0), { kind: 'unknown' });
        }));

      void it('of two rotations of one refresh token racing on two instances, one spends it; the other gets its sealed successor within the reuse interval, and revokes the session without one', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          for (const [reuseIntervalMs, expected] of [
            [5_000, ['replayed', 'rotated']],
            [0, ['reused', 'rotated']],
          ] as const) {
            const record = token();
            await first.saveRefreshToken(record);
            const outcomes = await Promise.all([
              rotate(first, record.tokenHash, T0, { reuseIntervalMs }),
              rotate(second, record.tokenHash, T0, { reuseIntervalMs }),
            ]);
            assert.deepEqual(outcomes.map((outcome) => outcome.kind).sort(), expected, `reuse interval ${reuseIntervalMs} ms`);
          }
        }));

      void it('refuses to store the same refresh token twice', () =>
        withStore(async (store) => {
          const record = token();
          await store.saveRefreshToken(record);
          await assert.rejects(store.saveRefreshToken(record));
        }));
    });

    void describe('settings', () => {
      void it('creates a setting once and gives every instance the same value', () =>
        withStore(async (first, database) => {
          const second = await database.open();
          const values = await Promise.all(
            Array.from({ length: 6 }, (_, index) => (index % 2 === 0 ? first : second).getOrCreateSetting('signing-key', () => `key-${index}`)),
          );
          assert.equal(new Set(values).size, 1);
          let called = false;
          const again = await first.getOrCreateSetting('signing-key', () => {
            called = true;
            return 'other';
          });
          assert.equal(again, values[0]);
          assert.equal(called, false, 'an existing setting is not created again');
        }));
    });

    void describe('durability and lifecycle', () => {
      void it('keeps everything across close and reopen', () =>
        withStore(async (store, database) => {
          const message = event();
          const tx = await accept(store, transfer({ amountMinor: 9_007_199_254_740_993n, outbox: [message] }));
          await store.setMessageResponse('bank-a', tx.messageId, '{"answer":1}');
          await store.applyChange({ transactionId: tx.id, expectedVersion: 1, toState: 'B', at: T0 + 1, cause: '{}', dueAt: T0 + 2, data: { n: 1 }, outbox: [] });
          await store.recordDelivery({ outboxId: message.id, at: T0 + 3, durationMs: 2, httpStatus: 200, error: null, delivered: true, nextAttemptAt: null });
          await store.saveRefreshToken({ tokenHash: 'h', familyId: 'f', integratorId: 'bank-a', expiresAt: T0 + 60_000 });
          const key = await store.getOrCreateSetting('k', () => 'v');
          const before = {
            tx: await store.getTransaction(tx.id),
            history: await store.history(tx.id),
            outbox: await store.outbox(tx.id),
            message: await store.findMessage('bank-a', tx.messageId),
          };
          await store.close();

          const reopened = await database.open();
          assert.deepEqual(await reopened.getTransaction(tx.id), before.tx);
          assert.deepEqual(await reopened.history(tx.id), before.history);
          assert.deepEqual(await reopened.outbox(tx.id), before.outbox);
          assert.deepEqual(await reopened.findMessage('bank-a', tx.messageId), before.message);
          assert.equal(await reopened.getOrCreateSetting('k', () => 'other'), key);
          assert.deepEqual(await reopened.refreshToken('h'), { tokenHash: 'h', familyId: 'f', integratorId: 'bank-a', expiresAt: T0 + 60_000 });
        }));

      void it('commits writes still queued when it is closed', () =>
        withStore(async (store, database) => {
          const txs = Array.from({ length: 20 }, () => transfer());
          const intakes = txs.map((tx) => store.intake(tx));
          await store.close();
          for (const outcome of await Promise.all(intakes)) assert.equal(outcome.kind, 'accepted');
          const reopened = await database.open();
          for (const tx of txs) assert.ok(await reopened.getTransaction(tx.id));
        }));

      void it('two instances opening a new database at once both migrate it safely', async () => {
        const database = await newDatabase();
        try {
          const [a, b] = await Promise.all([database.open(), database.open()]);
          try {
            const tx = await accept(a);
            assert.equal((await b.getTransaction(tx.id))?.id, tx.id);
            await b.ping();
          } finally {
            await a.close();
            await b.close();
          }
        } finally {
          await database.drop();
        }
      });
    });
  });
}
