import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  IDENTIFIER_REASON_CODES,
  IdentifierDeterminationResponseSchema,
  identifierDeterminationResponseJson,
  lookupKey,
  normaliseIdentifier,
  validateIdentifierDeterminationRequest,
  type IdentifierDeterminationRequest,
  type IdentifierDeterminationResponseInput,
} from '../../src/domain/messages/identifier-determination.js';
import { makeValidator } from '../../src/domain/messages/validate.js';
import { numberText, parseJson } from '../../src/lib/json.js';
import { IDENTIFIER_DETERMINATION_FIXTURES, identifierDetermination, type IdentifierDeterminationFixture } from '../fixtures/identifier-determination.js';
import { checksOf, readResponse, REMOVE, sent, withEdits } from '../support/validation.js';

/** A fresh sample of `kind` with the edits applied, keyed by JSON pointer. */
function edited(kind: IdentifierDeterminationFixture, edits: Record<string, unknown> = {}): IdentifierDeterminationRequest {
  return withEdits(identifierDetermination(kind), edits);
}

const { valid, faults, refusedOnly } = checksOf(validateIdentifierDeterminationRequest);

const NAMESPACE = '/request/identifier/namespace';
const VALUE = '/request/identifier/value';
const ACCOUNT_AGENT_BIC = '/request/accountAgent/bicfi';
const MOBILE_FORMS = ['0821234567', '+27821234567', '+27-821234567', '+27-0821234567'];

void describe('IdentifierDeterminationRequest validation: valid requests', () => {
  for (const kind of IDENTIFIER_DETERMINATION_FIXTURES) {
    void it(`accepts the ${kind} sample, as an object and as parsed JSON text`, () => {
      valid(identifierDetermination(kind));
      valid(sent(identifierDetermination(kind)));
    });
  }

  void it('gives the scheme, the lowercased uetr, the message id, the normalised proxy and its lookup key', () => {
    const message = edited('MOBILE', { '/request/uetr': 'E1B5C6A2-6F4B-4C3A-9A77-0D3E5B9C1F20' });
    const result = valid(message);
    assert.equal(result.scheme, 'ZA_RPP');
    assert.equal(result.uetr, 'e1b5c6a2-6f4b-4c3a-9a77-0d3e5b9c1f20');
    assert.equal(result.messageId, message.messageIdentifiers.messageIdentification);
    assert.deepEqual(result.identifier, { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: '+27-821234567' });
    assert.equal(result.lookupKey, 'ZA_RPP|MOBILE|ZA_MOBILE|+27-821234567');
    assert.equal(result.message, message, 'the message itself, not a copy');
  });

  void it('names an account by its institution and its number without spaces or dashes', () => {
    const result = valid(edited('GENERIC', { '/request/identifier/value': ' 6200 123-4567 ', '/request/accountAgent/bicfi': 'FIRNZAJJXXX' }));
    assert.deepEqual(result.identifier, { schema: 'GENERIC', value: '62001234567' });
    assert.equal(result.lookupKey, 'ZA_RPP|GENERIC|FIRNZAJJ|62001234567');
  });

  void it('reads the legacy request schema ZA_RPP_PROXY_IDENTIFIER_DETERMINATION as ZA_RPP, with the same lookup key', () => {
    const legacy = valid(edited('MOBILE', { '/request/schema': 'ZA_RPP_PROXY_IDENTIFIER_DETERMINATION' }));
    assert.equal(legacy.scheme, 'ZA_RPP');
    assert.equal(legacy.lookupKey, valid(edited('MOBILE')).lookupKey);
  });

  void it('accepts another scheme of the enumeration: whether it performs lookups is decided later (422)', () => {
    for (const scheme of ['ZA_RTC', 'CBPR_PLUS']) assert.equal(valid(edited('CUSTOM', { '/request/schema': scheme })).scheme, scheme);
  });

  void it('keeps unknown fields everywhere and never changes the body', () => {
    const message = edited('CUSTOM', { '/channelData': { app: 'v5', weights: [1.5, 2] }, '/request/identifier/label': 'Thandi', '/request/requestor/lei': 'x' });
    const before = structuredClone(message);
    const result = valid(message);
    assert.deepEqual(message, before);
    assert.deepEqual((result.message as Record<string, unknown>).channelData, { app: 'v5', weights: [1.5, 2] });
    assert.deepEqual(result.identifier, { schema: 'CUSTOM', namespace: 'ZA_CUSTOM', value: 'thandi.d@firstbank' }, 'no extra fields in the identifier looked up');
  });

  void it('takes a requestor with only bicfi, only memberId, and without its schema', () => {
    valid(edited('MOBILE', { '/request/requestor': { bicfi: 'DEMOZAJJ' } }));
    valid(edited('MOBILE', { '/request/requestor': { memberId: '210001' } }));
    valid(edited('MOBILE', { '/request/requestor': { schema: 'INSTITUTION_IDENTIFICATION', memberId: '210001', name: 'Demo Bank Limited' } }));
  });

  void it('takes a request without agents, accountAgent or supplementaryData for a proxy', () => {
    valid(edited('CUSTOM', { '/request/instructingAgent': REMOVE, '/supplementaryData': REMOVE }));
  });

  void it('does not ask an account lookup for a namespace, nor a proxy lookup for the account agent', () => {
    valid(edited('GENERIC', { [NAMESPACE]: REMOVE }));
    valid(edited('MOBILE', { '/request/accountAgent': REMOVE }));
  });
});

void describe('IdentifierDeterminationRequest validation: the rules of the spec', () => {
  for (const kind of ['MOBILE', 'CUSTOM'] as const) {
    void it(`refuses ${kind} without a namespace, naming ${NAMESPACE}`, () => {
      refusedOnly(edited(kind, { [NAMESPACE]: REMOVE }), NAMESPACE, `is required when identifier.schema is ${kind} (proxy resolution)`);
    });
  }

  void it('refuses an empty namespace', () => {
    refusedOnly(edited('MOBILE', { [NAMESPACE]: '' }), NAMESPACE, 'must not be empty');
  });

  void it(`refuses GENERIC without accountAgent or without its bicfi, naming ${ACCOUNT_AGENT_BIC}`, () => {
    const message = 'is required when identifier.schema is GENERIC (account resolution)';
    refusedOnly(edited('GENERIC', { '/request/accountAgent': REMOVE }), ACCOUNT_AGENT_BIC, message);
    refusedOnly(edited('GENERIC', { '/request/accountAgent': { name: 'First Bank' } }), ACCOUNT_AGENT_BIC, message);
  });

  void it('refuses an accountAgent that is not an object once, on accountAgent itself', () => {
    refusedOnly(edited('GENERIC', { '/request/accountAgent': 'FIRNZAJJ' }), '/request/accountAgent', 'must be an object');
  });

  void it('refuses MOBILE values that are not a South African number in a published form', () => {
    const wrong = ['821234567', '+27 82 123 4567', '082 123 4567', '+2782123456', '08212345678', '0021234567', '+270821234567', '+44-7911123456', 'thandi@bank'];
    for (const value of wrong) refusedOnly(edited('MOBILE', { [VALUE]: value }), VALUE, /must be a South African mobile number in one of the forms/);
  });

  void it('refuses a CUSTOM value of only spaces', () => {
    refusedOnly(edited('CUSTOM', { [VALUE]: '   ' }), VALUE, 'must not be blank');
  });

  void it('refuses a GENERIC value of only spaces and dashes', () => {
    refusedOnly(edited('GENERIC', { [VALUE]: ' - -' }), VALUE, 'must contain an account number, not only spaces and dashes');
  });

  void it('refuses a requestor with neither bicfi nor memberId, naming /request/requestor', () => {
    refusedOnly(edited('MOBILE', { '/request/requestor': { schema: 'INSTITUTION_IDENTIFICATION', name: 'Demo Bank Limited' } }), '/request/requestor', 'must carry bicfi or memberId, or both');
  });

  void it('refuses a requestor of another kind', () => {
    refusedOnly(edited('MOBILE', { '/request/requestor/schema': 'PARTY_IDENTIFICATION' }), '/request/requestor/schema', 'must be INSTITUTION_IDENTIFICATION');
  });

  void it('refuses an unknown request schema, listing the schemes and the legacy name', () => {
    refusedOnly(
      edited('MOBILE', { '/request/schema': 'PAYSHAP' }),
      '/request/schema',
      'must be one of ZA_RTC, ZA_RPP, ZA_EFT, ZA_AC, ZA_RMS, CBPR_PLUS, TCIB, ZA_RPP_PROXY_IDENTIFIER_DETERMINATION',
    );
  });

  void it('refuses an unknown identifier schema once, without the rules of the known ones', () => {
    refusedOnly(edited('MOBILE', { '/request/identifier/schema': 'EMAIL' }), '/request/identifier/schema', 'must be one of MOBILE, CUSTOM, GENERIC');
  });

  void it('refuses a BIC of the requestor or the account agent in another form', () => {
    refusedOnly(edited('GENERIC', { '/request/requestor/bicfi': 'demozajj' }), '/request/requestor/bicfi', /must be a BIC \(ISO 9362\)/);
    refusedOnly(edited('GENERIC', { [ACCOUNT_AGENT_BIC]: 'FIRNZA' }), ACCOUNT_AGENT_BIC, /must be a BIC \(ISO 9362\)/);
  });
});

void describe('IdentifierDeterminationRequest validation: required fields and limits', () => {
  const required = [
    '/schema',
    '/messageIdentifiers',
    '/messageIdentifiers/messageIdentification',
    '/messageIdentifiers/creationDateTime',
    '/request',
    '/request/schema',
    '/request/requestor',
    '/request/identifier',
    '/request/identifier/schema',
    '/request/identifier/value',
    '/request/uetr',
    '/request/verificationIdentification',
  ];
  for (const pointer of required) {
    void it(`refuses a request without ${pointer}, naming that pointer`, () => {
      refusedOnly(edited('MOBILE', { [pointer]: REMOVE }), pointer, 'is required');
    });
  }

  void it('refuses a body that is not an object, naming the whole message', () => {
    for (const value of [null, [], 'IdentifierDeterminationRequest', 42, true]) refusedOnly(value, '', 'the message must be an object');
  });

  void it('refuses another message schema', () => {
    refusedOnly(edited('MOBILE', { '/schema': 'CreditTransfer' }), '/schema', 'must be IdentifierDeterminationRequest');
  });

  const limited: Array<[IdentifierDeterminationFixture, string, number, number]> = [
    ['MOBILE', '/messageIdentifiers/messageIdentification', 1, 35],
    ['MOBILE', '/request/verificationIdentification', 1, 35],
    ['MOBILE', '/request/requestor/memberId', 1, 35],
    ['MOBILE', '/request/requestor/name', 0, 140],
    ['CUSTOM', VALUE, 1, 2048],
    ['GENERIC', VALUE, 1, 2048],
  ];
  for (const [kind, field, min, max] of limited) {
    void it(`takes ${min} to ${max} characters in ${field} (${kind}) and refuses ${max + 1}${min > 0 ? ' and none' : ''}`, () => {
      valid(edited(kind, { [field]: '7'.repeat(max) }));
      if (min > 0) {
        valid(edited(kind, { [field]: '7'.repeat(min) }));
        refusedOnly(edited(kind, { [field]: '' }), field, 'must not be empty');
      }
      refusedOnly(edited(kind, { [field]: '7'.repeat(max + 1) }), field, `must be at most ${max} characters long`);
    });
  }

  void it('counts characters, not UTF-16 code units, in a proxy value', () => {
    valid(edited('CUSTOM', { [VALUE]: '😀'.repeat(2048) }));
  });

  void it('refuses an over-long MOBILE value once, for its length', () => {
    refusedOnly(edited('MOBILE', { [VALUE]: '0'.repeat(2049) }), VALUE, 'must be at most 2048 characters long');
  });

  void it('takes a UUID in either case for the uetr and refuses other forms', () => {
    const field = '/request/uetr';
    valid(edited('MOBILE', { [field]: '8A562C67-CA16-48BA-B074-65581BE6F001' }));
    const wrong = ['8a562c67ca1648bab07465581be6f001', 'urn:uuid:8a562c67-ca16-48ba-b074-65581be6f001', '8a562c67-ca16-48ba-b074-65581be6f00', ''];
    for (const uetr of wrong) refusedOnly(edited('MOBILE', { [field]: uetr }), field, /must be a UUID/);
  });

  void it('lists every fault of a request in one answer', () => {
    const message = edited('GENERIC', {
      '/messageIdentifiers/messageIdentification': 'M'.repeat(36),
      '/request/uetr': 'not-a-uuid',
      '/request/requestor': { name: 'Demo Bank Limited' },
      '/request/accountAgent': REMOVE,
      '/request/verificationIdentification': REMOVE,
    });
    assert.deepEqual(
      [...faults(message).keys()].sort(),
      ['/messageIdentifiers/messageIdentification', ACCOUNT_AGENT_BIC, '/request/requestor', '/request/uetr', '/request/verificationIdentification'],
    );
  });

  void it('lists a missing namespace and a malformed mobile number together', () => {
    const found = faults(edited('MOBILE', { [NAMESPACE]: REMOVE, [VALUE]: '12345' }));
    assert.deepEqual([...found.keys()].sort(), [NAMESPACE, VALUE]);
  });
});

void describe('IdentifierDeterminationRequest validation: liberal forms (CONTRACT §9)', () => {
  void it('takes RFC 3339 creation times with or without fractions, with Z or an offset', () => {
    const times = ['2026-03-02T09:15:27Z', '2026-03-02T09:15:27.482Z', '2026-03-02T11:15:27+02:00', '2026-03-02T11:15:27.123456-05:30', '2026-03-02 09:15:27z'];
    for (const time of times) valid(edited('MOBILE', { '/messageIdentifiers/creationDateTime': time }));
  });

  void it('refuses a creation time without a zone', () => {
    const field = '/messageIdentifiers/creationDateTime';
    refusedOnly(edited('MOBILE', { [field]: '2026-03-02T09:15:27' }), field, /must be an RFC 3339 date-time with a time zone/);
  });

  void it('takes a mobile number in every published form, and 27 without the plus, as one proxy', () => {
    const keys = new Set<string>();
    for (const value of [...MOBILE_FORMS, '27821234567', ' +27-0821234567 ']) {
      const result = valid(edited('MOBILE', { [VALUE]: value }));
      assert.equal(result.identifier.value, '+27-821234567', value);
      keys.add(result.lookupKey);
    }
    assert.equal(keys.size, 1);
  });

  void it('takes the spec sample +27-0214620000, a number outside the mobile ranges', () => {
    assert.equal(valid(edited('MOBILE', { [VALUE]: '+27-0214620000' })).identifier.value, '+27-214620000');
  });

  void it('takes custom proxies in value@domain and other forms, trimmed and lowercased', () => {
    const expected: Record<string, string> = { 'value@domain': 'value@domain', ' Thandi.D@FirstBank ': 'thandi.d@firstbank', 'SHOP-42': 'shop-42', '0821234567': '0821234567' };
    for (const [value, normal] of Object.entries(expected)) assert.equal(valid(edited('CUSTOM', { [VALUE]: value })).identifier.value, normal, value);
  });
});

void describe('identifier normalisation and lookup keys', () => {
  void it('writes a mobile number as +27- and its national number, and leaves a value of no known form trimmed', () => {
    for (const value of MOBILE_FORMS) assert.equal(normaliseIdentifier({ schema: 'MOBILE', namespace: 'ZA_MOBILE', value }).value, '+27-821234567');
    assert.equal(normaliseIdentifier({ schema: 'MOBILE', value: ' 12345 ' }).value, '12345');
  });

  void it('keeps the namespace as sent', () => {
    assert.equal(normaliseIdentifier({ schema: 'CUSTOM', namespace: ' Za_Custom', value: 'A' }).namespace, ' Za_Custom');
  });

  void it('gives equal keys for one account at one institution however spelt, and different keys otherwise', () => {
    const key = (value: string, bic: string) => lookupKey('ZA_RPP', { schema: 'GENERIC', value }, bic);
    assert.equal(key('6200-123 4567', 'FIRNZAJJXXX'), key('62001234567', 'FIRNZAJJ'));
    assert.notEqual(key('62001234567', 'FIRNZAJJ'), key('62001234567', 'ABSAZAJJ'));
    assert.notEqual(key('62001234567', 'FIRNZAJJ'), key('62001234568', 'FIRNZAJJ'));
  });

  void it('tells proxies apart by scheme, schema and namespace', () => {
    const proxy = { schema: 'CUSTOM', namespace: 'ZA_CUSTOM', value: '0821234567' } as const;
    const keys = [
      lookupKey('ZA_RPP', proxy),
      lookupKey('ZA_RTC', proxy),
      lookupKey('ZA_RPP', { ...proxy, schema: 'MOBILE' }),
      lookupKey('ZA_RPP', { ...proxy, namespace: 'ZA_MOBILE' }),
    ];
    assert.equal(new Set(keys).size, keys.length);
  });

  void it('cannot be made to confuse two proxies by a | in the namespace or the value', () => {
    const first = lookupKey('ZA_RPP', { schema: 'CUSTOM', namespace: 'a|b', value: 'c' });
    const second = lookupKey('ZA_RPP', { schema: 'CUSTOM', namespace: 'a', value: 'b|c' });
    assert.notEqual(first, second);
    assert.equal(first, 'ZA_RPP|CUSTOM|a%7Cb|c');
  });
});

void describe('IdentifierDeterminationResponse JSON', () => {
  const CREATED_AT = Date.parse('2026-03-02T07:15:28.250Z');
  const checkResponse = makeValidator(IdentifierDeterminationResponseSchema);

  function response(input: Partial<IdentifierDeterminationResponseInput> & Pick<IdentifierDeterminationResponseInput, 'request' | 'outcome'>): any {
    return readResponse(identifierDeterminationResponseJson({ scheme: 'ZA_RPP', messageIdentification: 'RSP-0001', createdAt: CREATED_AT, ...input }), checkResponse);
  }

  void it('writes a SUCCESSFUL proxy resolution with every field', () => {
    const request = edited('MOBILE', { '/request/uetr': '8A562C67-CA16-48BA-B074-65581BE6F001' });
    const body = response({
      request,
      outcome: 'SUCCESSFUL',
      operator: { bicfi: 'ZYBAZAJJ', name: 'BankservAfrica' },
      account: {
        traditionalIdentifier: '62001234567',
        proxy: { value: '+27-821234567', schema: 'MOBILE' },
        creationDate: '2019-07-15',
        knownAsName: 'Thandi',
        legalName: 'Thandiwe Nomvula Dlamini',
        accountAgentBicfi: 'FIRNZAJJ',
        transactionLimit: { value: '50000.00', currency: 'ZAR' },
      },
    });
    assert.deepEqual(body, {
      schema: 'IdentifierDeterminationResponse',
      messageIdentifiers: { messageIdentification: 'RSP-0001', creationDateTime: '2026-03-02T07:15:28.250Z' },
      originalMessageIdentifiers: request.messageIdentifiers,
      scheme: 'ZA_RPP',
      operator: { bicfi: 'ZYBAZAJJ', name: 'BankservAfrica' },
      uetr: '8A562C67-CA16-48BA-B074-65581BE6F001',
      verificationIdentification: request.request.verificationIdentification,
      report: {
        reportInformation: {
          outcome: 'SUCCESSFUL',
          accountInformation: { creationDate: '2019-07-15', proxy: { value: '+27-821234567', schema: 'MOBILE' }, traditionalIdentifier: '62001234567' },
          accountOwner: { knownAsName: 'Thandi', legalName: 'Thandiwe Nomvula Dlamini' },
          accountAgent: { bicfi: 'FIRNZAJJ' },
          transactionLimit: { currency: 'ZAR', value: 50000 },
        },
      },
    });
  });

  void it('writes a FAILED outcome with its reason code and the description cut to 35 characters at a word boundary', () => {
    const request = edited('CUSTOM');
    const reasonText = 'Proxy not found in central repository, check the ShapID';
    const body = response({ request, outcome: 'FAILED', reasonCode: 'PX03', reasonText });
    assert.deepEqual(body.report, {
      reportInformation: {
        outcome: 'FAILED',
        reasonCode: 'PX03',
        reasonDescription: 'Proxy not found in central',
        accountInformation: { proxy: { value: 'thandi.d@firstbank', schema: 'CUSTOM' } },
        accountOwner: {},
      },
    });
    assert.ok(reasonText.startsWith('Proxy not found in central repository'), 'the 35th character falls inside "repository"');
  });

  void it('cuts the description by characters, never inside one', () => {
    const body = response({ request: edited('MOBILE'), outcome: 'FAILED', reasonCode: 'AB10', reasonText: '😀'.repeat(40) });
    assert.equal(body.report.reportInformation.reasonDescription, '😀'.repeat(35));
  });

  void it('writes no reason on a SUCCESSFUL outcome', () => {
    const body = response({ request: edited('MOBILE'), outcome: 'SUCCESSFUL', reasonCode: 'AB06', reasonText: 'late', account: { legalName: 'T' } });
    assert.equal('reasonCode' in body.report.reportInformation, false);
    assert.equal('reasonDescription' in body.report.reportInformation, false);
  });

  void it('writes no proxy for an account resolution, and echoes uetr and verificationIdentification as sent', () => {
    const request = edited('GENERIC');
    const body = response({ request, outcome: 'SUCCESSFUL', account: { traditionalIdentifier: '62001234567', knownAsName: 'P van der Merwe', legalName: 'Pieter van der Merwe' } });
    assert.deepEqual(body.report.reportInformation.accountInformation, { traditionalIdentifier: '62001234567' });
    assert.equal(body.uetr, request.request.uetr);
    assert.equal(body.verificationIdentification, request.request.verificationIdentification);
  });

  void it('names the scheme it is given, not the legacy request schema', () => {
    const request = edited('MOBILE', { '/request/schema': 'ZA_RPP_PROXY_IDENTIFIER_DETERMINATION' });
    assert.equal(response({ request, outcome: 'FAILED', reasonCode: 'AB06' }).scheme, 'ZA_RPP');
  });

  void it('writes the transaction limit digit for digit, never through a float', () => {
    const limitText = (value: string): string | undefined => {
      const text = identifierDeterminationResponseJson({
        request: edited('MOBILE'),
        scheme: 'ZA_RPP',
        messageIdentification: 'RSP-0002',
        createdAt: CREATED_AT,
        outcome: 'SUCCESSFUL',
        account: { transactionLimit: { value, currency: 'ZAR' } },
      });
      const parsed = parseJson(text);
      assert.ok(parsed.ok);
      const limit = (parsed.value as any).report.reportInformation.transactionLimit;
      assert.equal(limit.currency, 'ZAR');
      return numberText(limit, 'value');
    };
    assert.equal(limitText('50000.00'), '50000.00');
    assert.equal(limitText('12345678901234567.89'), '12345678901234567.89');
    assert.equal(limitText('0'), '0');
  });

  void it('turns the other xs:decimal spellings of a limit into JSON numbers', () => {
    const limitJson = (value: string) =>
      /"transactionLimit":(\{[^}]*\})/.exec(
        identifierDeterminationResponseJson({
          request: edited('MOBILE'),
          scheme: 'ZA_RPP',
          messageIdentification: 'RSP-0003',
          createdAt: CREATED_AT,
          outcome: 'SUCCESSFUL',
          account: { transactionLimit: { value, currency: 'ZAR' } },
        }),
      )?.[1];
    assert.equal(limitJson('+500.50'), '{"currency":"ZAR","value":500.50}');
    assert.equal(limitJson('.5'), '{"currency":"ZAR","value":0.5}');
    assert.equal(limitJson('5.'), '{"currency":"ZAR","value":5}');
    assert.equal(limitJson('00070.10'), '{"currency":"ZAR","value":70.10}');
  });

  void it('publishes the 34 reason codes of the spec, each four capitals or digits as the schema allows', () => {
    const codes = Object.keys(IDENTIFIER_REASON_CODES);
    assert.equal(codes.length, 34);
    for (const code of codes) assert.match(code, /^[A-Z0-9]{4}$/);
    assert.equal(IDENTIFIER_REASON_CODES.PX03, 'Proxy not found in central repository');
    assert.equal(IDENTIFIER_REASON_CODES.AB06, 'Transaction stopped, timeout at the instructed agent');
  });
});
