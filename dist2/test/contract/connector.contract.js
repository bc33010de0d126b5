import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { requestToPayTestValue } from '../../src/connectors/simulator/request-to-pay-values.js';
import { REJECTION_CODES, testValue } from '../../src/connectors/simulator/test-values.js';
import { mobile, outboundLookup } from '../support/lookup.js';
import { cancellationOf, fromDebtorAccount } from '../support/request-to-pay.js';
import { outboundTransfer, RecordingInbound, sleep, toAccount, withAmount } from '../support/scheme.js';
import { transportOutcome } from '../support/transport.js';
export function connectorContract(settings) {
    const { scheme } = settings;
    void describe(`scheme connector contract: ${scheme}${settings.over === undefined ? '' : ` over ${settings.over}`}`, () => {
        let subject;
        let connector;
        const inbound = new RecordingInbound();
        before(async () => {
            subject = settings.create();
            connector = subject.connector;
            await connector.start(inbound);
        });
        after(async () => {
            await connector.stop();
        });
        void it('declares the scheme and its capabilities as data', () => {
            assert.ok(connector.schemes.includes(scheme));
            assert.equal(connector.capabilities.creditTransfer, true);
            assert.equal(connector.capabilities.statusEnquiry, true);
            assert.match(connector.family, /^[a-z0-9-]+$/);
        });
        void it('passes its own rules for a valid transfer, without sending anything', () => {
            const before = subject.transferCount();
            assert.deepEqual(connector.check(outboundTransfer(scheme), {}), { ok: true });
            assert.equal(subject.transferCount(), before);
        });
        void it('approves by default, answering later through the inbound side', async () => {
            const transfer = outboundTransfer(scheme);
            const submitted = await connector.submit(transfer);
            assert.deepEqual(transportOutcome(submitted), { kind: 'delivered' });
            assert.ok(submitted.sent?.document.includes(transfer.uetr), 'it tells what it sent: the document naming the transfer');
            assert.equal(inbound.about(transfer).length, 0, 'the answer must come asynchronously, not during submit');
            const [report] = await inbound.waitForTransfer(transfer);
            assert.equal(report?.kind, 'status');
            assert.equal(report?.status, 'ACCEPTED');
            assert.equal(report?.scheme, scheme);
            assert.equal(report?.uetr, transfer.uetr);
            assert.equal(report?.reasonCode, undefined);
            assert.match(String(report?.message.schema), /^pacs\.002\.001\.\d\d$/);
        });
        void it('rejects with each documented reason code, carrying that code', async () => {
            const transfers = REJECTION_CODES.map((code) => ({ code, transfer: toAccount(scheme, testValue('reject', code).value) }));
            for (const { transfer } of transfers)
                assert.deepEqual(transportOutcome(await connector.submit(transfer)), { kind: 'delivered' });
            for (const { code, transfer } of transfers) {
                const [report] = await inbound.waitForTransfer(transfer);
                assert.equal(report?.status, 'REJECTED', code);
                assert.equal(report?.reasonCode, code);
                assert.ok((report?.reasonText ?? '').length > 0);
            }
        });
        void it('rejects by mnemonic test value too', async () => {
            const transfer = toAccount(scheme, 'reject-ac04');
            await connector.submit(transfer);
            const [report] = await inbound.waitForTransfer(transfer);
            assert.equal(report?.reasonCode, 'AC04');
        });
        void it("rejects an amount over the integrator's maximum with AM02 from check(), not an error", () => {
            const transfer = outboundTransfer(scheme);
            const limit = transfer.amount.minor;
            assert.deepEqual(connector.check(transfer, { amountMaxMinor: limit }), { ok: true });
            const outcome = connector.check(withAmount(transfer, limit + 1n), { amountMaxMinor: limit });
            assert.equal(outcome.ok, false);
            assert.equal(outcome.ok ? '' : outcome.reasonCode, 'AM02');
        });
        void it('rejects a zero amount with AM01', () => {
            const outcome = connector.check(withAmount(outboundTransfer(scheme), 0n), {});
            assert.equal(outcome.ok ? '' : outcome.reasonCode, 'AM01');
        });
        void it(settings.foreignCurrency ? 'takes a non-ZAR settlement amount' : 'rejects a non-ZAR settlement amount with AM03', () => {
            const transfer = outboundTransfer(scheme, (message) => {
                message.amounts.bankSettlementAmount = { currency: 'USD', value: 100 };
            });
            const outcome = connector.check(transfer, {});
            if (settings.foreignCurrency)
                assert.deepEqual(outcome, { ok: true });
            else
                assert.equal(outcome.ok ? '' : outcome.reasonCode, 'AM03');
        });
        void it('treats a resubmission with the same idempotency key as the same transfer, with the same answer', async () => {
            const transfer = toAccount(scheme, testValue('reject', 'AC06').value);
            const countBefore = subject.transferCount();
            await connector.submit(transfer);
            const [first] = await inbound.waitForTransfer(transfer);
            assert.deepEqual(transportOutcome(await connector.submit({ ...transfer, transactionId: 'another-attempt' })), { kind: 'delivered' });
            const [, second] = await inbound.waitForTransfer(transfer, 2);
            assert.equal(subject.submissionsOf(transfer.uetr), 2);
            assert.equal(subject.transferCount(), countBefore + 1);
            assert.equal(second?.status, first?.status);
            assert.equal(second?.reasonCode, 'AC06');
            assert.deepEqual(second?.message, first?.message, 'the same status report again');
        });
        void it('answers an enquiry about a transfer the scheme never received with not_found', async () => {
            const transfer = outboundTransfer(scheme);
            assert.deepEqual(transportOutcome(await connector.enquire(transfer)), { kind: 'delivered' });
            const [report] = await inbound.waitForTransfer(transfer);
            assert.equal(report?.kind, 'not_found');
            assert.equal(report?.status, 'PENDING');
            assert.equal(report?.uetr, transfer.uetr);
        });
        void it('answers an enquiry about a known transfer with its status', async () => {
            const transfer = toAccount(scheme, testValue('reject', 'MD07').value);
            await connector.submit(transfer);
            await inbound.waitForTransfer(transfer);
            await connector.enquire(transfer);
            const [, report] = await inbound.waitForTransfer(transfer, 2);
            assert.equal(report?.kind, 'status');
            assert.equal(report?.status, 'REJECTED');
            assert.equal(report?.reasonCode, 'MD07');
        });
        void it('maps a status code it does not know to PENDING, never to ACCEPTED', async () => {
            const transfer = toAccount(scheme, testValue('unknown_status').value);
            await connector.submit(transfer);
            const [report] = await inbound.waitForTransfer(transfer);
            assert.equal(report?.kind, 'status');
            assert.equal(report?.status, 'PENDING');
        });
        void it('reports PENDING, then ACCEPTED, for a transfer the scheme holds before settling', async () => {
            const transfer = toAccount(scheme, testValue('pending_then_accept').value);
            await connector.submit(transfer);
            const reports = await inbound.waitForTransfer(transfer, 2);
            assert.deepEqual(reports.map((report) => report.status), ['PENDING', 'ACCEPTED']);
        });
        void it('passes on both reports when the scheme answers twice', async () => {
            const transfer = toAccount(scheme, testValue('twice').value);
            await connector.submit(transfer);
            const reports = await inbound.waitForTransfer(transfer, 2);
            assert.deepEqual(reports.map((report) => report.status), ['ACCEPTED', 'ACCEPTED']);
            await sleep(settings.latencyMs * 4);
            assert.equal(inbound.about(transfer).length, 2, 'exactly two');
        });
        void it('delivers nothing for a transfer the scheme never answers, nor for enquiries about it', async () => {
            const transfer = toAccount(scheme, testValue('silent').value);
            assert.deepEqual(transportOutcome(await connector.submit(transfer)), { kind: 'delivered' });
            assert.deepEqual(transportOutcome(await connector.enquire(transfer)), { kind: 'delivered' });
            await sleep(settings.latencyMs * 10 + 100);
            assert.equal(inbound.about(transfer).length, 0);
        });
        void it('answers a late transfer only after the time budget', async () => {
            const transfer = toAccount(scheme, testValue('late').value);
            const sentAt = Date.now();
            await connector.submit(transfer);
            const [report] = await inbound.waitForTransfer(transfer, 1, settings.lateAnswerMs + 2_000);
            assert.ok(Date.now() - sentAt >= settings.lateAnswerMs - 5, 'not before the late answer time');
            assert.equal(report?.status, 'ACCEPTED');
        });
        void it('fails a first submission transiently (retryable), then takes the same transfer and approves it', async () => {
            const transfer = toAccount(scheme, testValue('transient_failure').value);
            const first = await connector.submit(transfer);
            assert.equal(first.kind, 'failed');
            assert.equal(first.kind === 'failed' && first.retryable, true);
            assert.deepEqual(transportOutcome(await connector.submit(transfer)), { kind: 'delivered' });
            const [report] = await inbound.waitForTransfer(transfer);
            assert.equal(report?.status, 'ACCEPTED');
            assert.equal(subject.submissionsOf(transfer.uetr), 1, 'the failed attempt never reached the scheme');
        });
        void it('fails permanently, not retryable, and nothing reaches the scheme', async () => {
            const transfer = toAccount(scheme, testValue('permanent_failure').value);
            const outcome = await connector.submit(transfer);
            assert.equal(outcome.kind, 'failed');
            assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
            assert.equal(subject.submissionsOf(transfer.uetr), 0);
        });
        void it('answers an identifier determination with an IdentificationReport when it has the capability, and refuses it, not retryable, otherwise', async () => {
            const lookup = { ...outboundLookup(mobile('0821234567')), scheme };
            const outcome = await connector.resolve(lookup);
            if (connector.capabilities.identifierDetermination !== true) {
                assert.equal(outcome.kind, 'failed');
                assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
                return;
            }
            assert.deepEqual(transportOutcome(outcome), { kind: 'delivered' });
            const report = await identificationAbout(inbound, lookup);
            assert.equal(report.scheme, scheme);
            assert.equal(report.outcome, 'SUCCESSFUL');
            assert.equal(report.account?.legalName, 'Thandiwe Nomvula Dlamini');
            assert.match(String(report.message.schema), /^acmt\.024\.001\.\d\d$/);
        });
        void it('answers a request-to-pay with RequestToPayReports and its cancellation with a CancellationReport when it has the capability, and refuses both, not retryable, otherwise', async () => {
            const request = { ...fromDebtorAccount(requestToPayTestValue('never_paid').value), scheme };
            const cancellation = cancellationOf(request, 'CUST');
            const outcomes = [await connector.requestToPay(request)];
            if (connector.capabilities.requestToPay !== true) {
                outcomes.push(await connector.cancelRequestToPay(cancellation));
                for (const outcome of outcomes) {
                    assert.equal(outcome.kind, 'failed');
                    assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
                }
                return;
            }
            assert.deepEqual(outcomes.map(transportOutcome), [{ kind: 'delivered' }]);
            const statuses = await requestToPayReportsAbout(inbound, request, 2);
            assert.deepEqual(statuses.map((report) => [report.kind, report.scheme, report.status]), [
                ['request_to_pay', scheme, 'PENDING'],
                ['request_to_pay', scheme, 'PRESENTED'],
            ]);
            assert.match(String(statuses[0]?.message.schema), /^pain\.014\.001\.\d\d$/);
            assert.deepEqual(transportOutcome(await connector.cancelRequestToPay(cancellation)), { kind: 'delivered' });
            const answer = await cancellationAbout(inbound, cancellation);
            assert.equal(answer.accepted, true);
            assert.equal(answer.idempotencyKey, request.idempotencyKey);
            assert.match(String(answer.message.schema), /^camt\.029\.001\.\d\d$/);
        });
    });
}
/** The first report the inbound side recorded that `matches`, waited for; `what` names it when none comes within 2 s. */
async function firstReport(inbound, matches, what) {
    const deadline = Date.now() + 2_000;
    for (;;) {
        const found = inbound.reports.find(matches);
        if (found !== undefined)
            return found;
        const left = deadline - Date.now();
        if (left <= 0)
            throw new Error(`no ${what} within 2000 ms`);
        await inbound.waitFor(inbound.reports.length + 1, left).catch(() => undefined);
    }
}
/** The identification report about `lookup` among the reports the inbound side recorded, waited for. */
function identificationAbout(inbound, lookup) {
    return firstReport(inbound, (report) => report.kind === 'identification' && report.idempotencyKey === lookup.idempotencyKey, `identification report about ${lookup.idempotencyKey}`);
}
/** The first `count` request-to-pay reports about `request` among the reports the inbound side recorded, waited for. */
async function requestToPayReportsAbout(inbound, request, count) {
    const about = () => inbound.reports.filter((report) => report.kind === 'request_to_pay' && report.idempotencyKey === request.idempotencyKey);
    const deadline = Date.now() + 2_000;
    while (about().length < count) {
        const left = deadline - Date.now();
        if (left <= 0)
            throw new Error(`expected ${count} request-to-pay report(s) about ${request.idempotencyKey} within 2000 ms, got ${about().length}`);
        await inbound.waitFor(inbound.reports.length + 1, left).catch(() => undefined);
    }
    return about().slice(0, count);
}
/** The cancellation report about `cancellation` among the reports the inbound side recorded, waited for. */
function cancellationAbout(inbound, cancellation) {
    return firstReport(inbound, (report) => report.kind === 'cancellation' && report.cancellationKey === cancellation.cancellationKey, `cancellation report about ${cancellation.cancellationKey}`);
}
//# sourceMappingURL=connector.contract.js.map