import { ApiError } from '../domain/errors.js';
import { samePayload } from '../lib/canonical-json.js';
import type { StoredMessageOutcome } from '../ports/store.js';

/**
 * CONTRACT §6 for a message whose id the integrator already used: a retry of the same payload
 * (byte-identical, or the same JSON with other key order, spacing or number formatting) is
 * answered as the first one was; another payload under that id is a 409.
 */
export function retryOfStoredMessage(outcome: StoredMessageOutcome, payload: unknown, messageId: string): { readonly transactionId: string; readonly response: string | null } {
  if (outcome.kind === 'message_differs' && !samePayload(outcome.storedRawBody, payload)) {
    throw new ApiError('MESSAGE_ID_CONFLICT', `messageIdentification ${messageId} was already used with a different payload`, [
      { field: '/messageIdentifiers/messageIdentification', message: 'already used with a different payload' },
    ]);
  }
  return outcome;
}
