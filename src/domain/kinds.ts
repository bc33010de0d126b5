/** The kinds of transaction the service carries; each has one state machine (domain/machines/registry.ts). */
export const TRANSACTION_KINDS = ['CREDIT_TRANSFER', 'IDENTIFIER_DETERMINATION', 'REQUEST_TO_PAY'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];
