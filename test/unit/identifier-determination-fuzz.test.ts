import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  IDENTIFIER_SCHEMAS,
  lookupKey,
  normaliseIdentifier,
  validateIdentifierDeterminationRequest,
  validateOutboundIdentifierDeterminationRequest,
  type Identifier,
} from '../../src/domain/messages/identifier-determination.js';
import { parseJson } from '../../src/lib/json.js';
import { IDENTIFIER_DETERMINATION_FIXTURES, identifierDetermination } from '../fixtures/identifier-determination.js';
import { anyList, anyText, apply, checkRefusal, mutationOf, place, resolve, textPointers } from '../support/fuzz.js';
import { assertSendable, lookupSent } from '../support/sendable.js';

/** The deepest pointer on the way to `pointer` that exists in `body` ("" at worst). */
function deepestFound(body: unknown, pointer: string): { pointer: string; value: unknown } {
  const tokens = pointer.split('/').slice(1);
  for (let length = tokens.length; length > 0; length--) {
    const prefix = `/${tokens.slice(0, length).join('/')}`;
    const found = resolve(body, prefix);
    if (found.found) return { pointer: prefix, value: found.value };
  }
  return { pointer: '', value: body };
}

/**
 * What must hold for any input: no exception; ok, or a non-empty list of faults, one per field,
 * each naming a value of the body, or, when it says a field is missing, a field absent from an
 * object of the body (a required-if rule may name `/request/accountAgent/bicfi` when the whole
 * accountAgent is missing).
 */
function checkOutcome(body: unknown): void {
  checkRefusal(validateIdentifierDeterminationRequest(body), body, (field) => {
    assert.equal(resolve(body, field).found, false, `${field} is said to be missing, and is`);
    const holder = deepestFound(body, field).value;
    assert.ok(holder !== null && typeof holder === 'object' && !Array.isArray(holder), `${field} would belong to an object of the body`);
  });
}

const nasty = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(
    'x'.repeat(100_000),
    '😀'.repeat(2049),
    ' ',
    '0831234567',
    '+27-0831234567',
    'MOBILE',
    'CUSTOM',
    'GENERIC',
    'ZA_RPP_PROXY_IDENTIFIER_DETERMINATION',
    -1,
    1e308,
    -0,
    '',
    '__proto__',
    [],
    {},
    null,
    JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
    JSON.parse('{"constructor": {"prototype": {"polluted": true}}}') as unknown,
  ),
);

const mutation = mutationOf(nasty);

void describe('IdentifierDeterminationRequest validation under arbitrary input', () => {
  void it('never throws on arbitrary JSON values, and refuses them with fields that point into them', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => checkOutcome(value)),
      { numRuns: 400 },
    );
  });

  void it('never throws on arbitrary requests carrying the field names of the message', () => {
    const requestFields = ['schema', 'requestor', 'identifier', 'accountAgent', 'uetr', 'verificationIdentification', 'instructingAgent'];
    const identifierFields = fc.dictionary(fc.constantFrom('namespace', 'schema', 'value'), nasty);
    const request = fc.dictionary(fc.constantFrom(...requestFields), fc.oneof(nasty, identifierFields));
    fc.assert(
      fc.property(fc.record({ schema: nasty, messageIdentifiers: nasty, request }, { requiredKeys: ['request'] }), (value) => checkOutcome(value)),
      { numRuns: 400 },
    );
  });

  void it('never throws on mutations of valid samples, and names only fields of the mutated body', () => {
    fc.assert(
      fc.property(fc.constantFrom(...IDENTIFIER_DETERMINATION_FIXTURES), fc.array(mutation, { minLength: 1, maxLength: 5 }), (kind, changes) => {
        const body = identifierDetermination(kind);
        for (const change of changes) apply(body, change);
        checkOutcome(body);
      }),
      { numRuns: 500 },
    );
  });

  void it('never throws on mutated samples sent as JSON text', () => {
    fc.assert(
      fc.property(fc.constantFrom(...IDENTIFIER_DETERMINATION_FIXTURES), mutation, (kind, change) => {
        const body = identifierDetermination(kind);
        apply(body, change);
        const parsed = parseJson(JSON.stringify(body));
        if (parsed.ok) checkOutcome(parsed.value);
      }),
      { numRuns: 300 },
    );
  });
});

/** A lookup intake accepted for ZA_RPP (the one scheme performing it) is sent, or refused with a reason code: never a document the scheme cannot read. */
async function checkSendable(body: unknown): Promise<void> {
  checkOutcome(body);
  const result = validateOutboundIdentifierDeterminationRequest(body);
  if (result.ok && result.value.scheme === 'ZA_RPP') assertSendable(await lookupSent(result.value.message));
}

void describe('IdentifierDeterminationRequest intake of arbitrary text and lists of any length', () => {
  void it('never throws on any text (controls, lone surrogates, noncharacters, long) in its text fields, and sends what it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDENTIFIER_DETERMINATION_FIXTURES), fc.array(fc.tuple(fc.nat(), anyText), { minLength: 1, maxLength: 4 }), async (kind, edits) => {
        const body = identifierDetermination(kind);
        const texts = textPointers(body);
        for (const [index, text] of edits) place(body, texts[index % texts.length] ?? '/schema', text);
        await checkSendable(body);
      }),
      { numRuns: 300 },
    );
  });

  void it('never throws on lists of any length in its agents, and sends what it accepts', async () => {
    const lists = ['/request/instructingAgent/additionalIdentifications', '/request/instructedAgent/address/addressLine', '/request/identifier/value'];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...IDENTIFIER_DETERMINATION_FIXTURES), fc.constantFrom(...lists), anyList(fc.oneof(anyText, fc.constant({}))), async (kind, pointer, list) => {
        const body = identifierDetermination(kind);
        place(body, pointer, list);
        await checkSendable(body);
      }),
      { numRuns: 150 },
    );
  });
});

/** A South African national number (9 digits, not starting with 0) and each way an integrator may write it. */
const nationalNumber = fc.tuple(fc.integer({ min: 1, max: 9 }), fc.stringMatching(/^\d{8}$/)).map(([first, rest]) => `${first}${rest}`);
const spellings = (national: string) => [`0${national}`, `+27${national}`, `+27-${national}`, `+27-0${national}`, `27${national}`, ` 0${national}\t`];

const identifier: fc.Arbitrary<Identifier> = fc.record(
  { schema: fc.constantFrom(...IDENTIFIER_SCHEMAS), namespace: fc.string(), value: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { requiredKeys: ['schema', 'value'] },
);

void describe('identifier normalisation properties', () => {
  void it('is idempotent for any identifier', () => {
    fc.assert(
      fc.property(identifier, (original) => {
        const once = normaliseIdentifier(original);
        assert.deepEqual(normaliseIdentifier(once), once);
        assert.equal(once.schema, original.schema);
        assert.equal(once.namespace, original.namespace);
      }),
      { numRuns: 1000 },
    );
  });

  void it('gives every spelling of one mobile number one lookup key, and validation takes every spelling', () => {
    fc.assert(
      fc.property(nationalNumber, (national) => {
        const keys = new Set<string>();
        for (const value of spellings(national)) {
          keys.add(lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value }));
          const body = identifierDetermination('MOBILE');
          body.request.identifier.value = value;
          const result = validateIdentifierDeterminationRequest(body);
          assert.ok(result.ok, value);
          assert.equal(result.value.identifier.value, `+27-${national}`);
        }
        assert.deepEqual([...keys], [`ZA_RPP|MOBILE|ZA_MOBILE|+27-${national}`]);
      }),
      { numRuns: 300 },
    );
  });

  void it('gives different mobile numbers different lookup keys', () => {
    fc.assert(
      fc.property(nationalNumber, nationalNumber, (first, second) => {
        fc.pre(first !== second);
        const key = (national: string) => lookupKey('ZA_RPP', { schema: 'MOBILE', namespace: 'ZA_MOBILE', value: `0${national}` });
        assert.notEqual(key(first), key(second));
      }),
      { numRuns: 300 },
    );
  });

  void it('gives one key to a custom proxy in any case and surrounding spaces', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.]{1,20}@[a-z]{1,10}$/), fc.boolean(), (proxy, upper) => {
        const spelt = ` ${upper ? proxy.toUpperCase() : proxy} `;
        const key = (value: string) => lookupKey('ZA_RPP', { schema: 'CUSTOM', namespace: 'ZA_CUSTOM', value });
        assert.equal(key(spelt), key(proxy));
      }),
      { numRuns: 300 },
    );
  });
});
