import { formatAmount, parseAmount } from '../../lib/money.js';
/**
 * The receiving direction of the simulated scheme operator (CONTRACT §11): the scenarios it plays
 * when it originates traffic addressed to an integrator's institution, and the orders naming one.
 * docs/simulator.md ("Inbound scenarios") is this list for integrators.
 *
 * The operator plays another bank's customer paying (or asking to be paid by) a customer of the
 * integrator's institution. That other bank is fixed: SIMULATED_BANK, with the payer
 * SIMULATED_PAYER and the payee of a request-to-pay SIMULATED_PAYEE.
 */
export const INBOUND_SCENARIOS = [
    /** acmt.023 for the proxy or account; after a SUCCESSFUL acmt.024, a pacs.008 to the resolved account with the lookup's UETR. */
    'LOOKUP_THEN_CREDIT',
    /** A pacs.008 without a lookup. */
    'CREDIT',
    /** The pacs.008 twice (same MsgId), the second one latency after the first. */
    'CREDIT_DUPLICATE',
    /** A pacs.008; after regpay approves it, the operator's final word is RJCT with CREDIT_CANCELLED_REASON instead of ACSC. */
    'CREDIT_CANCELLED',
    /** A pain.013 whose debtor agent is the institution; the operator records regpay's pain.014 reports. */
    'REQUEST_TO_PAY',
    /** As REQUEST_TO_PAY, then a camt.056 withdrawing it (reason WITHDRAWAL_REASON) after `withdrawAfterMs`. */
    'REQUEST_TO_PAY_WITHDRAWN',
    /** As REQUEST_TO_PAY with a short expiry; at the expiry a camt.056 with the reason EXPIRED. */
    'REQUEST_TO_PAY_EXPIRING',
];
export const DEFAULT_INBOUND_SCENARIO = 'LOOKUP_THEN_CREDIT';
/**
 * The operator's final word on a credit regpay approved, in CREDIT_CANCELLED: ISO 20022 AB05
 * ("timeout at the creditor agent"), what an instant scheme answers when the creditor bank's
 * approval reached it after its own timeout, so the debtor bank was already told the payment failed.
 * The creditor bank must then not credit its customer.
 */
export const CREDIT_CANCELLED_REASON = 'AB05';
/** CxlRsnInf/Rsn/Cd of REQUEST_TO_PAY_WITHDRAWN: the customer (the payee) withdrew the request. */
export const WITHDRAWAL_REASON = 'CUST';
/** How far ahead a request-to-pay expires, unless the order says. */
export const REQUEST_TO_PAY_EXPIRY_MS_DEFAULT = 10 * 60 * 1000;
/** How far ahead a REQUEST_TO_PAY_EXPIRING request expires, unless the order says. */
export const SHORT_EXPIRY_MS_DEFAULT = 5_000;
/** How long after the pain.013 REQUEST_TO_PAY_WITHDRAWN withdraws it, unless the order says. */
export const WITHDRAW_AFTER_MS_DEFAULT = 2_000;
/** The bank of the other side: the payer's bank of a credit, the payee's bank of a request-to-pay. */
export const SIMULATED_BANK = { bicfi: 'SIMBZAJJ', memberId: '999001', name: 'Simulated Bank (regpay simulator)' };
/** The payer of an originated credit, unless the order names one. */
export const SIMULATED_PAYER = { name: 'Simulated Payer', account: '9990000001' };
/** The payee (creditor) of an originated request-to-pay. */
export const SIMULATED_PAYEE = { name: 'Simulated Payee (Pty) Ltd', account: '9990000002' };
/** Proxy kinds an order may name (as in identifier determination). */
export const INBOUND_PROXY_SCHEMAS = ['MOBILE', 'CUSTOM'];
/** Originated traffic is in the scheme's currency: ZAR on every South African scheme. */
export const INBOUND_CURRENCY = 'ZAR';
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
const MAX35 = 35;
/** Longest delay an order may ask for (a day): a timer, and a row of the standalone operator's store, stays bounded. */
const ORDER_DELAY_MS_MAX = 24 * 60 * 60 * 1000;
/** Names, remittance: what the messages' Max140Text carries. */
const TEXT_CHARS_MAX = 140;
/** Checks an order and applies its defaults; the reason in words when it cannot be originated. */
export function checkOrder(order) {
    const scenario = order.scenario ?? DEFAULT_INBOUND_SCENARIO;
    if (!INBOUND_SCENARIOS.includes(scenario))
        return fail(`scenario must be one of ${INBOUND_SCENARIOS.join(', ')}`);
    const { bicfi, memberId } = order.institution;
    if (bicfi === undefined && memberId === undefined)
        return fail('institution needs a bicfi or a memberId');
    if (bicfi !== undefined && !BIC.test(bicfi))
        return fail(`institution.bicfi ${bicfi} is not a BIC`);
    if (memberId !== undefined && !/^[A-Za-z0-9]{1,35}$/.test(memberId))
        return fail('institution.memberId must be 1 to 35 letters or digits');
    if (order.accountNumber === undefined && order.proxy === undefined)
        return fail('name the customer by accountNumber or proxy');
    if (order.accountNumber !== undefined && !/^[A-Za-z0-9]{1,34}$/.test(order.accountNumber))
        return fail('accountNumber must be 1 to 34 letters or digits');
    if (order.proxy !== undefined) {
        if (!INBOUND_PROXY_SCHEMAS.includes(order.proxy.schema))
            return fail(`proxy.schema must be one of ${INBOUND_PROXY_SCHEMAS.join(', ')}`);
        if (order.proxy.value.trim() === '' || [...order.proxy.value].length > 2048)
            return fail('proxy.value must be 1 to 2048 characters');
        const type = order.proxy.namespace === undefined ? order.proxy.schema : `${order.proxy.schema}:${order.proxy.namespace}`;
        if ([...type].length > MAX35)
            return fail(`proxy schema and namespace longer than ${MAX35} characters together`);
    }
    if (order.accountNumber === undefined && order.proxy !== undefined && (scenario === 'CREDIT' || scenario === 'CREDIT_DUPLICATE' || scenario === 'CREDIT_CANCELLED')) {
        // A pacs.008 to a proxy alone is legal in PayShap, but the creditor bank could not tell which account to credit.
        if (bicfi === undefined)
            return fail('a credit to a proxy without an account number needs institution.bicfi');
    }
    if (order.accountNumber !== undefined && order.proxy === undefined && scenario === 'LOOKUP_THEN_CREDIT' && bicfi === undefined) {
        return fail('an account lookup (no proxy) names the account agent by BIC: institution.bicfi is required');
    }
    const amount = positiveAmount(order.amount, 'amount');
    if (!amount.ok)
        return amount;
    const minAmount = order.minAmount === undefined ? undefined : positiveAmount(order.minAmount, 'minAmount');
    if (minAmount?.ok === false)
        return minAmount;
    const maxAmount = order.maxAmount === undefined ? undefined : positiveAmount(order.maxAmount, 'maxAmount');
    if (maxAmount?.ok === false)
        return maxAmount;
    if (minAmount?.ok === true && minAmount.money.minor > amount.money.minor)
        return fail('minAmount is above amount');
    if (maxAmount?.ok === true && maxAmount.money.minor < amount.money.minor)
        return fail('maxAmount is below amount');
    const expiresInMs = order.expiresInMs ?? (scenario === 'REQUEST_TO_PAY_EXPIRING' ? SHORT_EXPIRY_MS_DEFAULT : REQUEST_TO_PAY_EXPIRY_MS_DEFAULT);
    const withdrawAfterMs = order.withdrawAfterMs ?? WITHDRAW_AFTER_MS_DEFAULT;
    for (const [key, value] of [['expiresInMs', expiresInMs], ['withdrawAfterMs', withdrawAfterMs]]) {
        if (!Number.isInteger(value) || value < 0 || value > ORDER_DELAY_MS_MAX)
            return fail(`${key} must be an integer from 0 to ${ORDER_DELAY_MS_MAX}`);
    }
    for (const [key, value] of [['customerName', order.customerName], ['payerName', order.payerName], ['remittance', order.remittance]]) {
        if (value !== undefined && (value.trim() === '' || [...value].length > TEXT_CHARS_MAX))
            return fail(`${key} must be 1 to ${TEXT_CHARS_MAX} characters`);
    }
    return {
        ok: true,
        order: {
            scenario,
            institution: { ...(bicfi === undefined ? {} : { bicfi }), ...(memberId === undefined ? {} : { memberId }) },
            ...(order.accountNumber === undefined ? {} : { accountNumber: order.accountNumber }),
            // A proxy lookup names its namespace (the interface requires it for MOBILE and CUSTOM): PayShap's own when the order names none.
            ...(order.proxy === undefined ? {} : { proxy: { value: order.proxy.value, schema: order.proxy.schema, namespace: order.proxy.namespace ?? `ZA_${order.proxy.schema}` } }),
            amount: amount.text,
            ...(order.customerName === undefined ? {} : { customerName: order.customerName }),
            payerName: order.payerName ?? SIMULATED_PAYER.name,
            ...(minAmount === undefined ? {} : { minAmount: minAmount.text }),
            ...(maxAmount === undefined ? {} : { maxAmount: maxAmount.text }),
            expiresInMs,
            withdrawAfterMs,
            ...(order.remittance === undefined ? {} : { remittance: order.remittance }),
        },
    };
}
/** Whether a scenario starts with a request-to-pay (pain.013) rather than a credit. */
export function isRequestToPayScenario(scenario) {
    return scenario.startsWith('REQUEST_TO_PAY');
}
function positiveAmount(text, key) {
    const parsed = parseAmount(text, INBOUND_CURRENCY);
    if (!parsed.ok)
        return fail(`${key}: ${parsed.reason}`);
    if (parsed.money.minor <= 0n)
        return fail(`${key} must be above zero`);
    return { ok: true, money: parsed.money, text: formatAmount(parsed.money) };
}
function fail(error) {
    return { ok: false, error };
}
//# sourceMappingURL=inbound-values.js.map