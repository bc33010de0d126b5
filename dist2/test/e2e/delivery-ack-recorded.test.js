import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpPartnerSender } from '../../src/adapters/partner-http/http-sender.js';
import { openStore } from '../../src/adapters/store.js';
import { systemClock } from '../../src/adapters/system/system.js';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import { TestReceiver, eventually, integratorConfig, message, seedTransaction } from '../support/delivery.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
const TRANSACTIONS = 30;
/** Far beyond what recording one acknowledgement takes on an idle machine; far below the poll that a deferred record would wait for. */
const RECORDED_WITHIN_S = 1;
const POLL_INTERVAL_MS = 60_000;
void describe('an acknowledged delivery on PostgreSQL', () => {
    void it('is recorded DELIVERED as soon as its 2xx arrives, not at a later poll, each queue handing on its next message', async () => {
        const database = await freshPostgresUrl();
        const store = await openStore(database);
        const bank = await TestReceiver.start();
        const sender = new HttpPartnerSender({ clock: systemClock, timeoutMs: 5_000, connectionsPerOriginMax: 16, responseBytesMax: 4_096 });
        const recorded = [];
        const integrator = await integratorConfig('bank-a', bank.url);
        const dispatcher = new Dispatcher({
            store,
            sender,
            integrators: new Map([[integrator.id, integrator]]),
            clock: systemClock,
            instanceId: 'test-instance',
            pollIntervalMs: POLL_INTERVAL_MS,
            onAckRecorded: (_channel, seconds) => recorded.push(seconds),
        });
        try {
            // Each transaction: a callback, and two events of which the second waits for the first.
            const transactions = [];
            for (let i = 0; i < TRANSACTIONS; i += 1) {
                const outbox = [message(integrator, 'callback'), message(integrator, 'event'), message(integrator, 'event')];
                transactions.push(await seedTransaction(store, integrator, outbox, Date.now()));
            }
            const messages = TRANSACTIONS * 3;
            dispatcher.start();
            await eventually(async () => {
                const rows = (await Promise.all(transactions.map((id) => store.outbox(id)))).flat();
                return rows.filter((row) => row.status === 'DELIVERED').length === messages;
            }, 'every message is recorded DELIVERED before any second poll', 20_000);
            assert.equal(bank.requests.length, messages, 'each message sent once');
            assert.equal(recorded.length, messages, 'every acknowledgement was recorded');
            const slowest = Math.max(...recorded);
            assert.ok(slowest < RECORDED_WITHIN_S, `the slowest record took ${slowest.toFixed(3)} s after its 2xx`);
        }
        finally {
            await dispatcher.stop();
            await sender.close();
            await bank.down();
            await store.close();
            await dropTestDatabase(database);
        }
    });
});
//# sourceMappingURL=delivery-ack-recorded.test.js.map