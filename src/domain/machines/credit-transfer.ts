/**
 * States of an outbound credit transfer. Each state is named after the event type emitted when it
 * is entered (CONTRACT §4), so "one event per state entered" holds by construction.
 */
export const CREDIT_TRANSFER_INITIAL_STATE = 'PAYMENT_AUTH_REQUEST_RECEIVED';
