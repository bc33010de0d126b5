import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OperatorProcess, operatorLinkSchemes } from '../support/operator.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
import { Receiver } from '../support/receiver.js';
import { freePort, startServer, writeTestConfig } from '../support/server.js';
import { FAST_RETRIES } from '../support/transfers-seen.js';
/**
 * A credit to an integrator's customer across kill -9 (issue: "a crash at any point loses
 * nothing"), with the standalone operator simulator, which outlives the service as a real operator
 * does: the integrator approves, the answer cannot reach the operator (it is down), the service is
 * killed; after the restarts the stored approval is sent, the operator's final word comes, and the
 * integrator is asked once and told once.
 */
const PARTNER = '/partner-api/v1';
const AUTHORISE = `${PARTNER}/transactions/inbound/credit-transfer-authorisation-sync`;
const COMPLETION = `${PARTNER}/transactions/inbound/credit-transfer-completion`;
const EVENTS = '/events-api/v1/events';
/** The stand-in integrator holds its approval this long, so the test can take the operator down meanwhile. */
const ANSWER_DELAY_MS = 1_500;
const bodyOf = (message) => JSON.parse(message.body);
const about = (uetr) => (message) => {
    const body = bodyOf(message);
    return body.transactionIdentifiers?.uetr === uetr || body.tranInfo?.tranUetr === uetr;
};
const calls = (received, path, uetr) => received.filter((message) => message.path === path && about(uetr)(message));
const eventTypes = (received, uetr) => calls(received, EVENTS, uetr).map((message) => bodyOf(message).type);
async function originate(controlPort, order) {
    const response = await fetch(`http://127.0.0.1:${controlPort}/v1/schemes/ZA_RTC/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(order) });
    const body = (await response.json());
    assert.equal(response.status, 202, JSON.stringify(body));
    assert.ok(body.uetr !== undefined);
    return body.uetr;
}
async function operatorView(controlPort, uetr) {
    const response = await fetch(`http://127.0.0.1:${controlPort}/v1/schemes/ZA_RTC/inbound/${uetr}`);
    return response.status === 200 ? response.json() : undefined;
}
async function until(probe, what, timeoutMs) {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
        if (Date.now() > deadline)
            throw new Error(`timed out waiting for ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
    }
}
/** Services linked to the operator on `inboundPorts`, sharing `database`; the config files, to restart them. */
function linkedConfigs(database, receiver, operator, inboundPorts) {
    return inboundPorts.map((port) => {
        const schemes = operatorLinkSchemes(operator.url, port, { ZA_RTC: 10_000 });
        schemes.ZA_RTC = { ...schemes.ZA_RTC, inbound: { answerTimeoutMs: 5_000 } };
        return writeTestConfig({ database, integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl }, extra: { ...FAST_RETRIES, schemes } });
    });
}
const stores = [
    ['SQLite, one instance', () => Promise.resolve(`sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-receiving-crash-')), 'regpay.db')}`), 1],
    ['PostgreSQL, two instances', () => freshPostgresUrl(), 2],
];
for (const [name, makeDatabase, instances] of stores) {
    void describe(`receiving across kill -9 (${name})`, () => {
        const cleanup = [];
        after(async () => {
            for (const step of cleanup.reverse())
                await step().catch(() => undefined);
        });
        void it('sends the stored approval after the restarts, asks the integrator once and completes the credit once', { timeout: 150_000 }, async () => {
            const database = await makeDatabase();
            if (database.startsWith('postgres'))
                cleanup.push(() => dropTestDatabase(database));
            const receiver = await Receiver.start({ answerDelayMs: ANSWER_DELAY_MS });
            cleanup.push(() => receiver.down());
            const inboundPorts = await Promise.all(Array.from({ length: instances }, () => freePort()));
            const controlPort = await freePort();
            const operator = await OperatorProcess.start({ bankUrls: inboundPorts.map((port) => `https://127.0.0.1:${port}`), schemes: { ZA_RTC: { latencyMs: 20 } }, controlPort });
            cleanup.push(() => operator.stop());
            const configs = linkedConfigs(database, receiver, operator, inboundPorts);
            const servers = await Promise.all(configs.map((configPath) => startServer({ configPath })));
            cleanup.push(() => Promise.all(servers.map((server) => server.stop())));
            const uetr = await originate(controlPort, { institution: { bicfi: 'DEMOZAJJ' }, scenario: 'CREDIT', accountNumber: '4071000041', amount: '41.00' });
            // The integrator has been asked and holds its approval: the operator goes down meanwhile.
            await receiver.waitFor((all) => calls(all, AUTHORISE, uetr).length > 0, 20_000);
            await operator.kill9();
            // The approval is stored and its pacs.002 cannot be delivered: then every instance is killed.
            await receiver.waitFor((all) => eventTypes(all, uetr).includes('PAYMENT_AUTH_RESPONSE_DELIVERY_FAILURE'), 20_000);
            await Promise.all(servers.map((server) => server.kill9()));
            await operator.up();
            for (const [index, configPath] of configs.entries())
                servers[index] = await startServer({ configPath });
            const received = await receiver.waitFor((all) => calls(all, COMPLETION, uetr).length > 0, 60_000);
            const completion = bodyOf(calls(received, COMPLETION, uetr)[0]);
            assert.equal(completion.status.outcome, 'APPROVED', 'the operator settled the approval sent after the restart');
            await until(async () => (await operatorView(controlPort, uetr))?.finalWord !== undefined, 'the operator to give its final word', 10_000);
            const view = await operatorView(controlPort, uetr);
            assert.ok(JSON.stringify(view).includes('ACSP'), `the operator received the approval: ${JSON.stringify(view)}`);
            await new Promise((resolve) => setTimeout(resolve, 2_000));
            const all = receiver.received();
            assert.equal(calls(all, AUTHORISE, uetr).length, 1, 'the integrator is asked once');
            assert.equal(calls(all, COMPLETION, uetr).length, 1, 'one completion');
            const types = eventTypes(all, uetr);
            assert.equal(types.filter((type) => type === 'PAYMENT_AUTH_RESPONSE_ACCEPTED').length, 1, 'one verdict');
            assert.ok(types.includes('PAYMENT_COMPLETION_DELIVERED'));
        });
    });
}
//# sourceMappingURL=receiving-crash.test.js.map