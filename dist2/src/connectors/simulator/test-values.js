/** The TxSts the simulator answers for `unknown_status`: four characters, as the XSD allows, but no ISO 20022 status code. */
export const UNKNOWN_STATUS_CODE = 'UNKN';
/** Reason codes the simulator rejects with, in table order: the interface's account and agent codes. */
export const REJECTION_CODES = ['AC01', 'AC04', 'AC06', 'AC16', 'AC17', 'AG01', 'AG03', 'AG10', 'AM02', 'MD07', 'NOCM', 'BE01', 'RR12', 'NAUT', 'AB10'];
const REJECTIONS = REJECTION_CODES.map((reasonCode, index) => ({
    value: `99900001${String(index + 1).padStart(2, '0')}`,
    alias: `REJECT-${reasonCode}`,
    behaviour: { kind: 'reject', reasonCode },
}));
export const TEST_VALUES = [
    ...REJECTIONS,
    { value: '9990000201', alias: 'ANSWER-LATE', behaviour: { kind: 'late' } },
    { value: '9990000202', alias: 'NEVER-ANSWER', behaviour: { kind: 'silent' } },
    { value: '9990000203', alias: 'ANSWER-TWICE', behaviour: { kind: 'twice' } },
    { value: '9990000204', alias: 'PENDING-THEN-ACCEPT', behaviour: { kind: 'pending_then_accept' } },
    { value: '9990000205', alias: 'UNKNOWN-STATUS', behaviour: { kind: 'unknown_status' } },
    { value: '9990000206', alias: 'TRANSIENT-FAILURE', behaviour: { kind: 'transient_failure' } },
    { value: '9990000207', alias: 'PERMANENT-FAILURE', behaviour: { kind: 'permanent_failure' } },
];
const BY_VALUE = new Map(TEST_VALUES.flatMap((entry) => [[entry.value, entry.behaviour], [entry.alias, entry.behaviour]]));
const APPROVE = { kind: 'approve' };
/** The behaviour for a creditor account number (as read from CdtrAcct of the pacs.008); approve for anything not in the table. */
export function behaviourFor(account) {
    return account === undefined ? APPROVE : (BY_VALUE.get(account.trim().toUpperCase()) ?? APPROVE);
}
/** The answers a behaviour calls for, in order (none for a transfer never answered or never taken). */
export function behaviourSteps(behaviour) {
    switch (behaviour.kind) {
        case 'approve':
        case 'transient_failure':
            return [{ after: 'latency', status: 'ACSC' }];
        case 'reject':
            return [{ after: 'latency', status: 'RJCT', reasonCode: behaviour.reasonCode }];
        case 'late':
            return [{ after: 'late', status: 'ACSC' }];
        case 'silent':
        case 'permanent_failure':
            return [];
        case 'twice':
            return [{ after: 'latency', status: 'ACSC' }, { after: 'latency', repeat: true }];
        case 'pending_then_accept':
            return [{ after: 'latency', status: 'PDNG' }, { after: 'latency', status: 'ACSC' }];
        case 'unknown_status':
            return [{ after: 'latency', status: UNKNOWN_STATUS_CODE }];
    }
}
/** The test value for a behaviour kind (and reason code), for tests and tools. */
export function testValue(kind, reasonCode) {
    const found = TEST_VALUES.find((entry) => entry.behaviour.kind === kind && (entry.behaviour.kind !== 'reject' || entry.behaviour.reasonCode === reasonCode));
    if (found === undefined)
        throw new RangeError(`no simulator test value for ${kind}${reasonCode === undefined ? '' : ` ${reasonCode}`}`);
    return found;
}
//# sourceMappingURL=test-values.js.map