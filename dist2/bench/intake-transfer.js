/**
 * A new credit transfer as the intake route hands it to the store (raw body, payload hash, the
 * first event referring to the request), built without the HTTP layer, for the store benchmarks.
 * The body is the test fixture's, serialized once; each transfer gets its own ids spliced into
 * the text, so building one costs next to nothing beside the store's work.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CREDIT_TRANSFER_INITIAL_STATE } from '../src/domain/machines/credit-transfer.js';
import { eventMessage } from '../src/domain/events.js';
import { uuid7 } from '../src/lib/uuid7.js';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
const TEMPLATE = (() => {
    const body = creditTransfer('ZA_RPP');
    return JSON.stringify(body)
        .replace(body.messageIdentifiers.messageIdentification, '%MSG%')
        .replace(body.transactionIdentifiers.uetr, '%UETR%');
})();
let sequence = 0;
/**
 * Ids as the service makes them (UUID v7) and a client's uetr (random v4). The message id is
 * random too, as in `npm run bench`, unless `sequentialMessageIds`: ids that sort in the order
 * they are sent, as many banks number their messages.
 */
export function intakeTransfer(options = {}) {
    const id = uuid7();
    const uetr = randomUUID();
    sequence += 1;
    const messageId = options.sequentialMessageIds === true ? `MSG${Date.now()}${String(sequence).padStart(9, '0')}` : `MSG${randomUUID().replaceAll('-', '').slice(0, 20)}`;
    const rawBody = TEMPLATE.replace('%MSG%', messageId).replace('%UETR%', uetr);
    const now = Date.now();
    return {
        id,
        integratorId: 'bench-bank',
        kind: 'CREDIT_TRANSFER',
        uetr,
        scheme: 'ZA_RPP',
        messageId,
        payloadHash: createHash('sha256').update(rawBody).digest('hex'),
        rawBody,
        amountMinor: 25050n,
        currency: 'ZAR',
        state: CREDIT_TRANSFER_INITIAL_STATE,
        receivedAt: now,
        dueAt: now,
        traceparent: null,
        tracestate: null,
        outbox: [
            eventMessage({
                id: uuid7(),
                eventsApiUrl: 'https://bank.example/events-api/v1',
                type: CREDIT_TRANSFER_INITIAL_STATE,
                kind: 'CREDIT_TRANSFER',
                typeNames: 'current',
                uetr,
                scheme: 'ZA_RPP',
                createdAt: now,
                payloadVersion: 1,
                headers: {},
            }),
        ],
    };
}
//# sourceMappingURL=intake-transfer.js.map