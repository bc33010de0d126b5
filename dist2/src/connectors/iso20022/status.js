/**
 * The table every family uses unless its scheme says otherwise. Only settlement is final success:
 * ACSC (settlement on the debtor's side completed) and ACCC (creditor's account credited). The
 * acceptances before settlement (ACTC, ACCP, ACFC, ACWP, ACWC, ACSP) and PDNG/RCVD/PART/PATC are
 * PENDING: the integrator must not tell its customer "paid" on them. BLCK (funds blocked, neither
 * posted nor returned) is PENDING too: the money has not been declined. RJCT is final rejection;
 * CANC (the transfer was cancelled, nothing moves) is reported as REJECTED as well.
 */
export const ISO_STATUS_TABLE = new Map([
    ['ACSC', 'ACCEPTED'],
    ['ACCC', 'ACCEPTED'],
    ['ACSP', 'PENDING'],
    ['ACCP', 'PENDING'],
    ['ACTC', 'PENDING'],
    ['ACFC', 'PENDING'],
    ['ACWP', 'PENDING'],
    ['ACWC', 'PENDING'],
    ['PDNG', 'PENDING'],
    ['RCVD', 'PENDING'],
    ['PART', 'PENDING'],
    ['PATC', 'PENDING'],
    ['BLCK', 'PENDING'],
    ['RJCT', 'REJECTED'],
    ['CANC', 'REJECTED'],
]);
export function statusOf(table, code) {
    return (code === undefined ? undefined : table.get(code)) ?? 'PENDING';
}
/**
 * How a pain.014 TxSts reads as a request-to-pay status (CONTRACT §10): PDNG pending (forwarded,
 * not yet shown), PRES presented to the payer, ACCP accepted by the payer (payment awaited), ACSC
 * paid, RJCT rejected. Exhaustive by construction: any other code, or none, is PENDING, never a
 * final status.
 */
export const RTP_STATUS_TABLE = new Map([
    ['PDNG', 'PENDING'],
    ['PRES', 'PRESENTED'],
    ['ACCP', 'ACCEPTED'],
    ['ACSC', 'PAID'],
    ['RJCT', 'REJECTED'],
]);
export function requestToPayStatusOf(code) {
    return (code === undefined ? undefined : RTP_STATUS_TABLE.get(code)) ?? 'PENDING';
}
//# sourceMappingURL=status.js.map