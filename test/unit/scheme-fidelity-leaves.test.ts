import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { escapePointerToken } from '../../src/lib/json-pointer.js';
import { readDocument, textLeaves } from '../../src/connectors/iso20022/xml.js';
import type { CreditTransfer } from '../../src/domain/messages/credit-transfer.js';
import { validateOutboundIdentifierDeterminationRequest, type IdentifierDeterminationRequest } from '../../src/domain/messages/identifier-determination.js';
import { validateOutboundRequestToPay, type RequestToPay } from '../../src/domain/messages/request-to-pay.js';
import { validateOutboundCreditTransfer } from '../../src/domain/messages/validate.js';
import { creditTransferSent, lookupSent, requestToPayOf, requestToPaySent, type Sent } from '../support/sendable.js';
import { assertValid, XSD_SKIP } from '../support/xsd.js';

/**
 * Nothing an integrator sends is silently dropped on the way to the scheme (issue #27 §1), judged
 * without knowing the mapping: a message with every field the interface names set, each to a value
 * of its own, goes through its connector, and every scalar of it is found among the texts of the
 * document (an element, an attribute, or an item of regpay's supplement). The only leaves not
 * looked for are those the table below names: what is not the scheme's (the service's own message
 * identifiers) or what the document says by its structure (a discriminator choosing an element).
 * scheme-fidelity.test.ts holds where each of §1's fields is found; this file holds that no other
 * field is lost. Every document stays valid against its XSD.
 */

/** Leaves not looked for as text, by pointer pattern, each with the reason (docs/connectors.md, "Every field reaches the scheme"). */
const NOT_TEXT: readonly (readonly [RegExp, string])[] = [
  [/^\/schema$/, 'the message type: the document is that message'],
  [/^\/messageIdentifiers\//, "the integrator's message to the service; the scheme message has its own MsgId and CreDtTm"],
  [/^(\/request)?\/paymentScheme\/schema$|^\/request\/schema$/, 'the scheme: the connector serving it writes the message'],
  [/\/identification\/schema$/, 'PERSON or an organisation (PrvtId or OrgId), GENERIC or IBAN (Othr or IBAN): chooses the element'],
  [/\/(scheme|type|purpose|localInstrument)\/schema$|^\/purpose\/schema$/, 'CODE or PROPRIETARY: chooses Cd or Prtry'],
  [/^\/request\/requestor\/schema$/, 'INSTITUTION_IDENTIFICATION: the assigner is an agent'],
  [/^\/request\/identifier\/schema$/, 'GENERIC chooses Acct/Id; MOBILE and CUSTOM are written in Prxy/Tp/Prtry'],
  [/^\/expiryDateTime$/, 'written as the same instant in UTC (XpryDt/DtTm), checked apart'],
];

/** A scalar leaf of a JSON value with its pointer. */
function* leaves(value: unknown, pointer = ''): Generator<{ readonly pointer: string; readonly value: string | number | boolean }> {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') yield { pointer, value };
  else if (Array.isArray(value)) for (const [index, item] of value.entries()) yield* leaves(item, `${pointer}/${index}`);
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) yield* leaves(item, `${pointer}/${escapePointerToken(key)}`);
}

/** The texts a value may be written as: itself, and an amount's value with its currency's two decimals. */
function forms(value: string | number | boolean): string[] {
  if (typeof value === 'number') return [String(value), value.toFixed(2)];
  return [String(value)];
}

/** The leaves of `body` that no text of the sent document holds (whole, or within a composed text such as `MOBILE:ZA_MOBILE`). */
function missing(sent: Sent, body: unknown): string[] {
  assert.equal(sent.kind, 'sent', sent.kind === 'sent' ? '' : `${sent.reason} ${sent.kind === 'refused_at_intake' ? String(sent.field) : ''}`);
  assert.ok(sent.kind === 'sent');
  const read = readDocument(sent.document);
  assert.ok(read.ok, read.ok ? '' : read.error);
  const texts = [...textLeaves(read.body)].map((leaf) => leaf.value);
  const lost: string[] = [];
  for (const { pointer, value } of leaves(body)) {
    if (NOT_TEXT.some(([pattern]) => pattern.test(pointer))) continue;
    const found = forms(value).some((form) => texts.some((text) => text === form || (form.length >= 6 && text.includes(form))));
    if (!found) lost.push(`${pointer}=${String(value)}`);
  }
  return lost;
}

/** Values of their own for every leaf: a distinct token (letters and digits, within every scheme's character set and Max35Text). */
const token = fc.stringMatching(/^[A-Z][a-z]{3}[0-9]{4}[a-z]{2}$/);
const tokens = fc.uniqueArray(token, { minLength: 320, maxLength: 320 });
const cents = fc.integer({ min: 101, max: 4_999_999 }).filter((n) => n % 10 !== 0);

/** Hands out the tokens one by one. */
function dealer(list: readonly string[]): () => string {
  let next = 0;
  return () => {
    const value = list[next++];
    assert.ok(value !== undefined, 'enough tokens');
    return value;
  };
}

const amount = (minor: number, currency = 'ZAR') => ({ currency, value: minor / 100 });

function address(t: () => string) {
  return {
    addressType: 'ADDR',
    department: t(),
    streetName: t(),
    buildingNumber: t(),
    buildingName: t(),
    floor: t(),
    postBox: t(),
    postCode: t(),
    townName: t(),
    townLocationName: t(),
    districtName: t(),
    countrySubDivision: t(),
    country: 'ZA',
    addressLine: [t(), t()],
  };
}

/**
 * The values of a message: `t` deals each its own token; `supplement` false leaves out what only
 * the supplement can carry (a second name, an agent's deprecated or further identifications), as
 * a CBPR+ message must.
 */
interface Deal {
  readonly t: () => string;
  readonly supplement: boolean;
}

function party({ t, supplement }: Deal) {
  const legalName = t();
  return {
    legalName,
    knownAsName: supplement ? t() : legalName,
    countryOfResidence: 'ZA',
    address: address(t),
    contactDetails: { phoneNumber: '+27-0214620000', mobileNumber: '+27-0831234567', emailAddress: `${t()}@example.co.za` },
    identification: { schema: 'PERSON', identifiers: [{ identification: t(), issuer: t(), scheme: { schema: 'CODE', value: 'NIDN' } }] },
  };
}

function account({ t }: Deal, withProxy = true) {
  return {
    identification: { schema: 'GENERIC', value: t(), issuer: t(), scheme: { schema: 'PROPRIETARY', value: t() } },
    ...(withProxy ? { proxy: { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27-0821234567' } } : {}),
    type: { schema: 'CODE', value: 'CACC' },
    currency: 'ZAR',
    name: t(),
  };
}

function agent({ t, supplement }: Deal, bicfi: string) {
  return {
    bicfi,
    clearingSystemMemberId: { memberId: t() },
    lei: '5493001KJTIIGC8Y1R12',
    name: t(),
    address: address(t),
    branch: { identification: t(), name: t(), address: address(t) },
    ...(supplement ? { memberId: t(), companyRegistration: t(), additionalIdentifications: [{ identification: t() }] } : {}),
  };
}

type TransferScheme = 'ZA_RTC' | 'ZA_EFT' | 'ZA_RPP' | 'TCIB' | 'CBPR_PLUS';

/** A credit transfer with every field the interface names set (on CBPR+, its own scheme data, and with `deal.supplement` false what only the supplement carries left out). */
function everyFieldTransfer(scheme: TransferScheme, deal: Deal, minor: number): CreditTransfer {
  const { t, supplement } = deal;
  const creditorBic = scheme === 'TCIB' ? 'ZNCOZMLU' : scheme === 'CBPR_PLUS' ? 'CHASUS33' : 'FIRNZAJJ';
  const schemeData =
    scheme === 'CBPR_PLUS'
      ? { chargeBearer: 'SHAR', charges: [{ amount: amount(minor), agent: agent(deal, 'CITIUS33') }], exchangeRate: 18.25 }
      : { userReference: t(), originatorEchoData: t(), businessReference: t() };
  return {
    schema: 'CreditTransfer',
    messageIdentifiers: { messageIdentification: t(), creationDateTime: '2026-03-02T07:15:27Z' },
    transactionIdentifiers: { endToEndIdentification: t(), instructionIdentification: t(), transactionIdentification: t(), uetr: randomUUID() },
    amounts: { bankSettlementAmount: amount(minor), instructedAmount: amount(minor + 1) },
    creditor: party(deal),
    creditorAccount: account(deal),
    creditorAgent: agent(deal, creditorBic),
    creditorAgentAccount: account(deal, false),
    debtor: party(deal),
    debtorAccount: account(deal),
    debtorAgent: agent(deal, 'DEMOZAJJ'),
    debtorAgentAccount: account(deal, false),
    initiatingParty: party(deal),
    instructedAgent: agent(deal, 'INSTZAJJ'),
    instructingAgent: agent(deal, 'DEMOZAJJ'),
    instructionForCreditorAgent: [{ code: 'PHOB', information: t() }],
    intermediaryAgents: [agent(deal, 'INTAZAJJ')],
    previousInstructingAgents: [agent(deal, 'PREVZAJJ')],
    paymentScheme: { schema: scheme, schemeData },
    paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: t() } },
    purpose: { schema: 'PROPRIETARY', value: t() },
    regulatoryReporting: [{ authority: { name: t(), country: 'ZA' }, details: [{ type: t(), date: '2026-03-02', country: 'ZA', code: 'A101', amount: amount(minor), information: t() }] }],
    remittanceInformation: {
      unstructured: [t()],
      structured: [structured(deal, minor)],
    },
    settlementDate: '2026-03-03',
    tax: { totalAmount: amount(minor), referenceNumber: t(), method: t() },
    ...(supplement ? { supplementaryData: { [t().toLowerCase()]: t() } } : {}),
  } as CreditTransfer;
}

function structured({ t, supplement }: Deal, minor: number) {
  return {
    referredDocuments: [{ type: 'CINV', number: t(), relatedDate: '2026-02-27' }],
    referredDocumentAmount: amount(minor),
    creditorReference: t(),
    additionalRemittanceInformation: [t()],
    ...(supplement ? { originatorReference: t() } : {}),
  };
}

/** The transfer as intake validated it. */
function validTransfer(body: CreditTransfer) {
  const valid = validateOutboundCreditTransfer(JSON.parse(JSON.stringify(body)));
  assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid.errors));
  return valid.value;
}

void describe('no field of a message with every field set is lost on the way to the scheme', () => {
  for (const scheme of ['ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'TCIB'] as const) {
    void it(`finds every value of a ${scheme} credit transfer in its pacs.008, the document valid`, async () => {
      const documents: string[] = [];
      await fc.assert(
        fc.asyncProperty(tokens, cents, async (list, minor) => {
          const body = everyFieldTransfer(scheme, { t: dealer(list), supplement: true }, minor);
          const sent = await creditTransferSent(validTransfer(body));
          assert.deepEqual(missing(sent, body), []);
          if (sent.kind === 'sent') documents.push(sent.document);
        }),
        { numRuns: 10, endOnFailure: true, includeErrorInReport: true },
      );
      if (XSD_SKIP === false) await assertValid(scheme === 'ZA_RPP' ? 'pacs.008.001.10' : 'pacs.008.001.08', documents);
    });
  }

  void it('refuses at intake, naming the field and CBPR_PLUS, a value only the supplement could carry, and finds every other value of a CBPR+ credit transfer in its pacs.008, the document valid', async () => {
    const documents: string[] = [];
    await fc.assert(
      fc.asyncProperty(tokens, cents, async (list, minor) => {
        const whole = everyFieldTransfer('CBPR_PLUS', { t: dealer(list), supplement: true }, minor);
        const refused = await creditTransferSent(validTransfer(whole));
        assert.equal(refused.kind, 'refused_at_intake');
        assert.ok(refused.kind === 'refused_at_intake');
        assert.match(refused.reason, /^CH17: .*CBPR_PLUS/);
        assert.match(refused.field ?? '', /\/(knownAsName|memberId|companyRegistration|additionalIdentifications\/.*|originatorReference|supplementaryData\/.*)$/);
        const body = everyFieldTransfer('CBPR_PLUS', { t: dealer(list), supplement: false }, minor);
        // One value Nm cannot hold beside the legal name is enough.
        const nicknamed = structuredClone(body);
        nicknamed.debtor.knownAsName = `${String(body.debtor.legalName)} Jr`;
        const refusedName = await creditTransferSent(validTransfer(nicknamed));
        assert.ok(refusedName.kind === 'refused_at_intake' && refusedName.field === '/debtor/knownAsName', JSON.stringify(refusedName));
        const sent = await creditTransferSent(validTransfer(body));
        assert.deepEqual(missing(sent, body), []);
        if (sent.kind === 'sent') documents.push(sent.document);
      }),
      { numRuns: 10, endOnFailure: true, includeErrorInReport: true },
    );
    if (XSD_SKIP === false) await assertValid('pacs.008.001.08', documents);
  });

  void it('finds every value of a request-to-pay in its pain.013, the document valid', async () => {
    const documents: string[] = [];
    await fc.assert(
      fc.asyncProperty(tokens, cents, async (list, minor) => {
        const deal = { t: dealer(list), supplement: true };
        const { t } = deal;
        const now = Date.now();
        const body: RequestToPay = {
          schema: 'RequestToPay',
          messageIdentifiers: { messageIdentification: t(), creationDateTime: new Date(now).toISOString() },
          transactionIdentifiers: { endToEndIdentification: t(), transactionIdentification: t(), uetr: randomUUID() },
          paymentScheme: { schema: 'ZA_RPP' },
          amounts: { bankSettlementAmount: amount(minor), instructedAmount: amount(minor + 1) },
          paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: 'RTP-PBA' } },
          expiryDateTime: new Date(now + 3_600_000).toISOString(),
          requestToPayConditions: { minAmount: amount(minor - 1), maxAmount: amount(minor + 3) },
          creditor: party(deal),
          creditorAccount: account(deal, false),
          creditorAgent: agent(deal, 'DEMOZAJJ'),
          debtor: party(deal),
          debtorAccount: account(deal),
          debtorAgent: agent(deal, 'FIRNZAJJ'),
          remittanceInformation: {
            unstructured: [t()],
            structured: [structured(deal, minor)],
          },
          supplementaryData: { [t().toLowerCase()]: t() },
        };
        const valid = validateOutboundRequestToPay(JSON.parse(JSON.stringify(body)));
        assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid.errors));
        const sent = await requestToPaySent(requestToPayOf(valid.value.message, valid.value.expiresAt));
        assert.deepEqual(missing(sent, body), []);
        assert.ok(sent.kind === 'sent' && sent.document.includes(`<DtTm>${body.expiryDateTime.replace('Z', '+00:00')}</DtTm>`), 'the expiry, in UTC');
        if (sent.kind === 'sent') documents.push(sent.document);
      }),
      { numRuns: 10, endOnFailure: true, includeErrorInReport: true },
    );
    if (XSD_SKIP === false) await assertValid('pain.013.001.09', documents);
  });

  void it('finds every value of an identifier determination in its acmt.023, the document valid', async () => {
    const documents: string[] = [];
    await fc.assert(
      fc.asyncProperty(tokens, async (list) => {
        const deal = { t: dealer(list), supplement: true };
        const { t } = deal;
        const body: IdentifierDeterminationRequest = {
          schema: 'IdentifierDeterminationRequest',
          messageIdentifiers: { messageIdentification: t(), creationDateTime: '2026-03-02T07:40:03Z' },
          request: {
            schema: 'ZA_RPP',
            instructedAgent: agent(deal, 'RPPOZAJJ'),
            instructingAgent: agent(deal, 'DEMOZAJJ'),
            requestor: { schema: 'INSTITUTION_IDENTIFICATION', bicfi: 'DEMOZAJJ', memberId: t(), domain: t(), name: t() },
            identifier: { schema: 'CUSTOM', namespace: t(), value: t() },
            accountAgent: { bicfi: 'FIRNZAJJ' },
            uetr: randomUUID(),
            verificationIdentification: t(),
          },
          supplementaryData: { [t().toLowerCase()]: t() },
        };
        const valid = validateOutboundIdentifierDeterminationRequest(JSON.parse(JSON.stringify(body)));
        assert.ok(valid.ok, valid.ok ? '' : JSON.stringify(valid.errors));
        const sent = await lookupSent(valid.value.message);
        assert.deepEqual(missing(sent, body), []);
        if (sent.kind === 'sent') documents.push(sent.document);
      }),
      { numRuns: 10, endOnFailure: true, includeErrorInReport: true },
    );
    if (XSD_SKIP === false) await assertValid('acmt.023.001.03', documents);
  });
});
