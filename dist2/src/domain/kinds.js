/** The kinds of transaction the service carries; each has one state machine (domain/machines/registry.ts). */
export const TRANSACTION_KINDS = [
    'CREDIT_TRANSFER',
    'IDENTIFIER_DETERMINATION',
    'REQUEST_TO_PAY',
    'INBOUND_CREDIT_TRANSFER',
    'INBOUND_IDENTIFIER_DETERMINATION',
    'INBOUND_REQUEST_TO_PAY',
];
/** The kinds the scheme starts for an integrator's institution (the receiving direction): their events say INBOUND. */
export const INBOUND_KINDS = new Set(['INBOUND_CREDIT_TRANSFER', 'INBOUND_IDENTIFIER_DETERMINATION', 'INBOUND_REQUEST_TO_PAY']);
//# sourceMappingURL=kinds.js.map