import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readAcmt023 } from '../../src/connectors/iso20022/acmt023.js';
import { acmt024Document } from '../../src/connectors/iso20022/acmt024.js';
import { camt029Document } from '../../src/connectors/iso20022/camt029.js';
import { EXPIRED_REASON, readCamt056 } from '../../src/connectors/iso20022/camt056.js';
import { idempotencyKeyOf } from '../../src/connectors/iso20022/ids.js';
import { readPacs002, pacs002Document } from '../../src/connectors/iso20022/pacs002.js';
import { isoDateTime, readPacs008 } from '../../src/connectors/iso20022/pacs008.js';
import { readPain013 } from '../../src/connectors/iso20022/pain013.js';
import { pain014Document } from '../../src/connectors/iso20022/pain014.js';
import { documentMessageName, text } from '../../src/connectors/iso20022/xml.js';
import { CREDIT_CANCELLED_REASON, INBOUND_SCENARIOS, SIMULATED_BANK, WITHDRAWAL_REASON } from '../../src/connectors/simulator/inbound-values.js';
import { memoryOperatorState } from '../../src/connectors/simulator/operator-state.js';
import { SimulatedOperator } from '../../src/connectors/simulator/simulated-operator.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import { ThreadedSimulator } from '../../src/connectors/simulator/threaded-simulator.js';
import { OperatorStore } from '../../src/operator/store.js';
import { sleep } from '../support/scheme.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';
/** An integrator's institution the simulated operator addresses. */
const INSTITUTION = { bicfi: 'DEMOZAJJ', memberId: '210001' };
const RESOLVED = { traditionalIdentifier: '62845123907', knownAsName: 'Thandi D', legalName: 'Thandiwe Nomvula Dlamini', accountAgentBicfi: 'DEMOZAJJ' };
const LATENCY_MS = 10;
/**
 * A simulated operator on a manual clock: its timers (`later`) wait in a queue until the test runs
 * them, and its documents (`deliver`) are collected in order, with when they are due.
 */
class Harness {
    now = Date.parse('2026-03-02T07:15:27.482Z');
    delivered = [];
    #timers = [];
    operator;
    constructor(scheme = 'ZA_RPP') {
        this.operator = new SimulatedOperator({ scheme, clock: { now: () => this.now }, latencyMs: LATENCY_MS, lateAnswerMs: 1_000, ids: { uuid: randomUUID } }, memoryOperatorState(100), {
            later: (delayMs, action) => this.#timers.push({ dueAt: this.now + delayMs, action }),
            deliver: (document, _subject, delayMs) => this.delivered.push({ document, dueAt: this.now + delayMs }),
        });
    }
    originate(order = {}) {
        const result = this.operator.originate({ institution: INSTITUTION, proxy: { schema: 'MOBILE', value: '+27-0821234567' }, amount: '150.00', ...order });
        assert.ok(result.ok, result.ok ? '' : result.error);
        return result;
    }
    /** Moves the clock on, running every timer due by then. */
    advance(ms) {
        this.now += ms;
        for (;;) {
            const index = this.#timers.findIndex((timer) => timer.dueAt <= this.now);
            if (index < 0)
                return;
            const [timer] = this.#timers.splice(index, 1);
            if (timer !== undefined)
                this.operator.run(timer.action);
        }
    }
    /** The names of the documents delivered so far, in order. */
    get names() {
        return this.delivered.map(({ document }) => document.messageName);
    }
    last(messageName) {
        const found = this.delivered.filter(({ document }) => document.messageName === messageName).at(-1);
        assert.ok(found, `no ${messageName} delivered (delivered: ${this.names.join(', ')})`);
        return found.document.document;
    }
    /** A MsgId of regpay's shape (U + 32 hex), as its connector writes answers. */
    answerId() {
        return `U${randomUUID().replaceAll('-', '')}`;
    }
    /** regpay answers the last acmt.023: SUCCESSFUL with RESOLVED, or FAILED with the reason. */
    answerLookup(outcome, messageId = this.answerId()) {
        const read = readAcmt023(this.last('acmt.023.001.03'));
        assert.ok(read.ok, read.ok ? '' : read.error);
        const request = read.value;
        const answer = acmt024Document({
            messageName: 'acmt.024.001.03',
            messageId,
            createdAt: isoDateTime(this.now),
            assigner: request.assignee,
            assignee: request.assigner,
            original: { messageId: request.messageId, ...(request.createdAt === undefined ? {} : { createdAt: request.createdAt }) },
            originalId: request.verificationId,
            originalPartyAndAccount: request.partyAndAccount,
            outcome: outcome === 'SUCCESSFUL' ? { verified: true, account: RESOLVED } : { verified: false, reasonCode: 'PX03' },
        });
        assert.deepEqual(this.operator.take(answer), { kind: 'delivered' });
        return messageId;
    }
    /** regpay's decision on the last pacs.008. */
    answerCredit(status, messageId = this.answerId()) {
        const read = readPacs008(this.last('pacs.008.001.10'));
        assert.ok(read.ok, read.ok ? '' : read.error);
        const credit = read.value;
        const answer = pacs002Document({
            messageName: 'pacs.002.001.12',
            messageId,
            createdAt: isoDateTime(this.now),
            original: {
                messageId: credit.messageId,
                messageName: credit.messageName,
                createdAt: credit.createdAt,
                endToEndId: credit.endToEndId,
                ...(credit.instructionId === undefined ? {} : { instructionId: credit.instructionId }),
                ...(credit.transactionId === undefined ? {} : { transactionId: credit.transactionId }),
                ...(credit.uetr === undefined ? {} : { uetr: credit.uetr }),
            },
            status,
            ...(status === 'RJCT' ? { reasonCode: 'AC04' } : {}),
        });
        assert.deepEqual(this.operator.take(answer), { kind: 'delivered' });
        return messageId;
    }
    /** regpay reports on the last pain.013. */
    reportRequest(status) {
        const read = readPain013(this.last('pain.013.001.09'));
        assert.ok(read.ok, read.ok ? '' : read.error);
        const request = read.value;
        const report = pain014Document({
            messageName: 'pain.014.001.09',
            messageId: this.answerId(),
            createdAt: isoDateTime(this.now),
            initiatingParty: { Nm: 'Demo Bank' },
            original: { messageId: request.messageId, messageName: request.messageName, paymentInformationId: request.paymentInformationId ?? request.messageId, endToEndId: request.endToEndId, ...(request.uetr === undefined ? {} : { uetr: request.uetr }) },
            status,
            ...(status === 'RJCT' ? { reasonCode: 'MS02' } : {}),
        });
        assert.deepEqual(this.operator.take(report), { kind: 'delivered' });
    }
    /** regpay answers the last camt.056: withdrawn (CNCL). */
    answerWithdrawal() {
        const read = readCamt056(this.last('camt.056.001.10'));
        assert.ok(read.ok, read.ok ? '' : read.error);
        const withdrawal = read.value;
        const answer = camt029Document({
            messageName: 'camt.029.001.11',
            messageId: this.answerId(),
            createdAt: isoDateTime(this.now),
            assigner: withdrawal.assignee,
            assignee: withdrawal.assigner,
            resolvedCase: { id: withdrawal.caseId, creator: withdrawal.caseCreator ?? withdrawal.assigner },
            confirmation: 'CNCL',
            original: { messageId: withdrawal.original.messageId ?? '', messageName: withdrawal.original.messageName ?? 'pain.013.001.09' },
        });
        assert.deepEqual(this.operator.take(answer), { kind: 'delivered' });
    }
}
void describe('the simulated operator originating inbound traffic', () => {
    void it('LOOKUP_THEN_CREDIT sends an acmt.023, then after a SUCCESSFUL acmt.024 a pacs.008 with the same UETR to the resolved account', () => {
        const harness = new Harness();
        const started = harness.originate();
        assert.equal(started.scenario, 'LOOKUP_THEN_CREDIT');
        assert.deepEqual(harness.names, ['acmt.023.001.03']);
        const lookup = readAcmt023(harness.last('acmt.023.001.03'));
        assert.ok(lookup.ok);
        assert.equal(lookup.value.messageId, started.messageIds.lookup);
        assert.equal(lookup.value.uetr, started.uetr);
        // A proxy lookup names its namespace: PayShap's own when the order names none.
        assert.deepEqual(lookup.value.identifier, { schema: 'MOBILE', value: '+27-0821234567', namespace: 'ZA_MOBILE' });
        assert.equal(text(lookup.value.assignee, 'Agt', 'FinInstnId', 'BICFI'), 'DEMOZAJJ', 'addressed to the institution');
        assert.equal(text(lookup.value.assigner, 'Agt', 'FinInstnId', 'BICFI'), SIMULATED_BANK.bicfi);
        harness.answerLookup('SUCCESSFUL');
        assert.deepEqual(harness.names, ['acmt.023.001.03', 'pacs.008.001.10']);
        const credit = readPacs008(harness.last('pacs.008.001.10'));
        assert.ok(credit.ok);
        assert.equal(credit.value.uetr, started.uetr, 'PayShap links the lookup and the credit by UETR');
        assert.equal(credit.value.creditorAccount, RESOLVED.traditionalIdentifier);
        assert.equal(credit.value.creditorProxy, '+27-0821234567');
        assert.deepEqual([credit.value.amount, credit.value.currency], ['150.00', 'ZAR']);
        assert.equal(harness.delivered[1]?.dueAt, harness.now + LATENCY_MS, 'the credit follows one latency after the answer');
        assert.equal(harness.operator.inboundOf(started.uetr)?.resolvedAccount, RESOLVED.traditionalIdentifier);
    });
    void it('after ACSP sends the final pacs.002 ACSC naming the pacs.008', () => {
        const harness = new Harness();
        const started = harness.originate();
        harness.answerLookup('SUCCESSFUL');
        const credit = readPacs008(harness.last('pacs.008.001.10'));
        assert.ok(credit.ok);
        harness.answerCredit('ACSP');
        assert.deepEqual(harness.names, ['acmt.023.001.03', 'pacs.008.001.10', 'pacs.002.001.12']);
        const finalWord = readPacs002(harness.last('pacs.002.001.12'));
        assert.ok(finalWord.ok);
        const [status] = finalWord.value.statuses;
        assert.equal(status?.status, 'ACSC');
        assert.equal(status?.originalMessageId, credit.value.messageId);
        assert.equal(status?.originalMessageName, 'pacs.008.001.10');
        assert.equal(status?.originalEndToEndId, credit.value.endToEndId);
        assert.equal(status?.uetr, started.uetr);
        const document = harness.last('pacs.002.001.12');
        assert.match(document, new RegExp(`<OrgnlTxId>${credit.value.transactionId ?? ''}</OrgnlTxId>`));
        const view = harness.operator.inboundOf(started.uetr);
        assert.equal(view?.stage, 'settled');
        assert.equal(view?.finalWord?.status, 'ACSC');
        assert.deepEqual(view?.answers.map((answer) => [answer.about, answer.status]), [
            ['lookup', 'SUCCESSFUL'],
            ['credit', 'ACSP'],
        ]);
    });
    void it('sends the final ACSC after ACCP too, in CREDIT without a lookup', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'CREDIT', accountNumber: '62001234567', proxy: undefined });
        assert.deepEqual(harness.names, ['pacs.008.001.10']);
        const credit = readPacs008(harness.last('pacs.008.001.10'));
        assert.ok(credit.ok);
        assert.equal(credit.value.messageId, started.messageIds.credit);
        assert.equal(credit.value.creditorAccount, '62001234567');
        harness.answerCredit('ACCP');
        assert.equal(readPacs002(harness.last('pacs.002.001.12')).ok && harness.operator.inboundOf(started.uetr)?.finalWord?.status, 'ACSC');
    });
    void it('CREDIT_CANCELLED ends with RJCT after the service approved', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'CREDIT_CANCELLED', accountNumber: '62001234567' });
        harness.answerCredit('ACSP');
        const finalWord = readPacs002(harness.last('pacs.002.001.12'));
        assert.ok(finalWord.ok);
        assert.equal(finalWord.value.statuses[0]?.status, 'RJCT');
        assert.equal(finalWord.value.statuses[0]?.reasonCode, CREDIT_CANCELLED_REASON);
        assert.equal(harness.operator.inboundOf(started.uetr)?.stage, 'cancelled');
        assert.deepEqual(harness.operator.inboundOf(started.uetr)?.finalWord, { status: 'RJCT', reasonCode: CREDIT_CANCELLED_REASON, messageId: finalWord.value.messageId });
    });
    void it('CREDIT_DUPLICATE delivers the same pacs.008 twice, the second one latency later; one final word follows', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'CREDIT_DUPLICATE', accountNumber: '62001234567' });
        assert.deepEqual(harness.names, ['pacs.008.001.10', 'pacs.008.001.10']);
        const [first, second] = harness.delivered;
        assert.equal(first?.document.document, second?.document.document, 'the same document, same MsgId');
        assert.equal(first?.document.messageId, started.messageIds.credit);
        assert.equal((second?.dueAt ?? 0) - (first?.dueAt ?? 0), LATENCY_MS);
        // The service answers each delivery with its stored answer: the same MsgId.
        const answerId = harness.answerCredit('ACSP');
        harness.answerCredit('ACSP', answerId);
        assert.equal(harness.names.filter((name) => name === 'pacs.002.001.12').length, 1);
        assert.equal(harness.operator.inboundOf(started.uetr)?.answers.length, 1, 'the resend changed nothing');
    });
    void it('a RJCT from the service ends the credit with no final word', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'CREDIT', accountNumber: '62001234567' });
        harness.answerCredit('RJCT');
        harness.advance(60_000);
        assert.deepEqual(harness.names, ['pacs.008.001.10']);
        const view = harness.operator.inboundOf(started.uetr);
        assert.equal(view?.stage, 'rejected');
        assert.equal(view?.finalWord, undefined);
        assert.deepEqual(view?.answers.map((answer) => [answer.status, answer.reasonCode]), [['RJCT', 'AC04']]);
    });
    void it('a FAILED lookup ends the flow: no pacs.008', () => {
        const harness = new Harness();
        const started = harness.originate();
        harness.answerLookup('FAILED');
        harness.advance(60_000);
        assert.deepEqual(harness.names, ['acmt.023.001.03']);
        assert.equal(harness.operator.inboundOf(started.uetr)?.stage, 'lookup_failed');
    });
    void it('a resent answer (same MsgId) changes nothing: the lookup is followed by one credit', () => {
        const harness = new Harness();
        const started = harness.originate();
        const answerId = harness.answerLookup('SUCCESSFUL');
        harness.answerLookup('SUCCESSFUL', answerId);
        assert.deepEqual(harness.names, ['acmt.023.001.03', 'pacs.008.001.10']);
        assert.equal(harness.operator.inboundOf(started.uetr)?.answers.length, 1);
    });
    void it('ignores and counts an answer about a message it never originated', () => {
        const harness = new Harness();
        const answer = pacs002Document({
            messageName: 'pacs.002.001.12',
            messageId: 'U0123456789abcdef0123456789abcdef',
            createdAt: isoDateTime(harness.now),
            original: { messageId: 'SIMZARPPUNKNOWN000001', messageName: 'pacs.008.001.10', endToEndId: 'E2E' },
            status: 'ACSP',
        });
        assert.deepEqual(harness.operator.take(answer), { kind: 'delivered' });
        assert.equal(harness.operator.ignoredAnswerCount, 1);
        assert.deepEqual(harness.names, []);
    });
    void it('REQUEST_TO_PAY sends a pain.013 to the institution as debtor agent, and records the service reports', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'REQUEST_TO_PAY', amount: '450.00', minAmount: '400.00', maxAmount: '500.50', expiresInMs: 60_000 });
        assert.deepEqual(harness.names, ['pain.013.001.09']);
        const request = readPain013(harness.last('pain.013.001.09'));
        assert.ok(request.ok);
        assert.equal(request.value.messageId, started.messageIds.requestToPay);
        assert.equal(request.value.uetr, started.uetr);
        assert.equal(text(request.value.debtorAgent, 'FinInstnId', 'BICFI'), 'DEMOZAJJ');
        assert.equal(text(request.value.creditorAgent, 'FinInstnId', 'BICFI'), SIMULATED_BANK.bicfi);
        assert.equal(request.value.expiry, isoDateTime(harness.now + 60_000));
        assert.deepEqual(request.value.minAmount, { value: '400.00', currency: 'ZAR' });
        assert.deepEqual(request.value.maxAmount, { value: '500.50', currency: 'ZAR' });
        for (const status of ['PRES', 'ACCP', 'ACSC'])
            harness.reportRequest(status);
        const view = harness.operator.inboundOf(started.uetr);
        assert.deepEqual(view?.answers.map((answer) => answer.status), ['PRES', 'ACCP', 'ACSC']);
        assert.equal(view?.stage, 'paid');
    });
    void it('REQUEST_TO_PAY_WITHDRAWN sends a camt.056 CUST after the delay, naming the pain.013, and records the camt.029', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'REQUEST_TO_PAY_WITHDRAWN', withdrawAfterMs: 500 });
        harness.reportRequest('PRES');
        harness.advance(499);
        assert.deepEqual(harness.names, ['pain.013.001.09']);
        harness.advance(1);
        assert.deepEqual(harness.names, ['pain.013.001.09', 'camt.056.001.10']);
        const withdrawal = readCamt056(harness.last('camt.056.001.10'));
        assert.ok(withdrawal.ok);
        assert.equal(withdrawal.value.reason, WITHDRAWAL_REASON);
        assert.equal(withdrawal.value.original.messageId, started.messageIds.requestToPay);
        assert.equal(withdrawal.value.original.messageName, 'pain.013.001.09');
        assert.equal(withdrawal.value.original.uetr, started.uetr);
        harness.answerWithdrawal();
        const view = harness.operator.inboundOf(started.uetr);
        assert.equal(view?.stage, 'withdrawn');
        assert.deepEqual(view?.answers.map((answer) => [answer.about, answer.status]), [
            ['request_to_pay', 'PRES'],
            ['withdrawal', 'CNCL'],
        ]);
    });
    void it('withdraws nothing once the service reported the request paid', () => {
        const harness = new Harness();
        harness.originate({ scenario: 'REQUEST_TO_PAY_WITHDRAWN', withdrawAfterMs: 500 });
        harness.reportRequest('ACSC');
        harness.advance(1_000);
        assert.deepEqual(harness.names, ['pain.013.001.09']);
    });
    void it('REQUEST_TO_PAY_EXPIRING sends a camt.056 EXPIRED at the expiry', () => {
        const harness = new Harness();
        const started = harness.originate({ scenario: 'REQUEST_TO_PAY_EXPIRING', expiresInMs: 3_000 });
        const request = readPain013(harness.last('pain.013.001.09'));
        assert.ok(request.ok);
        assert.equal(request.value.expiry, isoDateTime(harness.now + 3_000));
        harness.advance(2_999);
        assert.deepEqual(harness.names, ['pain.013.001.09']);
        harness.advance(1);
        const withdrawal = readCamt056(harness.last('camt.056.001.10'));
        assert.ok(withdrawal.ok);
        assert.equal(withdrawal.value.reason, EXPIRED_REASON);
        assert.match(harness.last('camt.056.001.10'), /<Prtry>EXPIRED<\/Prtry>/);
        assert.equal(harness.operator.inboundOf(started.uetr)?.stage, 'withdrawn');
    });
    void it('originates MsgIds and case ids that idempotencyKeyOf does not reverse', () => {
        const harness = new Harness();
        for (const scenario of INBOUND_SCENARIOS)
            harness.originate({ scenario, accountNumber: '62001234567', withdrawAfterMs: 1, expiresInMs: 2 });
        harness.answerLookup('SUCCESSFUL');
        harness.answerCredit('ACSP');
        harness.advance(10);
        assert.ok(harness.delivered.length >= 10);
        for (const { document } of harness.delivered) {
            assert.equal(idempotencyKeyOf(document.messageId), undefined, `${document.messageName} ${document.messageId}`);
            assert.match(document.messageId, /^S/);
            assert.ok([...document.messageId].length <= 35);
        }
    });
    void it('is documented scenario by scenario in docs/simulator.md', () => {
        const doc = readFileSync(fileURLToPath(new URL('../../../docs/simulator.md', import.meta.url)), 'utf8');
        const section = doc.split('## Inbound scenarios')[1]?.split('\n## ')[0] ?? '';
        for (const scenario of INBOUND_SCENARIOS)
            assert.match(section, new RegExp(`^\\| \`${scenario}\``, 'm'), `docs/simulator.md has a row for ${scenario}`);
        for (const value of [CREDIT_CANCELLED_REASON, WITHDRAWAL_REASON, EXPIRED_REASON, SIMULATED_BANK.bicfi])
            assert.ok(section.includes(`\`${value}\``), `docs/simulator.md names ${value}`);
    });
    void it('refuses an order it cannot play, and keeps nothing of it', () => {
        const harness = new Harness();
        const cases = [
            { institution: {}, accountNumber: '1', amount: '1.00' },
            { institution: INSTITUTION, amount: '1.00' },
            { institution: INSTITUTION, accountNumber: '1', amount: '1.001' },
            { institution: INSTITUTION, accountNumber: '1', amount: '0' },
            { institution: { bicfi: 'nobic' }, accountNumber: '1', amount: '1.00' },
            { institution: INSTITUTION, accountNumber: '1', amount: '1.00', scenario: 'NO_SUCH' },
        ];
        for (const order of cases)
            assert.equal(harness.operator.originate(order).ok, false, JSON.stringify(order));
        assert.deepEqual(harness.names, []);
        // ZA_RTC carries credits, but neither lookups nor requests-to-pay.
        const rtc = new Harness('ZA_RTC');
        assert.equal(rtc.operator.originate({ institution: INSTITUTION, accountNumber: '1', amount: '1.00', scenario: 'REQUEST_TO_PAY' }).ok, false);
        assert.equal(rtc.operator.originate({ institution: INSTITUTION, accountNumber: '4071234567', amount: '1.00', scenario: 'CREDIT' }).ok, true);
        assert.deepEqual(rtc.names, ['pacs.008.001.08']);
    });
});
void describe('the documents the simulated operator originates', { skip: XSD_SKIP }, () => {
    void it('are valid against their XSDs in every scenario', async () => {
        const harness = new Harness();
        for (const scenario of INBOUND_SCENARIOS) {
            harness.originate({ scenario, customerName: 'Thandi Dlamini', remittance: 'Invoice 17', minAmount: '100.00', maxAmount: '200.00', withdrawAfterMs: 1, expiresInMs: 2 });
            if (scenario === 'LOOKUP_THEN_CREDIT')
                harness.answerLookup('SUCCESSFUL');
            if (!scenario.startsWith('REQUEST_TO_PAY'))
                harness.answerCredit('ACSP');
        }
        harness.originate({ scenario: 'LOOKUP_THEN_CREDIT', accountNumber: '62001234567', proxy: undefined });
        harness.advance(10);
        const rtc = new Harness('ZA_RTC');
        rtc.originate({ scenario: 'CREDIT', accountNumber: '4071234567', proxy: undefined });
        const byName = new Map();
        for (const { document } of [...harness.delivered, ...rtc.delivered])
            byName.set(document.messageName, [...(byName.get(document.messageName) ?? []), document.document]);
        assert.deepEqual([...byName.keys()].sort(), ['acmt.023.001.03', 'camt.056.001.10', 'pacs.002.001.12', 'pacs.008.001.08', 'pacs.008.001.10', 'pain.013.001.09']);
        for (const [name, documents] of byName) {
            assert.equal(documentMessageName(documents[0] ?? ''), name);
            await assertValid(name, documents);
        }
    });
});
void describe('originating through the simulator transports', () => {
    void it('the built-in simulator hands originated documents to the inbound handler and takes the answers through send', async () => {
        const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock: { now: () => Date.now() }, latencyMs: 1, lateAnswerMs: 100, entriesMax: 100, deliveryAttemptsMax: 3 });
        const received = [];
        let refusals = 1;
        await simulator.start(({ document }) => {
            // The service refuses the first delivery: the simulator delivers it again.
            if (refusals > 0) {
                refusals -= 1;
                return Promise.reject(new Error('not now'));
            }
            received.push(document);
            return Promise.resolve();
        });
        const started = await simulator.originate({ scenario: 'CREDIT', institution: INSTITUTION, accountNumber: '62001234567', amount: '10.00' });
        assert.ok(started.ok, started.ok ? '' : started.error);
        for (let i = 0; i < 100 && received.length === 0; i += 1)
            await sleep(5);
        const credit = readPacs008(received[0] ?? '');
        assert.ok(credit.ok);
        assert.equal(credit.value.uetr, started.uetr);
        const answer = pacs002Document({
            messageName: 'pacs.002.001.12',
            messageId: 'U00000000000000000000000000000001',
            createdAt: isoDateTime(Date.now()),
            original: { messageId: credit.value.messageId, messageName: credit.value.messageName, endToEndId: credit.value.endToEndId, ...(credit.value.uetr === undefined ? {} : { uetr: credit.value.uetr }) },
            status: 'ACSP',
        });
        assert.deepEqual(await simulator.send({ scheme: 'ZA_RPP', messageName: 'pacs.002.001.12', messageId: 'U00000000000000000000000000000001', idempotencyKey: 'k', document: answer, traceparent: null }), { kind: 'delivered' });
        for (let i = 0; i < 100 && received.length < 2; i += 1)
            await sleep(5);
        assert.equal(readPacs002(received[1] ?? '').ok && simulator.inboundOf(started.uetr)?.finalWord?.status, 'ACSC');
        await simulator.stop();
    });
    void it('the steady rate originates lookups and credits in turn, never more outstanding than its bound', async () => {
        const simulator = new SchemeSimulator({
            scheme: 'ZA_RPP',
            clock: { now: () => Date.now() },
            latencyMs: 1,
            lateAnswerMs: 100,
            entriesMax: 100,
            deliveryAttemptsMax: 1,
            inbound: { ratePerSecond: 200, outstandingMax: 2, outstandingMs: 60_000, amount: '10.00', targets: [{ institution: INSTITUTION, accountNumber: '62001234567', proxy: { schema: 'MOBILE', value: '0821234567' } }] },
        });
        const received = [];
        await simulator.start(({ document }) => {
            received.push(document);
            return Promise.resolve();
        });
        await sleep(100);
        await simulator.stop();
        // The service never answers: two are outstanding, and no third starts.
        assert.deepEqual(received.map(documentMessageName), ['acmt.023.001.03', 'pacs.008.001.10']);
        assert.throws(() => new SchemeSimulator({ scheme: 'ZA_RPP', clock: { now: () => Date.now() }, latencyMs: 1, lateAnswerMs: 1, entriesMax: 1, deliveryAttemptsMax: 1, inbound: { ratePerSecond: 1, outstandingMax: 1, outstandingMs: 1, amount: '1.00', targets: [] } }), RangeError);
    });
    void it('the threaded simulator originates in its thread and reports what it has seen', async () => {
        const simulator = new ThreadedSimulator({ scheme: 'ZA_RPP', latencyMs: 1, lateAnswerMs: 100, entriesMax: 100, deliveryAttemptsMax: 3 });
        const received = [];
        await simulator.start(({ document }) => {
            received.push(document);
            return Promise.resolve();
        });
        try {
            const started = await simulator.originate({ institution: INSTITUTION, proxy: { schema: 'CUSTOM', value: 'thandi@shap' }, amount: '99.99' });
            assert.ok(started.ok, started.ok ? '' : started.error);
            assert.equal(started.scenario, 'LOOKUP_THEN_CREDIT');
            for (let i = 0; i < 200 && received.length === 0; i += 1)
                await sleep(5);
            assert.equal(documentMessageName(received[0] ?? ''), 'acmt.023.001.03');
            const view = await simulator.inboundOf(started.uetr);
            assert.equal(view?.stage, 'lookup_sent');
            assert.equal(view?.sent[0]?.messageId, started.messageIds.lookup);
            const refused = await simulator.originate({ institution: {}, amount: '1.00' });
            assert.equal(refused.ok, false);
        }
        finally {
            await simulator.stop();
        }
    });
});
void describe('the standalone operator store', () => {
    void it('keeps an originated transaction across a reopening, and the answers still lead back to it', () => {
        const dir = mkdtempSync(join(tmpdir(), 'regpay-inbound-'));
        const path = join(dir, 'operator.sqlite');
        const delivered = [];
        const effects = { later: () => undefined, deliver: (document) => delivered.push(document) };
        const options = { scheme: 'ZA_RPP', clock: { now: () => Date.now() }, latencyMs: 1, lateAnswerMs: 10 };
        try {
            const first = new OperatorStore(path);
            const started = first.transaction(() => new SimulatedOperator(options, first.state('ZA_RPP'), effects).originate({ scenario: 'CREDIT', institution: INSTITUTION, accountNumber: '62001234567', amount: '5.00' }));
            first.close();
            assert.ok(started.ok);
            const second = new OperatorStore(path);
            const operator = new SimulatedOperator(options, second.state('ZA_RPP'), effects);
            const credit = readPacs008(delivered[0]?.messageName === 'pacs.008.001.10' ? delivered[0].document : '');
            assert.ok(credit.ok);
            const answer = pacs002Document({
                messageName: 'pacs.002.001.12',
                messageId: 'U00000000000000000000000000000002',
                createdAt: isoDateTime(Date.now()),
                original: { messageId: credit.value.messageId, messageName: credit.value.messageName, endToEndId: credit.value.endToEndId },
                status: 'ACSP',
            });
            second.transaction(() => operator.take(answer));
            assert.equal(operator.inboundOf(started.uetr)?.stage, 'settled');
            assert.equal(delivered.at(-1)?.messageName, 'pacs.002.001.12');
            second.close();
        }
        finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
//# sourceMappingURL=inbound-simulator.test.js.map