import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { simulatorWorker, threadedSimulatorTransport } from '../../src/connectors/simulator/threaded-simulator.js';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { ZA_RTC } from '../../src/connectors/za-rtc/family.js';
import { outboundTransfer, RecordingInbound, toAccount } from '../support/scheme.js';
import { transportOutcome } from '../support/transport.js';
const clock = { now: () => Date.now() };
const transport = threadedSimulatorTransport({ latencyMs: 1, lateAnswerMs: 50 });
function connectorFor(scheme) {
    const family = scheme === 'ZA_RTC' ? ZA_RTC : ZA_RPP;
    return createIsoConnector(family, { scheme, transport: transport({ scheme, timeBudgetMs: 1_000, config: undefined, clock }), clock });
}
void describe('scheme simulator in its own thread (the service’s `simulator` transport)', () => {
    void it('answers each scheme later through that scheme’s inbound side, as the in-process simulator does', async () => {
        const rtc = connectorFor('ZA_RTC');
        const rpp = connectorFor('ZA_RPP');
        const rtcInbound = new RecordingInbound();
        const rppInbound = new RecordingInbound();
        await rtc.start(rtcInbound);
        await rpp.start(rppInbound);
        try {
            const approved = outboundTransfer('ZA_RTC');
            const rejected = toAccount('ZA_RPP', testValue('reject', 'AC04').value);
            assert.deepEqual(transportOutcome(await rtc.submit(approved)), { kind: 'delivered' });
            assert.deepEqual(transportOutcome(await rpp.submit(rejected)), { kind: 'delivered' });
            const [approval] = await rtcInbound.waitForTransfer(approved);
            assert.equal(approval?.status, 'ACCEPTED');
            assert.equal(approval?.scheme, 'ZA_RTC');
            const [rejection] = await rppInbound.waitForTransfer(rejected);
            assert.equal(rejection?.status, 'REJECTED');
            assert.equal(rejection?.reasonCode, 'AC04');
            assert.equal(rtcInbound.about(rejected).length, 0, 'no answer reaches another scheme');
        }
        finally {
            await rtc.stop();
            await rpp.stop();
        }
    });
    void it('keeps answering a started scheme whose simulator is set up again (connectors built once more)', async () => {
        const rtc = connectorFor('ZA_RTC');
        const inbound = new RecordingInbound();
        await rtc.start(inbound);
        try {
            transport({ scheme: 'ZA_RTC', timeBudgetMs: 1_000, config: undefined, clock });
            const transfer = outboundTransfer('ZA_RTC');
            assert.deepEqual(transportOutcome(await rtc.submit(transfer)), { kind: 'delivered' });
            assert.equal((await inbound.waitForTransfer(transfer))[0]?.status, 'ACCEPTED');
        }
        finally {
            await rtc.stop();
        }
    });
    void it('delivers an answer again that the service could not take', async () => {
        const rtc = connectorFor('ZA_RTC');
        const inbound = new RecordingInbound();
        inbound.failuresLeft = 2;
        await rtc.start(inbound);
        try {
            const transfer = outboundTransfer('ZA_RTC');
            await rtc.submit(transfer);
            const [report] = await inbound.waitForTransfer(transfer, 1, 5_000);
            assert.equal(report?.status, 'ACCEPTED');
            assert.equal(inbound.failuresLeft, 0, 'two deliveries were refused before this one');
        }
        finally {
            await rtc.stop();
        }
    });
    void it('ends its thread when the last scheme stops, and a later send starts one that remembers nothing', async () => {
        const first = connectorFor('ZA_RTC');
        const firstInbound = new RecordingInbound();
        await first.start(firstInbound);
        const transfer = outboundTransfer('ZA_RTC');
        await first.submit(transfer);
        await firstInbound.waitForTransfer(transfer);
        await first.stop();
        const second = connectorFor('ZA_RTC');
        const secondInbound = new RecordingInbound();
        await second.start(secondInbound);
        try {
            // An enquiry about a transfer the new thread never saw: NOOR, reported as not found.
            await second.enquire(transfer);
            const [report] = await secondInbound.waitForTransfer(transfer);
            assert.equal(report?.kind, 'not_found');
            const fresh = outboundTransfer('ZA_RTC');
            await second.submit(fresh);
            assert.equal((await secondInbound.waitForTransfer(fresh))[0]?.status, 'ACCEPTED');
        }
        finally {
            await second.stop();
        }
    });
    void it('fails a send to a thread that is dying as retryable, and the next send starts a new thread that answers every started scheme', async () => {
        const rtc = connectorFor('ZA_RTC');
        const inbound = new RecordingInbound();
        await rtc.start(inbound);
        try {
            const dead = simulatorWorker();
            assert.ok(dead, 'a started scheme has a thread');
            const dying = dead.terminate();
            const outcome = await rtc.submit(outboundTransfer('ZA_RTC'));
            assert.equal(outcome.kind, 'failed');
            assert.equal(outcome.kind === 'failed' && outcome.retryable, true, 'the engine sends again under the same idempotency key');
            await dying;
            const transfer = outboundTransfer('ZA_RTC');
            assert.deepEqual(transportOutcome(await rtc.submit(transfer)), { kind: 'delivered' });
            assert.notEqual(simulatorWorker(), dead, 'a new thread');
            assert.equal((await inbound.waitForTransfer(transfer))[0]?.status, 'ACCEPTED', 'the new thread knows the scheme was started');
        }
        finally {
            await rtc.stop();
        }
    });
    void it('answers a send for a scheme that was stopped as a retryable failure, without hanging', async () => {
        const rtc = connectorFor('ZA_RTC');
        await rtc.start(new RecordingInbound());
        const rpp = connectorFor('ZA_RPP');
        await rpp.stop();
        const outcome = await rpp.submit(outboundTransfer('ZA_RPP'));
        await rtc.stop();
        assert.equal(outcome.kind, 'failed');
        assert.equal(outcome.kind === 'failed' && outcome.retryable, true);
    });
});
//# sourceMappingURL=threaded-simulator.test.js.map