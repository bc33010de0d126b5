import { ApiError } from '../domain/errors.js';
import { samePayload } from '../lib/canonical-json.js';
/**
 * CONTRACT §6 for a message whose id the integrator already used: a retry of the same payload
 * (byte-identical, or the same JSON with other key order, spacing or number formatting) is
 * answered as the first one was; another payload under that id is a 409.
 */
export function retryOfStoredMessage(outcome, payload, messageId) {
    if (outcome.kind === 'message_differs' && !samePayload(outcome.storedRawBody, payload)) {
        throw new ApiError('MESSAGE_ID_CONFLICT', `messageIdentification ${messageId} was already used with a different payload`, [
            { field: '/messageIdentifiers/messageIdentification', message: 'already used with a different payload' },
        ]);
    }
    return outcome;
}
//# sourceMappingURL=stored-message.js.map