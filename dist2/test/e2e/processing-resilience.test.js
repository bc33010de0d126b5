import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/adapters/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../support/postgres.js';
import { Receiver } from '../support/receiver.js';
import { startServer, writeTestConfig } from '../support/server.js';
import { assertLegalWalk, FAST_RETRIES, HAPPY, HIGH_LIMITS, load, post, seen, seenByTransfer, untilLoaded, waitComplete } from '../support/transfers-seen.js';
const sqliteUrl = () => `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-resilience-')), 'regpay.db')}`;
/** Sends `count` transfers one after the other, each answered 202; returns their uetrs. */
async function acceptTransfers(server, count) {
    const uetrs = [];
    for (let i = 0; i < count; i += 1) {
        const transfer = creditTransfer('ZA_RPP');
        assert.equal(await post(server, transfer), 202);
        uetrs.push(transfer.transactionIdentifiers.uetr);
    }
    return uetrs;
}
describe('credit-transfer processing under failure', () => {
    it('after kill -9 under load and a restart, every accepted transfer gets exactly one outcome and its events in order', async () => {
        const receiver = await Receiver.start();
        const configPath = writeTestConfig({
            database: sqliteUrl(),
            integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
            extra: FAST_RETRIES,
        });
        let restarted;
        try {
            const first = await startServer({ configPath });
            let killed = false;
            const accepting = new Set();
            const loading = load(() => first, 8, () => killed, accepting);
            await untilLoaded(() => accepting.size, 20, 3_000);
            killed = true;
            await first.kill9();
            const accepted = await loading;
            assert.ok(accepted.size >= 20, `load before the kill (${accepted.size} accepted)`);
            const server = await startServer({ configPath });
            restarted = server;
            // The restarted instance ends the leases of the killed one (same host, its pid gone) and
            // resumes its work at once, and looks at once at transfers whose callback the killed one
            // delivered but never told its engine of: everything arrives long before those leases
            // (engine 30 s) or the engine's callback check (60 s) would have let it.
            const received = await waitComplete(receiver, accepted, 20_000);
            assert.match(server.output(), /their leases are released/, 'the restart says it took the work over');
            const byTransfer = seenByTransfer(received);
            for (const uetr of accepted) {
                const view = seen(byTransfer, uetr);
                assert.deepEqual(view.outcomes, ['APPROVED'], `one outcome for ${uetr}`);
                // A scheme answer lost with the process is recovered through TIMEOUT and a status enquiry:
                // then the path differs from the happy one, but it is still a legal walk, each state once.
                assertLegalWalk(uetr, view);
            }
        }
        finally {
            await restarted?.stop();
            await receiver.down();
        }
    });
    it('with processing off, accepts and keeps transfers without sending anything, and processes them all once restarted with it on', async () => {
        const receiver = await Receiver.start();
        const database = sqliteUrl();
        const config = (enabled) => writeTestConfig({
            database,
            integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
            extra: { ...FAST_RETRIES, processing: { enabled } },
        });
        let server = await startServer({ configPath: config(false) });
        try {
            const uetrs = await acceptTransfers(server, 10);
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            assert.equal(receiver.received().length, 0, 'nothing is sent from an instance with processing off');
            assert.equal(await server.stop(), 0);
            const store = await openStore(database);
            try {
                for (const uetr of uetrs)
                    assert.equal((await store.findTransaction('demo-bank', uetr))?.state, HAPPY[0]);
            }
            finally {
                await store.close();
            }
            server = await startServer({ configPath: config(true) });
            const received = await waitComplete(receiver, uetrs, 30_000);
            const byTransfer = seenByTransfer(received);
            for (const uetr of uetrs)
                assert.deepEqual(seen(byTransfer, uetr).eventTypes, HAPPY);
        }
        finally {
            await server.stop();
            await receiver.down();
        }
    });
    it('delivers everything, in order per transfer, once an integrator that was down comes back', async () => {
        const receiver = await Receiver.start();
        await receiver.down();
        const configPath = writeTestConfig({
            database: sqliteUrl(),
            integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
            extra: FAST_RETRIES,
        });
        const server = await startServer({ configPath });
        try {
            const uetrs = await acceptTransfers(server, 20);
            await new Promise((resolve) => setTimeout(resolve, 2_500));
            assert.equal(receiver.received().length, 0, 'nothing can arrive while the integrator is down');
            await receiver.up();
            const received = await waitComplete(receiver, uetrs, 30_000);
            const byTransfer = seenByTransfer(received);
            // The outcome callback failed while the integrator was down: that state is entered once, then left on delivery.
            const withFailure = [...HAPPY.slice(0, -1), 'PAYMENT_AUTH_RESPONSE_DELIVERY_FAILURE', HAPPY.at(-1)];
            for (const uetr of uetrs) {
                const view = seen(byTransfer, uetr);
                assert.deepEqual(view.outcomes, ['APPROVED']);
                assert.deepEqual(view.eventTypes, withFailure);
            }
        }
        finally {
            await server.stop();
            await receiver.down();
        }
    });
    it('shares the work of two instances on one PostgreSQL database without processing any transfer twice', async () => {
        const receiver = await Receiver.start();
        const database = await freshPostgresUrl();
        const configPath = writeTestConfig({
            database,
            integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
            extra: FAST_RETRIES,
        });
        const first = await startServer({ configPath });
        const second = await startServer({ configPath });
        try {
            let stop = false;
            const accepted = new Set();
            const loads = [load(() => first, 4, () => stop, accepted), load(() => second, 4, () => stop, accepted)];
            await untilLoaded(() => accepted.size, 20, 2_000);
            stop = true;
            await Promise.all(loads);
            assert.ok(accepted.size >= 20, `load on both instances (${accepted.size} accepted)`);
            const received = await waitComplete(receiver, accepted, 60_000);
            const byTransfer = seenByTransfer(received);
            for (const uetr of accepted) {
                const view = seen(byTransfer, uetr);
                assert.deepEqual(view.outcomes, ['APPROVED']);
                assert.deepEqual(view.eventTypes, HAPPY);
            }
            const store = await openStore(database);
            try {
                // At-least-once allows a second copy only after an attempt that failed (e.g. timed out on a
                // loaded machine after the integrator got it); two instances both sending one message would
                // show as more copies than recorded attempts, or as two acknowledged attempts.
                const copies = new Map();
                for (const message of received)
                    copies.set(message.headers['webhook-id'], (copies.get(message.headers['webhook-id']) ?? 0) + 1);
                for (const [id, count] of copies) {
                    if (count === 1)
                        continue;
                    const attempts = await store.deliveryAttempts(id);
                    assert.ok(attempts.length >= count, `${id}: ${count} copies arrived but only ${attempts.length} attempts were made`);
                    assert.equal(attempts.filter((attempt) => attempt.delivered).length, 1, `${id}: acknowledged once`);
                }
                for (const uetr of [...accepted].slice(0, 50)) {
                    const transaction = await store.findTransaction('demo-bank', uetr);
                    assert.ok(transaction);
                    assert.deepEqual((await store.history(transaction.id)).map((row) => row.toState), HAPPY);
                }
            }
            finally {
                await store.close();
            }
        }
        finally {
            await first.stop();
            await second.stop();
            await receiver.down();
            await dropPostgresDatabase(database);
        }
    });
});
//# sourceMappingURL=processing-resilience.test.js.map