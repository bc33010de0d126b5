import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { acmt023From } from '../../src/connectors/iso20022/acmt023.js';
import { camt056From } from '../../src/connectors/iso20022/camt056.js';
import { pacs008From } from '../../src/connectors/iso20022/pacs008.js';
import { pain013From } from '../../src/connectors/iso20022/pain013.js';
import { readDocument, XML_DOCUMENT_BYTES_MAX, type IsoDocument } from '../../src/connectors/iso20022/xml.js';
import { familyOf, schemeRulesOf } from '../../src/connectors/registry.js';
import type { IdentifierDeterminationRequest } from '../../src/domain/messages/identifier-determination.js';
import type { RequestToPay } from '../../src/domain/messages/request-to-pay.js';
import type { ValidCreditTransfer } from '../../src/domain/messages/validate.js';
import { moneyOf } from '../../src/domain/messages/validate.js';
import type { SchemeName } from '../../src/domain/schemes.js';
import type { OutboundLookup, OutboundRequestToPay, OutboundRequestToPayCancellation, OutboundTransfer, SchemeConnector, SchemeRuleOutcome, SubmitOutcome } from '../../src/ports/scheme.js';
import { CapturingTransport } from './transport.js';

/**
 * Test helpers for "nothing accepted is unsendable, nor rejected for its own content" (issue #27
 * §3): intake asks the scheme's rules (schemeRulesOf, as the use cases do) and refuses with 422
 * what they refuse (`refused_at_intake`); what they admit, the real connector of the scheme must
 * send as a well-formed ISO 20022 document well under the size an operator takes
 * (XML_DOCUMENT_BYTES_MAX). A connector refusing it after intake admitted it (`refused`) is the
 * fault these helpers catch.
 */

/** The most a document sent for any message intake accepts may take: half of what a reader takes. */
export const SENT_DOCUMENT_BYTES_MAX = XML_DOCUMENT_BYTES_MAX / 2;

export type Sent =
  | { readonly kind: 'sent'; readonly document: string }
  | { readonly kind: 'refused_at_intake'; readonly reason: string; readonly field: string | undefined }
  | { readonly kind: 'refused'; readonly reason: string };

/** What intake answers when the scheme's rules refuse a message: 422 naming the field. */
function atIntake(outcome: SchemeRuleOutcome | undefined): Sent | undefined {
  if (outcome === undefined || outcome.ok) return undefined;
  return { kind: 'refused_at_intake', reason: `${outcome.reasonCode}: ${outcome.reasonText}`, field: outcome.field };
}

const clock = { now: () => Date.now() };

function connectorOf(scheme: SchemeName, transport: CapturingTransport): SchemeConnector {
  const family = familyOf(scheme);
  assert.ok(family, `a connector family serves ${scheme}`);
  return createIsoConnector(family, { scheme, transport, clock });
}

/** What `send` makes the connector of `scheme` do: refuse (a check's outcome, or a failed send), or send one document. */
async function sentBy(scheme: SchemeName, send: (connector: SchemeConnector) => Sent | Promise<SubmitOutcome>): Promise<Sent> {
  const transport = new CapturingTransport();
  const outcome = await send(connectorOf(scheme, transport));
  if (outcome.kind === 'refused') return outcome;
  if (outcome.kind === 'failed') {
    // Only a refusal the message itself causes is a possible outcome here: the capturing transport never fails.
    assert.equal(outcome.retryable, false, `not retryable: ${outcome.error}`);
    assert.match(outcome.error, /^[A-Z0-9]{4}: /, `a refusal names its reason code: ${outcome.error}`);
    return { kind: 'refused', reason: outcome.error };
  }
  const [message] = transport.sent;
  assert.ok(message !== undefined && transport.sent.length === 1, 'the connector sent one document');
  return { kind: 'sent', document: message.document };
}

/** A credit transfer as the engine hands it over: the scheme's rules first (check), then the pacs.008 (submit). */
export function creditTransferSent(valid: ValidCreditTransfer): Promise<Sent> {
  const transfer: OutboundTransfer = {
    transactionId: randomUUID(),
    integratorId: 'demo-bank',
    scheme: valid.scheme,
    uetr: valid.uetr,
    idempotencyKey: randomUUID(),
    message: valid.message,
    amount: valid.settlementAmount,
    traceparent: null,
  };
  const refused = atIntake(schemeRulesOf(valid.scheme)?.check(transfer, {}));
  if (refused !== undefined) return Promise.resolve(refused);
  return sentBy(valid.scheme, (connector) => {
    const checked = connector.check(transfer, {});
    return checked.ok ? connector.submit(transfer) : { kind: 'refused', reason: `${checked.reasonCode}: ${checked.reasonText}` };
  });
}

export function requestToPayOf(message: RequestToPay, expiresAt: number): OutboundRequestToPay {
  return {
    transactionId: randomUUID(),
    integratorId: 'demo-bank',
    scheme: 'ZA_RPP',
    uetr: message.transactionIdentifiers.uetr.toLowerCase(),
    idempotencyKey: randomUUID(),
    message,
    amount: moneyOf(message.amounts.bankSettlementAmount),
    expiresAt,
    traceparent: null,
  };
}

/** The pain.013 of a request-to-pay (ZA_RPP, the one scheme carrying it). */
export function requestToPaySent(request: OutboundRequestToPay): Promise<Sent> {
  const refused = atIntake(schemeRulesOf('ZA_RPP')?.checkRequestToPay(request));
  if (refused !== undefined) return Promise.resolve(refused);
  return sentBy('ZA_RPP', (connector) => connector.requestToPay(request));
}

/** The camt.056 of a cancellation. */
export function cancellationSent(cancellation: OutboundRequestToPayCancellation): Promise<Sent> {
  return sentBy('ZA_RPP', (connector) => connector.cancelRequestToPay(cancellation));
}

/** The acmt.023 of an identifier determination (ZA_RPP, the one scheme performing it). */
export function lookupSent(message: IdentifierDeterminationRequest): Promise<Sent> {
  const lookup: OutboundLookup = {
    transactionId: randomUUID(),
    integratorId: 'demo-bank',
    scheme: 'ZA_RPP',
    uetr: message.request.uetr.toLowerCase(),
    idempotencyKey: randomUUID(),
    message,
    traceparent: null,
  };
  const refused = atIntake(schemeRulesOf('ZA_RPP')?.checkLookup(lookup));
  if (refused !== undefined) return Promise.resolve(refused);
  return sentBy('ZA_RPP', (connector) => connector.resolve(lookup));
}

/**
 * What intake admitted is sent, never refused by the connector for its own content; a sent
 * document is well-formed (an operator's reader takes it) and at most SENT_DOCUMENT_BYTES_MAX.
 */
export function assertSendable(sent: Sent): void {
  if (sent.kind === 'refused_at_intake') {
    assert.ok(sent.field !== undefined && sent.field !== '', `a refusal at intake names the field at fault: ${sent.reason}`);
    return;
  }
  assert.notEqual(sent.kind, 'refused', `intake admitted it, then the connector refused it for its own content: ${sent.kind === 'refused' ? sent.reason : ''}`);
  if (sent.kind !== 'sent') return;
  const bytes = Buffer.byteLength(sent.document, 'utf8');
  assert.ok(bytes <= SENT_DOCUMENT_BYTES_MAX, `the document takes ${bytes} bytes, more than ${SENT_DOCUMENT_BYTES_MAX}`);
  const read = readDocument(sent.document);
  assert.ok(read.ok, read.ok ? '' : `the document is not readable: ${read.error}`);
  const taken = operatorReading(read);
  assert.ok(taken.ok, taken.ok ? '' : `the operator cannot read the ${read.messageName} it was sent: ${taken.error}`);
}

/** What an operator reads of a document of its kind (the simulated operator's readers): what it must find to act on it. */
function operatorReading(document: IsoDocument): { readonly ok: true } | { readonly ok: false; readonly error: string } {
  const readers: readonly (readonly [string, (document: IsoDocument) => { readonly ok: true } | { readonly ok: false; readonly error: string }])[] = [
    ['pacs.008.', pacs008From],
    ['pain.013.', pain013From],
    ['acmt.023.', acmt023From],
    ['camt.056.', camt056From],
  ];
  const reader = readers.find(([prefix]) => document.messageName.startsWith(prefix));
  assert.ok(reader !== undefined, `an operator reads ${document.messageName}`);
  return reader[1](document);
}
