import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createIsoConnector } from '../../src/connectors/iso20022/connector.js';
import { readDocument, XML_DOCUMENT_BYTES_MAX } from '../../src/connectors/iso20022/xml.js';
import { familyOf } from '../../src/connectors/registry.js';
import { moneyOf } from '../../src/domain/messages/validate.js';
import { CapturingTransport } from './transport.js';
/**
 * Test helpers for "nothing accepted is unsendable": what the real connector of a scheme does with
 * a message intake accepted. It refuses it with a reason code (a declined payment: the scheme
 * cannot take it, and says why), or it sends a document, which must be a well-formed ISO 20022
 * document well under the size an operator takes (XML_DOCUMENT_BYTES_MAX).
 */
/** The most a document sent for any message intake accepts may take: half of what a reader takes. */
export const SENT_DOCUMENT_BYTES_MAX = XML_DOCUMENT_BYTES_MAX / 2;
const clock = { now: () => Date.now() };
function connectorOf(scheme, transport) {
    const family = familyOf(scheme);
    assert.ok(family, `a connector family serves ${scheme}`);
    return createIsoConnector(family, { scheme, transport, clock });
}
/** What `send` makes the connector of `scheme` do: refuse (a check's outcome, or a failed send), or send one document. */
async function sentBy(scheme, send) {
    const transport = new CapturingTransport();
    const outcome = await send(connectorOf(scheme, transport));
    if (outcome.kind === 'refused')
        return outcome;
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
export function creditTransferSent(valid) {
    const transfer = {
        transactionId: randomUUID(),
        integratorId: 'demo-bank',
        scheme: valid.scheme,
        uetr: valid.uetr,
        idempotencyKey: randomUUID(),
        message: valid.message,
        amount: valid.settlementAmount,
        traceparent: null,
    };
    return sentBy(valid.scheme, (connector) => {
        const checked = connector.check(transfer, {});
        return checked.ok ? connector.submit(transfer) : { kind: 'refused', reason: `${checked.reasonCode}: ${checked.reasonText}` };
    });
}
export function requestToPayOf(message, expiresAt) {
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
export function requestToPaySent(request) {
    return sentBy('ZA_RPP', (connector) => connector.requestToPay(request));
}
/** The camt.056 of a cancellation. */
export function cancellationSent(cancellation) {
    return sentBy('ZA_RPP', (connector) => connector.cancelRequestToPay(cancellation));
}
/** The acmt.023 of an identifier determination (ZA_RPP, the one scheme performing it). */
export function lookupSent(message) {
    const lookup = {
        transactionId: randomUUID(),
        integratorId: 'demo-bank',
        scheme: 'ZA_RPP',
        uetr: message.request.uetr.toLowerCase(),
        idempotencyKey: randomUUID(),
        message,
        traceparent: null,
    };
    return sentBy('ZA_RPP', (connector) => connector.resolve(lookup));
}
/** A sent document is well-formed (an operator's reader takes it) and at most SENT_DOCUMENT_BYTES_MAX. */
export function assertSendable(sent) {
    if (sent.kind === 'refused')
        return;
    const bytes = Buffer.byteLength(sent.document, 'utf8');
    assert.ok(bytes <= SENT_DOCUMENT_BYTES_MAX, `the document takes ${bytes} bytes, more than ${SENT_DOCUMENT_BYTES_MAX}`);
    const read = readDocument(sent.document);
    assert.ok(read.ok, read.ok ? '' : `the document is not readable: ${read.error}`);
}
//# sourceMappingURL=sendable.js.map