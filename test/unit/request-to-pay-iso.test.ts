import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { camt029Document, outcomeOf, readCamt029 } from '../../src/connectors/iso20022/camt029.js';
import { readCamt056 } from '../../src/connectors/iso20022/camt056.js';
import { cancellationReport, createIsoConnector, requestToPayReport, type SchemeFamily } from '../../src/connectors/iso20022/connector.js';
import { schemeMessageId } from '../../src/connectors/iso20022/ids.js';
import { isoDateTime } from '../../src/connectors/iso20022/pacs008.js';
import { AGENT_NOT_PROVIDED, readPain013 } from '../../src/connectors/iso20022/pain013.js';
import { pain014Document, readPain014 } from '../../src/connectors/iso20022/pain014.js';
import { requestToPayStatusOf, RTP_STATUS_TABLE } from '../../src/connectors/iso20022/status.js';
import { documentMessageName, text } from '../../src/connectors/iso20022/xml.js';
import {
  CANCELLATION_REFUSAL_CODES,
  REQUEST_TO_PAY_TEST_VALUES,
  requestToPayTestValue,
  RTP_REJECTION_CODES,
  scenarioFor,
  testValueKey,
} from '../../src/connectors/simulator/request-to-pay-values.js';
import { FAMILIES } from '../../src/connectors/registry.js';
import { SchemeSimulator } from '../../src/connectors/simulator/simulator.js';
import type { SchemeMessage, SchemeTransport } from '../../src/connectors/transport.js';
import { ZA_RPP } from '../../src/connectors/za-rpp/family.js';
import { ZA_RTC } from '../../src/connectors/za-rtc/family.js';
import { RTP_ISO_STATUSES } from '../../src/domain/messages/request-to-pay.js';
import { supports } from '../../src/domain/schemes.js';
import type { OutboundRequestToPay, OutboundRequestToPayCancellation, SchemeConnector, SubmitOutcome } from '../../src/ports/scheme.js';
import { cancellationOf, fromDebtorAccount, fromDebtorProxy, outboundRequestToPay, RequestToPayInbound } from '../support/request-to-pay.js';
import { sleep } from '../support/scheme.js';
import { CapturingTransport, DELIVERED, transportOutcome } from '../support/transport.js';
import { assertValid as assertValidAgainstXsd, XSD_SKIP } from '../support/xsd.js';

const clock = { now: () => Date.now() };
const LATENCY_MS = 3;
const CREATED_AT = '2026-03-02T07:15:27.482+00:00';

interface Warning {
  readonly details: Record<string, unknown>;
  readonly message: string;
}

function connectorOver(transport: SchemeTransport, family: SchemeFamily = ZA_RPP, warnings: Warning[] = []): SchemeConnector {
  const log = { warn: (details: Record<string, unknown>, message: string) => warnings.push({ details, message }) };
  return createIsoConnector(family, { scheme: family.schemes[0] ?? 'ZA_RPP', transport, clock, log });
}

/** The document the ZA_RPP connector writes for `send`, checked to be the one message sent. */
async function written(send: (connector: SchemeConnector) => Promise<SubmitOutcome>, messageName: string): Promise<SchemeMessage> {
  const transport = new CapturingTransport();
  assert.deepEqual(transportOutcome(await send(connectorOver(transport))), DELIVERED);
  const [message] = transport.sent;
  assert.ok(message);
  assert.equal(message.messageName, messageName);
  assert.equal(documentMessageName(message.document), messageName);
  return message;
}

const pain013Of = async (request: OutboundRequestToPay): Promise<string> => (await written((connector) => connector.requestToPay(request), 'pain.013.001.09')).document;
const camt056Of = async (cancellation: OutboundRequestToPayCancellation): Promise<string> =>
  (await written((connector) => connector.cancelRequestToPay(cancellation), 'camt.056.001.10')).document;

/** A pain.014 about `request` as an operator writes it. */
function pain014About(request: OutboundRequestToPay, status: string, reasonCode?: string): string {
  const messageId = schemeMessageId(request.idempotencyKey);
  return pain014Document({
    messageName: 'pain.014.001.09',
    messageId: 'OPERATOR-REPORT-1',
    createdAt: CREATED_AT,
    initiatingParty: { Nm: 'RPP' },
    original: { messageId, messageName: 'pain.013.001.09', paymentInformationId: messageId, endToEndId: request.message.transactionIdentifiers.endToEndIdentification, uetr: request.uetr },
    status,
    ...(reasonCode === undefined ? {} : { reasonCode }),
  });
}

/** A camt.029 answering `cancellation` as an operator writes it. */
function camt029About(cancellation: OutboundRequestToPayCancellation, confirmation: 'CNCL' | 'RJCR', reasonCode?: string): string {
  const agent = { Agt: { FinInstnId: { Othr: { Id: 'RPP' } } } };
  return camt029Document({
    messageName: 'camt.029.001.11',
    messageId: 'OPERATOR-ANSWER-1',
    createdAt: CREATED_AT,
    assigner: agent,
    assignee: { Agt: { FinInstnId: { BICFI: 'DEMOZAJJ' } } },
    resolvedCase: { id: schemeMessageId(cancellation.cancellationKey), creator: agent },
    confirmation,
    original: { messageId: schemeMessageId(cancellation.request.idempotencyKey), messageName: 'pain.013.001.09', uetr: cancellation.request.uetr },
    ...(reasonCode === undefined ? {} : { reasonCode }),
  });
}

void describe('pain.013 written for a request-to-pay', () => {
  void it('names the request by a MsgId derived from its key, the same on every resend, another for another request', async () => {
    const request = outboundRequestToPay('MOBILE');
    const transport = new CapturingTransport();
    const connector = connectorOver(transport);
    await connector.requestToPay(request);
    await connector.requestToPay({ ...request, transactionId: 'another-attempt' });
    await connector.requestToPay(outboundRequestToPay('MOBILE'));
    const [first, resend, other] = transport.sent;
    assert.equal(first?.messageId, schemeMessageId(request.idempotencyKey));
    assert.equal(resend?.messageId, first?.messageId);
    assert.equal(resend?.document.replace(/<CreDtTm>[^<]*<\/CreDtTm>|<DtTm>[^<]*<\/DtTm>/g, ''), first?.document.replace(/<CreDtTm>[^<]*<\/CreDtTm>|<DtTm>[^<]*<\/DtTm>/g, ''));
    assert.notEqual(other?.messageId, first?.messageId);
    assert.equal(first?.idempotencyKey, request.idempotencyKey);
  });

  void it('reads back as written: identifiers, the exact amount, expiry, debtor proxy and conditions', async () => {
    const request = { ...outboundRequestToPay('MOBILE'), amount: { currency: 'ZAR', minor: 123_456_789_012_345_678n } };
    const read = readPain013(await pain013Of(request));
    assert.ok(read.ok, read.ok ? '' : read.error);
    const value = read.value;
    const messageId = schemeMessageId(request.idempotencyKey);
    assert.equal(value.messageId, messageId);
    assert.equal(value.paymentInformationId, messageId);
    assert.equal(value.instructionId, request.message.transactionIdentifiers.transactionIdentification);
    assert.equal(value.endToEndId, request.message.transactionIdentifiers.endToEndIdentification);
    assert.equal(value.uetr, request.uetr);
    assert.deepEqual([value.amount, value.currency], ['1234567890123456.78', 'ZAR'], 'exact decimal from minor units, never a float');
    assert.equal(value.expiry, isoDateTime(request.expiresAt));
    assert.deepEqual(value.debtorProxy, { type: 'MOBILE:ZA_MOBILE', value: '+27-0821234567' });
    assert.equal(value.debtorAccount, undefined);
    assert.equal(text(value.debtorAgent, 'FinInstnId', 'Othr', 'Id'), AGENT_NOT_PROVIDED, 'a debtor named by proxy only: its bank is not known');
    assert.equal(text(value.creditorAgent, 'FinInstnId', 'BICFI'), 'DEMOZAJJ');
    assert.deepEqual(value.minAmount, { value: '400.00', currency: 'ZAR' });
    assert.deepEqual(value.maxAmount, { value: '500.50', currency: 'ZAR' });
  });

  void it('writes the payment conditions, local instrument and debtor account with its bank', async () => {
    const request = outboundRequestToPay('ACCOUNT');
    const document = await pain013Of(request);
    const read = readPain013(document);
    assert.ok(read.ok);
    assert.equal(read.value.debtorAccount, '4071234567');
    assert.equal(text(read.value.debtorAgent, 'FinInstnId', 'BICFI'), 'ABSAZAJJ');
    assert.equal(text(read.value.debtorAgent, 'FinInstnId', 'ClrSysMmbId', 'ClrSysId', 'Cd'), 'ZANCC');
    assert.match(document, /<LclInstrm>\s*<Prtry>PBA<\/Prtry>/);
    assert.match(document, /<AmtModAllwd>true<\/AmtModAllwd>/, 'the conditions allow up to R9000.00 for R8750.00');
    const exact = await pain013Of(outboundRequestToPay('CUSTOM'));
    assert.match(exact, /<AmtModAllwd>false<\/AmtModAllwd>/, 'minimum and maximum are the amount requested');
    const noConditions = await pain013Of(
      outboundRequestToPay('MOBILE', (message) => {
        delete message.requestToPayConditions;
      }),
    );
    assert.doesNotMatch(noConditions, /RtpSplmtryData/, 'no conditions envelope');
    assert.doesNotMatch(noConditions, /<Envlp\s*\/>|<Envlp>\s*<\/Envlp>/, 'no empty envelope');
    assert.match(noConditions, /<AmtModAllwd>false<\/AmtModAllwd>/);
  });

  void it('refuses, not retryable and without sending, a request the message cannot carry', async () => {
    const transport = new CapturingTransport();
    const connector = connectorOver(transport);
    const zero = await connector.requestToPay({ ...outboundRequestToPay(), amount: { currency: 'ZAR', minor: 0n } });
    assert.deepEqual(zero.kind === 'failed' && [zero.retryable, zero.error.slice(0, 5)], [false, 'AM01:']);
    const huge = await connector.requestToPay({ ...outboundRequestToPay(), amount: { currency: 'ZAR', minor: 10n ** 19n } });
    assert.deepEqual(huge.kind === 'failed' && [huge.retryable, huge.error.slice(0, 5)], [false, 'AM02:']);
    const badBic = await connector.requestToPay(
      outboundRequestToPay('ACCOUNT', (message) => {
        message.debtorAgent = { bicfi: 'not a bic' };
      }),
    );
    assert.deepEqual(badBic.kind === 'failed' && [badBic.retryable, badBic.error.slice(0, 5)], [false, 'RC05:']);
    assert.equal(transport.sent.length, 0);
  });
});

void describe('camt.056 written for a cancellation', () => {
  void it('derives assignment, case and cancellation ids from the cancellation key and names the pain.013', async () => {
    const request = outboundRequestToPay('MOBILE');
    const cancellation = cancellationOf(request, 'CUST');
    const message = await written((connector) => connector.cancelRequestToPay(cancellation), 'camt.056.001.10');
    const read = readCamt056(message.document);
    assert.ok(read.ok, read.ok ? '' : read.error);
    const id = schemeMessageId(cancellation.cancellationKey);
    assert.equal(message.messageId, id);
    assert.equal(message.idempotencyKey, cancellation.cancellationKey);
    assert.deepEqual([read.value.assignmentId, read.value.caseId, read.value.cancellationId], [id, id, id]);
    assert.deepEqual(read.value.original, {
      messageId: schemeMessageId(request.idempotencyKey),
      messageName: 'pain.013.001.09',
      instructionId: request.message.transactionIdentifiers.transactionIdentification,
      endToEndId: request.message.transactionIdentifiers.endToEndIdentification,
      uetr: request.uetr,
    });
    assert.equal(read.value.reason, 'CUST');
    assert.equal(text(read.value.assigner, 'Agt', 'FinInstnId', 'BICFI'), 'DEMOZAJJ', 'the requesting bank');
    assert.equal(text(read.value.assignee, 'Agt', 'FinInstnId', 'Othr', 'Id'), 'RPP', 'the clearing system');
  });

  void it('writes an ISO reason as Cd and the expiry notice as Prtry EXPIRED', async () => {
    const request = outboundRequestToPay();
    assert.match(await camt056Of(cancellationOf(request, 'AM09')), /<Rsn>\s*<Cd>AM09<\/Cd>/);
    assert.match(await camt056Of(cancellationOf(request, 'EXPIRED')), /<Rsn>\s*<Prtry>EXPIRED<\/Prtry>/);
  });

  void it('carries the same ids on every resend of one cancellation', async () => {
    const cancellation = cancellationOf(outboundRequestToPay());
    const transport = new CapturingTransport();
    const connector = connectorOver(transport);
    await connector.cancelRequestToPay(cancellation);
    await connector.cancelRequestToPay(cancellation);
    const [first, resend] = transport.sent;
    assert.equal(resend?.messageId, first?.messageId);
    assert.equal(readCamt056(resend?.document ?? '').ok && readCamt056(first?.document ?? '').ok, true);
  });
});

void describe('request-to-pay as a capability', () => {
  void it('is declared by ZA_RPP only, and other families refuse a request and a cancellation, not retryable', async () => {
    assert.equal(ZA_RPP.capabilities.requestToPay, true);
    assert.deepEqual(ZA_RPP.messages.requestToPay, { request: 'pain.013.001.09', cancellation: 'camt.056.001.10' });
    const transport = new CapturingTransport();
    const rtc = connectorOver(transport, ZA_RTC);
    assert.notEqual(rtc.capabilities.requestToPay, true);
    const request = { ...outboundRequestToPay(), scheme: 'ZA_RTC' as const };
    for (const outcome of [await rtc.requestToPay(request), await rtc.cancelRequestToPay(cancellationOf(request))]) {
      assert.equal(outcome.kind, 'failed');
      assert.equal(outcome.kind === 'failed' && outcome.retryable, false);
    }
    assert.equal(transport.sent.length, 0);
  });

  void it('is declared by exactly the families whose schemes carry request-to-pay (src/domain/schemes.ts)', () => {
    for (const family of FAMILIES) {
      for (const scheme of family.schemes) assert.equal(family.capabilities.requestToPay === true, supports(scheme, 'requestToPay'), `${family.family} ${scheme}`);
    }
  });

  void it('refuses a family whose request-to-pay capability and messages disagree', () => {
    const transport = new CapturingTransport();
    const { requestToPay: _messages, ...withoutMessages } = ZA_RPP.messages;
    assert.throws(() => connectorOver(transport, { ...ZA_RPP, messages: withoutMessages }), /requestToPay/);
    assert.throws(() => connectorOver(transport, { ...ZA_RTC, messages: { ...ZA_RTC.messages, requestToPay: ZA_RPP.messages.requestToPay } }), /requestToPay/);
  });
});

void describe('request-to-pay status mapping (CONTRACT §10)', () => {
  void it('maps PDNG, PRES, ACCP, ACSC and RJCT, and nothing else', () => {
    assert.deepEqual(Object.fromEntries(RTP_STATUS_TABLE), { PDNG: 'PENDING', PRES: 'PRESENTED', ACCP: 'ACCEPTED', ACSC: 'PAID', RJCT: 'REJECTED' });
    assert.deepEqual(Object.fromEntries(RTP_STATUS_TABLE), Object.fromEntries(RTP_ISO_STATUSES), 'the same table as the domain');
  });

  void it('reads any other code, or none, as PENDING: never a final status', () => {
    for (const code of ['UNKN', 'ACTC', 'ACCC', 'CANC', 'acsc', '', 'constructor', undefined]) assert.equal(requestToPayStatusOf(code), 'PENDING', String(code));
  });

  void it('reports a rejection with its code, and the operator text, else the code text', () => {
    const about = { scheme: 'ZA_RPP' as const, idempotencyKey: 'k', message: {}, receivedAt: 1 };
    const withText = requestToPayReport({ originalEndToEndId: undefined, uetr: undefined, status: 'RJCT', reasonCode: 'MS02', reasonText: 'Payer declined' }, about);
    assert.deepEqual([withText.kind, withText.status, withText.reasonCode, withText.reasonText], ['request_to_pay', 'REJECTED', 'MS02', 'Payer declined']);
    const withoutText = requestToPayReport({ originalEndToEndId: undefined, uetr: undefined, status: 'RJCT', reasonCode: 'AM04', reasonText: undefined }, about);
    assert.equal(withoutText.reasonText, 'Insufficient funds');
    const paid = requestToPayReport({ originalEndToEndId: undefined, uetr: undefined, status: 'ACSC', reasonCode: undefined, reasonText: undefined }, about);
    assert.deepEqual(paid, { kind: 'request_to_pay', ...about, status: 'PAID' });
  });

  void it('takes a cancellation as accepted on ACCR or CNCL, refused on RJCR, and decides nothing otherwise', () => {
    assert.equal(outcomeOf('ACCR', 'RJCR'), 'accepted', 'the transaction status decides');
    assert.equal(outcomeOf('RJCR', 'CNCL'), 'rejected');
    assert.equal(outcomeOf('PDCR', 'CNCL'), 'undecided');
    assert.equal(outcomeOf(undefined, 'CNCL'), 'accepted');
    assert.equal(outcomeOf(undefined, 'RJCR'), 'rejected');
    assert.equal(outcomeOf(undefined, 'MODI'), 'undecided');
    assert.equal(outcomeOf(undefined, undefined), 'undecided');
  });
});

void describe('pain.014 and camt.029 read back', () => {
  void it('reads a pain.014 as written: original MsgId, transaction and reason', () => {
    const request = outboundRequestToPay();
    const read = readPain014(pain014About(request, 'RJCT', 'AC06'));
    assert.ok(read.ok, read.ok ? '' : read.error);
    assert.equal(read.value.originalMessageId, schemeMessageId(request.idempotencyKey));
    assert.equal(read.value.originalMessageName, 'pain.013.001.09');
    assert.deepEqual(read.value.statuses, [
      { originalEndToEndId: request.message.transactionIdentifiers.endToEndIdentification, uetr: request.uetr, status: 'RJCT', reasonCode: 'AC06', reasonText: undefined },
    ]);
    assert.equal(read.value.json.schema, 'pain.014.001.09');
  });

  void it('reads a report about the whole request by its group status', () => {
    const request = outboundRequestToPay();
    const document = pain014About(request, 'RJCT', 'FF01').replace(/<OrgnlPmtInfAndSts>[\s\S]*<\/OrgnlPmtInfAndSts>/, '');
    const grouped = document.replace('</OrgnlMsgNmId>', '</OrgnlMsgNmId>\n    <GrpSts>RJCT</GrpSts>');
    const read = readPain014(grouped);
    assert.ok(read.ok);
    assert.deepEqual(
      read.value.statuses.map((status) => status.status),
      ['RJCT'],
    );
  });

  void it('reads a camt.029 as written: the case, the pain.013 and the outcome', () => {
    const cancellation = cancellationOf(outboundRequestToPay());
    const read = readCamt029(camt029About(cancellation, 'RJCR', 'ARDT'));
    assert.ok(read.ok, read.ok ? '' : read.error);
    assert.equal(read.value.caseId, schemeMessageId(cancellation.cancellationKey));
    assert.equal(read.value.originalMessageId, schemeMessageId(cancellation.request.idempotencyKey));
    assert.deepEqual([read.value.confirmation, read.value.transactionStatus, read.value.outcome, read.value.reasonCode], ['RJCR', 'RJCR', 'rejected', 'ARDT']);
    const report = cancellationReport(read.value, { scheme: 'ZA_RPP', idempotencyKey: 'r', cancellationKey: 'c', receivedAt: 1 });
    assert.deepEqual([report.accepted, report.reasonCode, report.reasonText], [false, 'ARDT', 'Already paid or returned']);
  });

  void it('refuses documents of another kind', () => {
    const request = outboundRequestToPay();
    assert.equal(readPain014(pain014About(request, 'ACSC').replaceAll('pain.014.001.09', 'pain.013.001.09')).ok, false);
    assert.equal(readCamt029(pain014About(request, 'ACSC')).ok, false);
    assert.equal(readPain013(pain014About(request, 'ACSC')).ok, false);
    assert.equal(readCamt056(pain014About(request, 'ACSC')).ok, false);
  });
});

void describe('keys recovered from the answers without any memory', () => {
  void it('finds the request of a pain.014 with a connector that never sent it (after a restart)', async () => {
    const request = outboundRequestToPay();
    const transport = new CapturingTransport();
    const fresh = connectorOver(transport);
    const inbound = new RequestToPayInbound();
    await fresh.start(inbound);
    await transport.answer(pain014About(request, 'PRES'));
    await transport.answer(pain014About(request, 'RJCT', 'MS02'));
    const reports = inbound.statusesOf(request);
    assert.deepEqual(
      reports.map((report) => [report.scheme, report.status, report.reasonCode]),
      [
        ['ZA_RPP', 'PRESENTED', undefined],
        ['ZA_RPP', 'REJECTED', 'MS02'],
      ],
    );
    assert.equal(reports[0]?.message.schema, 'pain.014.001.09');
  });

  void it('finds both the request and the cancellation of a camt.029 with a connector that never sent them', async () => {
    const cancellation = cancellationOf(outboundRequestToPay(), 'CUST');
    const transport = new CapturingTransport();
    const fresh = connectorOver(transport);
    const inbound = new RequestToPayInbound();
    await fresh.start(inbound);
    await transport.answer(camt029About(cancellation, 'CNCL'));
    const [report] = inbound.cancellationsOf(cancellation.request);
    assert.ok(report);
    assert.deepEqual([report.kind, report.idempotencyKey, report.cancellationKey, report.accepted], ['cancellation', cancellation.request.idempotencyKey, cancellation.cancellationKey, true]);
    assert.equal(report.message.schema, 'camt.029.001.11');
  });

  void it('finds requests and cancellations whose keys do not reverse only from memory, and discards what it cannot place', async () => {
    const request = { ...outboundRequestToPay(), idempotencyKey: 'integrator/key with spaces and more than 34 characters' };
    const cancellation = { ...cancellationOf(request), cancellationKey: 'another key that does not reverse to itself' };
    const transport = new CapturingTransport();
    const warnings: Warning[] = [];
    const connector = connectorOver(transport, ZA_RPP, warnings);
    const inbound = new RequestToPayInbound();
    await connector.start(inbound);
    await connector.requestToPay(request);
    await connector.cancelRequestToPay(cancellation);
    await transport.answer(pain014About(request, 'PRES'));
    await transport.answer(camt029About(cancellation, 'RJCR', 'LEGL'));
    assert.deepEqual(
      inbound.statusesOf(request).map((report) => report.status),
      ['PRESENTED'],
    );
    assert.deepEqual(
      inbound.cancellationsOf(request).map((report) => [report.cancellationKey, report.accepted, report.reasonCode]),
      [[cancellation.cancellationKey, false, 'LEGL']],
    );
    const restartedTransport = new CapturingTransport();
    const restartedWarnings: Warning[] = [];
    const restarted = connectorOver(restartedTransport, ZA_RPP, restartedWarnings);
    const afterRestart = new RequestToPayInbound();
    await restarted.start(afterRestart);
    await restartedTransport.answer(pain014About(request, 'ACSC'));
    await restartedTransport.answer(camt029About(cancellation, 'CNCL'));
    await restartedTransport.answer('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.014.001.09"><broken>');
    assert.equal(afterRestart.reports.length, 0);
    assert.equal(restartedWarnings.length, 3);
  });

  void it('passes on no cancellation answer that neither accepts nor refuses', async () => {
    const cancellation = cancellationOf(outboundRequestToPay());
    const transport = new CapturingTransport();
    const warnings: Warning[] = [];
    const connector = connectorOver(transport, ZA_RPP, warnings);
    const inbound = new RequestToPayInbound();
    await connector.start(inbound);
    await transport.answer(camt029About(cancellation, 'CNCL').replace('<TxCxlSts>ACCR</TxCxlSts>', '<TxCxlSts>PDCR</TxCxlSts>'));
    assert.equal(inbound.reports.length, 0);
    assert.match(warnings[0]?.message ?? '', /neither accepts nor refuses/);
  });
});

/** A connector over a simulated operator with a short latency, started. */
async function simulated(latencyMs = LATENCY_MS): Promise<{ connector: SchemeConnector; simulator: SchemeSimulator; inbound: RequestToPayInbound }> {
  const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock, latencyMs, lateAnswerMs: 500, entriesMax: 1_000, deliveryAttemptsMax: 3 });
  const connector = connectorOver(simulator);
  const inbound = new RequestToPayInbound();
  await connector.start(inbound);
  return { connector, simulator, inbound };
}

/** The statuses reported about `request` once `count` have come and a quiet spell has passed with no more. */
async function settledStatuses(inbound: RequestToPayInbound, request: OutboundRequestToPay, count: number, latencyMs = LATENCY_MS): Promise<string[]> {
  await inbound.statuses(request, count);
  await sleep(latencyMs * 8 + 20);
  return inbound.statusesOf(request).map((report) => (report.reasonCode === undefined ? report.status : `${report.status} ${report.reasonCode}`));
}

void describe('simulated request-to-pay scenarios', () => {
  let subject: Awaited<ReturnType<typeof simulated>>;
  before(async () => {
    subject = await simulated();
  });
  after(async () => {
    await subject.connector.stop();
  });

  void it('presents, then pays, any other debtor (the default)', async () => {
    for (const request of [outboundRequestToPay('MOBILE'), outboundRequestToPay('CUSTOM'), outboundRequestToPay('ACCOUNT'), fromDebtorAccount(requestToPayTestValue('pay').value)]) {
      assert.deepEqual(transportOutcome(await subject.connector.requestToPay(request)), DELIVERED);
      assert.equal(subject.inbound.statusesOf(request).length, 0, 'reports come asynchronously');
      assert.deepEqual(await settledStatuses(subject.inbound, request, 3), ['PENDING', 'PRESENTED', 'PAID']);
    }
  });

  void it('presents, then rejects with each documented reason code', async () => {
    const requests = RTP_REJECTION_CODES.map((code) => ({ code, request: fromDebtorAccount(requestToPayTestValue('reject', code).value) }));
    for (const { request } of requests) await subject.connector.requestToPay(request);
    for (const { code, request } of requests) {
      assert.deepEqual(await settledStatuses(subject.inbound, request, 3), ['PENDING', 'PRESENTED', `REJECTED ${code}`], code);
      assert.ok((subject.inbound.statusesOf(request)[2]?.reasonText ?? '').length > 0);
    }
  });

  void it('chooses the scenario by the debtor proxy too: a ShapID by mnemonic, a mobile number in any spelling', async () => {
    const byShapId = fromDebtorProxy('rtp-reject-ms02', 'CUSTOM');
    const byMobile = fromDebtorProxy('+27-0799000104', 'MOBILE');
    await subject.connector.requestToPay(byShapId);
    await subject.connector.requestToPay(byMobile);
    assert.deepEqual(await settledStatuses(subject.inbound, byShapId, 3), ['PENDING', 'PRESENTED', 'REJECTED MS02']);
    assert.deepEqual(await settledStatuses(subject.inbound, byMobile, 3), ['PENDING', 'PRESENTED', 'REJECTED AG01']);
  });

  void it('never presents a NEVER-PRESENTED request, and never pays a NEVER-PAID one', async () => {
    const neverPresented = fromDebtorAccount('RTP-NEVER-PRESENTED');
    const neverPaid = fromDebtorAccount(requestToPayTestValue('never_paid').value);
    await subject.connector.requestToPay(neverPresented);
    await subject.connector.requestToPay(neverPaid);
    assert.deepEqual(await settledStatuses(subject.inbound, neverPresented, 1), ['PENDING']);
    assert.deepEqual(await settledStatuses(subject.inbound, neverPaid, 2), ['PENDING', 'PRESENTED']);
  });

  void it('reports PAID twice for PAID-TWICE, each in a report of its own', async () => {
    const request = fromDebtorAccount(requestToPayTestValue('paid_twice').value);
    await subject.connector.requestToPay(request);
    assert.deepEqual(await settledStatuses(subject.inbound, request, 4), ['PENDING', 'PRESENTED', 'PAID', 'PAID']);
    const [third, fourth] = subject.inbound.statusesOf(request).slice(2);
    assert.notDeepEqual(third?.message, fourth?.message);
  });

  void it('reads a status outside the ISO list as PENDING, then pays', async () => {
    const request = fromDebtorAccount(requestToPayTestValue('unknown_status').value);
    await subject.connector.requestToPay(request);
    assert.deepEqual(await settledStatuses(subject.inbound, request, 3), ['PENDING', 'PENDING', 'PAID']);
  });

  void it('treats a resend of the same pain.013 as the same request, reporting its latest status again', async () => {
    const request = fromDebtorAccount(requestToPayTestValue('never_paid').value);
    await subject.connector.requestToPay(request);
    await settledStatuses(subject.inbound, request, 2);
    assert.deepEqual(transportOutcome(await subject.connector.requestToPay({ ...request, transactionId: 'another-attempt' })), DELIVERED);
    assert.deepEqual(await settledStatuses(subject.inbound, request, 3), ['PENDING', 'PRESENTED', 'PRESENTED']);
    assert.equal(subject.simulator.requestToPaySendsOf(request.uetr), 2);
  });

  void it('cancels a request not yet paid, after which nothing more is reported', async () => {
    const request = fromDebtorAccount(requestToPayTestValue('never_paid').value);
    await subject.connector.requestToPay(request);
    await subject.inbound.statuses(request, 2);
    const cancellation = cancellationOf(request, 'CUST');
    assert.deepEqual(transportOutcome(await subject.connector.cancelRequestToPay(cancellation)), DELIVERED);
    const [answer] = await subject.inbound.cancellations(request);
    assert.deepEqual([answer?.accepted, answer?.cancellationKey, answer?.reasonCode], [true, cancellation.cancellationKey, undefined]);
    const paying = outboundRequestToPay('MOBILE');
    await subject.connector.requestToPay(paying);
    await subject.inbound.statuses(paying, 1);
    await subject.connector.cancelRequestToPay(cancellationOf(paying, 'AM09'));
    await subject.inbound.cancellations(paying);
    assert.deepEqual(await settledStatuses(subject.inbound, paying, 1), ['PENDING'], 'cancelled before it was presented: no PRESENTED, no PAID');
  });

  void it('refuses to cancel a paid request (ARDT) and a rejected one (ARJT)', async () => {
    const paid = outboundRequestToPay('ACCOUNT');
    const rejected = fromDebtorAccount('RTP-REJECT-AC04');
    await subject.connector.requestToPay(paid);
    await subject.connector.requestToPay(rejected);
    await subject.inbound.statuses(paid, 3);
    await subject.inbound.statuses(rejected, 3);
    await subject.connector.cancelRequestToPay(cancellationOf(paid));
    await subject.connector.cancelRequestToPay(cancellationOf(rejected, 'EXPIRED'));
    const [paidAnswer] = await subject.inbound.cancellations(paid);
    const [rejectedAnswer] = await subject.inbound.cancellations(rejected);
    assert.deepEqual([paidAnswer?.accepted, paidAnswer?.reasonCode], [false, 'ARDT']);
    assert.deepEqual([rejectedAnswer?.accepted, rejectedAnswer?.reasonCode], [false, 'ARJT']);
  });

  void it('acknowledges the expiry notice (EXPIRED) of a request never presented, and stops', async () => {
    const request = fromDebtorAccount(requestToPayTestValue('never_presented').value);
    await subject.connector.requestToPay(request);
    await subject.inbound.statuses(request, 1);
    await subject.connector.cancelRequestToPay(cancellationOf(request, 'EXPIRED'));
    const [answer] = await subject.inbound.cancellations(request);
    assert.equal(answer?.accepted, true);
  });

  void it('refuses every cancellation of a CANCEL-REFUSED request with its reason, but acknowledges the expiry notice', async () => {
    for (const code of CANCELLATION_REFUSAL_CODES) {
      const request = fromDebtorProxy(requestToPayTestValue('cancellation_refused', code).alias.toLowerCase());
      await subject.connector.requestToPay(request);
      await subject.inbound.statuses(request, 2);
      await subject.connector.cancelRequestToPay(cancellationOf(request, 'CUST'));
      await subject.connector.cancelRequestToPay(cancellationOf(request, 'DUPL'));
      const refusals = await subject.inbound.cancellations(request, 2);
      assert.deepEqual(
        refusals.map((answer) => [answer.accepted, answer.reasonCode]),
        [
          [false, code],
          [false, code],
        ],
      );
      await subject.connector.cancelRequestToPay(cancellationOf(request, 'EXPIRED'));
      const [, , expiry] = await subject.inbound.cancellations(request, 3);
      assert.equal(expiry?.accepted, true);
      assert.deepEqual(await settledStatuses(subject.inbound, request, 2), ['PENDING', 'PRESENTED']);
    }
  });

  void it('refuses to cancel a request it never received (NOOR), and answers a resent cancellation the same way once more', async () => {
    const unknown = outboundRequestToPay();
    const cancellation = cancellationOf(unknown, 'CUST');
    await subject.connector.cancelRequestToPay(cancellation);
    const [first] = await subject.inbound.cancellations(unknown);
    assert.deepEqual([first?.accepted, first?.reasonCode], [false, 'NOOR']);
    await subject.connector.cancelRequestToPay(cancellation);
    const [, again] = await subject.inbound.cancellations(unknown, 2);
    assert.deepEqual(again?.message, first?.message, 'the same camt.029 again');
  });
});

void describe('simulated request-to-pay timing', () => {
  void it('pays an ACCEPT-THEN-PAY request three latencies after the payer accepted', async () => {
    const latencyMs = 25;
    const { connector, inbound } = await simulated(latencyMs);
    try {
      const request = fromDebtorAccount(requestToPayTestValue('accept_then_pay').value);
      await connector.requestToPay(request);
      const reports = await inbound.statuses(request, 4);
      assert.deepEqual(
        reports.map((report) => report.status),
        ['PENDING', 'PRESENTED', 'ACCEPTED', 'PAID'],
      );
      const [, , accepted, paid] = reports;
      assert.ok((paid?.receivedAt ?? 0) - (accepted?.receivedAt ?? 0) >= latencyMs * 3 - 5, 'after a delay of three latencies');
    } finally {
      await connector.stop();
    }
  });
});

void describe('request-to-pay test values', () => {
  void it('reads the numeric form as an account number and as a mobile number in every published spelling, the mnemonic in any case', () => {
    for (const spelling of ['0799000101', '+27799000101', '+27-799000101', '+27-0799000101', '27799000101', ' 0799 000 101 ']) {
      assert.equal(testValueKey(spelling), '0799000101', spelling);
    }
    assert.deepEqual(scenarioFor({ proxy: 'Rtp-Reject-Ac04' }), { kind: 'reject', reasonCode: 'AC04' });
    assert.deepEqual(scenarioFor({ proxy: 'thandi@shap', account: '0799000202' }), { kind: 'never_paid' }, 'the account when the proxy is no test value');
    assert.deepEqual(scenarioFor({}), { kind: 'pay' });
  });

  void it('gives every value and alias once', () => {
    const keys = REQUEST_TO_PAY_TEST_VALUES.flatMap((entry) => [testValueKey(entry.value), testValueKey(entry.alias)]);
    assert.equal(new Set(keys).size, keys.length);
    for (const entry of REQUEST_TO_PAY_TEST_VALUES) assert.match(entry.value, /^07\d{8}$/, 'a valid South African mobile number');
  });

  void it('is documented value by value in docs/simulator.md', () => {
    const doc = readFileSync(fileURLToPath(new URL('../../../docs/simulator.md', import.meta.url)), 'utf8');
    const section = doc.slice(doc.indexOf('## Request-to-pay'));
    assert.ok(section.length > 0 && doc.includes('## Request-to-pay'), 'docs/simulator.md has a Request-to-pay section');
    for (const entry of REQUEST_TO_PAY_TEST_VALUES) {
      assert.ok(section.includes(`\`${entry.value}\``), `docs/simulator.md lists ${entry.value}`);
      assert.ok(section.includes(`\`${entry.alias}\``), `docs/simulator.md lists ${entry.alias}`);
    }
    for (const code of [...RTP_REJECTION_CODES, ...CANCELLATION_REFUSAL_CODES, 'ARDT', 'ARJT', 'NOOR']) assert.ok(section.includes(`\`${code}\``), `docs/simulator.md names ${code}`);
  });
});

/** Asserts that `documents`, at least one, are valid against the XSD of `messageName`. */
async function assertValid(messageName: string, documents: readonly string[]): Promise<void> {
  assert.ok(documents.length > 0);
  await assertValidAgainstXsd(messageName, documents);
}

/** Every document a simulated operator sends while playing `requests` and `cancellations` (after each request's first report). */
async function simulatorDocuments(requests: readonly OutboundRequestToPay[], cancellations: readonly OutboundRequestToPayCancellation[]): Promise<string[]> {
  const simulator = new SchemeSimulator({ scheme: 'ZA_RPP', clock, latencyMs: 1, lateAnswerMs: 500, entriesMax: 1_000, deliveryAttemptsMax: 3 });
  const transport = new CapturingTransport();
  const connector = connectorOver(transport);
  const answers: string[] = [];
  await simulator.start(({ document }) => {
    answers.push(document);
    return Promise.resolve();
  });
  for (const request of requests) await connector.requestToPay(request);
  for (const cancellation of cancellations) await connector.cancelRequestToPay(cancellation);
  for (const message of transport.sent.filter((sent) => sent.messageName.startsWith('pain.013'))) assert.deepEqual(transportOutcome(await simulator.send(message)), DELIVERED);
  await sleep(30);
  for (const message of transport.sent.filter((sent) => sent.messageName.startsWith('camt.056'))) assert.deepEqual(transportOutcome(await simulator.send(message)), DELIVERED);
  await sleep(60);
  await simulator.stop();
  return answers;
}

void describe('request-to-pay messages against the ISO 20022 XSDs', { skip: XSD_SKIP }, () => {
  void it('writes schema-valid pain.013 and camt.056, and the simulator answers with schema-valid pain.014 and camt.029', async () => {
    const requests = [
      outboundRequestToPay('MOBILE'),
      outboundRequestToPay('CUSTOM'),
      outboundRequestToPay('ACCOUNT'),
      outboundRequestToPay('MOBILE', (message) => {
        delete message.requestToPayConditions;
        delete message.remittanceInformation;
      }),
      fromDebtorAccount(requestToPayTestValue('reject', 'NARR').value),
      fromDebtorAccount(requestToPayTestValue('unknown_status').value),
      fromDebtorAccount(requestToPayTestValue('accept_then_pay').value),
      fromDebtorProxy(requestToPayTestValue('cancellation_refused', 'LEGL').alias),
      fromDebtorAccount(requestToPayTestValue('never_paid').value),
    ];
    const cancellations = [
      cancellationOf(requests[8] ?? outboundRequestToPay(), 'CUST'),
      cancellationOf(requests[1] ?? outboundRequestToPay(), 'EXPIRED'),
      cancellationOf(requests[7] ?? outboundRequestToPay(), 'AM09'),
      cancellationOf(outboundRequestToPay(), 'DUPL'),
    ];
    const pain013s = await Promise.all(requests.map(pain013Of));
    const camt056s = await Promise.all(cancellations.map(camt056Of));
    await assertValid('pain.013.001.09', pain013s);
    await assertValid('camt.056.001.10', camt056s);
    const answers = await simulatorDocuments(requests, cancellations);
    const pain014s = answers.filter((document) => documentMessageName(document) === 'pain.014.001.09');
    const camt029s = answers.filter((document) => documentMessageName(document) === 'camt.029.001.11');
    assert.ok(pain014s.some((document) => document.includes('<TxSts>RJCT</TxSts>') && document.includes('<Cd>NARR</Cd>')));
    assert.ok(pain014s.some((document) => document.includes('<TxSts>UNKN</TxSts>')));
    assert.ok(camt029s.some((document) => document.includes('<Conf>CNCL</Conf>')));
    assert.ok(camt029s.some((document) => document.includes('<Conf>RJCR</Conf>') && document.includes('<Cd>LEGL</Cd>')));
    assert.ok(camt029s.some((document) => document.includes('<Cd>NOOR</Cd>')));
    await assertValid('pain.014.001.09', pain014s);
    await assertValid('camt.029.001.11', camt029s);
  });

  void it('writes a schema-valid camt.029 refusing a paid request, and a pain.014 about a whole request', async () => {
    const cancellation = cancellationOf(outboundRequestToPay());
    await assertValid('camt.029.001.11', [camt029About(cancellation, 'RJCR', 'ARDT'), camt029About(cancellation, 'CNCL')]);
    await assertValid('pain.014.001.09', [pain014About(cancellation.request, 'ACSC'), pain014About(cancellation.request, 'RJCT', 'AM04')]);
  });
});
