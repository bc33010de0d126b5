import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DemoInbox } from '../../src/app/demo-inbox.js';
import { DEMO_CUSTOMERS, DEMO_UNRESOLVED_PROXIES, demoBankAnswer, lookUpDemoCustomer } from '../../src/app/demo-customers.js';
import { INBOUND_PATHS } from '../../src/domain/callback-paths.js';
import { IDENTIFIER_REASON_CODES } from '../../src/domain/messages/identifier-determination.js';
import { judgeAnswer } from '../../src/domain/messages/inbound-answers.js';
import { Secret } from '../../src/lib/secret.js';
import { webhookSignature } from '../../src/lib/webhook-signature.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
/**
 * The demo bank's directory of customers (src/app/demo-customers.ts) and the answers the demo
 * inbox gives from it: every answer must pass the rules the service judges an integrator's
 * answer by (judgeAnswer), and docs/simulator.md must list every entry.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const HEADER = { messageIdentification: 'D0123456789abcdef0123456789abcdef', creationDateTime: '2026-03-02T07:15:00.000Z' };
function lookupOf(identifier) {
    const request = identifierDetermination('MOBILE');
    return { ...request, request: { ...request.request, identifier } };
}
function creditTo(account) {
    return { ...creditTransfer('ZA_RPP'), creditorAccount: account };
}
/** The answer as the service takes it: valid, with its verdict. */
function judged(kind, answer) {
    assert.ok(answer !== undefined, 'the demo bank answers');
    const judgement = judgeAnswer(kind, answer, JSON.stringify(answer));
    assert.ok(judgement.valid, `the service accepts the answer: ${JSON.stringify(judgement)}`);
    return judgement.verdict;
}
void describe('the demo bank’s customers', () => {
    void it('resolves a registered mobile number in any of its written forms to the account and both names', () => {
        for (const value of ['0821234567', '+27821234567', '+27-0821234567', '+27-821234567', '27 82 123 4567']) {
            assert.deepEqual(lookUpDemoCustomer({ schema: 'MOBILE', value }), { found: true, accountNumber: '4071000001', knownAsName: 'Thandi', legalName: 'Thandi Nkosi' }, value);
        }
        assert.equal(lookUpDemoCustomer({ schema: 'CUSTOM', value: 'Thandi@DemoBank' }).found, true, 'a ShapID whatever its case');
    });
    void it('answers a lookup of an unregistered proxy FAILED BE23, and one of an unlisted account SUCCESSFUL as an ordinary open account', () => {
        assert.deepEqual(lookUpDemoCustomer({ schema: 'MOBILE', value: '0609999999' }), { found: false, reason: { code: 'BE23', text: 'Proxy unknown' } });
        assert.deepEqual(lookUpDemoCustomer({ schema: 'GENERIC', value: '9876543210' }), { found: true, accountNumber: '9876543210', knownAsName: 'Demo Customer', legalName: 'Demo Customer' });
    });
    void it('writes a SUCCESSFUL lookup answer the service accepts, naming the request’s uetr and the proxy resolved', () => {
        const request = lookupOf({ namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '+27-0831234567' });
        const answer = demoBankAnswer(INBOUND_PATHS.identifierDeterminationSync, request, HEADER);
        assert.deepEqual(judged('lookup', answer).approved, true);
        const information = answer.report.reportInformation;
        assert.equal(information.accountInformation.traditionalIdentifier, '4071000002');
        assert.deepEqual(information.accountInformation.proxy, { value: '+27-0831234567', schema: 'MOBILE' });
        assert.deepEqual(information.accountOwner, { knownAsName: 'Sipho', legalName: 'Sipho Dlamini' });
        assert.equal(answer.uetr, request.request.uetr);
        assert.deepEqual(answer.originalMessageIdentifiers, request.messageIdentifiers);
    });
    void it('fails the lookup of every customer and proxy the directory fails, with the reason listed, from the scheme’s list of lookup reasons', () => {
        const failing = [
            ...DEMO_CUSTOMERS.filter((customer) => customer.lookupFails !== undefined).map((customer) => ({ identifier: { schema: 'GENERIC', value: customer.accountNumber }, code: customer.lookupFails?.code })),
            ...DEMO_UNRESOLVED_PROXIES.map((proxy) => ({ identifier: { schema: proxy.schema, value: proxy.value, namespace: `ZA_${proxy.schema}` }, code: proxy.reason.code })),
        ];
        assert.deepEqual([...new Set(failing.map((entry) => entry.code))].sort(), ['AC01', 'AC04', 'AC06', 'BE23', 'MD07', 'PD02', 'PX03']);
        for (const { identifier, code } of failing) {
            const verdict = judged('lookup', demoBankAnswer(INBOUND_PATHS.identifierDeterminationSync, lookupOf(identifier), HEADER));
            assert.equal(verdict.approved, false, identifier.value);
            assert.equal(verdict.reasonCode, code, identifier.value);
            assert.ok(Object.hasOwn(IDENTIFIER_REASON_CODES, code ?? ''), `${code ?? ''} is a lookup reason`);
        }
    });
    void it('approves a credit to a listed open account and to an unlisted one, and declines each listed decline with its ISO code', () => {
        for (const account of ['4071000001', '5550001234']) {
            const verdict = judged('credit', demoBankAnswer(INBOUND_PATHS.creditTransferAuthorisationSync, creditTo({ identification: { schema: 'GENERIC', value: account } }), HEADER));
            assert.equal(verdict.approved, true, account);
        }
        const declines = DEMO_CUSTOMERS.filter((customer) => customer.creditDeclined !== undefined);
        assert.deepEqual(declines.map((customer) => customer.creditDeclined?.code).sort(), ['AC01', 'AC04', 'AC06', 'AG01', 'AM04', 'BE01', 'MD07']);
        for (const customer of declines) {
            const transfer = creditTo({ identification: { schema: 'GENERIC', value: customer.accountNumber } });
            const answer = demoBankAnswer(INBOUND_PATHS.creditTransferAuthorisationSync, transfer, HEADER);
            const verdict = judged('credit', answer);
            assert.equal(verdict.approved, false, customer.accountNumber);
            assert.equal(verdict.reasonCode, customer.creditDeclined?.code);
            assert.deepEqual(answer.transactionIdentifiers, transfer.transactionIdentifiers, 'the decision names the credit');
        }
    });
    void it('decides a credit to a proxy alone by the account the proxy is registered to, and declines one to an unregistered proxy BE23', () => {
        const toProxy = (value) => judged('credit', demoBankAnswer(INBOUND_PATHS.creditTransferAuthorisationSync, creditTo({ proxy: { namespace: 'ZA_MOBILE', schema: 'MOBILE', value } }), HEADER));
        assert.equal(toProxy('0821234567').approved, true);
        assert.equal(toProxy('0821001004').reasonCode, 'AC04');
        assert.equal(toProxy('0609999999').reasonCode, 'BE23');
    });
    void it('answers nothing but the two sync calls: a completion or a callback is only acknowledged', () => {
        const completion = { schema: 'PaymentStatusReport', status: { outcome: 'APPROVED' } };
        assert.equal(demoBankAnswer(INBOUND_PATHS.creditTransferCompletion, completion, HEADER), undefined);
        assert.equal(demoBankAnswer(INBOUND_PATHS.creditTransferAuthorisation, creditTransfer('ZA_RPP'), HEADER), undefined);
        assert.equal(demoBankAnswer('/transactions/outbound/credit-transfer-response', completion, HEADER), undefined);
    });
    void it('is listed in docs/simulator.md, every account, proxy and reason', () => {
        const docs = readFileSync(join(REPO, 'docs/simulator.md'), 'utf8');
        for (const customer of DEMO_CUSTOMERS) {
            assert.ok(docs.includes(`\`${customer.accountNumber}\``), customer.accountNumber);
            for (const proxy of customer.proxies)
                assert.ok(docs.includes(`\`${proxy.value}\``), proxy.value);
        }
        for (const proxy of DEMO_UNRESOLVED_PROXIES)
            assert.ok(docs.includes(`\`${proxy.value}\``) && docs.includes(proxy.reason.code), proxy.value);
    });
});
void describe('the demo inbox as the receiving bank', () => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const inbox = new DemoInbox(new Secret(secret), { now: () => Date.parse('2026-03-02T07:15:00Z') });
    const signed = (id, body, key = secret) => ({ 'webhook-id': id, 'webhook-timestamp': '1772435700', 'webhook-signature': webhookSignature(key, id, 1772435700, body) });
    void it('answers a genuine sync lookup with the same answer on every retry of the call, and keeps it', () => {
        const body = JSON.stringify(lookupOf({ namespace: 'ZA_MOBILE', schema: 'MOBILE', value: '0821234567' }));
        const first = inbox.receive('callback', INBOUND_PATHS.identifierDeterminationSync, signed('3f0c7c1e-8d5e-4f5b-9a43-2d4c0e4a9b71', body), body);
        const again = inbox.receive('callback', INBOUND_PATHS.identifierDeterminationSync, signed('3f0c7c1e-8d5e-4f5b-9a43-2d4c0e4a9b71', body), body);
        assert.equal(first.signatureValid, true);
        assert.deepEqual(again.answer, first.answer);
        assert.equal(first.answer.report.reportInformation.outcome, 'SUCCESSFUL');
        assert.deepEqual(inbox.list(0, 10).map((entry) => entry.answer), [first.answer, again.answer]);
    });
    void it('does not answer a call whose signature does not check out', () => {
        const body = JSON.stringify(creditTransfer('ZA_RPP'));
        const entry = inbox.receive('callback', INBOUND_PATHS.creditTransferAuthorisationSync, signed('a1b2c3d4-0000-4000-8000-000000000001', body, 'whsec_b3RoZXJzZWNyZXRvdGhlcnNlY3JldG90aGVy'), body);
        assert.equal(entry.signatureValid, false);
        assert.equal(entry.answer, undefined);
    });
});
//# sourceMappingURL=demo-customers.test.js.map