import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Receiver } from '../support/receiver.js';
import { startServer, writeTestConfig } from '../support/server.js';
/**
 * `simulator.inbound.ratePerSecond`: with a rate configured and no one triggering anything, the
 * built-in simulator sends every integrator's institution lookups and credits on ZA_RPP (both test
 * integrators answer from one stand-in process), and the service asks them to authorise the
 * credits and tells them the outcome.
 */
const PARTNER = '/partner-api/v1';
const AUTHORISE = `${PARTNER}/transactions/inbound/credit-transfer-authorisation-sync`;
const LOOKUP = `${PARTNER}/identifiers/inbound/identifier-determination-sync`;
const COMPLETION = `${PARTNER}/transactions/inbound/credit-transfer-completion`;
const bodyOf = (message) => JSON.parse(message.body);
void describe('a steady rate of scheme-originated traffic from the configuration', () => {
    let receiver;
    let server;
    before(async () => {
        receiver = await Receiver.start();
        const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-steady-rate-')), 'regpay.db')}`;
        const configPath = writeTestConfig({
            database,
            integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, events: false },
            extra: {
                schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 5, inbound: { answerTimeoutMs: 1_000 } } },
                simulator: { inbound: { ratePerSecond: 4, outstandingMax: 3, amount: '25.50', accountNumber: '4071000007' } },
            },
        });
        server = await startServer({ configPath });
    });
    after(async () => {
        await server?.stop();
        await receiver?.down();
    });
    void it('asks each integrator to authorise credits to the configured customer, looked up first or not, without any trigger, and completes them', async () => {
        const received = await receiver.waitFor((all) => all.filter((message) => message.path === COMPLETION).length >= 4, 30_000);
        const authorisations = received.filter((message) => message.path === AUTHORISE).map(bodyOf);
        assert.ok(authorisations.length >= 4, `authorisation calls: ${authorisations.length}`);
        for (const credit of authorisations) {
            assert.equal(credit.creditorAccount.identification.value, '4071000007');
            assert.equal(credit.amounts.bankSettlementAmount.value, 25.5);
        }
        assert.deepEqual([...new Set(authorisations.map((credit) => credit.creditorAgent.bicfi.slice(0, 8)))].sort(), ['DEMOZAJJ', 'OTHRZAJJ'], 'both configured integrators’ institutions are addressed, in turn');
        const lookups = received.filter((message) => message.path === LOOKUP).map(bodyOf);
        assert.ok(lookups.length >= 1, 'lookups come too (LOOKUP_THEN_CREDIT and CREDIT in turn)');
        assert.ok(lookups.every((lookup) => lookup.request.identifier.value === '4071000007'));
        const completions = received.filter((message) => message.path === COMPLETION).map(bodyOf);
        assert.ok(completions.every((completion) => completion.status.outcome === 'APPROVED'), JSON.stringify(completions.map((completion) => completion.status)));
    });
});
//# sourceMappingURL=receiving-steady-rate.test.js.map