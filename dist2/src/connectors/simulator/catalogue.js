import { REQUEST_TO_PAY_TEST_VALUES } from './request-to-pay-values.js';
import { TEST_VALUES } from './test-values.js';
/** An account number in no table: approved. */
const APPROVED_ACCOUNT = '4071234567';
/** Where a failing account number is looked up: the directory answers it at every bank. */
const ANY_BANK = 'FIRNZAJJ';
const ID_PREFIX = {
    CREDIT_TRANSFER: 'ct',
    IDENTIFIER_DETERMINATION: 'id',
    REQUEST_TO_PAY: 'rtp',
    INBOUND_CREDIT_TRANSFER: 'in-ct',
    INBOUND_IDENTIFIER_DETERMINATION: 'in-id',
    INBOUND_REQUEST_TO_PAY: 'in-rtp',
};
function idOf(kind, scheme, label) {
    return `${ID_PREFIX[kind]}-${scheme}-${label}`.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
function transferBehaviour(behaviour) {
    switch (behaviour.kind) {
        case 'approve':
            return { description: 'Approves (pacs.002 ACSC) after the latency', expected: 'APPROVED' };
        case 'reject':
            return { description: `Rejects (RJCT) with ${behaviour.reasonCode}`, expected: `REJECTED ${behaviour.reasonCode}` };
        case 'late':
            return { description: "Approves only after the scheme's time budget; enquiries before then get PDNG", expected: 'TIMEOUT event, then APPROVED' };
        case 'silent':
            return { description: 'Takes the transfer and never answers it, nor any enquiry', expected: 'TIMEOUT event, no callback (enquiries go on)' };
        case 'twice':
            return { description: 'Approves, then sends the same status report again', expected: 'APPROVED once' };
        case 'pending_then_accept':
            return { description: 'Answers PDNG, then ACSC one latency later', expected: 'APPROVED' };
        case 'unknown_status':
            return { description: 'Answers a status outside the ISO 20022 list (UNKN)', expected: 'TIMEOUT event, no callback' };
        case 'transient_failure':
            return { description: 'The first submission fails at the transport; the resubmission is approved', expected: 'REQUEST_DELIVERY_FAILURE event, then APPROVED' };
        case 'permanent_failure':
            return { description: 'Every submission fails at the transport, not retryable', expected: 'REJECTED AB10' };
    }
}
function requestToPayScenario(scenario) {
    switch (scenario.kind) {
        case 'pay':
            return { description: 'Reports PDNG, PRES, ACSC', expected: 'PENDING, PRESENTED, PAID' };
        case 'reject':
            return { description: `Reports PDNG, PRES, RJCT with ${scenario.reasonCode}`, expected: `PENDING, PRESENTED, REJECTED ${scenario.reasonCode}` };
        case 'never_presented':
            return { description: 'Reports PDNG only', expected: 'PENDING, then EXPIRED at the expiry time' };
        case 'never_paid':
            return { description: 'Reports PDNG, PRES, then nothing', expected: 'PENDING, PRESENTED, then EXPIRED' };
        case 'accept_then_pay':
            return { description: 'Reports PDNG, PRES, ACCP, then ACSC three latencies later', expected: 'PENDING, PRESENTED, ACCEPTED, PAID' };
        case 'paid_twice':
            return { description: 'Reports PDNG, PRES, ACSC, and ACSC again', expected: 'PENDING, PRESENTED, PAID once' };
        case 'unknown_status':
            return { description: 'Reports PDNG, a status outside the ISO 20022 list (UNKN), then ACSC', expected: 'PENDING, then PAID' };
        case 'cancellation_refused':
            return { description: `Reports PDNG, PRES, then nothing; refuses every cancellation with ${scenario.reasonCode}`, expected: 'PENDING, PRESENTED, then EXPIRED' };
    }
}
function directoryEntry(entry) {
    switch (entry.answer) {
        case 'SUCCESSFUL':
            return { description: `Resolves to ${entry.account.traditionalIdentifier} at ${entry.account.accountAgentBicfi}`, expected: 'SUCCESSFUL' };
        case 'LATE':
            return { description: "Resolves, but only after the scheme's time budget", expected: 'FAILED AB06' };
        case 'FAILED':
            return { description: `Answers Vrfctn false with ${entry.reasonCode}`, expected: `FAILED ${entry.reasonCode}` };
        case 'NEVER':
            return { description: 'Never answers', expected: 'FAILED AB06' };
    }
}
function determinationInput(entry) {
    const proxy = entry.proxies.find((candidate) => candidate.schema === 'MOBILE') ?? entry.proxies[0];
    if (proxy !== undefined)
        return { kind: 'IDENTIFIER_DETERMINATION', schema: proxy.schema, ...(proxy.namespace === undefined ? {} : { namespace: proxy.namespace }), value: proxy.value };
    switch (entry.answer) {
        case 'SUCCESSFUL':
        case 'LATE':
            return { kind: 'IDENTIFIER_DETERMINATION', schema: 'GENERIC', value: entry.account.traditionalIdentifier, accountAgentBicfi: entry.account.accountAgentBicfi };
        case 'FAILED':
        case 'NEVER':
            // A failing entry's account number answers at every bank.
            return { kind: 'IDENTIFIER_DETERMINATION', schema: 'GENERIC', value: entry.accountNumber ?? '', accountAgentBicfi: ANY_BANK };
    }
}
/**
 * Every test value of the simulated schemes: the credit-transfer values on each of them, and on
 * ZA_RPP also the directory's identifiers and the request-to-pay values.
 */
export function simulatorTestValues(schemes, directory) {
    const values = [];
    for (const scheme of schemes) {
        const approve = { label: 'APPROVE', value: APPROVED_ACCOUNT, ...transferBehaviour({ kind: 'approve' }), input: { kind: 'CREDIT_TRANSFER', creditorAccount: APPROVED_ACCOUNT } };
        for (const entry of [approve, ...TEST_VALUES.map((value) => ({ label: value.alias, value: value.value, ...transferBehaviour(value.behaviour), input: { kind: 'CREDIT_TRANSFER', creditorAccount: value.value } }))]) {
            values.push({ id: idOf('CREDIT_TRANSFER', scheme, entry.label), scheme, kind: 'CREDIT_TRANSFER', ...entry });
        }
        if (scheme !== 'ZA_RPP')
            continue;
        for (const entry of directory) {
            const input = determinationInput(entry);
            if (input.value === '')
                continue;
            values.push({ id: idOf('IDENTIFIER_DETERMINATION', scheme, entry.name), scheme, kind: 'IDENTIFIER_DETERMINATION', label: entry.name, value: input.value, ...directoryEntry(entry), input });
        }
        for (const entry of REQUEST_TO_PAY_TEST_VALUES) {
            const mobile = `+27-${entry.value.slice(1)}`;
            values.push({ id: idOf('REQUEST_TO_PAY', scheme, entry.alias), scheme, kind: 'REQUEST_TO_PAY', label: entry.alias, value: mobile, ...requestToPayScenario(entry.scenario), input: { kind: 'REQUEST_TO_PAY', debtorMobile: mobile } });
        }
    }
    return values;
}
//# sourceMappingURL=catalogue.js.map