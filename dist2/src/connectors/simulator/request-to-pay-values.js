/**
 * The simulator's request-to-pay test values: what the **debtor** of a request-to-pay makes the
 * simulated PayShap operator do, read from the pain.013's debtor account number
 * (`DbtrAcct/Id/Othr/Id`) or debtor proxy value (`DbtrAcct/Prxy/Id`), the proxy first.
 * docs/simulator.md ("Request-to-pay") is this table for integrators, and a test keeps the two in step.
 *
 * Every value has a numeric form and a mnemonic one. The numeric form is a South African mobile
 * number too, so it works as an account number and as a MOBILE proxy in any published spelling
 * (0799000101, +27799000101, +27-799000101, +27-0799000101, 27799000101); the mnemonic form works as
 * an account number or a CUSTOM proxy (ShapID), without regard to letter case. Any other debtor
 * is presented and then pays.
 *
 * Reason codes of a rejection (ExternalStatusReason1Code): no public PayShap list of the codes a
 * payer's bank answers a request-to-pay with was at hand, so these are the codes the EPC's SEPA
 * rulebooks use when the payer's side refuses (AC01, AC04, AC06, AG01, AM04, FRAD, MD07, MS02,
 * MS03, RR04) and NARR (the reason in words only). MS02 is the payer declining.
 */
/** The TxSts of `unknown_status`: four characters, as the XSD allows, but no ISO 20022 status code. */
export const RTP_UNKNOWN_STATUS_CODE = 'UNKN';
/** Reason codes a request-to-pay is rejected with, in table order. */
export const RTP_REJECTION_CODES = ['AC01', 'AC04', 'AC06', 'AG01', 'AM04', 'FRAD', 'MD07', 'MS02', 'MS03', 'NARR', 'RR04'];
/** Reason codes (ExternalPaymentCancellationRejection1Code) a cancellation is refused with by `cancellation_refused`. */
export const CANCELLATION_REFUSAL_CODES = ['LEGL', 'NOAS'];
const REJECTIONS = RTP_REJECTION_CODES.map((reasonCode, index) => ({
    value: `07990001${String(index + 1).padStart(2, '0')}`,
    alias: `RTP-REJECT-${reasonCode}`,
    scenario: { kind: 'reject', reasonCode },
}));
const REFUSALS = CANCELLATION_REFUSAL_CODES.map((reasonCode, index) => ({
    value: `07990003${String(index + 1).padStart(2, '0')}`,
    alias: `RTP-CANCEL-REFUSED-${reasonCode}`,
    scenario: { kind: 'cancellation_refused', reasonCode },
}));
const PAY = { kind: 'pay' };
export const REQUEST_TO_PAY_TEST_VALUES = [
    { value: '0799000100', alias: 'RTP-PAY', scenario: PAY },
    ...REJECTIONS,
    { value: '0799000201', alias: 'RTP-NEVER-PRESENTED', scenario: { kind: 'never_presented' } },
    { value: '0799000202', alias: 'RTP-NEVER-PAID', scenario: { kind: 'never_paid' } },
    { value: '0799000203', alias: 'RTP-ACCEPT-THEN-PAY', scenario: { kind: 'accept_then_pay' } },
    { value: '0799000204', alias: 'RTP-PAID-TWICE', scenario: { kind: 'paid_twice' } },
    { value: '0799000205', alias: 'RTP-UNKNOWN-STATUS', scenario: { kind: 'unknown_status' } },
    ...REFUSALS,
];
const BY_VALUE = new Map(REQUEST_TO_PAY_TEST_VALUES.flatMap((entry) => [[entry.value, entry.scenario], [entry.alias, entry.scenario]]));
/** A South African mobile number in a published spelling: +27 or 27, an optional trunk 0, nine digits. */
const MOBILE = /^\+?27-?0?(\d{9})$/;
/** A value as the table is keyed: trimmed and upper case; a mobile number as its national 10-digit form; spaces and dashes of a number dropped. */
export function testValueKey(value) {
    const upper = value.trim().toUpperCase();
    const compact = upper.replace(/[\s-]/g, '');
    if (!/^\+?\d+$/.test(compact))
        return upper;
    const mobile = MOBILE.exec(compact);
    return mobile === null ? compact : `0${mobile[1]}`;
}
/** The scenario for a debtor as the pain.013 names it: its proxy value first, then its account number; `pay` for anything else. */
export function scenarioFor(debtor) {
    for (const value of [debtor.proxy, debtor.account]) {
        if (value === undefined)
            continue;
        const found = BY_VALUE.get(testValueKey(value));
        if (found !== undefined)
            return found;
    }
    return PAY;
}
/** The status reports a scenario calls for, in order. */
export function scenarioSteps(scenario) {
    const pending = { status: 'PDNG', afterLatencies: 1 };
    const presented = { status: 'PRES', afterLatencies: 1 };
    const paid = { status: 'ACSC', afterLatencies: 1 };
    switch (scenario.kind) {
        case 'pay':
            return [pending, presented, paid];
        case 'reject':
            return [pending, presented, { status: 'RJCT', reasonCode: scenario.reasonCode, afterLatencies: 1 }];
        case 'never_presented':
            return [pending];
        case 'never_paid':
        case 'cancellation_refused':
            return [pending, presented];
        case 'accept_then_pay':
            return [pending, presented, { status: 'ACCP', afterLatencies: 1 }, { status: 'ACSC', afterLatencies: 3 }];
        case 'paid_twice':
            return [pending, presented, paid, paid];
        case 'unknown_status':
            return [pending, { status: RTP_UNKNOWN_STATUS_CODE, afterLatencies: 1 }, paid];
    }
}
/** The test value for a scenario kind (and reason code), for tests and tools. */
export function requestToPayTestValue(kind, reasonCode) {
    const found = REQUEST_TO_PAY_TEST_VALUES.find((entry) => entry.scenario.kind === kind && (!('reasonCode' in entry.scenario) || entry.scenario.reasonCode === reasonCode));
    if (found === undefined)
        throw new RangeError(`no request-to-pay test value for ${kind}${reasonCode === undefined ? '' : ` ${reasonCode}`}`);
    return found;
}
//# sourceMappingURL=request-to-pay-values.js.map