import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CANCELLATION_REASON_CODES, RTP_FINAL_STATUSES, RTP_ISO_STATUSES, RTP_LOCAL_INSTRUMENTS, RTP_STATUSES, RequestToPayCancellationResponseSchema, RequestToPayResponseSchema, dateTimeEpochMs, expiryProblem, isFinalRtpStatus, requestToPayCancellationResponseJson, requestToPayResponseJson, rtpStatusFromIso, validateRequestToPay, validateRequestToPayCancellation, validateRequestToPayStatusRequest, } from '../../src/domain/messages/request-to-pay.js';
import { REMITTANCE_PIECE_CHARS, REMITTANCE_PIECES_MAX } from '../../src/domain/messages/credit-transfer.js';
import { makeValidator } from '../../src/domain/messages/validate.js';
import { numberText } from '../../src/lib/json.js';
import { FIXTURE_EXPIRY_MS, REQUEST_TO_PAY_FIXTURES, requestToPay, requestToPayCancellation, requestToPayStatusRequest, } from '../fixtures/request-to-pay.js';
import { accepted, checksOf, edit, faultsOf, onlyFault, readResponse, REMOVE, sent, withEdits } from '../support/validation.js';
/** A fresh sample of `kind` with the edits applied, keyed by JSON pointer. */
function edited(kind, edits = {}) {
    return withEdits(requestToPay(kind), edits);
}
const { valid, faults, refusedOnly } = checksOf(validateRequestToPay);
const MIN = '/requestToPayConditions/minAmount';
const MAX = '/requestToPayConditions/maxAmount';
const DEBTOR_PROXY = '/debtorAccount/proxy';
void describe('RequestToPay validation: valid requests', () => {
    for (const kind of REQUEST_TO_PAY_FIXTURES) {
        void it(`accepts the ${kind} sample, as an object and as parsed JSON text`, () => {
            valid(requestToPay(kind));
            valid(sent(requestToPay(kind)));
        });
    }
    void it('gives the scheme, the lowercased uetr, the message id, the amounts as Money and the expiry in epoch ms', () => {
        const message = edited('MOBILE', { '/transactionIdentifiers/uetr': 'E1B5C6A2-6F4B-4C3A-9A77-0D3E5B9C1F20', '/expiryDateTime': '2026-03-02T13:15:27.482+02:00' });
        const result = valid(sent(message));
        assert.equal(result.scheme, 'ZA_RPP');
        assert.equal(result.uetr, 'e1b5c6a2-6f4b-4c3a-9a77-0d3e5b9c1f20');
        assert.equal(result.messageId, message.messageIdentifiers.messageIdentification);
        assert.deepEqual(result.amount, { currency: 'ZAR', minor: 45000n });
        assert.deepEqual(result.minAmount, { currency: 'ZAR', minor: 40000n });
        assert.deepEqual(result.maxAmount, { currency: 'ZAR', minor: 50050n });
        assert.equal(result.expiresAt, Date.parse('2026-03-02T11:15:27.482Z'));
    });
    void it('gives the message itself, not a copy, and never changes it', () => {
        const message = edited('CUSTOM', { '/channelData': { app: 'v5', weights: [1.5, 2] }, '/debtorAccount/proxy/label': 'Thandi' });
        const before = structuredClone(message);
        const result = valid(message);
        assert.equal(result.message, message);
        assert.deepEqual(message, before);
    });
    void it('takes a request without requestToPayConditions, and conditions with only one bound or none', () => {
        const none = valid(edited('MOBILE', { '/requestToPayConditions': REMOVE }));
        assert.equal(none.minAmount, undefined);
        assert.equal(none.maxAmount, undefined);
        assert.equal('minAmount' in none, false, 'no key for an absent bound');
        assert.equal(valid(edited('MOBILE', { [MIN]: REMOVE })).minAmount, undefined);
        assert.equal(valid(edited('MOBILE', { [MAX]: REMOVE })).maxAmount, undefined);
        valid(edited('MOBILE', { '/requestToPayConditions': {} }));
    });
    void it('takes bounds equal to the amount', () => {
        valid(edited('MOBILE', { [`${MIN}/value`]: 450, [`${MAX}/value`]: 450 }));
    });
    void it('accepts another scheme of the enumeration: whether it carries request-to-pay is decided later (422)', () => {
        for (const scheme of ['ZA_RTC', 'CBPR_PLUS'])
            assert.equal(valid(edited('MOBILE', { '/paymentScheme/schema': scheme })).scheme, scheme);
    });
    void it('takes each published PayShap local instrument', () => {
        assert.deepEqual([...RTP_LOCAL_INSTRUMENTS], ['PBA', 'PBPX', 'RTP-PBA', 'RTP-PBPX']);
        for (const value of RTP_LOCAL_INSTRUMENTS)
            valid(edited('ACCOUNT', { '/paymentTypeInformation/localInstrument/value': value }));
    });
    void it('takes a proxy debtor without debtorAgent, and with one', () => {
        valid(edited('MOBILE', { '/debtorAgent': REMOVE }));
        valid(edited('CUSTOM'));
        valid(edited('CUSTOM', { '/debtorAgent': REMOVE }));
    });
    void it('takes a debtor account with both identification and proxy without debtorAgent (the proxy is resolved)', () => {
        valid(edited('MOBILE', { '/debtorAccount/identification': { schema: 'GENERIC', value: '62001234567' } }));
    });
    void it('takes a debtorAgent named by clearing member id only, or by the deprecated memberId', () => {
        valid(edited('ACCOUNT', { '/debtorAgent': { clearingSystemMemberId: { memberId: '632005' } } }));
        valid(edited('ACCOUNT', { '/debtorAgent': { memberId: '632005' } }));
        valid(edited('ACCOUNT', { '/debtorAgent': { bicfi: 'ABSAZAJJXXX' } }));
    });
    void it('does not judge the expiry against the clock: a past expiry passes validation (the use case asks expiryProblem)', () => {
        assert.equal(valid(edited('MOBILE', { '/expiryDateTime': '2001-01-01T00:00:00Z' })).expiresAt, Date.UTC(2001, 0, 1));
    });
    void it('takes every published MOBILE spelling of a proxy, and custom proxies in any form', () => {
        for (const value of ['0821234567', '+27821234567', '+27-821234567', '+27-0821234567', '27821234567', '+27-0214620000']) {
            valid(edited('MOBILE', { [`${DEBTOR_PROXY}/value`]: value }));
        }
        for (const value of ['value@domain', 'SHOP-42', '0821234567'])
            valid(edited('CUSTOM', { [`${DEBTOR_PROXY}/value`]: value }));
    });
    void it('takes an instructedAmount beside the settlement amount', () => {
        valid(edited('MOBILE', { '/amounts/instructedAmount': { currency: 'ZAR', value: 450 } }));
    });
});
void describe('RequestToPay validation: the conditions surround the amount', () => {
    void it(`refuses a minAmount above the amount, naming ${MIN}/value`, () => {
        refusedOnly(edited('MOBILE', { [`${MIN}/value`]: 450.01 }), `${MIN}/value`, 'must not be more than amounts.bankSettlementAmount (450.00 ZAR)');
    });
    void it(`refuses a maxAmount below the amount, naming ${MAX}/value`, () => {
        refusedOnly(edited('MOBILE', { [`${MAX}/value`]: 449.99 }), `${MAX}/value`, 'must not be less than amounts.bankSettlementAmount (450.00 ZAR)');
    });
    void it('refuses both bounds on the wrong side at once', () => {
        const found = faults(edited('MOBILE', { [`${MIN}/value`]: 600, [`${MAX}/value`]: 100 }));
        assert.deepEqual([...found.keys()].sort(), [`${MAX}/value`, `${MIN}/value`]);
    });
    void it('compares the amounts written, not their floats', () => {
        const base = edited('MOBILE', { '/requestToPayConditions': REMOVE });
        const text = (amount, min, max) => (json) => json.replace(/"bankSettlementAmount": \{[^}]*\}/, `"bankSettlementAmount": {"currency": "ZAR", "value": ${amount}}},"requestToPayConditions": {"minAmount": {"currency": "ZAR", "value": ${min}}, "maxAmount": {"currency": "ZAR", "value": ${max}}`);
        // 12345678901234567.89 and .88 are the same double; as amounts they differ by one cent.
        const exact = valid(sent(base, text('12345678901234567.89', '12345678901234567.89', '12345678901234567.89')));
        assert.equal(exact.amount.minor, 1234567890123456789n);
        const found = faultsOf(validateRequestToPay(sent(base, text('12345678901234567.88', '12345678901234567.89', '12345678901234567.90'))));
        onlyFault(found, `${MIN}/value`, 'must not be more than amounts.bankSettlementAmount (12345678901234567.88 ZAR)');
    });
    void it(`refuses a bound in another currency, naming its currency (e.g. ${MIN}/currency)`, () => {
        refusedOnly(edited('MOBILE', { [`${MIN}/currency`]: 'USD' }), `${MIN}/currency`, 'must be ZAR, the currency of amounts.bankSettlementAmount');
        refusedOnly(edited('MOBILE', { [`${MAX}/currency`]: 'USD', [`${MAX}/value`]: 1 }), `${MAX}/currency`, 'must be ZAR, the currency of amounts.bankSettlementAmount');
    });
    void it('names each bound in another currency when the amount changes currency', () => {
        const found = faults(edited('MOBILE', { '/amounts/bankSettlementAmount/currency': 'USD' }));
        assert.deepEqual([...found.keys()].sort(), [`${MAX}/currency`, `${MIN}/currency`]);
    });
    void it('checks the ISO 4217 decimals of every amount, once per fault', () => {
        refusedOnly(edited('MOBILE', { '/amounts/bankSettlementAmount/value': 450.001 }), '/amounts/bankSettlementAmount/value', 'must have at most 2 decimals for ZAR');
        refusedOnly(edited('MOBILE', { [`${MIN}/value`]: 400.001 }), `${MIN}/value`, 'must have at most 2 decimals for ZAR');
        refusedOnly(edited('MOBILE', { [`${MAX}/currency`]: 'XAU' }), `${MAX}/currency`, /XAU has no minor unit in ISO 4217/);
        refusedOnly(edited('MOBILE', { [`${MAX}/currency`]: 'ZZZ' }), `${MAX}/currency`, 'ZZZ is not an active ISO 4217 currency code');
    });
    void it('refuses a negative bound once, for its sign', () => {
        refusedOnly(edited('MOBILE', { [`${MIN}/value`]: -1 }), `${MIN}/value`, 'must not be negative');
    });
});
void describe('RequestToPay validation: accounts, proxies and the debtor agent', () => {
    for (const party of ['creditor', 'debtor']) {
        void it(`refuses a ${party}Account with neither identification nor proxy value, naming /${party}Account`, () => {
            const message = 'must carry identification (with its value) or proxy (with its value), or both';
            refusedOnly(edited('MOBILE', { [`/${party}Account`]: { name: 'Somebody' } }), `/${party}Account`, message);
            refusedOnly(edited('MOBILE', { [`/${party}Account`]: { identification: { schema: 'GENERIC' }, proxy: { schema: 'MOBILE', namespace: 'ZA_MOBILE' } } }), `/${party}Account`, message);
        });
        const pointer = `/${party}Account/proxy`;
        void it(`refuses a proxy of the ${party} without schema or namespace, naming each`, () => {
            refusedOnly(edited('CUSTOM', { [`${pointer}/schema`]: REMOVE }), `${pointer}/schema`, 'is required for a proxy: MOBILE or CUSTOM');
            refusedOnly(edited('CUSTOM', { [`${pointer}/namespace`]: REMOVE }), `${pointer}/namespace`, 'is required for a proxy, e.g. ZA_MOBILE or ZA_CUSTOM');
            refusedOnly(edited('CUSTOM', { [`${pointer}/namespace`]: ' ' }), `${pointer}/namespace`, 'must not be blank');
        });
        void it(`refuses a proxy of the ${party} of another kind than MOBILE or CUSTOM`, () => {
            refusedOnly(edited('CUSTOM', { [`${pointer}/schema`]: 'EMAIL' }), `${pointer}/schema`, 'must be MOBILE or CUSTOM');
            refusedOnly(edited('CUSTOM', { [`${pointer}/schema`]: 'GENERIC' }), `${pointer}/schema`, 'must be MOBILE or CUSTOM');
            refusedOnly(edited('CUSTOM', { [`${pointer}/schema`]: 7 }), `${pointer}/schema`, 'must be a string');
        });
    }
    void it('refuses MOBILE proxies that are not a South African number in a published form', () => {
        for (const value of ['821234567', '+27 82 123 4567', '+270821234567', '+44-7911123456', 'thandi@bank']) {
            refusedOnly(edited('MOBILE', { [`${DEBTOR_PROXY}/value`]: value }), `${DEBTOR_PROXY}/value`, /must be a South African mobile number in one of the forms/);
        }
    });
    void it('refuses a CUSTOM proxy of only spaces, and an over-long proxy once for its length', () => {
        refusedOnly(edited('CUSTOM', { [`${DEBTOR_PROXY}/value`]: '   ' }), `${DEBTOR_PROXY}/value`, 'must not be blank');
        refusedOnly(edited('MOBILE', { [`${DEBTOR_PROXY}/value`]: '0'.repeat(2049) }), `${DEBTOR_PROXY}/value`, 'must be at most 2048 characters long');
    });
    void it('requires debtorAgent for a debtor named by account number only, naming /debtorAgent', () => {
        refusedOnly(edited('ACCOUNT', { '/debtorAgent': REMOVE }), '/debtorAgent', /^is required when debtorAccount is identified by account number only/);
    });
    void it('refuses a debtorAgent that names no institution for an account number', () => {
        refusedOnly(edited('ACCOUNT', { '/debtorAgent': { name: 'Absa Bank Limited' } }), '/debtorAgent', /^must carry bicfi or clearingSystemMemberId.memberId/);
    });
    void it('refuses a debtorAgent that is not an object once, on debtorAgent itself', () => {
        refusedOnly(edited('ACCOUNT', { '/debtorAgent': 'ABSAZAJJ' }), '/debtorAgent', 'must be an object');
    });
    void it('requires creditorAgent and debtorAccount', () => {
        refusedOnly(edited('MOBILE', { '/creditorAgent': REMOVE }), '/creditorAgent', 'is required');
        refusedOnly(edited('MOBILE', { '/debtorAccount': REMOVE }), '/debtorAccount', 'is required');
    });
});
void describe('RequestToPay validation: what the pain.013 carries', () => {
    void it(`refuses remittance lines that take more than ${REMITTANCE_PIECES_MAX} pieces of ${REMITTANCE_PIECE_CHARS} characters, as a credit transfer does`, () => {
        const field = '/remittanceInformation/unstructured';
        valid(edited('MOBILE', { [field]: Array.from({ length: REMITTANCE_PIECES_MAX }, () => 'x'.repeat(REMITTANCE_PIECE_CHARS)) }));
        refusedOnly(edited('MOBILE', { [field]: ['x'.repeat(REMITTANCE_PIECE_CHARS * 5 + 1), 'x'.repeat(REMITTANCE_PIECE_CHARS * 5)] }), field, /^must fit in /);
        refusedOnly(edited('MOBILE', { [field]: Array.from({ length: 50_000 }, () => 'x') }), field, `must have at most ${REMITTANCE_PIECES_MAX} items`);
    });
});
void describe('RequestToPay validation: required fields and forms', () => {
    const required = [
        '/schema',
        '/messageIdentifiers',
        '/messageIdentifiers/messageIdentification',
        '/messageIdentifiers/creationDateTime',
        '/transactionIdentifiers',
        '/transactionIdentifiers/endToEndIdentification',
        '/transactionIdentifiers/uetr',
        '/paymentScheme',
        '/paymentScheme/schema',
        '/amounts',
        '/amounts/bankSettlementAmount',
        '/amounts/bankSettlementAmount/currency',
        '/amounts/bankSettlementAmount/value',
        '/paymentTypeInformation',
        '/paymentTypeInformation/localInstrument',
        '/paymentTypeInformation/localInstrument/schema',
        '/paymentTypeInformation/localInstrument/value',
        '/expiryDateTime',
        '/creditor',
        '/creditorAccount',
        '/creditorAgent',
        '/debtor',
        '/debtorAccount',
    ];
    for (const pointer of required) {
        void it(`refuses a request without ${pointer}, naming that pointer`, () => {
            // Without the settlement amount's currency, the bounds cannot be compared: only the missing field is told.
            refusedOnly(edited('MOBILE', { [pointer]: REMOVE }), pointer, 'is required');
        });
    }
    void it('refuses a body that is not an object, naming the whole message', () => {
        for (const value of [null, [], 'RequestToPay', 42, true])
            refusedOnly(value, '', 'the message must be an object');
    });
    void it('refuses another message schema', () => {
        refusedOnly(edited('MOBILE', { '/schema': 'CreditTransfer' }), '/schema', 'must be RequestToPay');
    });
    void it('refuses a local instrument that is not PROPRIETARY or not a published PayShap value', () => {
        refusedOnly(edited('MOBILE', { '/paymentTypeInformation/localInstrument/schema': 'CODE' }), '/paymentTypeInformation/localInstrument/schema', 'must be PROPRIETARY');
        refusedOnly(edited('MOBILE', { '/paymentTypeInformation/localInstrument/value': 'RPP' }), '/paymentTypeInformation/localInstrument/value', 'must be one of PBA, PBPX, RTP-PBA, RTP-PBPX');
    });
    void it('refuses an unknown scheme, listing the seven', () => {
        refusedOnly(edited('MOBILE', { '/paymentScheme/schema': 'PAYSHAP' }), '/paymentScheme/schema', 'must be one of ZA_RTC, ZA_RPP, ZA_EFT, ZA_AC, ZA_RMS, CBPR_PLUS, TCIB');
    });
    void it('takes RFC 3339 expiry times with or without fractions, with Z or an offset, and refuses others', () => {
        for (const time of ['2026-03-02T09:15:27Z', '2026-03-02T09:15:27.482Z', '2026-03-02T11:15:27+02:00', '2026-03-02 09:15:27z']) {
            valid(edited('MOBILE', { '/expiryDateTime': time }));
        }
        refusedOnly(edited('MOBILE', { '/expiryDateTime': '2026-03-02T09:15:27' }), '/expiryDateTime', /must be an RFC 3339 date-time with a time zone/);
        refusedOnly(edited('MOBILE', { '/expiryDateTime': '2026-02-30T09:15:27Z' }), '/expiryDateTime', /is not a real date and time/);
    });
    const limited = ['/messageIdentifiers/messageIdentification', '/transactionIdentifiers/endToEndIdentification', '/transactionIdentifiers/transactionIdentification'];
    for (const field of limited) {
        void it(`takes 1 to 35 characters in ${field} and refuses 36 and none`, () => {
            valid(edited('MOBILE', { [field]: 'X'.repeat(35) }));
            refusedOnly(edited('MOBILE', { [field]: 'X'.repeat(36) }), field, 'must be at most 35 characters long');
            refusedOnly(edited('MOBILE', { [field]: '' }), field, 'must not be empty');
        });
    }
    void it('lists every fault of a request in one answer', () => {
        const message = edited('ACCOUNT', {
            '/messageIdentifiers/messageIdentification': 'M'.repeat(36),
            '/transactionIdentifiers/uetr': 'not-a-uuid',
            '/debtorAgent': REMOVE,
            [`${MIN}/value`]: 9000.01,
            '/creditorAccount': {},
            '/expiryDateTime': 'tomorrow',
        });
        assert.deepEqual([...faults(message).keys()].sort(), ['/creditorAccount', '/debtorAgent', '/expiryDateTime', '/messageIdentifiers/messageIdentification', `${MIN}/value`, '/transactionIdentifiers/uetr']);
    });
});
void describe('RequestToPay expiry (clock and configuration)', () => {
    const NOW = Date.parse('2026-03-02T09:00:00.000Z');
    const DAY_MS = 86_400_000;
    void it('finds nothing wrong with an expiry in the future within the horizon, up to the horizon itself', () => {
        assert.equal(expiryProblem('2026-03-02T10:00:00Z', NOW, DAY_MS), undefined);
        assert.equal(expiryProblem('2026-03-02T09:00:00.001Z', NOW, DAY_MS), undefined);
        assert.equal(expiryProblem('2026-03-03T09:00:00Z', NOW, DAY_MS), undefined);
        assert.equal(expiryProblem('2026-03-03T11:00:00+02:00', NOW, DAY_MS), undefined);
    });
    void it('says an expiry now or in the past must be in the future, with the service time', () => {
        const message = "must be in the future (the service's time is 2026-03-02T09:00:00.000Z)";
        assert.equal(expiryProblem('2026-03-02T09:00:00Z', NOW, DAY_MS), message);
        assert.equal(expiryProblem('2026-03-02T10:59:59.999+02:00', NOW, DAY_MS), message);
    });
    void it('says an expiry beyond the horizon must be at most that far ahead, with the latest instant', () => {
        assert.equal(expiryProblem('2026-03-03T09:00:00.001Z', NOW, DAY_MS), 'must be at most 1 day ahead, not after 2026-03-03T09:00:00.000Z');
        assert.equal(expiryProblem('2026-04-02T09:00:00Z', NOW, 7 * DAY_MS), 'must be at most 7 days ahead, not after 2026-03-09T09:00:00.000Z');
        assert.equal(expiryProblem('2026-03-02T11:00:00Z', NOW, 90 * 60_000), 'must be at most 90 minutes ahead, not after 2026-03-02T10:30:00.000Z');
    });
    void it('says a text that is no RFC 3339 date-time must be one', () => {
        assert.match(expiryProblem('tomorrow', NOW, DAY_MS) ?? '', /must be an RFC 3339 date-time/);
    });
    void it('gives the fixtures an expiry an hour ahead', () => {
        const now = Date.now();
        const message = requestToPay('MOBILE', now);
        assert.equal(dateTimeEpochMs(message.expiryDateTime), now + FIXTURE_EXPIRY_MS);
        assert.equal(expiryProblem(message.expiryDateTime, now, DAY_MS), undefined);
    });
});
void describe('RFC 3339 instants', () => {
    void it('reads Z and offsets exactly, to the millisecond', () => {
        const cases = {
            '2026-03-02T09:15:27Z': '2026-03-02T09:15:27.000Z',
            '2026-03-02T11:15:27.5+02:00': '2026-03-02T09:15:27.500Z',
            '2026-03-01T23:45:27.123-09:30': '2026-03-02T09:15:27.123Z',
            '2026-03-02t09:15:27.482z': '2026-03-02T09:15:27.482Z',
            '2026-03-02 09:15:27Z': '2026-03-02T09:15:27.000Z',
            '2024-02-29T00:00:00+14:00': '2024-02-28T10:00:00.000Z',
            '1970-01-01T00:00:00Z': '1970-01-01T00:00:00.000Z',
            '1969-12-31T23:59:59.999Z': '1969-12-31T23:59:59.999Z',
        };
        for (const [text, iso] of Object.entries(cases))
            assert.equal(dateTimeEpochMs(text), Date.parse(iso), text);
    });
    void it('cuts fractions beyond the millisecond, never rounding up', () => {
        assert.equal(dateTimeEpochMs('2026-03-02T09:15:27.123999999Z'), Date.parse('2026-03-02T09:15:27.123Z'));
    });
    void it('reads the years 0000 to 0099 as written, and a leap second as the first millisecond after it', () => {
        assert.equal(dateTimeEpochMs('0050-06-01T00:00:00Z'), new Date('0050-06-01T00:00:00Z').getTime());
        assert.equal(dateTimeEpochMs('0000-01-01T00:00:00Z'), -62_167_219_200_000);
        assert.equal(dateTimeEpochMs('2016-12-31T23:59:60Z'), Date.parse('2017-01-01T00:00:00Z'));
    });
    void it('gives undefined for texts that are not RFC 3339 instants', () => {
        for (const text of ['', '2026-03-02', '2026-03-02T09:15:27', '2026-02-30T00:00:00Z', '2026-03-02T09:15:27+0200', '2026-03-02T24:00:00Z']) {
            assert.equal(dateTimeEpochMs(text), undefined, text);
        }
    });
});
void describe('RequestToPayStatusRequest validation', () => {
    const check = validateRequestToPayStatusRequest;
    void it('accepts the sample for each request, as an object and as JSON text, with the uetr lowercased', () => {
        for (const kind of REQUEST_TO_PAY_FIXTURES) {
            const original = requestToPay(kind);
            const message = requestToPayStatusRequest(original);
            const result = accepted(check(message));
            assert.equal(result.message, message);
            assert.equal(result.messageId, message.messageIdentifiers.messageIdentification);
            assert.equal(result.uetr, original.transactionIdentifiers.uetr.toLowerCase());
            accepted(check(sent(message)));
        }
    });
    void it('lowercases the uetr and takes a request without originalMessageIdentifiers, agents or transactionIdentification', () => {
        const message = requestToPayStatusRequest(requestToPay('CUSTOM'));
        delete message.originalMessageIdentifiers;
        delete message.instructingAgent;
        message.originalTransactionIdentifiers.uetr = 'E1B5C6A2-6F4B-4C3A-9A77-0D3E5B9C1F20';
        assert.equal(accepted(check(message)).uetr, 'e1b5c6a2-6f4b-4c3a-9a77-0d3e5b9c1f20');
    });
    void it('requires originalTransactionIdentifiers with its endToEndIdentification and uetr', () => {
        for (const pointer of ['/originalTransactionIdentifiers', '/originalTransactionIdentifiers/endToEndIdentification', '/originalTransactionIdentifiers/uetr', '/messageIdentifiers', '/schema']) {
            const message = requestToPayStatusRequest(requestToPay('MOBILE'));
            edit(message, pointer, REMOVE);
            onlyFault(faultsOf(check(message)), pointer, 'is required');
        }
    });
    void it('refuses another schema, a malformed uetr and an agent that is no institution, all at once', () => {
        const message = requestToPayStatusRequest(requestToPay('MOBILE'));
        edit(message, '/schema', 'PaymentStatusRequest');
        edit(message, '/originalTransactionIdentifiers/uetr', 'nope');
        edit(message, '/instructedAgent', { bicfi: 'demo' });
        assert.deepEqual([...faultsOf(check(message)).keys()].sort(), ['/instructedAgent/bicfi', '/originalTransactionIdentifiers/uetr', '/schema']);
    });
});
void describe('RequestToPayCancellation validation', () => {
    const check = validateRequestToPayCancellation;
    void it('accepts the sample with each reason code of the list, giving the code and the lowercased uetr', () => {
        const original = requestToPay('ACCOUNT');
        for (const code of Object.keys(CANCELLATION_REASON_CODES)) {
            const result = accepted(check(sent(requestToPayCancellation(original, code))));
            assert.equal(result.reasonCode, code);
            assert.equal(result.uetr, original.transactionIdentifiers.uetr.toLowerCase());
        }
    });
    void it('defaults the fixture reason to CUST', () => {
        assert.equal(requestToPayCancellation(requestToPay()).reasonCode, 'CUST');
    });
    void it('publishes ExternalCancellationReason1Code, including CUST, DUPL, AM09, AC03, FRAD, TECH, UPAY and the request-to-pay codes', () => {
        const codes = Object.keys(CANCELLATION_REASON_CODES);
        assert.equal(codes.length, 33);
        for (const code of codes)
            assert.match(code, /^[A-Z0-9]{4}$/);
        for (const code of ['CUST', 'DUPL', 'AM09', 'AC03', 'FRAD', 'TECH', 'UPAY', 'DRTP', 'ECAG', 'MODT', 'PAID', 'PPRC'])
            assert.ok(codes.includes(code), code);
    });
    void it('refuses a reason code outside the list, or missing', () => {
        for (const code of ['cust', 'XXXX', 'AM05', '', 'CUSTOMER']) {
            const message = requestToPayCancellation(requestToPay('MOBILE'));
            edit(message, '/reasonCode', code);
            onlyFault(faultsOf(check(message)), '/reasonCode', /^must be one of AC02, AC03, AGNT, AM09/);
        }
        const missing = requestToPayCancellation(requestToPay('MOBILE'));
        edit(missing, '/reasonCode', REMOVE);
        onlyFault(faultsOf(check(missing)), '/reasonCode', 'is required');
    });
    void it('requires originalTransactionIdentifiers, takes no originalMessageIdentifiers, and ignores a paymentScheme', () => {
        const message = requestToPayCancellation(requestToPay('MOBILE'));
        delete message.originalMessageIdentifiers;
        accepted(check({ ...message, paymentScheme: { schema: 'ZA_RPP' } }));
        edit(message, '/originalTransactionIdentifiers', REMOVE);
        onlyFault(faultsOf(check(message)), '/originalTransactionIdentifiers', 'is required');
    });
});
void describe('request-to-pay statuses', () => {
    void it('has seven statuses, four of them final', () => {
        assert.deepEqual([...RTP_STATUSES], ['PENDING', 'PRESENTED', 'ACCEPTED', 'PAID', 'REJECTED', 'EXPIRED', 'CANCELLED']);
        assert.deepEqual([...RTP_FINAL_STATUSES], ['PAID', 'REJECTED', 'EXPIRED', 'CANCELLED']);
        assert.deepEqual(RTP_STATUSES.filter(isFinalRtpStatus), [...RTP_FINAL_STATUSES]);
    });
    void it('maps the scheme ISO codes PDNG, PRES, ACCP, ACSC and RJCT', () => {
        const expected = { PDNG: 'PENDING', PRES: 'PRESENTED', ACCP: 'ACCEPTED', ACSC: 'PAID', RJCT: 'REJECTED' };
        for (const [code, status] of Object.entries(expected))
            assert.equal(rtpStatusFromIso(code), status, code);
        assert.equal(RTP_ISO_STATUSES.size, 5);
    });
    void it('maps any other code to PENDING, never to a final status', () => {
        for (const code of ['ACTC', 'ACWC', 'CANC', 'UNKN', 'pdng', '', 'constructor', '__proto__', 'toString']) {
            assert.equal(rtpStatusFromIso(code), 'PENDING', code);
        }
    });
});
void describe('RequestToPayResponse JSON', () => {
    const CREATED_AT = Date.parse('2026-03-02T07:15:28.250Z');
    const checkResponse = makeValidator(RequestToPayResponseSchema);
    function response(input) {
        const text = requestToPayResponseJson({ messageIdentification: 'RSP-0001', createdAt: CREATED_AT, ...input });
        return { text, body: readResponse(text, checkResponse) };
    }
    void it('writes the status, its own identifiers, the request identifiers and the conditions echoed', () => {
        const original = edited('MOBILE');
        const { body } = response({ original, status: 'PRESENTED' });
        assert.deepEqual(body, {
            schema: 'RequestToPayResponse',
            messageIdentifiers: { messageIdentification: 'RSP-0001', creationDateTime: '2026-03-02T07:15:28.250Z' },
            originalMessageIdentifiers: original.messageIdentifiers,
            transactionIdentifiers: original.transactionIdentifiers,
            status: { status: 'PRESENTED', reasonInfo: [] },
            requestToPayConditions: { minAmount: { currency: 'ZAR', value: 400 }, maxAmount: { currency: 'ZAR', value: 500.5 } },
        });
    });
    void it('writes a rejection with its ISO reason code and text, as a PaymentStatusReport does', () => {
        const { body } = response({ original: edited('CUSTOM'), status: 'REJECTED', reasonCode: 'AC04', reasonText: 'Account closed' });
        assert.deepEqual(body.status, { status: 'REJECTED', reasonInfo: [{ reason: { schema: 'CODE', value: 'AC04' }, additionalInformation: ['Account closed'] }] });
        const bare = response({ original: edited('CUSTOM'), status: 'EXPIRED', reasonCode: 'DS24' }).body;
        assert.deepEqual(bare.status.reasonInfo, [{ reason: { schema: 'CODE', value: 'DS24' } }]);
    });
    void it('writes no requestToPayConditions when the request had none', () => {
        const { body } = response({ original: edited('MOBILE', { '/requestToPayConditions': REMOVE }), status: 'PENDING' });
        assert.equal('requestToPayConditions' in body, false);
    });
    void it('echoes only the bounds the request had, with the currency decimals', () => {
        const { text } = response({ original: edited('MOBILE', { [MIN]: REMOVE }), status: 'ACCEPTED' });
        assert.match(text, /"requestToPayConditions":\{"maxAmount":\{"currency":"ZAR","value":500\.50\}\}\}$/);
        const empty = response({ original: edited('MOBILE', { '/requestToPayConditions': {} }), status: 'ACCEPTED' });
        assert.deepEqual(empty.body.requestToPayConditions, {});
    });
    void it('writes the bounds digit for digit from the amounts sent, never through a float', () => {
        const original = sent(edited('MOBILE'), (json) => json
            .replace(/"bankSettlementAmount": \{[^}]*\}/, '"bankSettlementAmount": {"currency": "ZAR", "value": 12345678901234567.88}')
            .replace(/"minAmount": \{[^}]*\}/, '"minAmount": {"currency": "ZAR", "value": 12345678901234567.87}')
            .replace(/"maxAmount": \{[^}]*\}/, '"maxAmount": {"currency": "ZAR", "value": 12345678901234567.89}'));
        const result = valid(original);
        const { body } = response({ original: result.message, status: 'PAID' });
        assert.equal(numberText(body.requestToPayConditions.minAmount, 'value'), '12345678901234567.87');
        assert.equal(numberText(body.requestToPayConditions.maxAmount, 'value'), '12345678901234567.89');
    });
    void it('writes a zero-decimal currency without a fraction', () => {
        const original = sent(edited('MOBILE', { '/amounts/bankSettlementAmount': { currency: 'JPY', value: 1050 }, [MIN]: { currency: 'JPY', value: 1000.0 }, [MAX]: REMOVE }), (json) => json.replace('"value": 1000', '"value": 1000.0'));
        const { text } = response({ original: valid(original).message, status: 'PAID' });
        assert.match(text, /"minAmount":\{"currency":"JPY","value":1000\}/);
    });
});
void describe('RequestToPayCancellationResponse JSON', () => {
    const CREATED_AT = Date.parse('2026-03-02T07:20:00Z');
    const checkResponse = makeValidator(RequestToPayCancellationResponseSchema);
    function response(input) {
        return readResponse(requestToPayCancellationResponseJson({ messageIdentification: 'CRS-0001', createdAt: CREATED_AT, ...input }), checkResponse);
    }
    void it('writes an accepted cancellation naming the cancellation and the request, with the request status after it', () => {
        const original = edited('ACCOUNT');
        const cancellation = requestToPayCancellation(original, 'DUPL');
        const body = response({ cancellation, original, accepted: true, requestToPayStatus: 'CANCELLED' });
        assert.deepEqual(body, {
            schema: 'RequestToPayCancellationResponse',
            messageIdentifiers: { messageIdentification: 'CRS-0001', creationDateTime: '2026-03-02T07:20:00.000Z' },
            originalMessageIdentifiers: cancellation.messageIdentifiers,
            originalTransactionIdentifiers: original.transactionIdentifiers,
            cancellationStatus: { status: 'ACCEPTED', reasonInfo: [] },
            requestToPayStatus: { status: 'CANCELLED' },
        });
    });
    void it('writes a rejected cancellation with its reason, the request keeping its status', () => {
        const original = edited('MOBILE');
        const body = response({
            cancellation: requestToPayCancellation(original),
            original,
            accepted: false,
            reasonCode: 'AACR',
            reasonText: 'Request-to-pay already accepted',
            requestToPayStatus: 'ACCEPTED',
        });
        assert.deepEqual(body.cancellationStatus, {
            status: 'REJECTED',
            reasonInfo: [{ reason: { schema: 'CODE', value: 'AACR' }, additionalInformation: ['Request-to-pay already accepted'] }],
        });
        assert.deepEqual(body.requestToPayStatus, { status: 'ACCEPTED' });
    });
});
//# sourceMappingURL=request-to-pay-validation.test.js.map