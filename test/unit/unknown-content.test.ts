import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Type } from '@sinclair/typebox';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { validateIdentifierDeterminationRequest } from '../../src/domain/messages/identifier-determination.js';
import { validateRequestToPay } from '../../src/domain/messages/request-to-pay.js';
import { UNKNOWN_BYTES_MAX, UNKNOWN_DEPTH_MAX, UNKNOWN_VALUES_MAX, reportUnknownContent } from '../../src/domain/messages/unknown-content.js';
import { validateCreditTransfer, type Validation } from '../../src/domain/messages/validate.js';
import { CREDIT_TRANSFER_FIXTURES, creditTransfer } from '../fixtures/credit-transfer.js';
import { IDENTIFIER_DETERMINATION_FIXTURES, identifierDetermination } from '../fixtures/identifier-determination.js';
import { REQUEST_TO_PAY_FIXTURES, requestToPay } from '../fixtures/request-to-pay.js';
import { checkRefusal, pointers, resolve } from '../support/fuzz.js';
import { intakeApp } from '../support/intake-app.js';
import { basicAuth } from '../support/server.js';

type Json = Record<string, unknown>;

/** The one fault of a refused body, which must be the unknown-content bound's. */
function onlyFault(result: Validation<unknown>): { field: string; message: string } {
  assert.equal(result.ok, false, 'refused');
  assert.ok(!result.ok);
  assert.equal(result.errors.length, 1, JSON.stringify(result.errors));
  return result.errors[0]!;
}

/** A valid credit transfer with no unknown content at all (the fixture's ZA_RTC schemeData members are not named by the schema). */
function bareTransfer(): Json {
  const transfer = creditTransfer('ZA_RTC') as unknown as Json;
  delete (transfer['paymentScheme'] as Json)['schemeData'];
  return transfer;
}

/** The probe: 100,000 unknown objects in one unknown member (801 KB). Values: the list, then per object itself and its member. */
function withUnknownObjects(body: Json): Json {
  body['unknownObjects'] = Array.from({ length: 100_000 }, () => ({ a: 1 }));
  return body;
}

/** The 257th value of withUnknownObjects: the list is the 1st, object k the (2k + 2)th and its member the (2k + 3)th. */
const PAST_THE_BOUND = `/unknownObjects/${(UNKNOWN_VALUES_MAX - 2) / 2}/a`;

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 1; level < depth; level += 1) value = { deeper: value };
  return value;
}

/** Valid samples of the messages intake takes, each with its validator. */
const MESSAGES: ReadonlyArray<readonly [() => Json, (body: unknown) => Validation<unknown>]> = [
  ...CREDIT_TRANSFER_FIXTURES.map((kind) => [() => creditTransfer(kind), validateCreditTransfer] as const),
  ...IDENTIFIER_DETERMINATION_FIXTURES.map((kind) => [() => identifierDetermination(kind), validateIdentifierDeterminationRequest] as const),
  ...REQUEST_TO_PAY_FIXTURES.map((kind) => [() => requestToPay(kind), validateRequestToPay] as const),
];

void describe('unknown content of a message', () => {
  void it('takes every fixture message, and unknown members within the bounds anywhere, kept as sent', () => {
    for (const kind of CREDIT_TRANSFER_FIXTURES) assert.equal(validateCreditTransfer(creditTransfer(kind)).ok, true, kind);
    const transfer = creditTransfer('ZA_RTC') as unknown as Json;
    transfer['supplementaryData'] = { channel: 'mobile-app', device: { os: 'android', version: 14 }, tags: ['salary', 'march'] };
    (transfer['debtor'] as Json)['loyaltyNumber'] = 'L-0042';
    transfer['deep'] = nested(UNKNOWN_DEPTH_MAX);
    const result = validateCreditTransfer(transfer);
    assert.equal(result.ok, true, JSON.stringify(!result.ok && result.errors));
    assert.ok(result.ok && result.value.message === (transfer as unknown), 'the very body, nothing removed');
  });

  void it(`refuses a credit transfer of 100,000 unknown objects (801 KB) at the member that passes ${UNKNOWN_VALUES_MAX} values, judged in well under a second`, () => {
    const transfer = withUnknownObjects(bareTransfer());
    assert.ok(JSON.stringify(transfer).length > 800_000);
    const started = performance.now();
    const fault = onlyFault(validateCreditTransfer(transfer));
    assert.ok(performance.now() - started < 1_000, `${performance.now() - started} ms`);
    assert.equal(fault.field, PAST_THE_BOUND);
    assert.match(fault.message, /beyond the 1024 values a message may carry in members the interface does not name/);
  });

  void it(`takes ${UNKNOWN_VALUES_MAX} unknown values and refuses one more`, () => {
    const at = (count: number) => {
      const transfer = bareTransfer();
      for (let index = 0; index < count; index += 1) transfer[`n${index}`] = index;
      return validateCreditTransfer(transfer);
    };
    assert.equal(at(UNKNOWN_VALUES_MAX).ok, true);
    assert.equal(onlyFault(at(UNKNOWN_VALUES_MAX + 1)).field, `/n${UNKNOWN_VALUES_MAX}`);
  });

  void it(`refuses unknown content nested deeper than ${UNKNOWN_DEPTH_MAX} levels, naming the member too deep`, () => {
    const transfer = creditTransfer('ZA_RTC') as unknown as Json;
    (transfer['creditor'] as Json)['profile'] = nested(UNKNOWN_DEPTH_MAX + 1);
    const fault = onlyFault(validateCreditTransfer(transfer));
    assert.equal(fault.field, `/creditor/profile${'/deeper'.repeat(UNKNOWN_DEPTH_MAX)}`);
    assert.match(fault.message, /deeper than 8 levels/);
  });

  void it(`refuses unknown content beyond ${UNKNOWN_BYTES_MAX} bytes written as JSON, naming the member that passes it`, () => {
    const transfer = bareTransfer();
    transfer['memo'] = 'a'.repeat(UNKNOWN_BYTES_MAX / 2);
    transfer['memo2'] = 'é'.repeat(UNKNOWN_BYTES_MAX / 4); // two bytes each in UTF-8
    const fault = onlyFault(validateCreditTransfer(transfer));
    assert.equal(fault.field, '/memo2');
    assert.match(fault.message, /beyond the 65536 bytes/);
  });

  void it('bounds supplementaryData of an identifier determination and of a request-to-pay: 100,000 items are refused at the item past the bound', () => {
    const items = Array.from({ length: 100_000 }, (_, index) => index);
    const determination = identifierDetermination('MOBILE') as unknown as Json;
    determination['supplementaryData'] = { items };
    // The list is one value, its items the rest.
    assert.equal(onlyFault(validateIdentifierDeterminationRequest(determination)).field, `/supplementaryData/items/${UNKNOWN_VALUES_MAX - 1}`);
    const request = requestToPay('MOBILE') as unknown as Json;
    request['supplementaryData'] = Object.fromEntries(items.map((index) => [`key${index}`, index]));
    assert.equal(onlyFault(validateRequestToPay(request)).field, `/supplementaryData/key${UNKNOWN_VALUES_MAX}`);
  });

  void it('counts the content of a field whose content the schema does not show, and not the members it names', () => {
    const schema = Type.Object({ shown: Type.String(), unshown: Type.Optional(Type.Unknown()), list: Type.Array(Type.Object({ code: Type.String() }), { maxItems: 3 }) }, { additionalProperties: true });
    const faults = (body: unknown): string[] => {
      const found: string[] = [];
      reportUnknownContent(schema, body, (field) => found.push(field));
      return found;
    };
    assert.deepEqual(faults({ shown: 'x'.repeat(UNKNOWN_BYTES_MAX * 2), list: [{ code: 'A' }] }), [], 'a named member is the schema\'s to bound');
    assert.deepEqual(faults({ shown: 'x', list: [], unshown: Array.from({ length: UNKNOWN_VALUES_MAX + 50 }, () => 0) }), [`/unshown/${UNKNOWN_VALUES_MAX - 1}`]);
    assert.deepEqual(faults({ shown: 'x', list: [{ code: 'A', more: nested(UNKNOWN_DEPTH_MAX + 1) }] }), [`/list/0/more${'/deeper'.repeat(UNKNOWN_DEPTH_MAX)}`]);
    assert.deepEqual(faults({ shown: 'x', list: Array.from({ length: 4 }, () => ({ more: nested(20) })) }), [], 'a list over its bound is the schema\'s fault, not walked');
  });

  void it('never throws on unknown members of any shape, size or depth added anywhere in a valid credit transfer, identifier determination or request-to-pay, and names only fields of the body', () => {
    const unknown = fc.oneof(
      fc.jsonValue({ maxDepth: 12 }),
      fc.array(fc.jsonValue({ maxDepth: 2 }), { minLength: 200, maxLength: 400 }),
      fc.string({ minLength: 10_000, maxLength: 20_000 }),
      fc.integer({ min: 1, max: 40 }).map(nested),
    );
    fc.assert(
      fc.property(fc.constantFrom(...MESSAGES), fc.array(fc.tuple(fc.nat(), fc.string({ maxLength: 12 }), unknown), { minLength: 1, maxLength: 4 }), ([make, validate], additions) => {
        const message = make();
        const objects = ['', ...pointers(message)].filter((pointer) => {
          const found = resolve(message, pointer).value;
          return found !== null && typeof found === 'object' && !Array.isArray(found);
        });
        for (const [index, name, value] of additions) (resolve(message, objects[index % objects.length]!).value as Json)[`x-${name}`] = value;
        checkRefusal(validate(message), message, (field) => assert.fail(`${field} is not missing: only members were added`));
      }),
      { numRuns: 300 },
    );
  });
});

void describe('unknown content over HTTP', () => {
  let app: FastifyInstance;
  let close: () => Promise<void>;
  before(async () => {
    ({ app, close } = await intakeApp());
  });
  after(() => close());

  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', authorization: basicAuth(), ...headers }, payload: JSON.stringify(body) });

  void it('answers 400 naming the member to a credit transfer of 100,000 unknown objects, an identifier determination and a request-to-pay of 100,000 supplementaryData items', async () => {
    const transfer = withUnknownObjects(bareTransfer());
    const determination = identifierDetermination('MOBILE') as unknown as Json;
    determination['supplementaryData'] = { items: Array.from({ length: 100_000 }, (_, index) => index) };
    const request = requestToPay('MOBILE') as unknown as Json;
    request['supplementaryData'] = { items: Array.from({ length: 100_000 }, (_, index) => index) };
    const cases: Array<[string, unknown, string, Record<string, string>]> = [
      ['/api/v1/transactions/outbound/credit-transfer', transfer, PAST_THE_BOUND, {}],
      ['/api/v1/identifiers/outbound/identifier-determination', determination, `/supplementaryData/items/${UNKNOWN_VALUES_MAX - 1}`, { prefer: 'respond-async' }],
      ['/api/v1/transactions/outbound/request-to-pay', request, `/supplementaryData/items/${UNKNOWN_VALUES_MAX - 1}`, {}],
    ];
    for (const [url, body, field, headers] of cases) {
      const response = await post(url, body, headers);
      assert.equal(response.statusCode, 400, `${url}: ${response.body.slice(0, 300)}`);
      const detail = response.json<{ schema: string; errors: Array<{ field: string }> }>();
      assert.equal(detail.schema, 'ErrorDetail');
      assert.deepEqual(detail.errors.map((error) => error.field), [field], url);
    }
  });

  void it('never answers 500 to unknown members of any size or depth added to a valid transfer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CREDIT_TRANSFER_FIXTURES), fc.string({ maxLength: 8 }), fc.oneof(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 1, max: 30 }).map(nested)), async (kind, name, value) => {
        const transfer = creditTransfer(kind) as unknown as Json;
        (transfer['debtor'] as Json)[`x-${name}`] = value;
        const response = await post('/api/v1/transactions/outbound/credit-transfer', transfer);
        assert.ok([202, 400, 409, 422].includes(response.statusCode), `${response.statusCode}: ${response.body.slice(0, 300)}`);
      }),
      { numRuns: 100 },
    );
  });
});
