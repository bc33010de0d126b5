import { ApiError } from '../domain/errors.js';
import { assert } from '../lib/assert.js';
import { bodyHash } from '../lib/canonical-json.js';
import { parseJson } from '../lib/json.js';
import { retryOfStoredMessage } from './stored-message.js';
/**
 * The integrator asks for the current status of one of its transactions: the status is re-sent
 * as a callback (must-deliver), queued behind the transaction's earlier callbacks. The request is
 * stored with that callback in one commit, idempotent by its message id; another integrator's
 * transaction is indistinguishable from an unknown one (404).
 */
export async function resendStatus(deps, request) {
    const { integrator } = request;
    const transaction = await deps.store.findTransaction(integrator.id, request.uetr, request.kind);
    if (transaction === undefined) {
        throw new ApiError('TRANSACTION_NOT_FOUND', `no ${request.what} with uetr ${request.uetr}`, [
            { field: '/originalTransactionIdentifiers/uetr', message: `names no ${request.what} of this integrator` },
        ]);
    }
    const stored = await deps.store.findMessage(integrator.id, transaction.messageId);
    assert(stored !== undefined, `the raw message of transaction ${transaction.id} is stored with it`);
    // Lossless: a callback that echoes amounts of the original writes them as they were sent.
    const original = parseJson(stored.rawBody);
    assert(original.ok, `the stored message of transaction ${transaction.id} parses`);
    const now = deps.clock.now();
    const id = deps.ids.uuid();
    const callback = request.callback(transaction, original.value, id.replaceAll('-', ''), now);
    const outcome = await deps.store.recordRequest({
        integratorId: integrator.id,
        messageId: request.messageId,
        transactionId: transaction.id,
        payloadHash: bodyHash(request.rawBody),
        rawBody: request.rawBody,
        receivedAt: now,
        outbox: [
            {
                id,
                channel: 'callback',
                url: `${integrator.partnerApiUrl}${callback.path}`,
                body: callback.body,
                headers: { traceparent: request.trace.traceparent, ...(request.trace.tracestate === null ? {} : { tracestate: request.trace.tracestate }) },
                availableAt: now,
            },
        ],
    });
    switch (outcome.kind) {
        case 'accepted':
            deps.delivery?.wake();
            return;
        case 'duplicate':
        case 'message_differs':
            retryOfStoredMessage(outcome, request.message, request.messageId);
            return;
    }
}
//# sourceMappingURL=status-request.js.map