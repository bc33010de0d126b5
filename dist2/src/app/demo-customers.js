import { INBOUND_PATHS } from '../domain/callback-paths.js';
const reason = (code, text) => ({ code, text });
export const DEMO_CUSTOMERS = [
    { accountNumber: '4071000001', knownAsName: 'Thandi', legalName: 'Thandi Nkosi', proxies: [{ schema: 'MOBILE', value: '0821234567' }, { schema: 'CUSTOM', value: 'thandi@demobank' }] },
    { accountNumber: '4071000002', knownAsName: 'Sipho', legalName: 'Sipho Dlamini', proxies: [{ schema: 'MOBILE', value: '0831234567' }] },
    { accountNumber: '4071000003', knownAsName: 'Naledi M', legalName: 'Naledi Mokoena', proxies: [{ schema: 'MOBILE', value: '0721234567' }, { schema: 'CUSTOM', value: 'naledi@demobank' }] },
    {
        accountNumber: '4071001001',
        knownAsName: 'Pieter',
        legalName: 'Pieter van Wyk',
        proxies: [{ schema: 'MOBILE', value: '0821001001' }],
        lookupFails: reason('AC01', 'Account number format incorrect'),
        creditDeclined: reason('AC01', 'Account number format incorrect'),
    },
    {
        accountNumber: '4071001004',
        knownAsName: 'Zanele',
        legalName: 'Zanele Khumalo',
        proxies: [{ schema: 'MOBILE', value: '0821001004' }],
        lookupFails: reason('AC04', 'Account closed'),
        creditDeclined: reason('AC04', 'Account closed'),
    },
    {
        accountNumber: '4071001006',
        knownAsName: 'Bongani',
        legalName: 'Bongani Zulu',
        proxies: [{ schema: 'MOBILE', value: '0821001006' }],
        lookupFails: reason('AC06', 'Account blocked'),
        creditDeclined: reason('AC06', 'Account blocked'),
    },
    // The lookups of the next three succeed: the account exists and is open; only the credit is declined.
    { accountNumber: '4071002001', knownAsName: 'Ayesha', legalName: 'Ayesha Patel', proxies: [{ schema: 'MOBILE', value: '0822002001' }], creditDeclined: reason('AG01', 'Transaction forbidden on this account') },
    { accountNumber: '4071004004', knownAsName: 'Johan', legalName: 'Johan Botha', proxies: [{ schema: 'MOBILE', value: '0824004004' }], creditDeclined: reason('AM04', 'Insufficient funds') },
    { accountNumber: '4071005001', knownAsName: 'Lindiwe', legalName: 'Lindiwe Mthembu', proxies: [{ schema: 'MOBILE', value: '0825005001' }], creditDeclined: reason('BE01', 'Creditor name inconsistent with account') },
    {
        accountNumber: '4071007007',
        knownAsName: 'Themba',
        legalName: 'Estate Late Themba Ndlovu',
        proxies: [{ schema: 'MOBILE', value: '0827007007' }],
        lookupFails: reason('MD07', 'Account holder deceased'),
        creditDeclined: reason('MD07', 'Account holder deceased'),
    },
];
export const DEMO_UNRESOLVED_PROXIES = [
    { schema: 'MOBILE', value: '0820000023', reason: reason('BE23', 'Proxy unknown') },
    { schema: 'MOBILE', value: '0820000003', reason: reason('PX03', 'Proxy not found') },
    { schema: 'CUSTOM', value: 'suspended@demobank', reason: reason('PD02', 'Domain suspended') },
];
/** The reason of a lookup of a proxy the directory does not list. */
export const UNKNOWN_PROXY_REASON = reason('BE23', 'Proxy unknown');
/** The names of an account number the directory does not list. */
export const UNKNOWN_ACCOUNT_NAMES = { knownAsName: 'Demo Customer', legalName: 'Demo Customer' };
/**
 * A proxy as the directory compares it: a mobile number as its digits in the international form
 * (`+27-0821234567`, `+27821234567` and `0821234567` are one number), a ShapID without case.
 */
export function proxyKey(schema, value) {
    if (schema !== 'MOBILE')
        return `${schema}:${value.trim().toLowerCase()}`;
    const digits = value.replace(/[^0-9]/g, '');
    const national = /^270[0-9]{9}$/.test(digits) ? digits.slice(3) : /^27[0-9]{9}$/.test(digits) ? digits.slice(2) : /^0[0-9]{9}$/.test(digits) ? digits.slice(1) : digits;
    return `MOBILE:27${national}`;
}
const byAccount = new Map(DEMO_CUSTOMERS.map((customer) => [customer.accountNumber, customer]));
const byProxy = new Map(DEMO_CUSTOMERS.flatMap((customer) => customer.proxies.map((proxy) => [proxyKey(proxy.schema, proxy.value), customer])));
const unresolved = new Map(DEMO_UNRESOLVED_PROXIES.map((proxy) => [proxyKey(proxy.schema, proxy.value), proxy.reason]));
/** A lookup of an account number (`schema` GENERIC, or anything but a proxy) or a proxy (MOBILE, CUSTOM). */
export function lookUpDemoCustomer(identifier) {
    const isProxy = identifier.schema === 'MOBILE' || identifier.schema === 'CUSTOM';
    const customer = isProxy ? byProxy.get(proxyKey(identifier.schema, identifier.value)) : byAccount.get(identifier.value.trim());
    if (customer === undefined) {
        if (isProxy)
            return { found: false, reason: unresolved.get(proxyKey(identifier.schema, identifier.value)) ?? UNKNOWN_PROXY_REASON };
        return { found: true, accountNumber: identifier.value.trim(), ...UNKNOWN_ACCOUNT_NAMES };
    }
    if (customer.lookupFails !== undefined)
        return { found: false, reason: customer.lookupFails };
    return { found: true, accountNumber: customer.accountNumber, knownAsName: customer.knownAsName, legalName: customer.legalName };
}
/** The demo bank's decision on a credit to an account number: undefined to approve, else the reason it is declined. */
export function demoCreditDecline(accountNumber) {
    return byAccount.get(accountNumber.trim())?.creditDeclined;
}
/**
 * The demo bank's answer to a call the service makes under its partnerApiUrl: the 200 body of a
 * sync lookup or sync authorisation, or undefined for every other call (a callback, a completion,
 * an async call: acknowledged without a body). A body that is not the message the path names is
 * answered undefined too, and the service treats the missing answer as no answer (AB06).
 */
export function demoBankAnswer(path, body, header) {
    if (path === INBOUND_PATHS.identifierDeterminationSync)
        return lookupAnswer(body, header);
    if (path === INBOUND_PATHS.creditTransferAuthorisationSync)
        return authorisationAnswer(body, header);
    return undefined;
}
function lookupAnswer(body, header) {
    if (!isRecord(body))
        return undefined;
    const request = isRecord(body.request) ? body.request : undefined;
    const identifier = request !== undefined && isRecord(request.identifier) ? request.identifier : undefined;
    if (request === undefined || identifier === undefined || typeof identifier.schema !== 'string' || typeof identifier.value !== 'string')
        return undefined;
    const looked = lookUpDemoCustomer({ schema: identifier.schema, value: identifier.value });
    const proxy = identifier.schema === 'MOBILE' || identifier.schema === 'CUSTOM' ? { proxy: { value: identifier.value, schema: identifier.schema } } : {};
    const reportInformation = looked.found
        ? { outcome: 'SUCCESSFUL', accountInformation: { ...proxy, traditionalIdentifier: looked.accountNumber }, accountOwner: { knownAsName: looked.knownAsName, legalName: looked.legalName } }
        : { outcome: 'FAILED', reasonCode: looked.reason.code, reasonDescription: looked.reason.text, accountInformation: { ...proxy }, accountOwner: {} };
    return {
        schema: 'IdentifierDeterminationResponse',
        messageIdentifiers: header,
        originalMessageIdentifiers: body.messageIdentifiers,
        scheme: typeof request.schema === 'string' ? request.schema : 'ZA_RPP',
        uetr: request.uetr,
        verificationIdentification: request.verificationIdentification,
        report: { reportInformation },
    };
}
function authorisationAnswer(body, header) {
    if (!isRecord(body) || !isRecord(body.transactionIdentifiers))
        return undefined;
    const declined = creditDecision(isRecord(body.creditorAccount) ? body.creditorAccount : {});
    return {
        schema: 'PaymentStatusReport',
        messageIdentifiers: header,
        originalMessageIdentifiers: body.messageIdentifiers,
        transactionIdentifiers: body.transactionIdentifiers,
        status: declined === undefined
            ? { outcome: 'APPROVED', reasonInfo: [] }
            : { outcome: 'REJECTED', reasonInfo: [{ reason: { schema: 'CODE', value: declined.code }, additionalInformation: [declined.text] }] },
    };
}
/** A credit names the account, or only a proxy (PayShap allows it): the proxy's account decides then, and an unregistered proxy is declined BE23. */
function creditDecision(creditorAccount) {
    const identification = isRecord(creditorAccount.identification) ? creditorAccount.identification.value : undefined;
    if (typeof identification === 'string')
        return demoCreditDecline(identification);
    const proxy = isRecord(creditorAccount.proxy) ? creditorAccount.proxy : undefined;
    if (proxy === undefined || typeof proxy.schema !== 'string' || typeof proxy.value !== 'string')
        return undefined;
    const looked = lookUpDemoCustomer({ schema: proxy.schema, value: proxy.value });
    return looked.found ? demoCreditDecline(looked.accountNumber) : looked.reason;
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
//# sourceMappingURL=demo-customers.js.map