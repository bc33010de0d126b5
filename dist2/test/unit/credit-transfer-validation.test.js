import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { ADDRESS_LINES_MAX, LIST_ITEMS_MAX } from '../../src/domain/messages/common.js';
import { CHARGES_MAX, REMITTANCE_PIECE_CHARS, REMITTANCE_PIECES_MAX, REPORTING_DETAILS_MAX, REPORTING_INFORMATION_LINES_MAX, } from '../../src/domain/messages/credit-transfer.js';
import { makeValidator, validateCreditTransfer } from '../../src/domain/messages/validate.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { checksOf, edit, REMOVE, sent as sentMessage, withEdits } from '../support/validation.js';
function body(kind = 'ZA_RPP') {
    return creditTransfer(kind);
}
/** A fresh sample of `kind` with the edits applied, keyed by JSON pointer. */
function edited(kind, edits) {
    return withEdits(body(kind), edits);
}
/** The value at a JSON pointer. */
function at(message, pointer) {
    let value = message;
    for (const token of pointer.split('/').slice(1))
        value = value[token];
    return value;
}
/** The sample of `kind` as an integrator would send it: JSON text, parsed by parseJson, with `change` applied to the text first. */
function sent(kind, change) {
    return sentMessage(creditTransfer(kind), change);
}
const { valid, faults, refusedOnly } = checksOf(validateCreditTransfer);
void describe('CreditTransfer validation: valid messages', () => {
    for (const kind of CREDIT_TRANSFER_FIXTURES) {
        void it(`accepts the ${kind} sample, as an object and as parsed JSON text`, () => {
            valid(body(kind));
            valid(sent(kind, (text) => text));
        });
    }
    void it('gives the parsed settlement amount, scheme, lowercased uetr and message id', () => {
        const message = edited('CBPR_PLUS', { '/transactionIdentifiers/uetr': 'E1B5C6A2-6F4B-4C3A-9A77-0D3E5B9C1F20' });
        const result = valid(message);
        assert.deepEqual(result.settlementAmount, { currency: 'USD', minor: 1250000n });
        assert.deepEqual(result.instructedAmount, { currency: 'ZAR', minor: 22812500n });
        assert.equal(result.scheme, 'CBPR_PLUS');
        assert.equal(result.uetr, 'e1b5c6a2-6f4b-4c3a-9a77-0d3e5b9c1f20');
        assert.equal(result.messageId, at(message, '/messageIdentifiers/messageIdentification'));
        assert.equal(result.message, message, 'the message itself, not a copy');
    });
    void it('leaves out instructedAmount when the message has none', () => {
        assert.equal('instructedAmount' in valid(body('ZA_RTC')), false);
    });
    void it('keeps unknown fields everywhere and never changes the body', () => {
        const message = edited('ZA_RTC', {
            '/integratorData': { channel: 'branch', weights: [1.5, 2] },
            '/creditor/nickname': 'KSI',
            '/amounts/bankSettlementAmount/fxNote': 'none',
            '/creditorAccount/identification/checkDigit': 7,
        });
        const before = structuredClone(message);
        const result = valid(message);
        assert.deepEqual(message, before);
        assert.deepEqual(at(result.message, '/integratorData'), { channel: 'branch', weights: [1.5, 2] });
    });
    void it('accepts a ZA_AC or ZA_RMS scheme value: whether the scheme carries credit transfers is decided later (422)', () => {
        for (const scheme of ['ZA_AC', 'ZA_RMS'])
            assert.equal(valid(edited('ZA_RTC', { '/paymentScheme': { schema: scheme } })).scheme, scheme);
    });
});
void describe('CreditTransfer validation: amounts (ISO 4217)', () => {
    const VALUE = '/amounts/bankSettlementAmount/value';
    const CURRENCY = '/amounts/bankSettlementAmount/currency';
    void it('refuses 10.001 ZAR naming /amounts/bankSettlementAmount/value', () => {
        refusedOnly(edited('ZA_RPP', { '/amounts/bankSettlementAmount': { currency: 'ZAR', value: 10.001 } }), VALUE, 'must have at most 2 decimals for ZAR');
    });
    void it('refuses 10.000 ZAR as sent in JSON, though it equals 10', () => {
        const message = sent('ZA_RTC', (text) => text.replace('"value": 15000', '"value": 10.000'));
        refusedOnly(message, VALUE, 'must have at most 2 decimals for ZAR');
    });
    void it('accepts 10, 10.0, 10.00, 0.5, 1.5e1, 1E2 and 0 ZAR as sent in JSON, judging the written text', () => {
        const expected = { '10': 1000n, '10.0': 1000n, '10.00': 1000n, '0.5': 50n, '1.5e1': 1500n, '1E2': 10000n, '0': 0n };
        for (const [written, minor] of Object.entries(expected)) {
            const message = sent('ZA_RTC', (text) => text.replace('"value": 15000', `"value": ${written}`));
            assert.equal(valid(message).settlementAmount.minor, minor, written);
        }
    });
    void it('judges a number built in code by its shortest form when no text was recorded', () => {
        refusedOnly(edited('ZA_RPP', { [VALUE]: 0.1 + 0.2 }), VALUE, 'must have at most 2 decimals for ZAR');
        assert.equal(valid(edited('ZA_RPP', { [VALUE]: 1234567.8 })).settlementAmount.minor, 123456780n);
    });
    void it('takes JPY 1500.0 and refuses JPY 1500.5 and 1500.00', () => {
        const inYen = (written) => sent('CBPR_PLUS', (text) => text.replace('"currency": "USD",\n      "value": 12500', `"currency": "JPY",\n      "value": ${written}`));
        assert.equal(valid(inYen('1500.0')).settlementAmount.minor, 1500n);
        refusedOnly(inYen('1500.5'), VALUE, 'must have no decimals for JPY (only .0 is accepted)');
        refusedOnly(inYen('1500.00'), VALUE, 'must have no decimals for JPY (only .0 is accepted)');
    });
    void it('takes KWD and BHD to three decimals and CLF to four', () => {
        const amount = '/amounts/bankSettlementAmount';
        assert.equal(valid(edited('CBPR_PLUS', { [amount]: { currency: 'KWD', value: 1.234 } })).settlementAmount.minor, 1234n);
        refusedOnly(edited('CBPR_PLUS', { [amount]: { currency: 'BHD', value: 1.2345 } }), VALUE, 'must have at most 3 decimals for BHD');
        assert.equal(valid(edited('CBPR_PLUS', { [amount]: { currency: 'CLF', value: 0.0001 } })).settlementAmount.minor, 1n);
    });
    void it('checks instructedAmount and tax.totalAmount like the settlement amount', () => {
        const message = edited('CBPR_PLUS', { '/amounts/instructedAmount/value': 1.001, '/tax': { totalAmount: { currency: 'ZAR', value: 0.125 } } });
        assert.deepEqual([...faults(message).keys()], ['/amounts/instructedAmount/value', '/tax/totalAmount/value']);
    });
    void it('refuses an unknown currency on /currency, saying it is not active ISO 4217', () => {
        refusedOnly(edited('ZA_RPP', { [CURRENCY]: 'ABC' }), CURRENCY, 'ABC is not an active ISO 4217 currency code');
    });
    void it('refuses a currency without minor unit (XAU) for an amount', () => {
        refusedOnly(edited('ZA_RPP', { [CURRENCY]: 'XAU' }), CURRENCY, /XAU has no minor unit/);
    });
    void it('refuses a currency that is not three capitals with one message, not two', () => {
        for (const currency of ['zar', 'ZA', 'ZARR', '', 'Z4R']) {
            refusedOnly(edited('ZA_RPP', { [CURRENCY]: currency }), CURRENCY, 'must be a three-letter ISO 4217 currency code in capitals, e.g. ZAR');
        }
    });
    void it('refuses a negative amount once, on value', () => {
        refusedOnly(edited('ZA_RPP', { [VALUE]: -5 }), VALUE, 'must not be negative');
    });
    void it('refuses an amount given as a string', () => {
        refusedOnly(edited('ZA_RPP', { [VALUE]: '10.00' }), VALUE, 'must be a number');
    });
    void it('refuses an amount too large for the stores', () => {
        refusedOnly(edited('CBPR_PLUS', { '/amounts/bankSettlementAmount': { currency: 'USD', value: 1e20 } }), VALUE, /too large/);
    });
    void it('lets an account currency be any three capitals, as the spec gives only the pattern', () => {
        valid(edited('CBPR_PLUS', { '/creditorAccount/currency': 'XAU' }));
        refusedOnly(edited('CBPR_PLUS', { '/creditorAccount/currency': 'usd' }), '/creditorAccount/currency', /three-letter ISO 4217/);
    });
});
void describe('CreditTransfer validation: required fields', () => {
    const required = ['schema', 'messageIdentifiers', 'transactionIdentifiers', 'amounts', 'creditor', 'creditorAccount', 'creditorAgent', 'debtor', 'debtorAgent', 'paymentScheme'];
    const nested = [
        '/messageIdentifiers/messageIdentification',
        '/messageIdentifiers/creationDateTime',
        '/transactionIdentifiers/endToEndIdentification',
        '/transactionIdentifiers/uetr',
        '/amounts/bankSettlementAmount',
        '/paymentScheme/schema',
    ];
    for (const pointer of [...required.map((field) => `/${field}`), ...nested]) {
        void it(`refuses a message without ${pointer}, naming that pointer`, () => {
            refusedOnly(edited('ZA_RPP', { [pointer]: REMOVE }), pointer, 'is required');
        });
    }
    void it('refuses an amount without currency or value, naming each', () => {
        const found = faults(edited('ZA_RPP', { '/amounts/bankSettlementAmount': {} }));
        assert.deepEqual([...found.keys()].sort(), ['/amounts/bankSettlementAmount/currency', '/amounts/bankSettlementAmount/value']);
    });
    void it('refuses clearingSystemMemberId without memberId', () => {
        refusedOnly(edited('ZA_RPP', { '/creditorAgent/clearingSystemMemberId': {} }), '/creditorAgent/clearingSystemMemberId/memberId', 'is required');
    });
    void it('refuses a body that is not an object, naming the whole message', () => {
        for (const value of [null, [], 'CreditTransfer', 42, true])
            refusedOnly(value, '', 'the message must be an object');
    });
    void it('refuses another schema value', () => {
        refusedOnly(edited('ZA_RPP', { '/schema': 'IdentifierDeterminationRequest' }), '/schema', 'must be CreditTransfer');
    });
    void it('escapes "/" and "~" in the pointer of a missing property', () => {
        const validate = makeValidator(Type.Object({ 'a/b~c': Type.String() }));
        const result = validate({});
        assert.deepEqual(result.ok ? [] : result.errors, [{ field: '/a~1b~0c', message: 'is required' }]);
    });
});
void describe('CreditTransfer validation: lengths and limits', () => {
    const limited = [
        ['/messageIdentifiers/messageIdentification', 1, 35],
        ['/transactionIdentifiers/endToEndIdentification', 1, 35],
        ['/transactionIdentifiers/instructionIdentification', 1, 35],
        ['/transactionIdentifiers/transactionIdentification', 1, 35],
        ['/creditor/knownAsName', 1, 140],
        ['/debtor/legalName', 1, 140],
        ['/creditorAccount/name', 0, 70],
        ['/debtorAccount/name', 0, 70],
        ['/creditorAgent/name', 0, 140],
        ['/debtorAgent/companyRegistration', 0, 35],
        ['/debtorAgent/memberId', 0, 35],
        ['/creditorAgent/clearingSystemMemberId/memberId', 1, 35],
        ['/creditorAccount/proxy/value', 1, 2048],
    ];
    for (const [field, min, max] of limited) {
        void it(`takes ${min} to ${max} characters in ${field} and refuses ${max + 1}${min > 0 ? ' and none' : ''}`, () => {
            const message = body();
            edit(message, field, 'x'.repeat(max));
            valid(message);
            if (min > 0) {
                edit(message, field, 'x'.repeat(min));
                valid(message);
                edit(message, field, '');
                refusedOnly(message, field, 'must not be empty');
            }
            edit(message, field, 'x'.repeat(max + 1));
            refusedOnly(message, field, `must be at most ${max} characters long`);
        });
    }
    void it('counts characters, not UTF-16 code units, in names', () => {
        valid(edited('ZA_RPP', { '/creditor/legalName': '😀'.repeat(140) }));
    });
    const arrays = [
        ['/intermediaryAgents', 3, () => ({ bicfi: 'CITIUS33' })],
        ['/previousInstructingAgents', 3, () => ({ bicfi: 'ABSAZAJJ' })],
        ['/regulatoryReporting', 10, () => ({ details: [{ code: '101' }] })],
        ['/regulatoryReporting/0/details', REPORTING_DETAILS_MAX, () => ({ code: '101' })],
        ['/regulatoryReporting/0/details/0/information', REPORTING_INFORMATION_LINES_MAX, () => 'Import of capital goods'],
        ['/paymentScheme/schemeData/charges', CHARGES_MAX, () => ({ amount: { currency: 'ZAR', value: 5 }, agent: { bicfi: 'ABSAZAJJ' } })],
        ['/instructionForCreditorAgent', LIST_ITEMS_MAX, () => ({ code: 'PHOB', information: '+27 21 462 0000' })],
        ['/remittanceInformation/unstructured', REMITTANCE_PIECES_MAX, () => 'Invoice 2026-118'],
        ['/remittanceInformation/structured', LIST_ITEMS_MAX, () => ({ creditorReference: 'RF18539007547034' })],
        ['/creditor/address/addressLine', ADDRESS_LINES_MAX, () => 'Unit 7'],
        ['/debtor/identification/identifiers', LIST_ITEMS_MAX, () => ({ identification: '9001015009087' })],
        ['/creditorAgent/additionalIdentifications', LIST_ITEMS_MAX, () => ({})],
    ];
    for (const [field, max, item] of arrays) {
        void it(`takes up to ${max} items in ${field} and refuses ${max + 1}`, () => {
            valid(edited('CBPR_PLUS', { [field]: Array.from({ length: max }, item) }));
            refusedOnly(edited('CBPR_PLUS', { [field]: Array.from({ length: max + 1 }, item) }), field, `must have at most ${max} items`);
        });
    }
    void it(`takes remittance lines that fit in ${REMITTANCE_PIECES_MAX} pieces of ${REMITTANCE_PIECE_CHARS} characters, and refuses more, naming the list`, () => {
        const field = '/remittanceInformation/unstructured';
        const line = (characters) => 'x'.repeat(characters);
        valid(edited('ZA_RTC', { [field]: [line(REMITTANCE_PIECES_MAX * REMITTANCE_PIECE_CHARS)] }));
        valid(edited('ZA_RTC', { [field]: [line(REMITTANCE_PIECE_CHARS + 1), ...Array.from({ length: REMITTANCE_PIECES_MAX - 2 }, () => line(REMITTANCE_PIECE_CHARS))] }));
        refusedOnly(edited('ZA_RTC', { [field]: [line(REMITTANCE_PIECE_CHARS + 1), ...Array.from({ length: REMITTANCE_PIECES_MAX - 1 }, () => line(1))] }), field, `must fit in ${REMITTANCE_PIECES_MAX} pieces of ${REMITTANCE_PIECE_CHARS} characters, as the scheme message carries remittance lines; these lines take ${REMITTANCE_PIECES_MAX + 1}`);
        refusedOnly(edited('ZA_RTC', { [field]: [line(REMITTANCE_PIECES_MAX * REMITTANCE_PIECE_CHARS + 1)] }), `${field}/0`, /^must be at most \d+ characters long$/);
    });
    void it("checks a charge's agent like any agent, on every scheme, and keeps the rest of a charge as sent", () => {
        const field = '/paymentScheme/schemeData/charges';
        valid(edited('ZA_RTC', { [field]: [{ amount: { anything: true }, agent: { bicfi: 'ABSAZAJJ' }, note: 'kept' }] }));
        refusedOnly(edited('ZA_RTC', { [field]: [{ agent: { bicfi: 'absazajj' } }] }), `${field}/0/agent/bicfi`, /must be a BIC/);
        refusedOnly(edited('CBPR_PLUS', { [`${field}/0/agent/name`]: 'x'.repeat(141) }), `${field}/0/agent/name`, 'must be at most 140 characters long');
    });
    void it('takes regulatory reporting information as one line or a list of lines', () => {
        const field = '/regulatoryReporting/0/details/0/information';
        for (const information of ['Import of capital goods', 101, ['Import', 'of capital goods']])
            valid(edited('CBPR_PLUS', { [field]: information }));
        refusedOnly(edited('CBPR_PLUS', { [field]: { text: 'Import' } }), field, 'must be a string or a number or an array');
    });
    void it('takes zero or more instructions for the creditor agent, each with code and information', () => {
        const field = '/instructionForCreditorAgent';
        valid(edited('ZA_RPP', { [field]: [] }));
        valid(edited('ZA_RPP', { [field]: [{ code: 'PHOB', information: '+27 21 462 0000' }, { code: 'HOLD' }] }));
        refusedOnly(edited('ZA_RPP', { [field]: [{ code: 7 }] }), '/instructionForCreditorAgent/0/code', 'must be a string');
    });
    void it('checks the institutions inside intermediaryAgents', () => {
        const message = edited('ZA_RPP', { '/intermediaryAgents': [{ bicfi: 'CITIUS33' }, { bicfi: 'citius33' }] });
        refusedOnly(message, '/intermediaryAgents/1/bicfi', /must be a BIC/);
    });
    void it('takes remittance information as unstructured strings and structured items', () => {
        const structured = [{ referredDocuments: [{ number: 'INV-1' }], creditorReference: { reference: 'RF18539007547034' }, additionalRemittanceInformation: ['x'] }];
        valid(edited('ZA_RPP', { '/remittanceInformation': { unstructured: ['Invoice 1', 'Invoice 2'], structured } }));
        refusedOnly(edited('ZA_RPP', { '/remittanceInformation': { unstructured: ['ok', 5] } }), '/remittanceInformation/unstructured/1', 'must be a string');
    });
});
void describe('CreditTransfer validation: codes, identifiers and times', () => {
    void it('takes 8- and 11-character BICs and refuses other forms', () => {
        const field = '/creditorAgent/bicfi';
        for (const bic of ['DEMOZAJJ', 'DEMOZAJJXXX', 'DEM0ZAJ2', 'CHASUS33XXX'])
            valid(edited('ZA_RPP', { [field]: bic }));
        for (const bic of ['DEMOZAJ', 'DEMOZAJJX', 'demozajj', 'DEMO1AJJ', 'DEMOZAJJXXXX', 'DEMO ZAJJ']) {
            refusedOnly(edited('ZA_RPP', { [field]: bic }), field, /must be a BIC \(ISO 9362\)/);
        }
    });
    void it('takes a 20-character LEI and refuses other forms', () => {
        const field = '/debtorAgent/lei';
        valid(edited('ZA_RPP', { [field]: '5493001KJTIIGC8Y1R12' }));
        for (const lei of ['5493001KJTIIGC8Y1R1', '5493001KJTIIGC8Y1RAB', '5493001kjtiigc8y1r12']) {
            refusedOnly(edited('ZA_RPP', { [field]: lei }), field, /must be an LEI/);
        }
    });
    void it('takes a real ISO 3166 country of residence and refuses others', () => {
        const field = '/creditor/countryOfResidence';
        valid(edited('ZA_RPP', { [field]: 'ZM' }));
        refusedOnly(edited('ZA_RPP', { [field]: 'XX' }), field, 'XX is not an ISO 3166-1 alpha-2 country code');
        refusedOnly(edited('ZA_RPP', { [field]: 'za' }), field, /two-letter ISO 3166-1 alpha-2/);
        refusedOnly(edited('ZA_RPP', { [field]: 'ZAF' }), field, /two-letter ISO 3166-1 alpha-2/);
    });
    void it('checks the country of residence of every party, initiating party included', () => {
        const message = edited('ZA_RPP', { '/initiatingParty': { countryOfResidence: 'QQ' } });
        refusedOnly(message, '/initiatingParty/countryOfResidence', 'QQ is not an ISO 3166-1 alpha-2 country code');
    });
    void it('takes a UUID in either case for the uetr and refuses other forms', () => {
        const field = '/transactionIdentifiers/uetr';
        valid(edited('ZA_RPP', { [field]: '8A562C67-CA16-48BA-B074-65581BE6F001' }));
        const wrong = ['8a562c67ca1648bab07465581be6f001', 'urn:uuid:8a562c67-ca16-48ba-b074-65581be6f001', '8a562c67-ca16-48ba-b074-65581be6f00', '{8a562c67-ca16-48ba-b074-65581be6f001}', ''];
        for (const uetr of wrong)
            refusedOnly(edited('ZA_RPP', { [field]: uetr }), field, /must be a UUID/);
    });
    const CREATED = '/messageIdentifiers/creationDateTime';
    void it('takes RFC 3339 creation times with or without fractions, with Z or an offset', () => {
        const times = [
            '2026-03-02T09:15:27Z',
            '2026-03-02T09:15:27.482Z',
            '2026-03-02T11:15:27+02:00',
            '2026-03-02T11:15:27.123456789-05:30',
            '2026-03-02t09:15:27z',
            '2026-03-02 09:15:27Z',
            '2016-12-31T23:59:60Z',
            '2017-01-01T01:59:60+02:00',
            '2024-02-29T00:00:00Z',
        ];
        for (const time of times)
            valid(edited('ZA_RPP', { [CREATED]: time }));
    });
    void it('refuses creation times without a zone or in other shapes', () => {
        const times = ['2026-03-02T09:15:27', '2026-03-02', '2026-03-02T09:15Z', '2026-03-02T09:15:27+0200', '2026-03-02T09:15:27+02', '02/03/2026 09:15', '2026-03-02T09:15:27.Z', ''];
        for (const time of times)
            refusedOnly(edited('ZA_RPP', { [CREATED]: time }), CREATED, /must be an RFC 3339 date-time with a time zone/);
    });
    void it('refuses creation times that are well formed but not real', () => {
        const times = [
            '2023-02-29T10:00:00Z',
            '2026-04-31T10:00:00Z',
            '2026-13-01T10:00:00Z',
            '2026-03-02T24:00:00Z',
            '2026-03-02T10:60:00Z',
            '2026-03-02T10:00:60Z',
            '2026-03-02T10:00:00+24:00',
            '2026-00-10T10:00:00Z',
        ];
        for (const time of times)
            refusedOnly(edited('ZA_RPP', { [CREATED]: time }), CREATED, /is not a real date and time/);
    });
    void it('takes a real settlement date and refuses others', () => {
        const field = '/settlementDate';
        valid(edited('ZA_RPP', { [field]: '2028-02-29' }));
        refusedOnly(edited('ZA_RPP', { [field]: '2027-02-29' }), field, 'is not a real calendar date');
        refusedOnly(edited('ZA_RPP', { [field]: '2027-2-1' }), field, /YYYY-MM-DD/);
        refusedOnly(edited('ZA_RPP', { [field]: '2027-03-01T00:00:00Z' }), field, /YYYY-MM-DD/);
    });
    void it('refuses an unknown scheme, listing the scheme values', () => {
        const message = edited('ZA_RPP', { '/paymentScheme/schema': 'ZA_RPP_PROXY_IDENTIFIER_DETERMINATION' });
        refusedOnly(message, '/paymentScheme/schema', 'must be one of ZA_RTC, ZA_RPP, ZA_EFT, ZA_AC, ZA_RMS, CBPR_PLUS, TCIB');
    });
});
void describe('CreditTransfer validation: creditor account and scheme rules', () => {
    void it('refuses a creditor account with neither identification nor proxy, naming /creditorAccount', () => {
        const message = edited('ZA_RPP', { '/creditorAccount': { name: 'Somebody', type: { schema: 'CODE', value: 'CACC' } } });
        refusedOnly(message, '/creditorAccount', 'must carry identification (with its value) or proxy (with its value), or both');
    });
    void it('refuses a creditor account whose identification and proxy carry no value', () => {
        const message = edited('ZA_RPP', { '/creditorAccount': { identification: { schema: 'GENERIC' }, proxy: { schema: 'MOBILE' } } });
        refusedOnly(message, '/creditorAccount', /must carry identification/);
    });
    void it('takes a creditor account with identification only, proxy only, or both', () => {
        valid(edited('ZA_RPP', { '/creditorAccount': { identification: { schema: 'GENERIC', value: '4071234567' } } }));
        valid(edited('ZA_RPP', { '/creditorAccount': { proxy: { schema: 'MOBILE', value: '+27831234567' } } }));
        valid(edited('ZA_RPP', { '/creditorAccount': { identification: { value: '4071234567' }, proxy: { value: '+27831234567' } } }));
    });
    void it('does not ask the debtor account for identification or proxy', () => {
        valid(edited('ZA_RPP', { '/debtorAccount': { name: 'Cheque' } }));
    });
    void it('refuses CBPR_PLUS without schemeData, naming /paymentScheme/schemeData', () => {
        refusedOnly(edited('CBPR_PLUS', { '/paymentScheme/schemeData': REMOVE }), '/paymentScheme/schemeData', /is required for CBPR_PLUS/);
    });
    void it('refuses CBPR_PLUS schemeData without chargeBearer or with another code', () => {
        const field = '/paymentScheme/schemeData/chargeBearer';
        refusedOnly(edited('CBPR_PLUS', { [field]: REMOVE }), field, 'is required');
        refusedOnly(edited('CBPR_PLUS', { [field]: 'OUR' }), field, 'must be one of DEBT, CRED, SHAR, SLEV');
    });
    void it('takes every CBPR_PLUS charge bearer, with or without charges and exchange rate', () => {
        for (const chargeBearer of ['DEBT', 'CRED', 'SHAR', 'SLEV'])
            valid(edited('CBPR_PLUS', { '/paymentScheme/schemeData': { chargeBearer } }));
    });
    void it('refuses CBPR_PLUS charges that are not a list and an exchange rate that is not a number', () => {
        const message = edited('CBPR_PLUS', { '/paymentScheme/schemeData': { chargeBearer: 'DEBT', charges: { amount: 1 }, exchangeRate: '18.25' } });
        const found = faults(message);
        assert.equal(found.get('/paymentScheme/schemeData/charges'), 'must be an array');
        assert.equal(found.get('/paymentScheme/schemeData/exchangeRate'), 'must be a number');
        assert.equal(found.size, 2);
    });
    void it('refuses schemeData that is not an object once', () => {
        refusedOnly(edited('CBPR_PLUS', { '/paymentScheme/schemeData': 'SHAR' }), '/paymentScheme/schemeData', 'must be an object');
    });
    void it('does not require schemeData for the other schemes', () => {
        for (const kind of ['ZA_RPP', 'ZA_RTC', 'ZA_EFT', 'TCIB'])
            valid(edited(kind, { '/paymentScheme/schemeData': REMOVE }));
    });
});
void describe('CreditTransfer validation: liberal forms (CONTRACT §9)', () => {
    for (const proxy of ['+27-0214620000', '+27831234567', '0831234567', 'value@domain', 'thandi.d@payshap']) {
        void it(`takes the proxy ${proxy}`, () => {
            valid(edited('ZA_RPP', { '/creditorAccount/proxy/value': proxy }));
        });
    }
    void it('takes account identification with scheme { schema: PROPRIETARY } and account type { schema: CODE, value: CACC }', () => {
        const account = {
            identification: { schema: 'GENERIC', scheme: { schema: 'PROPRIETARY' }, value: '4071234567' },
            type: { schema: 'CODE', value: 'CACC' },
        };
        valid(edited('ZA_RTC', { '/creditorAccount': account }));
    });
    void it('takes an account with both identification and proxy', () => {
        valid(edited('ZA_RPP', { '/creditorAccount/identification': { schema: 'GENERIC', value: '4071234567' } }));
    });
    void it('takes "buildingNumber": 42 and "42", keeping each as sent', () => {
        for (const buildingNumber of [42, '42']) {
            const result = valid(edited('ZA_RTC', { '/creditor/address/buildingNumber': buildingNumber }));
            assert.equal(result.message.creditor.address?.buildingNumber, buildingNumber);
        }
    });
    void it('takes strings or numbers in every scalar of the sub-structures whose constraints are not shown', () => {
        const message = edited('ZA_RTC', {
            '/creditor/address': { addressType: 1, postCode: 8001, townName: 'Cape Town', country: 710, addressLine: ['Unit 7', 12] },
            '/creditor/contactDetails': { phoneNumber: 27214620000, mobileNumber: '+27-0831234567', emailAddress: 'a@b.co.za' },
            '/creditor/identification': { schema: 'PERSON', identifiers: [{ identification: 8501015800088, issuer: 1, scheme: { schema: 'CODE', value: 2 } }] },
            '/creditorAgent/branch': { identification: 632005, name: 'Main', address: { buildingNumber: 1 } },
            '/paymentScheme/schemeData': { userReference: 12345, originatorEchoData: 'x', businessReference: 'KAROO-118' },
            '/tax': { method: 1, totalAmount: { currency: 'ZAR', value: 15 } },
            '/regulatoryReporting': [{ code: 101, amount: 5 }],
        });
        valid(message);
    });
    void it('still refuses an object or boolean where such a scalar belongs', () => {
        const field = '/creditor/address/buildingNumber';
        refusedOnly(edited('ZA_RTC', { [field]: true }), field, 'must be a string or a number');
        refusedOnly(edited('ZA_RTC', { [field]: { number: 42 } }), field, 'must be a string or a number');
    });
    void it('accepts the LIBERAL sample, which carries every form at once', () => {
        valid(body('LIBERAL'));
    });
});
void describe('CreditTransfer validation: every fault at once', () => {
    void it('lists five separate faults under five pointers', () => {
        const message = edited('CBPR_PLUS', {
            '/debtor': REMOVE,
            '/messageIdentifiers/messageIdentification': 'M'.repeat(36),
            '/amounts/bankSettlementAmount/value': 12.345,
            '/creditorAgent/bicfi': 'CHASE',
            '/intermediaryAgents': [{}, {}, {}, {}],
        });
        assert.deepEqual([...faults(message).keys()].sort(), ['/amounts/bankSettlementAmount/value', '/creditorAgent/bicfi', '/debtor', '/intermediaryAgents', '/messageIdentifiers/messageIdentification']);
    });
    void it('lists schema faults and rule faults together', () => {
        const message = edited('CBPR_PLUS', {
            '/paymentScheme/schemeData': REMOVE,
            '/creditorAccount': {},
            '/creditor/countryOfResidence': 'XX',
            '/amounts/instructedAmount/currency': 'XYZ',
            '/settlementDate': 'tomorrow',
        });
        assert.deepEqual([...faults(message).keys()].sort(), ['/amounts/instructedAmount/currency', '/creditor/countryOfResidence', '/creditorAccount', '/paymentScheme/schemeData', '/settlementDate']);
    });
    void it('joins several faults of one field into one entry', () => {
        const validate = makeValidator(Type.Object({ code: Type.String({ maxLength: 2 }) }), [
            (value, report) => {
                if (at(value, '/code') === 'ABC')
                    report('/code', 'is not a known code');
            },
        ]);
        const result = validate({ code: 'ABC' });
        assert.deepEqual(result.ok ? [] : result.errors, [{ field: '/code', message: 'must be at most 2 characters long; is not a known code' }]);
    });
    void it('compiles a schema once however many validators use it', () => {
        const schema = Type.Object({ a: Type.String() }, { $id: 'CompiledOnce' });
        assert.ok(makeValidator(schema)({ a: 'x' }).ok);
        assert.ok(makeValidator(schema)({ a: 'y' }).ok, 'a second validator of the same schema does not clash on its $id');
    });
});
//# sourceMappingURL=credit-transfer-validation.test.js.map