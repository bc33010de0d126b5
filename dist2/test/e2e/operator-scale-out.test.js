import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { OperatorProcess, operatorLinkSchemes } from '../support/operator.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
import { Receiver } from '../support/receiver.js';
import { freePort, startServer, writeTestConfig } from '../support/server.js';
import { assertLegalWalk, FAST_RETRIES, HIGH_LIMITS, load, seen, seenByTransfer, untilLoaded, waitComplete } from '../support/transfers-seen.js';
/**
 * Several service instances on one PostgreSQL, every one of them linked to one standalone operator
 * simulator over the operator link: one scheme operator shared by all, as in production. Whatever
 * instance sends a transfer, enquires about it or receives its answer, the operator is the same,
 * so an instance killed, or the operator itself restarted, loses nothing.
 */
const WORKERS = 12;
/** Transfers accepted before the failure, at least: the load must be under way (a busy machine takes longer to get there). */
const ACCEPTED_BEFORE_FAILURE_MIN = 40;
function sleep(ms) {
    return new Promise((resolve) => setTimeout(resolve, ms));
}
/**
 * One service per inbound port on `database`, each reaching `operator` over the link with this
 * ZA_RPP time budget and receiving its answers on its port, its integrator's messages going to
 * `receiver`; started ones are pushed to `servers` (stopped by the caller). Returns their
 * configuration files, to restart one.
 */
async function startLinkedInstances(options) {
    const { database, receiver, operator, timeBudgetMs } = options;
    const configs = options.inboundPorts.map((port) => writeTestConfig({
        database,
        integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, ...HIGH_LIMITS },
        extra: { ...FAST_RETRIES, schemes: operatorLinkSchemes(operator.url, port, { ZA_RPP: timeBudgetMs }) },
    }));
    options.servers.push(...(await Promise.all(configs.map((configPath) => startServer({ configPath })))));
    return configs;
}
/** How the operator's store holds each transfer (read from its SQLite file): its records and the status it answered. */
function operatorRecords(storePath) {
    const db = new Database(storePath, { readonly: true, fileMustExist: true });
    try {
        const rows = db.prepare("SELECT uetr, body FROM records WHERE scheme = 'ZA_RPP' AND kind = 'transfer'").all();
        const byUetr = new Map();
        for (const row of rows) {
            const answered = JSON.parse(row.body).answered?.status;
            byUetr.set(row.uetr, { records: (byUetr.get(row.uetr)?.records ?? 0) + 1, answered });
        }
        return byUetr;
    }
    finally {
        db.close();
    }
}
/** Every accepted transfer seen by the integrator with exactly one outcome, APPROVED, its events a legal walk in order; and held once, approved, by the operator. */
function assertEveryTransferWhole(accepted, byTransfer, storePath) {
    const atOperator = operatorRecords(storePath);
    for (const uetr of accepted) {
        const view = seen(byTransfer, uetr);
        assert.deepEqual(view.outcomes, ['APPROVED'], `exactly one outcome callback for ${uetr}`);
        assertLegalWalk(uetr, view);
        assert.deepEqual(atOperator.get(uetr), { records: 1, answered: 'ACSC' }, `the operator holds ${uetr} once, approved`);
    }
}
/** Transfers whose events include `type`. */
function through(byTransfer, accepted, type) {
    return [...accepted].filter((uetr) => seen(byTransfer, uetr).eventTypes.includes(`PAYMENT_AUTH_${type}`)).length;
}
void describe('service instances sharing one standalone operator simulator', () => {
    void it('kill -9 of one of three instances under load, then its restart: every transfer answered 202 gets exactly one outcome, its events in order, and is held once by the operator', { timeout: 120_000 }, async (t) => {
        const database = await freshPostgresUrl();
        const receiver = await Receiver.start();
        const inboundPorts = [await freePort(), await freePort(), await freePort()];
        const operator = await OperatorProcess.start({ bankUrls: inboundPorts.map((port) => `https://127.0.0.1:${port}`), schemes: { ZA_RPP: { latencyMs: 50 } } });
        const servers = [];
        try {
            const configs = await startLinkedInstances({ database, receiver, operator, inboundPorts, timeBudgetMs: 10_000, servers });
            const live = new Set(servers);
            let stop = false;
            const accepted = new Set();
            const loading = load((request) => [...live][request % live.size], WORKERS, () => stop, accepted);
            await untilLoaded(() => accepted.size, ACCEPTED_BEFORE_FAILURE_MIN, 0, 20_000);
            const victim = servers[1];
            live.delete(victim);
            await victim.kill9();
            // The others carry the load on; the killed instance's transfers are in flight at the operator and in the store.
            await sleep(1_500);
            stop = true;
            await loading;
            servers[1] = await startServer({ configPath: configs[1] });
            assert.ok(accepted.size >= ACCEPTED_BEFORE_FAILURE_MIN, `load on the instances (${accepted.size} accepted)`);
            const byTransfer = seenByTransfer(await waitComplete(receiver, accepted, 60_000));
            assertEveryTransferWhole(accepted, byTransfer, operator.storePath);
            t.diagnostic(`${accepted.size} transfers; ${through(byTransfer, accepted, 'TIMEOUT')} through TIMEOUT, ${through(byTransfer, accepted, 'REQUEST_DELIVERY_FAILURE')} through a failed send`);
        }
        finally {
            for (const server of servers)
                await server.stop();
            await operator.stop();
            await receiver.down();
            await dropTestDatabase(database);
        }
    });
    void it('kill -9 of the operator simulator under load, then its restart: resubmissions and enquiries recover every transfer, each with exactly one outcome', { timeout: 120_000 }, async (t) => {
        const database = await freshPostgresUrl();
        const receiver = await Receiver.start();
        const inboundPorts = [await freePort(), await freePort()];
        const operator = await OperatorProcess.start({ bankUrls: inboundPorts.map((port) => `https://127.0.0.1:${port}`), schemes: { ZA_RPP: { latencyMs: 50 } } });
        const servers = [];
        try {
            // A budget shorter than the operator's outage: transfers sent meanwhile go through TIMEOUT and status enquiries.
            await startLinkedInstances({ database, receiver, operator, inboundPorts, timeBudgetMs: 3_000, servers });
            let stop = false;
            const accepted = new Set();
            const loading = load((request) => servers[request % servers.length], WORKERS, () => stop, accepted);
            await untilLoaded(() => accepted.size, ACCEPTED_BEFORE_FAILURE_MIN, 0, 20_000);
            await operator.kill9();
            await sleep(3_500);
            await operator.up();
            await sleep(1_500);
            stop = true;
            await loading;
            assert.ok(accepted.size >= ACCEPTED_BEFORE_FAILURE_MIN, `load on the instances (${accepted.size} accepted)`);
            const byTransfer = seenByTransfer(await waitComplete(receiver, accepted, 60_000));
            assertEveryTransferWhole(accepted, byTransfer, operator.storePath);
            const timeouts = through(byTransfer, accepted, 'TIMEOUT');
            const failedSends = through(byTransfer, accepted, 'REQUEST_DELIVERY_FAILURE');
            assert.ok(failedSends > 0, 'sends failed while the operator was down, and were sent again');
            assert.ok(timeouts > 0, 'transfers outlived their time budget while the operator was down, and were recovered by enquiries');
            t.diagnostic(`${accepted.size} transfers; ${timeouts} through TIMEOUT, ${failedSends} through a failed send`);
        }
        finally {
            for (const server of servers)
                await server.stop();
            await operator.stop();
            await receiver.down();
            await dropTestDatabase(database);
        }
    });
});
//# sourceMappingURL=operator-scale-out.test.js.map