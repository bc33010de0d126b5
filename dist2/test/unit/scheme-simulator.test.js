import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { familyOf } from '../../src/connectors/registry.js';
import { SchemeSimulator, simulatorTransport } from '../../src/connectors/simulator/simulator.js';
import { behaviourFor, TEST_VALUES, testValue } from '../../src/connectors/simulator/test-values.js';
import { outboundTransfer, RecordingInbound, sleep, toAccount } from '../support/scheme.js';
const clock = { now: () => Date.now() };
function simulated(scheme, options = {}) {
    const family = familyOf(scheme);
    assert.ok(family);
    const simulator = new SchemeSimulator({ scheme, clock, latencyMs: 5, lateAnswerMs: 100, entriesMax: 100, deliveryAttemptsMax: 3, ...options });
    return { simulator, connector: createIsoConnector(family, { scheme, transport: simulator, clock }) };
}
void describe('scheme simulator', () => {
    void it('approves any account number outside the table and a proxy payment without one', () => {
        assert.deepEqual(behaviourFor('4071234567'), { kind: 'approve' });
        assert.deepEqual(behaviourFor(undefined), { kind: 'approve' });
        assert.deepEqual(behaviourFor(' reject-am02 '), { kind: 'reject', reasonCode: 'AM02' });
    });
    void it('gives every behaviour a distinct numeric value and a distinct name', () => {
        const values = TEST_VALUES.map((entry) => entry.value);
        const aliases = TEST_VALUES.map((entry) => entry.alias);
        assert.equal(new Set(values).size, values.length);
        assert.equal(new Set(aliases).size, aliases.length);
        for (const value of values)
            assert.match(value, /^\d{10}$/);
    });
    void it('waits the configured latency before answering', async () => {
        const { connector } = simulated('ZA_RTC', { latencyMs: 150 });
        const inbound = new RecordingInbound();
        await connector.start(inbound);
        const transfer = outboundTransfer('ZA_RTC');
        const sentAt = Date.now();
        await connector.submit(transfer);
        await sleep(50);
        assert.equal(inbound.reports.length, 0);
        await inbound.waitForTransfer(transfer);
        assert.ok(Date.now() - sentAt >= 145);
        await connector.stop();
    });
    void it('forgets the oldest transfers beyond its memory bound, then answers enquiries about them with not_found', async () => {
        const { simulator, connector } = simulated('ZA_RTC', { entriesMax: 3 });
        const inbound = new RecordingInbound();
        await connector.start(inbound);
        const transfers = Array.from({ length: 5 }, () => outboundTransfer('ZA_RTC'));
        // Each answered before the next is taken: a transfer forgotten before its answer is never answered.
        for (const transfer of transfers) {
            await connector.submit(transfer);
            await inbound.waitForTransfer(transfer);
        }
        assert.equal(simulator.transferCount, 3);
        const [oldest, , , , newest] = transfers;
        assert.ok(oldest && newest);
        await connector.enquire(oldest);
        await connector.enquire(newest);
        const [, forgotten] = await inbound.waitForTransfer(oldest, 2);
        const [, known] = await inbound.waitForTransfer(newest, 2);
        assert.equal(forgotten?.kind, 'not_found');
        assert.equal(known?.kind, 'status');
        assert.equal(known?.status, 'ACCEPTED');
        await connector.stop();
    });
    void it('knows nothing after a restart: an enquiry gives not_found, and resubmitting the same key makes one transfer', async () => {
        const transfer = outboundTransfer('ZA_RPP');
        const first = simulated('ZA_RPP');
        await first.connector.start(new RecordingInbound());
        await first.connector.submit(transfer);
        await first.connector.stop();
        const restarted = simulated('ZA_RPP');
        const inbound = new RecordingInbound();
        await restarted.connector.start(inbound);
        await restarted.connector.enquire(transfer);
        const [notFound] = await inbound.waitForTransfer(transfer);
        assert.equal(notFound?.kind, 'not_found');
        await restarted.connector.submit(transfer);
        const [, accepted] = await inbound.waitForTransfer(transfer, 2);
        assert.equal(accepted?.status, 'ACCEPTED');
        assert.equal(restarted.simulator.transferCount, 1);
        await restarted.connector.stop();
    });
    void it('delivers an answer again when the receiver could not record it', async () => {
        const { connector } = simulated('ZA_EFT');
        const inbound = new RecordingInbound();
        inbound.failuresLeft = 2;
        await connector.start(inbound);
        const transfer = outboundTransfer('ZA_EFT');
        await connector.submit(transfer);
        const [report] = await inbound.waitForTransfer(transfer, 1, 3_000);
        assert.equal(report?.status, 'ACCEPTED');
        assert.equal(inbound.failuresLeft, 0);
        await connector.stop();
    });
    void it('drops answers not yet delivered when stopped', async () => {
        const { connector } = simulated('ZA_RTC', { latencyMs: 30 });
        const inbound = new RecordingInbound();
        await connector.start(inbound);
        await connector.submit(outboundTransfer('ZA_RTC'));
        await connector.stop();
        await sleep(100);
        assert.equal(inbound.reports.length, 0);
    });
    void it('answers an enquiry made while the transfer is still being processed with PDNG (PENDING)', async () => {
        const { connector } = simulated('ZA_RTC', { lateAnswerMs: 400 });
        const inbound = new RecordingInbound();
        await connector.start(inbound);
        const transfer = toAccount('ZA_RTC', testValue('late').value);
        await connector.submit(transfer);
        await connector.enquire(transfer);
        const [pending] = await inbound.waitForTransfer(transfer);
        assert.equal(pending?.kind, 'status');
        assert.equal(pending?.status, 'PENDING');
        const [, accepted] = await inbound.waitForTransfer(transfer, 2);
        assert.equal(accepted?.status, 'ACCEPTED');
        await connector.stop();
    });
    void it('refuses a document that is not a pacs.008 or pacs.028, not retryable', async () => {
        const simulator = new SchemeSimulator({ scheme: 'ZA_RTC', clock, latencyMs: 0, lateAnswerMs: 0, entriesMax: 10, deliveryAttemptsMax: 1 });
        const send = (document) => simulator.send({ scheme: 'ZA_RTC', messageName: 'x', messageId: 'x', idempotencyKey: 'x', document, traceparent: null });
        for (const document of ['not xml <', '<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.056.001.08"><FIToFIPmtCxlReq/></Document>']) {
            const outcome = await send(document);
            assert.equal(outcome.kind, 'failed');
            assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
        }
    });
    void it('answers late just after the time budget by default; a scheme setting sets the latency', () => {
        const fromConfig = simulatorTransport({ latencyMs: 7 });
        const plain = fromConfig({ scheme: 'ZA_RPP', timeBudgetMs: 10_000, config: undefined, clock });
        assert.equal(plain.options.latencyMs, 7);
        assert.equal(plain.options.lateAnswerMs, 11_000);
        const configured = fromConfig({ scheme: 'ZA_RPP', timeBudgetMs: 10_000, config: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 0, inbound: { answerTimeoutMs: 5_000 } }, clock });
        assert.equal(configured.options.latencyMs, 0);
    });
    void it('is documented value by value in docs/simulator.md', () => {
        const doc = readFileSync(fileURLToPath(new URL('../../../docs/simulator.md', import.meta.url)), 'utf8');
        for (const entry of TEST_VALUES) {
            assert.ok(doc.includes(`\`${entry.value}\``), `docs/simulator.md lists ${entry.value}`);
            assert.ok(doc.includes(`\`${entry.alias}\``), `docs/simulator.md lists ${entry.alias}`);
        }
    });
});
//# sourceMappingURL=scheme-simulator.test.js.map