import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { acmt023Document } from '../../src/connectors/iso20022/acmt023.js';
import { readAcmt024 } from '../../src/connectors/iso20022/acmt024.js';
import { readCamt029 } from '../../src/connectors/iso20022/camt029.js';
import { camt056Document, EXPIRED_REASON } from '../../src/connectors/iso20022/camt056.js';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { readPacs002, pacs002Document } from '../../src/connectors/iso20022/pacs002.js';
import { mapCreditTransfer, pacs008Document } from '../../src/connectors/iso20022/pacs008.js';
import { pain013Document } from '../../src/connectors/iso20022/pain013.js';
import { readPain014 } from '../../src/connectors/iso20022/pain014.js';
import { ZA_EFT } from '../../src/connectors/za-eft/family.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { ZA_RTC } from '../../src/connectors/za-rtc/family.js';
import { validateIdentifierDeterminationRequest } from '../../src/domain/messages/identifier-determination.js';
import { validateRequestToPay } from '../../src/domain/messages/request-to-pay.js';
import { moneyOf, validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { inboundTransactionId } from '../../src/lib/inbound-id.js';
import { numberText, parseJson } from '../../src/lib/json.js';
import { formatAmount } from '../../src/lib/money.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { ReportRecorder } from '../support/inbound.js';
import { account, mobile, outboundLookup } from '../support/lookup.js';
import { cancellationOf, outboundRequestToPay } from '../support/request-to-pay.js';
import { CapturingTransport } from '../support/transport.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';
/**
 * The receiving direction of the ISO 20022 connector (CONTRACT §11), through the port only: the
 * test plays the scheme operator over a transport that records what the connector sends, hands it
 * the documents another bank's connector would write (the outbound writers), and reads back every
 * answer with the readers the sending direction uses.
 */
const NOW = 1_772_435_727_482;
const clock = { now: () => NOW };
/** The integrator's institution the scheme addresses. */
const RECEIVING_BIC = 'RCVBZAJJ';
const CREATED = '2026-03-02T07:15:27.482+00:00';
async function receiving(family = ZA_RPP, scheme = 'ZA_RPP') {
    const transport = new CapturingTransport();
    const warnings = [];
    const connector = createIsoConnector(family, { scheme, transport, clock, log: { warn: (_details, message) => warnings.push(message) } });
    const inbound = new ReportRecorder();
    await connector.start(inbound);
    return { connector, transport, inbound, warnings };
}
function only(items) {
    assert.equal(items.length, 1, `expected exactly one, got ${items.length}`);
    return items[0];
}
function parsed(json) {
    const result = parseJson(json);
    assert.ok(result.ok, 'bodyJson parses');
    return result.value;
}
// ---------------------------------------------------------------------------------------------
// Documents another bank (through the operator) sends
/** An acmt.023 asking about an account at RECEIVING_BIC, or about a proxy. */
function acmt023(kind = 'account', messageId = `ACMT023-${randomUUID().slice(0, 8)}`) {
    const lookup = kind === 'account' ? outboundLookup(account('62001234567', RECEIVING_BIC), (request) => (request.instructedAgent = { bicfi: RECEIVING_BIC })) : outboundLookup(mobile('+27-0821234567'));
    const written = acmt023Document({ messageId, createdAt: CREATED }, lookup, { messageName: 'acmt.023.001.03', memberIdSystem: 'ZANCC', clearingSystem: 'RPP' });
    assert.ok(written.ok);
    return { document: written.document, lookup };
}
/** A full credit transfer (the LIBERAL fixture: addresses, ids, proxy and account, branch...) to RECEIVING_BIC. */
function incomingTransfer(change = () => undefined) {
    const message = creditTransfer('LIBERAL');
    message.creditorAgent = { ...message.creditorAgent, bicfi: RECEIVING_BIC };
    message.amounts = { bankSettlementAmount: { currency: 'ZAR', value: 100.5 } };
    message.transactionIdentifiers.instructionIdentification = 'INSTR-IN-1';
    message.transactionIdentifiers.transactionIdentification = 'TX-IN-1';
    message.purpose = { schema: 'CODE', value: 'GDDS' };
    message.settlementDate = '2026-03-02';
    change(message);
    return {
        transactionId: randomUUID(),
        integratorId: 'other-bank',
        scheme: 'ZA_RPP',
        uetr: message.transactionIdentifiers.uetr.toLowerCase(),
        idempotencyKey: randomUUID(),
        message,
        amount: moneyOf(message.amounts.bankSettlementAmount),
        traceparent: null,
    };
}
function pacs008(transfer, messageId, family = ZA_RPP) {
    const settings = family.messages.creditTransfer;
    const mapped = mapCreditTransfer(transfer, settings);
    assert.ok(mapped.ok, mapped.ok ? '' : mapped.reasonText);
    return pacs008Document({ messageId, createdAt: CREATED }, mapped.transaction, settings);
}
/** A request-to-pay from another bank's customer to a debtor at RECEIVING_BIC. */
function pain013(messageId) {
    const request = outboundRequestToPay('ACCOUNT', (message) => {
        message.debtorAgent = { bicfi: RECEIVING_BIC, clearingSystemMemberId: { memberId: '470010' } };
    });
    const written = pain013Document({ messageId, createdAt: CREATED }, request, { messageName: 'pain.013.001.09', memberIdSystem: 'ZANCC' });
    assert.ok(written.ok);
    return { document: written.document, request };
}
const answer = (original) => ({ transactionId: randomUUID(), answerKey: randomUUID(), original, traceparent: null });
// ---------------------------------------------------------------------------------------------
void describe('receiving direction: identifier determination (acmt.023 -> acmt.024)', () => {
    void it('hands an acmt.023 to the service as a lookup whose body passes the domain validator', async () => {
        const { transport, inbound } = await receiving();
        const { document, lookup } = acmt023('account', 'ACMT023-IN-1');
        await transport.answer(document);
        const request = only(inbound.originated);
        assert.equal(request.kind, 'lookup');
        assert.deepEqual(request.institution, { bicfi: RECEIVING_BIC });
        assert.equal(request.original.messageId, 'ACMT023-IN-1');
        assert.equal(request.original.messageName, 'acmt.023.001.03');
        assert.equal(request.original.uetr, lookup.uetr);
        assert.equal(request.received.document, document);
        assert.equal(request.receivedAt, NOW);
        const valid = validateIdentifierDeterminationRequest(parsed(request.bodyJson));
        assert.ok(valid.ok, JSON.stringify(valid.ok ? '' : valid.errors));
        const body = valid.value.message.request;
        assert.equal(body.schema, 'ZA_RPP');
        assert.deepEqual(body.identifier, { schema: 'GENERIC', value: '62001234567' });
        assert.equal(body.accountAgent?.bicfi, RECEIVING_BIC);
        assert.equal(body.requestor.bicfi, 'DEMOZAJJ');
        assert.equal(body.verificationIdentification, lookup.message.request.verificationIdentification);
        assert.equal(body.uetr, lookup.uetr);
        assert.equal(transport.sent.length, 0, 'nothing is answered before the service decides');
    });
    void it('answers SUCCESSFUL with an acmt.024 naming the account, both names and the acmt.023, the same MsgId on a resend', async () => {
        const { connector, transport, inbound } = await receiving();
        await transport.answer(acmt023('account', 'ACMT023-IN-2').document);
        const request = only(inbound.originated);
        const message = parsed(request.bodyJson);
        const lookupAnswer = {
            ...answer(request.original),
            outcome: 'SUCCESSFUL',
            account: { traditionalIdentifier: '62001234567', knownAsName: 'Thandi', legalName: 'Thandiwe Nomvula Dlamini', accountAgentBicfi: RECEIVING_BIC },
            request: message,
        };
        const outcome = await connector.answerLookup(lookupAnswer);
        assert.equal(outcome.kind, 'delivered');
        const again = await connector.answerLookup(lookupAnswer);
        const [first, second] = transport.sent;
        assert.equal(first?.messageName, 'acmt.024.001.03');
        assert.equal(first?.messageId, schemeMessageId(lookupAnswer.answerKey));
        assert.equal(second?.messageId, first?.messageId, 'a resend carries the same MsgId');
        assert.equal(outcome.sent?.document, first?.document);
        assert.equal(again.kind, 'delivered');
        const read = readAcmt024(first.document);
        assert.ok(read.ok);
        assert.equal(read.value.verified, true);
        assert.equal(read.value.originalMessageId, 'ACMT023-IN-2');
        assert.equal(read.value.account.legalName, 'Thandiwe Nomvula Dlamini');
        assert.equal(read.value.account.knownAsName, 'Thandi');
        assert.equal(read.value.account.traditionalIdentifier, '62001234567');
        await assertXsdValid('acmt.024.001.03', first.document);
    });
    void it('answers FAILED with the reason, and refuses to write a SUCCESSFUL answer missing a name (CH21), sending nothing', async () => {
        const { connector, transport, inbound } = await receiving();
        await transport.answer(acmt023('proxy', 'ACMT023-IN-3').document);
        const request = only(inbound.originated);
        const message = parsed(request.bodyJson);
        const failed = await connector.answerLookup({ ...answer(request.original), outcome: 'FAILED', reasonCode: 'AC04', reasonText: 'Account closed', request: message });
        assert.equal(failed.kind, 'delivered');
        const read = readAcmt024(only(transport.sent).document);
        assert.ok(read.ok);
        assert.equal(read.value.verified, false);
        assert.equal(read.value.reasonCode, 'AC04');
        assert.equal(read.value.reasonText, 'Account closed');
        assert.equal(read.value.originalMessageId, 'ACMT023-IN-3');
        assert.equal(read.value.account.proxy?.value, '+27-0821234567');
        await assertXsdValid('acmt.024.001.03', only(transport.sent).document);
        const nameless = await connector.answerLookup({ ...answer(request.original), outcome: 'SUCCESSFUL', account: { traditionalIdentifier: '1', knownAsName: 'Thandi' }, request: message });
        assert.deepEqual({ kind: nameless.kind, retryable: nameless.kind === 'failed' && nameless.retryable, reasonCode: nameless.kind === 'failed' ? nameless.reasonCode : undefined }, { kind: 'failed', retryable: false, reasonCode: 'CH21' });
        assert.equal(transport.sent.length, 1, 'nothing more was sent');
    });
    void it('answers a lookup the service refuses with a FAILED acmt.024 carrying the reason, at once', async () => {
        const { transport, inbound } = await receiving();
        inbound.originateOutcome = { kind: 'refused', reasonCode: 'AGNT', reasonText: 'no integrator serves this institution' };
        await transport.answer(acmt023('account', 'ACMT023-IN-4').document);
        const sent = only(transport.sent);
        assert.equal(sent.messageId, schemeMessageId(inboundTransactionId('ZA_RPP', 'acmt.023.001.03', 'ACMT023-IN-4')));
        const read = readAcmt024(sent.document);
        assert.ok(read.ok);
        assert.equal(read.value.verified, false);
        assert.equal(read.value.reasonCode, 'AGNT');
        assert.equal(read.value.reasonText, 'no integrator serves this institution');
        assert.equal(read.value.originalMessageId, 'ACMT023-IN-4');
        await assertXsdValid('acmt.024.001.03', sent.document);
    });
    void it('refuses, without asking the service, an acmt.023 that maps into no valid lookup (CH21: no UETR)', async () => {
        const { transport, inbound } = await receiving();
        const document = acmt023('account', 'ACMT023-IN-5').document.replace(/<SplmtryData>[\s\S]*<\/SplmtryData>/, '');
        await transport.answer(document);
        assert.equal(inbound.originated.length, 0);
        const read = readAcmt024(only(transport.sent).document);
        assert.ok(read.ok);
        assert.equal(read.value.reasonCode, 'CH21');
        assert.match(read.value.reasonText ?? '', /uetr/);
    });
});
void describe('receiving direction: credits (pacs.008 -> pacs.002)', () => {
    void it('hands a pacs.008 to the service as a credit: the body validates and carries the exact amount, ids, names, accounts and agents', async () => {
        const { transport, inbound } = await receiving();
        const transfer = incomingTransfer();
        await transport.answer(pacs008(transfer, 'PACS008-IN-1'));
        const request = only(inbound.originated);
        assert.equal(request.kind, 'credit');
        assert.equal(request.institution.bicfi, RECEIVING_BIC);
        assert.equal(request.institution.memberId, '198765');
        assert.deepEqual(request.original, {
            messageId: 'PACS008-IN-1',
            messageName: 'pacs.008.001.10',
            createdAt: CREATED,
            instructionId: 'INSTR-IN-1',
            endToEndId: 'E2E-LIBERAL-0001',
            transactionId: 'TX-IN-1',
            uetr: transfer.uetr,
        });
        assert.match(request.bodyJson, /"value":100\.50[,}]/, 'the amount is the literal of the document');
        const body = parsed(request.bodyJson);
        const valid = validateCreditTransfer(body);
        assert.ok(valid.ok, JSON.stringify(valid.ok ? '' : valid.errors));
        const message = valid.value.message;
        assert.deepEqual(valid.value.settlementAmount, { currency: 'ZAR', minor: 10050n });
        assert.equal(numberText(message.amounts.bankSettlementAmount, 'value'), '100.50');
        assert.deepEqual(message.messageIdentifiers, { messageIdentification: 'PACS008-IN-1', creationDateTime: CREATED });
        assert.deepEqual(message.transactionIdentifiers, { endToEndIdentification: 'E2E-LIBERAL-0001', instructionIdentification: 'INSTR-IN-1', transactionIdentification: 'TX-IN-1', uetr: transfer.uetr });
        assert.equal(message.paymentScheme.schema, 'ZA_RPP');
        assert.equal(message.creditor.legalName, 'Naledi Khumalo');
        assert.equal(message.debtor.legalName, 'Bongani Zulu');
        assert.equal(message.creditor.address?.streetName, 'Rivonia Road');
        assert.deepEqual(message.creditorAccount.identification, { schema: 'GENERIC', value: '4079876543' });
        assert.deepEqual(message.creditorAccount.proxy, { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27831234567' });
        assert.deepEqual(message.debtorAccount?.proxy, { schema: 'CUSTOM', namespace: 'DEMOZAJJ', value: 'bongani@demobank' });
        assert.equal(message.creditorAgent.bicfi, RECEIVING_BIC);
        assert.deepEqual(message.debtorAgent.clearingSystemMemberId, { memberId: '210001' });
        assert.equal(message.debtorAgent.bicfi, 'DEMOZAJJ');
        assert.deepEqual(message.purpose, { schema: 'CODE', value: 'GDDS' });
        assert.equal(message.settlementDate, '2026-03-02');
        assert.deepEqual(message.remittanceInformation?.unstructured, transfer.message.remittanceInformation?.unstructured);
    });
    void it('answers ACSP and RJCT AC04 with a pacs.002 of the pacs.008 generation naming the original', async () => {
        const { connector, transport, inbound } = await receiving();
        const transfer = incomingTransfer();
        await transport.answer(pacs008(transfer, 'PACS008-IN-2'));
        const { original } = only(inbound.originated);
        assert.equal((await connector.answerCredit({ ...answer(original), status: 'ACSP' })).kind, 'delivered');
        assert.equal((await connector.answerCredit({ ...answer(original), status: 'RJCT', reasonCode: 'AC04', reasonText: 'Account closed' })).kind, 'delivered');
        const [approved, rejected] = transport.sent;
        assert.equal(approved?.messageName, 'pacs.002.001.12');
        for (const [sent, status, reasonCode] of [[approved, 'ACSP', undefined], [rejected, 'RJCT', 'AC04']]) {
            const read = readPacs002(sent.document);
            assert.ok(read.ok);
            const reported = only(read.value.statuses);
            assert.equal(reported.status, status);
            assert.equal(reported.reasonCode, reasonCode);
            assert.equal(reported.originalMessageId, 'PACS008-IN-2');
            assert.equal(reported.originalMessageName, 'pacs.008.001.10');
            assert.equal(reported.originalEndToEndId, 'E2E-LIBERAL-0001');
            assert.equal(reported.uetr, transfer.uetr);
        }
        await assertXsdValid('pacs.002.001.12', approved.document, rejected.document);
    });
    void it("answers a ZA_RTC pacs.008.001.08 with a pacs.002.001.10, and a credit the service refuses with RJCT and the service's reason", async () => {
        const { transport, inbound } = await receiving(ZA_RTC, 'ZA_RTC');
        inbound.originateOutcome = { kind: 'refused', reasonCode: 'AGNT', reasonText: 'no integrator serves this institution' };
        const transfer = incomingTransfer((message) => {
            message.paymentScheme = { schema: 'ZA_RTC' };
            message.creditorAccount = { identification: { schema: 'GENERIC', value: '4079876543' } };
        });
        await transport.answer(pacs008({ ...transfer, scheme: 'ZA_RTC' }, 'PACS008-RTC-1', ZA_RTC));
        assert.equal(only(inbound.originated).kind, 'credit');
        const sent = only(transport.sent);
        assert.equal(sent.messageName, 'pacs.002.001.10');
        const read = readPacs002(sent.document);
        assert.ok(read.ok);
        assert.deepEqual({ status: read.value.statuses[0]?.status, reasonCode: read.value.statuses[0]?.reasonCode, reasonText: read.value.statuses[0]?.reasonText }, { status: 'RJCT', reasonCode: 'AGNT', reasonText: 'no integrator serves this institution' });
        await assertXsdValid('pacs.002.001.10', sent.document);
    });
    void it('refuses a pacs.008 carrying more than one transaction as a whole (GrpSts RJCT AM18), without asking the service', async () => {
        const { transport, inbound } = await receiving();
        const single = pacs008(incomingTransfer(), 'PACS008-IN-3');
        const transaction = /<CdtTrfTxInf>[\s\S]*<\/CdtTrfTxInf>/.exec(single)[0];
        await transport.answer(single.replace('<NbOfTxs>1</NbOfTxs>', '<NbOfTxs>2</NbOfTxs>').replace(transaction, `${transaction}\n${transaction}`));
        assert.equal(inbound.originated.length, 0);
        const sent = only(transport.sent);
        const read = readPacs002(sent.document);
        assert.ok(read.ok);
        assert.deepEqual({ ...only(read.value.statuses), reasonText: undefined }, {
            originalMessageId: 'PACS008-IN-3',
            originalMessageName: 'pacs.008.001.10',
            originalEndToEndId: undefined,
            uetr: undefined,
            status: 'RJCT',
            reasonCode: 'AM18',
            reasonText: undefined,
        });
        await assertXsdValid('pacs.002.001.12', sent.document);
    });
    void it("passes the operator's final pacs.002 about an inbound credit to the engine under the credit's inbound transaction id", async () => {
        const { transport, inbound } = await receiving();
        const transfer = incomingTransfer();
        await transport.answer(pacs008(transfer, 'PACS008-IN-4'));
        const settled = pacs002Document({
            messageName: 'pacs.002.001.12',
            messageId: 'OPERATOR-FINAL-1',
            createdAt: CREATED,
            original: { messageId: 'PACS008-IN-4', messageName: 'pacs.008.001.10', endToEndId: 'E2E-LIBERAL-0001', uetr: transfer.uetr.toUpperCase() },
            status: 'ACSC',
        });
        await transport.answer(settled);
        const report = only(inbound.reports);
        assert.equal(report.idempotencyKey, inboundTransactionId('ZA_RPP', 'pacs.008.001.10', 'PACS008-IN-4'));
        assert.equal(report.inboundKey, undefined);
        assert.equal(report.status, 'ACCEPTED');
        assert.equal(report.uetr, transfer.uetr);
    });
    void it('names both candidates when the credit MsgId reverses to a key, and an empty uetr when the report names none', async () => {
        const { transport, inbound } = await receiving(ZA_RTC, 'ZA_RTC');
        const reversible = schemeMessageId(randomUUID());
        await transport.answer(pacs002Document({ messageName: 'pacs.002.001.10', messageId: 'OPERATOR-FINAL-2', createdAt: CREATED, original: { messageId: reversible, messageName: 'pacs.008.001.08' }, status: 'RJCT', reasonCode: 'AM04' }));
        const report = only(inbound.reports);
        assert.equal(report.inboundKey, inboundTransactionId('ZA_RTC', 'pacs.008.001.08', reversible));
        assert.notEqual(report.idempotencyKey, report.inboundKey);
        assert.equal(schemeMessageId(report.idempotencyKey), reversible);
        assert.equal(report.uetr, '');
        assert.equal(report.status, 'REJECTED');
    });
});
void describe('receiving direction: requests-to-pay (pain.013 -> pain.014, camt.056 -> camt.029)', () => {
    void it('hands a pain.013 to the service as a request-to-pay addressed to the debtor agent, and reports PRES, ACCP, ACSC and RJCT as pain.014s', async () => {
        const { connector, transport, inbound } = await receiving();
        const { document, request } = pain013('PAIN013-IN-1');
        await transport.answer(document);
        const originated = only(inbound.originated);
        assert.equal(originated.kind, 'request_to_pay');
        assert.deepEqual(originated.institution, { bicfi: RECEIVING_BIC, memberId: '470010' });
        const valid = validateRequestToPay(parsed(originated.bodyJson));
        assert.ok(valid.ok, JSON.stringify(valid.ok ? '' : valid.errors));
        const message = valid.value.message;
        assert.deepEqual(valid.value.amount, request.amount);
        assert.equal(message.transactionIdentifiers.endToEndIdentification, request.message.transactionIdentifiers.endToEndIdentification);
        assert.equal(message.transactionIdentifiers.uetr, request.uetr);
        assert.equal(message.debtorAgent?.bicfi, RECEIVING_BIC);
        assert.equal(message.creditor.legalName, request.message.creditor.legalName);
        assert.equal(message.paymentTypeInformation.localInstrument.value, request.message.paymentTypeInformation.localInstrument.value);
        assert.equal(valid.value.expiresAt, request.expiresAt);
        const statuses = [
            { status: 'PRES' },
            { status: 'ACCP' },
            { status: 'ACSC' },
            { status: 'RJCT', reasonCode: 'MS02', reasonText: 'Refused by the payer' },
        ];
        for (const status of statuses)
            assert.equal((await connector.reportRequestToPay({ ...answer(originated.original), ...status })).kind, 'delivered');
        assert.equal(transport.sent.length, statuses.length);
        transport.sent.forEach((sent, index) => {
            assert.equal(sent.messageName, 'pain.014.001.09');
            const read = readPain014(sent.document);
            assert.ok(read.ok);
            assert.equal(read.value.originalMessageId, 'PAIN013-IN-1');
            const reported = only(read.value.statuses);
            assert.equal(reported.status, statuses[index]?.status);
            assert.equal(reported.uetr, request.uetr);
            assert.equal(reported.reasonCode, statuses[index]?.reasonCode);
        });
        await assertXsdValid('pain.014.001.09', ...transport.sent.map((sent) => sent.document));
    });
    void it('answers a request-to-pay the service refuses with a RJCT pain.014 at once', async () => {
        const { transport, inbound } = await receiving();
        inbound.originateOutcome = { kind: 'refused', reasonCode: 'AC04', reasonText: 'Account closed' };
        await transport.answer(pain013('PAIN013-IN-2').document);
        const read = readPain014(only(transport.sent).document);
        assert.ok(read.ok);
        assert.deepEqual({ status: read.value.statuses[0]?.status, reasonCode: read.value.statuses[0]?.reasonCode }, { status: 'RJCT', reasonCode: 'AC04' });
        await assertXsdValid('pain.014.001.09', only(transport.sent).document);
    });
    void it("passes a camt.056 withdrawing an inbound request to the service under the request's inbound id, and answers CNCL or RJCR ARDT with camt.029s", async () => {
        const { connector, transport, inbound } = await receiving();
        const { request } = pain013('PAIN013-IN-3');
        // The creditor's bank (regpay or any other) withdraws its pain.013: its MsgId is the one the camt.056 names.
        const cancellation = cancellationOf(request, EXPIRED_REASON);
        const written = camt056Document(CREATED, cancellation, { messageName: 'camt.056.001.10', clearingSystem: 'RPP', memberIdSystem: 'ZANCC' });
        assert.ok(written.ok);
        await transport.answer(written.document);
        const report = only(inbound.reports);
        const requestMessageId = schemeMessageId(request.idempotencyKey);
        assert.equal(report.kind, 'withdrawal');
        assert.equal(report.idempotencyKey, inboundTransactionId('ZA_RPP', 'pain.013.001.09', requestMessageId));
        assert.equal(report.caseId, schemeMessageId(cancellation.cancellationKey));
        assert.equal(report.original.messageId, schemeMessageId(cancellation.cancellationKey));
        assert.equal(report.original.messageName, 'camt.056.001.10');
        assert.equal(report.original.uetr, request.uetr);
        assert.equal(report.reasonCode, EXPIRED_REASON);
        const withdrawn = await connector.answerWithdrawal({ ...answer(report.original), caseId: report.caseId, accepted: true });
        const refused = await connector.answerWithdrawal({ ...answer(report.original), caseId: report.caseId, accepted: false, reasonCode: 'ARDT' });
        assert.equal(withdrawn.kind, 'delivered');
        assert.equal(refused.kind, 'delivered');
        const [cancelled, rejected] = transport.sent.map((sent) => {
            assert.equal(sent.messageName, 'camt.029.001.11');
            const read = readCamt029(sent.document);
            assert.ok(read.ok);
            return read.value;
        });
        assert.deepEqual({ outcome: cancelled?.outcome, caseId: cancelled?.caseId, originalMessageId: cancelled?.originalMessageId }, { outcome: 'accepted', caseId: report.caseId, originalMessageId: requestMessageId });
        assert.deepEqual({ outcome: rejected?.outcome, reasonCode: rejected?.reasonCode, confirmation: rejected?.confirmation }, { outcome: 'rejected', reasonCode: 'ARDT', confirmation: 'RJCR' });
        await assertXsdValid('camt.029.001.11', ...transport.sent.map((sent) => sent.document));
    });
    void it('still writes a valid camt.029 after a restart forgot the camt.056 (operator as assignee, no OrgnlGrpInf)', async () => {
        const { connector, transport } = await receiving();
        const original = { messageId: 'CAMT056-FORGOTTEN', messageName: 'camt.056.001.10', endToEndId: 'E2E-X', uetr: randomUUID() };
        assert.equal((await connector.answerWithdrawal({ ...answer(original), caseId: 'CASE-FORGOTTEN', accepted: false, reasonCode: 'ARDT' })).kind, 'delivered');
        const read = readCamt029(only(transport.sent).document);
        assert.ok(read.ok);
        assert.equal(read.value.caseId, 'CASE-FORGOTTEN');
        assert.equal(read.value.outcome, 'rejected');
        await assertXsdValid('camt.029.001.11', only(transport.sent).document);
    });
});
void describe('receiving direction: families and limits', () => {
    void it('answers failed, not retryable, on a family that does not receive, sending nothing', async () => {
        const { connector, transport } = await receiving(ZA_EFT, 'ZA_EFT');
        const original = { messageId: 'M', messageName: 'pacs.008.001.08' };
        const outcomes = [
            await connector.answerCredit({ ...answer(original), status: 'ACSP' }),
            await connector.reportRequestToPay({ ...answer(original), status: 'PRES' }),
            await connector.answerWithdrawal({ ...answer(original), caseId: 'C', accepted: true }),
        ];
        for (const outcome of outcomes)
            assert.equal(outcome.kind === 'failed' && !outcome.retryable, true);
        assert.equal(transport.sent.length, 0);
        assert.equal(connector.capabilities.receiving, undefined);
    });
    void it('answers failed, not retryable, for lookups and requests-to-pay on ZA_RTC, which receives credits only', async () => {
        const { connector, transport, inbound, warnings } = await receiving(ZA_RTC, 'ZA_RTC');
        await transport.answer(acmt023().document);
        await transport.answer(pain013('PAIN013-RTC').document);
        assert.equal(inbound.originated.length, 0);
        assert.equal(warnings.length, 2);
        const outcome = await connector.reportRequestToPay({ ...answer({ messageId: 'M', messageName: 'pain.013.001.09' }), status: 'PRES' });
        assert.equal(outcome.kind === 'failed' && !outcome.retryable, true);
    });
    void it('cuts a reason text over the 105 characters of AddtlInf at a word boundary', async () => {
        const { connector, transport, inbound } = await receiving();
        await transport.answer(pacs008(incomingTransfer(), 'PACS008-IN-5'));
        const words = 'The account holder asked us to refuse every credit from this payer until the dispute about invoice 2026 is settled in court';
        await connector.answerCredit({ ...answer(only(inbound.originated).original), status: 'RJCT', reasonCode: 'NARR', reasonText: words });
        const read = readPacs002(only(transport.sent).document);
        assert.ok(read.ok);
        const text = read.value.statuses[0]?.reasonText ?? '';
        assert.ok([...text].length <= 105);
        assert.ok(words.startsWith(text));
        assert.equal(words[text.length], ' ', 'cut before a space, not inside a word');
    });
    void it('never takes a document it sent coming back for a message of the scheme', async () => {
        const { connector, transport, inbound, warnings } = await receiving();
        const transfer = incomingTransfer();
        await connector.submit(transfer);
        await transport.answer(only(transport.sent).document);
        assert.equal(inbound.originated.length, 0);
        assert.equal(warnings.length, 1);
    });
});
void describe('receiving direction: pacs.008 read back (property)', () => {
    const optionalText = fc.option(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 .-]{0,33}[A-Za-z0-9]$/), { nil: undefined });
    const name = fc.stringMatching(/^[A-Z][a-z]{1,20}( [A-Z][a-z]{1,20}){0,3}$/);
    // Texts are drawn without leading or trailing blanks: XML readers take an element's text trimmed.
    void it('keeps amount, ids and names of any credit transfer and yields a valid CreditTransfer', async () => {
        const { transport, inbound } = await receiving();
        let sequence = 0;
        await fc.assert(fc.asyncProperty(fc.record({
            minor: fc.bigInt({ min: 1n, max: 99999999999n }),
            endToEnd: fc.stringMatching(/^[A-Za-z0-9-]{1,35}$/),
            instruction: optionalText,
            transaction: optionalText,
            creditor: name,
            debtor: name,
            remittance: fc.option(fc.array(fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9 ]{0,138}[A-Za-z0-9])?$/), { minLength: 1, maxLength: 3 }), { nil: undefined }),
            purpose: fc.option(fc.constantFrom('SALA', 'GDDS', 'SUPP'), { nil: undefined }),
            settlementDate: fc.option(fc.constantFrom('2026-03-02', '2026-12-31'), { nil: undefined }),
            instructed: fc.option(fc.bigInt({ min: 1n, max: 9999999n }), { nil: undefined }),
        }), async (drawn) => {
            sequence += 1;
            const amount = { currency: 'ZAR', minor: drawn.minor };
            const transfer = incomingTransfer((message) => {
                message.transactionIdentifiers = { endToEndIdentification: drawn.endToEnd, uetr: message.transactionIdentifiers.uetr };
                if (drawn.instruction !== undefined)
                    message.transactionIdentifiers.instructionIdentification = drawn.instruction;
                if (drawn.transaction !== undefined)
                    message.transactionIdentifiers.transactionIdentification = drawn.transaction;
                message.creditor = { legalName: drawn.creditor };
                message.debtor = { legalName: drawn.debtor };
                if (drawn.remittance === undefined)
                    delete message.remittanceInformation;
                else
                    message.remittanceInformation = { unstructured: drawn.remittance };
                if (drawn.purpose === undefined)
                    delete message.purpose;
                else
                    message.purpose = { schema: 'CODE', value: drawn.purpose };
                if (drawn.settlementDate === undefined)
                    delete message.settlementDate;
                else
                    message.settlementDate = drawn.settlementDate;
                if (drawn.instructed !== undefined)
                    message.amounts = { ...message.amounts, instructedAmount: { currency: 'ZAR', value: Number(drawn.instructed) / 100 } };
            });
            const messageId = `PROP-${sequence}`;
            await transport.answer(pacs008({ ...transfer, amount }, messageId));
            const request = inbound.originated[inbound.originated.length - 1];
            assert.equal(request.original.messageId, messageId);
            const valid = validateCreditTransfer(parsed(request.bodyJson));
            assert.ok(valid.ok, JSON.stringify(valid.ok ? '' : valid.errors));
            const message = valid.value.message;
            assert.deepEqual(valid.value.settlementAmount, amount);
            assert.equal(numberText(message.amounts.bankSettlementAmount, 'value'), formatAmount(amount));
            if (drawn.instructed !== undefined)
                assert.deepEqual(valid.value.instructedAmount, { currency: 'ZAR', minor: drawn.instructed });
            assert.equal(message.transactionIdentifiers.endToEndIdentification, drawn.endToEnd);
            assert.equal(message.transactionIdentifiers.instructionIdentification ?? undefined, drawn.instruction ?? schemeMessageId(transfer.idempotencyKey));
            assert.equal(message.transactionIdentifiers.uetr, transfer.uetr);
            assert.equal(message.creditor.legalName, drawn.creditor);
            assert.equal(message.debtor.legalName, drawn.debtor);
            assert.deepEqual(message.remittanceInformation?.unstructured, drawn.remittance);
            assert.equal(message.purpose?.value, drawn.purpose);
            assert.equal(message.settlementDate, drawn.settlementDate);
        }), { numRuns: 60 });
    });
});
async function assertXsdValid(messageName, ...documents) {
    if (XSD_SKIP !== false)
        return;
    await assertValid(messageName, documents);
}
//# sourceMappingURL=connector-receiving.test.js.map