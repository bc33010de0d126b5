import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { CALLBACK_PATH, EVENTS_PATH, TestReceiver, eventually } from '../support/delivery.js';
import { deadlockCount, dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
import { basicAuth, startServer, writeTestConfig } from '../support/server.js';
const INSTANCES = 3;
const TRANSFERS = 600;
const CONCURRENCY = 24;
const HIGH_LIMITS = { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } };
/**
 * Several instances on one PostgreSQL, each taking intakes, running its engine and delivering
 * callbacks and events, work on rows the others also lock. Every batch takes its row locks in
 * one global order, so none of them can wait on another in a cycle: PostgreSQL's deadlock count
 * stays where it was.
 */
void describe('three instances on one PostgreSQL under load', () => {
    void it('take every transfer to its callback with no deadlock between them', { timeout: 240_000 }, async () => {
        const database = await freshPostgresUrl();
        const bank = await TestReceiver.start();
        const servers = [];
        try {
            const configPath = writeTestConfig({
                database,
                integratorExtra: { ...HIGH_LIMITS, partnerApiUrl: `${bank.url}/partner-api/v1`, eventsApiUrl: `${bank.url}/events-api/v1` },
            });
            for (let i = 0; i < INSTANCES; i += 1)
                servers.push(await startServer({ configPath }));
            const before = await deadlockCount(database);
            let next = 0;
            const worker = async () => {
                for (let i = next++; i < TRANSFERS; i = next++) {
                    const server = servers[i % INSTANCES];
                    assert.ok(server);
                    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
                        method: 'POST',
                        headers: { 'content-type': 'application/json', authorization: basicAuth() },
                        body: JSON.stringify(creditTransfer('ZA_RPP')),
                    });
                    assert.equal(response.status, 202, await response.text());
                }
            };
            await Promise.all(Array.from({ length: CONCURRENCY }, () => worker()));
            await eventually(() => new Set(bank.to(CALLBACK_PATH).map((request) => request.body)).size >= TRANSFERS, 'every transfer has its callback', 180_000);
            assert.ok(bank.to(EVENTS_PATH).length >= TRANSFERS * 4, 'the events were delivered alongside');
            // Statistics reach pg_stat_database when the backends flush them (at most a second later).
            await new Promise((resolve) => setTimeout(resolve, 1_500));
            assert.equal((await deadlockCount(database)) - before, 0, 'PostgreSQL detected no deadlock');
            for (const server of servers)
                assert.doesNotMatch(server.output(), /deadlock/i);
        }
        finally {
            for (const server of servers)
                await server.stop();
            await bank.down();
            await dropTestDatabase(database);
        }
    });
});
//# sourceMappingURL=scale-out-deadlocks.test.js.map