import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lookupOutcome } from '../../src/connectors/iso20022/answers.js';
import type { IdentifierDeterminationResponse } from '../../src/domain/messages/identifier-determination.js';
import { judgeAnswer, validateAuthorisationReport, validateLookupAnswer } from '../../src/domain/messages/inbound-answers.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { anyText, apply, checkRefusal, mutationOf, resolve } from '../support/fuzz.js';

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
    fc.assert(
      fc.property(fc.constantFrom('credit' as const, 'lookup' as const), fc.array(mutationOf(values), { maxLength: 6 }), (kind, mutations) => {
        const body: unknown = kind === 'credit' ? approval() : found();
        for (const mutation of mutations) apply(body, mutation);
        const result = kind === 'credit' ? validateAuthorisationReport(body) : validateLookupAnswer(body);
        checkRefusal(result, body, (field) => assert.ok(!resolve(body, field).found, `${field} is said to be missing, and is`));
        const judged = judgeAnswer(kind, body, JSON.stringify(body));
        assert.equal(judged.valid, result.ok);
        if (judged.valid && judged.verdict.approved) {
          const outcome = kind === 'credit' ? (body as { status: { outcome: unknown } }).status.outcome : (body as { report: { reportInformation: { outcome: unknown } } }).report.reportInformation.outcome;
          assert.equal(outcome, kind === 'credit' ? 'APPROVED' : 'SUCCESSFUL');
        }
      }),
      { numRuns: 400 },
    );
  });

  void it('answers a lookup answered SUCCESSFUL without both names CH21, and a REJECTED decision without a reason AB06', () => {
    const unnamed = found();
    delete (unnamed.report.reportInformation.accountOwner as { legalName?: string }).legalName;
    const lookup = judgeAnswer('lookup', unnamed, JSON.stringify(unnamed));
    assert.equal(lookup.valid, false);
    assert.equal(lookup.valid ? undefined : lookup.reasonCode, 'CH21');
    const reasonless = { ...approval(), status: { outcome: 'REJECTED' } };
    const credit = judgeAnswer('credit', reasonless, JSON.stringify(reasonless));
    assert.equal(credit.valid, false);
    assert.equal(credit.valid ? 'valid' : credit.reasonCode, undefined, 'no code of its own: the machine answers AB06');
  });
});

/** The connector's acmt.024 outcome for a valid lookup answer, its account taken as the engine takes it (kinds/inbound.ts). */
function written(answer: IdentifierDeterminationResponse): ReturnType<typeof lookupOutcome> {
  const information = answer.report.reportInformation;
  const { traditionalIdentifier } = information.accountInformation;
  const { knownAsName, legalName } = information.accountOwner;
  return lookupOutcome({
    transactionId: 'inbound',
    answerKey: 'answer',
    original: { messageId: 'SIM1', messageName: 'acmt.023.001.03' },
    traceparent: null,
    request: identifierDetermination(),
    outcome: information.outcome,
    account: {
      ...(traditionalIdentifier === undefined ? {} : { traditionalIdentifier }),
      ...(knownAsName === undefined ? {} : { knownAsName }),
      ...(legalName === undefined ? {} : { legalName }),
    },
  });
}

void describe('a lookup answer the service takes is one the scheme can be told (issue #27 §3)', () => {
  void it('refuses a SUCCESSFUL answer with an account number longer than 34 characters or a blank name, naming the field', () => {
    const cases: readonly (readonly [string, (answer: ReturnType<typeof found>) => void])[] = [
      ['/report/reportInformation/accountInformation/traditionalIdentifier', (answer) => (answer.report.reportInformation.accountInformation.traditionalIdentifier = '1'.repeat(35))],
      ['/report/reportInformation/accountOwner/knownAsName', (answer) => (answer.report.reportInformation.accountOwner.knownAsName = ' ')],
      ['/report/reportInformation/accountOwner/legalName', (answer) => (answer.report.reportInformation.accountOwner.legalName = '\t \n')],
    ];
    for (const [field, edit] of cases) {
      const answer = found();
      edit(answer);
      const result = validateLookupAnswer(answer);
      assert.deepEqual(result.ok ? [] : result.errors.map((error) => error.field), [field]);
    }
    const longest = found();
    longest.report.reportInformation.accountInformation.traditionalIdentifier = '1'.repeat(34);
    assert.equal(validateLookupAnswer(longest).ok, true, 'an account number of 34 characters is taken');
  });

  void it('writes every lookup answer it takes, whatever its account number and names (the connector refuses none for its own content)', () => {
    const name = fc.option(fc.oneof(anyText, fc.constantFrom(' ', '\t', '\u00a0', 'x', ' Thandi ')), { nil: undefined });
    fc.assert(
      fc.property(fc.option(fc.oneof(anyText, fc.string({ minLength: 30, maxLength: 40 })), { nil: undefined }), name, name, (account, knownAsName, legalName) => {
        const answer = found();
        const information: Record<string, unknown> = answer.report.reportInformation;
        information['accountInformation'] = account === undefined ? {} : { traditionalIdentifier: account };
        information['accountOwner'] = { ...(knownAsName === undefined ? {} : { knownAsName }), ...(legalName === undefined ? {} : { legalName }) };
        const result = validateLookupAnswer(answer);
        if (!result.ok) return;
        const outcome = written(result.value);
        assert.ok(outcome.ok, outcome.ok ? '' : `taken, then refused by the connector: ${outcome.reasonCode} ${outcome.reasonText}`);
      }),
      { numRuns: 500 },
    );
  });
});
