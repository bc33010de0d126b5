import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/adapters/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
import { basicAuth, startServer, writeTestConfig } from '../support/server.js';
import { untilLoaded } from '../support/transfers-seen.js';
const WORKERS = 16;
const KILL_AFTER_MS = 3_000;
const HIGH_LIMITS = { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } };
const databases = [
    ['SQLite', () => Promise.resolve(`sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-crash-')), 'regpay.db')}`)],
    ['PostgreSQL', () => freshPostgresUrl()],
];
/** A transfer is whole when its message, its first state with its history row, and that state's event are all there. */
async function assertWhole(store, transfer) {
    const stored = await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr);
    assert.ok(stored, `transfer ${transfer.transactionIdentifiers.uetr} is in the store`);
    const history = await store.history(stored.id);
    assert.equal(history[0]?.toState, 'PAYMENT_AUTH_REQUEST_RECEIVED');
    assert.equal(history.filter((row) => row.toState === 'PAYMENT_AUTH_REQUEST_RECEIVED').length, 1);
    const outbox = await store.outbox(stored.id);
    assert.match(outbox[0]?.body ?? '', /"type":"PAYMENT_AUTH_REQUEST_RECEIVED"/);
    const message = await store.findMessage('demo-bank', transfer.messageIdentifiers.messageIdentification);
    assert.equal(message?.rawBody, JSON.stringify(transfer));
}
for (const [storeName, makeDatabase] of databases) {
    describe(`kill -9 during intake (${storeName})`, () => {
        it('keeps every transfer answered 202 before the kill, half-writes none, and resumes after restart', async () => {
            const database = await makeDatabase();
            const configPath = writeTestConfig({ database, integratorExtra: HIGH_LIMITS });
            const server = await startServer({ configPath });
            const sent = [];
            const acknowledged = new Set();
            let killed = false;
            const worker = async () => {
                while (!killed) {
                    const transfer = creditTransfer('ZA_RPP');
                    sent.push(transfer);
                    try {
                        const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
                            method: 'POST',
                            headers: { 'content-type': 'application/json', authorization: basicAuth() },
                            body: JSON.stringify(transfer),
                        });
                        if (response.status === 202)
                            acknowledged.add(transfer.transactionIdentifiers.uetr);
                        else
                            assert.fail(`unexpected ${response.status} before the kill: ${await response.text()}`);
                    }
                    catch (error) {
                        if (!killed)
                            throw error;
                    }
                }
            };
            const workers = Array.from({ length: WORKERS }, () => worker());
            await untilLoaded(() => acknowledged.size, 20, KILL_AFTER_MS);
            killed = true;
            await server.kill9();
            await Promise.all(workers);
            assert.ok(acknowledged.size >= 20, `enough load before the kill (${acknowledged.size} acknowledged)`);
            const store = await openStore(database);
            try {
                let present = 0;
                for (const transfer of sent) {
                    if (acknowledged.has(transfer.transactionIdentifiers.uetr)) {
                        await assertWhole(store, transfer);
                        present += 1;
                    }
                    else if (await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr)) {
                        // Committed but the 202 was lost with the process: it must still be whole.
                        await assertWhole(store, transfer);
                    }
                }
                assert.equal(present, acknowledged.size);
            }
            finally {
                await store.close();
            }
            // After a restart, the integrator's retries are accepted exactly once: those left unanswered by the kill
            // (whether or not they were committed) and, so the check never depends on the kill's timing, the last
            // ones acknowledged before it.
            const restarted = await startServer({ configPath });
            try {
                const unanswered = sent.filter((transfer) => !acknowledged.has(transfer.transactionIdentifiers.uetr));
                const lastAcknowledged = sent.filter((transfer) => acknowledged.has(transfer.transactionIdentifiers.uetr)).slice(-WORKERS);
                const retried = [...unanswered, ...lastAcknowledged];
                for (const transfer of retried) {
                    const response = await fetch(`${restarted.url}/api/v1/transactions/outbound/credit-transfer`, {
                        method: 'POST',
                        headers: { 'content-type': 'application/json', authorization: basicAuth() },
                        body: JSON.stringify(transfer),
                    });
                    assert.equal(response.status, 202);
                }
                const reopened = await openStore(database);
                try {
                    for (const transfer of retried)
                        await assertWhole(reopened, transfer);
                }
                finally {
                    await reopened.close();
                }
            }
            finally {
                assert.equal(await restarted.stop(), 0);
                await dropTestDatabase(database);
            }
        });
    });
}
//# sourceMappingURL=crash-durability.test.js.map