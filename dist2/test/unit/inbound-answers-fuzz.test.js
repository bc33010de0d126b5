import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { judgeAnswer, validateAuthorisationReport, validateLookupAnswer } from '../../src/domain/messages/inbound-answers.js';
import { apply, checkRefusal, mutationOf, resolve } from '../support/fuzz.js';
/**
 * The integrator's answers as the receiving bank under arbitrary input: the validators never
 * throw and name every fault at a field of the body; the judged answer is valid exactly when the
 * validator takes it, and a valid approval is only ever the integrator's APPROVED/SUCCESSFUL.
 */
const UETR = '5b3f2f9e-6f0a-4c1e-9b7a-2d4c8e1f0a11';
const ids = { messageIdentification: 'RCV1', creationDateTime: '2026-11-27T10:00:00Z' };
const approval = () => ({
    schema: 'PaymentStatusReport',
    messageIdentifiers: { ...ids },
    transactionIdentifiers: { endToEndIdentification: 'E2E1', uetr: UETR },
    status: { outcome: 'APPROVED', reasonInfo: [{ reason: { schema: 'CODE', value: 'AC04' } }] },
});
const found = () => ({
    schema: 'IdentifierDeterminationResponse',
    messageIdentifiers: { ...ids },
    originalMessageIdentifiers: { ...ids, messageIdentification: 'SIM1' },
    scheme: 'ZA_RPP',
    uetr: UETR,
    verificationIdentification: 'V1',
    report: { reportInformation: { outcome: 'SUCCESSFUL', reasonCode: 'AC04', accountInformation: { traditionalIdentifier: '4071000001' }, accountOwner: { knownAsName: 'Thandi', legalName: 'Thandi Nkosi' } } },
});
const values = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('APPROVED', 'REJECTED', 'SUCCESSFUL', 'FAILED', 'x'.repeat(141), '', null, [], {}, -1, 1e308));
void describe('the integrator’s answers under arbitrary input', () => {
    void it('never throws, names each fault at a field of the body, and judges valid exactly what the validator takes', () => {
        fc.assert(fc.property(fc.constantFrom('credit', 'lookup'), fc.array(mutationOf(values), { maxLength: 6 }), (kind, mutations) => {
            const body = kind === 'credit' ? approval() : found();
            for (const mutation of mutations)
                apply(body, mutation);
            const result = kind === 'credit' ? validateAuthorisationReport(body) : validateLookupAnswer(body);
            checkRefusal(result, body, (field) => assert.ok(!resolve(body, field).found, `${field} is said to be missing, and is`));
            const judged = judgeAnswer(kind, body, JSON.stringify(body));
            assert.equal(judged.valid, result.ok);
            if (judged.valid && judged.verdict.approved) {
                const outcome = kind === 'credit' ? body.status.outcome : body.report.reportInformation.outcome;
                assert.equal(outcome, kind === 'credit' ? 'APPROVED' : 'SUCCESSFUL');
            }
        }), { numRuns: 400 });
    });
    void it('answers a lookup answered SUCCESSFUL without both names CH21, and a REJECTED decision without a reason AB06', () => {
        const unnamed = found();
        delete unnamed.report.reportInformation.accountOwner.legalName;
        const lookup = judgeAnswer('lookup', unnamed, JSON.stringify(unnamed));
        assert.equal(lookup.valid, false);
        assert.equal(lookup.valid ? undefined : lookup.reasonCode, 'CH21');
        const reasonless = { ...approval(), status: { outcome: 'REJECTED' } };
        const credit = judgeAnswer('credit', reasonless, JSON.stringify(reasonless));
        assert.equal(credit.valid, false);
        assert.equal(credit.valid ? 'valid' : credit.reasonCode, undefined, 'no code of its own: the machine answers AB06');
    });
});
//# sourceMappingURL=inbound-answers-fuzz.test.js.map