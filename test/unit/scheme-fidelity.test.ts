import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { schemeRulesOf } from '../../src/connectors/registry.js';
import { MESSAGE_SUPPLEMENT } from '../../src/connectors/iso20022/supplement.js';
import { child, children, readDocument, text, type XmlElement, type XmlValue } from '../../src/connectors/iso20022/xml.js';
import type { CreditTransfer } from '../../src/domain/messages/credit-transfer.js';
import { validateOutboundIdentifierDeterminationRequest, type IdentifierDeterminationRequest } from '../../src/domain/messages/identifier-determination.js';
import { validateOutboundRequestToPay, type RequestToPay } from '../../src/domain/messages/request-to-pay.js';
import { validateOutboundCreditTransfer } from '../../src/domain/messages/validate.js';
import type { SchemeName } from '../../src/domain/schemes.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { requestToPay } from '../fixtures/request-to-pay.js';
import { creditTransferSent, lookupSent, requestToPayOf, requestToPaySent, type Sent } from '../support/sendable.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';

/**
 * Nothing an integrator sends is silently dropped on the way to the scheme (issue #27 §1): a
 * message with every optional field the interface names set goes through every connector, and
 * each value is read back from the document, in its ISO 20022 element where the message has one,
 * else in regpay's supplement (`SplmtryData/Envlp/MsgSplmtryData/Itm`: `Ptr`, `Val`). Where a
 * scheme's message cannot carry a field (CBPR+ has no SplmtryData), intake refuses it naming the
 * field. Every document stays valid against its XSD.
 */

/** Texts every scheme carries whole (the CBPR+ character set, Max35Text, no surrounding spaces). */
const word = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ./-]{0,28}[A-Za-z0-9]$/);
const cents = fc.integer({ min: 1, max: 99_999_999 });
const date = fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));

interface Values {
  readonly taxAmount: number;
  readonly taxReference: string;
  readonly taxMethod: string;
  readonly taxZone: string;
  readonly taxDate: string;
  readonly taxOther: string;
  readonly documentNumber: string;
  readonly documentDate: string;
  readonly secondDocument: string;
  readonly documentAmount: number;
  readonly creditorReference: string;
  readonly originatorReference: string;
  readonly additional: string;
  readonly supplementKey: string;
  readonly supplementText: string;
  readonly supplementNumber: number;
  readonly userReference: string;
  readonly originatorEchoData: string;
  readonly businessReference: string;
}

const values: fc.Arbitrary<Values> = fc.record({
  taxAmount: cents,
  taxReference: word,
  taxMethod: word,
  taxZone: word,
  taxDate: date,
  taxOther: word,
  documentNumber: word,
  documentDate: date,
  secondDocument: word,
  documentAmount: cents,
  creditorReference: word,
  originatorReference: word,
  additional: word,
  supplementKey: fc.stringMatching(/^[a-z][A-Za-z0-9]{0,15}$/),
  supplementText: word,
  supplementNumber: fc.integer({ min: 0, max: 1_000_000 }),
  userReference: word,
  originatorEchoData: word,
  businessReference: word,
});

const money = (minor: number) => ({ currency: 'ZAR', value: minor / 100 });
const decimal = (minor: number) => (minor / 100).toFixed(2);

/** Where a value must be found: an element of the transaction, or a supplement item with the field's pointer. */
type Expected = { readonly pointer: string; readonly value: string; readonly at?: (transaction: XmlElement) => string | undefined };

function structuredItem(v: Values): Record<string, unknown> {
  return {
    referredDocuments: [{ type: 'CINV', number: v.documentNumber, relatedDate: v.documentDate }, v.secondDocument],
    referredDocumentAmount: money(v.documentAmount),
    creditorReference: v.creditorReference,
    originatorReference: v.originatorReference,
    additionalRemittanceInformation: [v.additional],
  };
}

const strd = (tx: XmlElement) => child(tx, 'RmtInf', 'Strd');
const referred = (tx: XmlElement, index: number) => children(strd(tx), 'RfrdDocInf')[index];

/** The remittance values and where the ISO message keeps them (originatorReference has no element: the supplement). */
function remittanceExpected(v: Values, base: string): Expected[] {
  const item = `${base}/remittanceInformation/structured/0`;
  return [
    { pointer: `${item}/referredDocuments/0/type`, value: 'CINV', at: (tx) => text(referred(tx, 0), 'Tp', 'CdOrPrtry', 'Cd') },
    { pointer: `${item}/referredDocuments/0/number`, value: v.documentNumber, at: (tx) => text(referred(tx, 0), 'Nb') },
    { pointer: `${item}/referredDocuments/0/relatedDate`, value: v.documentDate, at: (tx) => text(referred(tx, 0), 'RltdDt') },
    { pointer: `${item}/referredDocuments/1`, value: v.secondDocument, at: (tx) => text(referred(tx, 1), 'Nb') },
    { pointer: `${item}/referredDocumentAmount`, value: decimal(v.documentAmount), at: (tx) => text(strd(tx), 'RfrdDocAmt', 'RmtdAmt') },
    { pointer: `${item}/creditorReference`, value: v.creditorReference, at: (tx) => text(strd(tx), 'CdtrRefInf', 'Ref') },
    { pointer: `${item}/additionalRemittanceInformation/0`, value: v.additional, at: (tx) => text(strd(tx), 'AddtlRmtInf') },
    { pointer: `${item}/originatorReference`, value: v.originatorReference },
  ];
}

function supplementExpected(v: Values): Expected[] {
  return [
    { pointer: `/supplementaryData/${v.supplementKey}`, value: v.supplementText },
    { pointer: '/supplementaryData/nested/count', value: String(v.supplementNumber) },
  ];
}

function supplementOf(v: Values): Record<string, unknown> {
  return { [v.supplementKey]: v.supplementText, nested: { count: v.supplementNumber } };
}

/** A credit transfer of `scheme` with every optional field of §1 set, and where each value must be found. */
function everyOptionalTransfer(scheme: Exclude<SchemeName, 'ZA_AC' | 'ZA_RMS'>, v: Values): { body: CreditTransfer; expected: Expected[] } {
  const body = creditTransfer(scheme);
  const tax: Record<string, unknown> = { totalAmount: money(v.taxAmount), referenceNumber: v.taxReference, method: v.taxMethod, administrationZone: v.taxZone, date: v.taxDate, category: v.taxOther };
  body.tax = tax;
  body.remittanceInformation = { ...body.remittanceInformation, structured: [structuredItem(v)] };
  body.supplementaryData = supplementOf(v);
  const taxOf = (tx: XmlElement) => child(tx, 'Tax');
  const expected: Expected[] = [
    { pointer: '/tax/totalAmount', value: decimal(v.taxAmount), at: (tx) => text(taxOf(tx), 'TtlTaxAmt') },
    { pointer: '/tax/referenceNumber', value: v.taxReference, at: (tx) => text(taxOf(tx), 'RefNb') },
    { pointer: '/tax/method', value: v.taxMethod, at: (tx) => text(taxOf(tx), 'Mtd') },
    { pointer: '/tax/administrationZone', value: v.taxZone, at: (tx) => text(taxOf(tx), 'AdmstnZone') },
    { pointer: '/tax/date', value: v.taxDate, at: (tx) => text(taxOf(tx), 'Dt') },
    { pointer: '/tax/category', value: v.taxOther },
    ...remittanceExpected(v, ''),
    ...supplementExpected(v),
  ];
  if (scheme !== 'CBPR_PLUS') {
    body.paymentScheme = { schema: scheme, schemeData: { userReference: v.userReference, originatorEchoData: v.originatorEchoData, businessReference: v.businessReference } };
    expected.push(
      { pointer: '/paymentScheme/schemeData/userReference', value: v.userReference },
      { pointer: '/paymentScheme/schemeData/originatorEchoData', value: v.originatorEchoData },
      { pointer: '/paymentScheme/schemeData/businessReference', value: v.businessReference },
    );
  }
  return { body, expected };
}

/** The supplement items of a document part (`Ptr` -> `Val`), from whichever SplmtryData holds regpay's envelope. */
function supplementItems(part: XmlValue): Map<string, string> {
  const items = new Map<string, string>();
  for (const supplementary of children(part, 'SplmtryData')) {
    for (const item of children(child(supplementary, 'Envlp', MESSAGE_SUPPLEMENT), 'Itm')) items.set(text(item, 'Ptr') ?? '', text(item, 'Val') ?? '');
  }
  return items;
}

/** Finds every expected value in the sent document: `transaction` picks the part the ISO elements are in, `supplement` the part holding SplmtryData. */
function assertFound(sent: Sent, expected: readonly Expected[], transaction: (body: XmlElement) => XmlElement | undefined, supplement: (body: XmlElement) => XmlValue): string {
  assert.equal(sent.kind, 'sent', sent.kind === 'sent' ? '' : sent.reason);
  assert.ok(sent.kind === 'sent');
  const read = readDocument(sent.document);
  assert.ok(read.ok, read.ok ? '' : read.error);
  const tx = transaction(read.body);
  assert.ok(tx !== undefined, 'the document holds the transaction');
  const items = supplementItems(supplement(read.body));
  for (const { pointer, value, at } of expected) {
    if (at !== undefined) assert.equal(at(tx), value, `${pointer} is in its ISO 20022 element`);
    else assert.equal(items.get(pointer), value, `${pointer} is in the supplement`);
    // Written once: a value in its element is not repeated in the supplement.
    if (at !== undefined) assert.equal(items.has(pointer), false, `${pointer} is not also in the supplement`);
  }
  return sent.document;
}

/** Intake's judgement of a credit transfer: validation, then the scheme's rules. */
function intakeOfTransfer(body: CreditTransfer) {
  const valid = validateOutboundCreditTransfer(JSON.parse(JSON.stringify(body)));
  assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid.errors));
  const outcome = schemeRulesOf(valid.value.scheme)?.check(
    { transactionId: 't', integratorId: 'demo-bank', scheme: valid.value.scheme, uetr: valid.value.uetr, idempotencyKey: 'k', message: valid.value.message, amount: valid.value.settlementAmount, traceparent: null },
    {},
  );
  return { valid: valid.value, outcome };
}

const pacs008Transaction = (body: XmlElement) => child(body, 'CdtTrfTxInf');

void describe('every field an integrator sends reaches the scheme message', () => {
  for (const scheme of ['ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'TCIB'] as const) {
    void it(`writes every optional field of a ${scheme} credit transfer into its pacs.008, each read back, the document valid`, async () => {
      const documents: string[] = [];
      await fc.assert(
        fc.asyncProperty(values, async (v) => {
          const { body, expected } = everyOptionalTransfer(scheme, v);
          const { valid, outcome } = intakeOfTransfer(body);
          assert.deepEqual(outcome, { ok: true }, 'intake accepts it');
          documents.push(assertFound(await creditTransferSent(valid), expected, pacs008Transaction, pacs008Transaction));
        }),
        { numRuns: 25 },
      );
      if (XSD_SKIP === false) await assertValid(scheme === 'ZA_RPP' ? 'pacs.008.001.10' : 'pacs.008.001.08', documents);
    });
  }

  void it('refuses at intake, naming the field and CBPR_PLUS, each field only SplmtryData could carry, and writes all the others into the pacs.008', async () => {
    const documents: string[] = [];
    await fc.assert(
      fc.asyncProperty(values, async (v) => {
        const { body, expected } = everyOptionalTransfer('CBPR_PLUS', v);
        const uncarried = expected.filter((entry) => entry.at === undefined).map((entry) => entry.pointer);
        assert.deepEqual(uncarried.sort(), ['/remittanceInformation/structured/0/originatorReference', `/supplementaryData/${v.supplementKey}`, '/supplementaryData/nested/count', '/tax/category'].sort());
        const refused = intakeOfTransfer(body).outcome;
        assert.ok(refused !== undefined && !refused.ok && refused.reasonCode === 'CH17', JSON.stringify(refused));
        assert.ok(uncarried.includes(refused.field ?? ''), `names ${String(refused.field)}`);
        assert.match(refused.reasonText, /CBPR_PLUS/);
        // Without them, the rest is written in its ISO 20022 elements.
        delete body.supplementaryData;
        delete (body.tax as Record<string, unknown>).category;
        delete (body.remittanceInformation?.structured?.[0] as Record<string, unknown>).originatorReference;
        const { valid, outcome } = intakeOfTransfer(body);
        assert.deepEqual(outcome, { ok: true });
        documents.push(assertFound(await creditTransferSent(valid), expected.filter((entry) => entry.at !== undefined), pacs008Transaction, pacs008Transaction));
      }),
      { numRuns: 25 },
    );
    if (XSD_SKIP === false) await assertValid('pacs.008.001.08', documents);
  });

  void it('writes a request-to-pay\'s structured remittance and supplementary data into its pain.013, each read back, the document valid', async () => {
    const documents: string[] = [];
    await fc.assert(
      fc.asyncProperty(values, async (v) => {
        const body: RequestToPay = requestToPay('CUSTOM');
        body.remittanceInformation = { structured: [structuredItem(v)] };
        body.supplementaryData = supplementOf(v);
        const valid = validateOutboundRequestToPay(JSON.parse(JSON.stringify(body)));
        assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid.errors));
        const request = requestToPayOf(valid.value.message, valid.value.expiresAt);
        assert.deepEqual(schemeRulesOf('ZA_RPP')?.checkRequestToPay(request), { ok: true });
        const transaction = (root: XmlElement) => child(root, 'PmtInf', 'CdtTrfTx');
        documents.push(assertFound(await requestToPaySent(request), [...remittanceExpected(v, ''), ...supplementExpected(v)], transaction, transaction));
      }),
      { numRuns: 25 },
    );
    if (XSD_SKIP === false) await assertValid('pain.013.001.09', documents);
  });

  void it("writes an identifier determination's requestor domain and supplementary data into its acmt.023, each read back, the document valid", async () => {
    const documents: string[] = [];
    await fc.assert(
      fc.asyncProperty(values, word, async (v, domain) => {
        const body: IdentifierDeterminationRequest = identifierDetermination('CUSTOM');
        body.request.requestor = { ...body.request.requestor, domain };
        body.supplementaryData = supplementOf(v);
        const valid = validateOutboundIdentifierDeterminationRequest(JSON.parse(JSON.stringify(body)));
        assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid.errors));
        const expected: Expected[] = [{ pointer: '/request/requestor/domain', value: domain }, ...supplementExpected(v)];
        documents.push(assertFound(await lookupSent(valid.value.message), expected, (root) => root, (root) => root));
      }),
      { numRuns: 25 },
    );
    if (XSD_SKIP === false) await assertValid('acmt.023.001.03', documents);
  });
});
