import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { Receiver, type Received } from '../support/receiver.js';
import { basicAuth, OTHER_USER, startServer, testConfigObject, type RunningServer } from '../support/server.js';
import { assertDocumentedPayload } from '../support/event-payloads.js';

/**
 * The receiving direction end to end (CONTRACT §11): the built-in simulator, as the scheme,
 * sends the demo bank a lookup of its customer and a credit, over real HTTP the service asks the
 * integrator (a separate process) and answers the scheme, and the integrator is told the final
 * word once, with events that say INBOUND.
 */
const OPERATOR = { username: 'ops', password: 'ops-password-for-tests' };
const ASYNC_USER = { username: 'async', password: 'async-password-for-tests', clientId: 'async-client', clientSecret: 'async-secret-for-tests' };
const AUTO_USER = { username: 'auto', password: 'auto-password-for-tests', clientId: 'auto-client', clientSecret: 'auto-secret-for-tests' };
const ANSWER_TIMEOUT_MS = 1_000;
/** async-bank's own budget: room for a test to read the question and answer it on a loaded machine. */
const ASYNC_ANSWER_TIMEOUT_MS = 5_000;
const PARTNER = '/partner-api/v1';
const AUTHORISE_ASYNC = `${PARTNER}/transactions/inbound/credit-transfer-authorisation`;
const EVENTS_PATH = '/events-api/v1/events';
const AUTHORISE = `${PARTNER}/transactions/inbound/credit-transfer-authorisation-sync`;
const LOOKUP = `${PARTNER}/identifiers/inbound/identifier-determination-sync`;
const COMPLETION = `${PARTNER}/transactions/inbound/credit-transfer-completion`;

const bodyOf = (message: Received): any => JSON.parse(message.body);
const uetrOfCall = (message: Received): string | undefined => {
  const body = bodyOf(message);
  return (body.transactionIdentifiers?.uetr ?? body.request?.uetr) as string | undefined;
};
const callsFor = (received: Received[], path: string, uetr: string) => received.filter((m) => m.path === path && uetrOfCall(m) === uetr);
const eventsFor = (received: Received[], uetr: string) => received.filter((m) => m.path === EVENTS_PATH && bodyOf(m).tranInfo.tranUetr === uetr).map(bodyOf);

describe('receiving: lookups of the bank’s customers and credits to them, end to end', () => {
  let receiver: Receiver;
  let slowReceiver: Receiver;
  let server: RunningServer;

  before(async () => {
    receiver = await Receiver.start();
    slowReceiver = await Receiver.start({ answerDelayMs: 3_000 });
    const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-receiving-')), 'regpay.db')}`;
    const config = testConfigObject({
      database,
      integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl },
      extra: {
        admin: { username: OPERATOR.username, password: OPERATOR.password, allowlist: ['127.0.0.1/32', '::1/128'] },
        schemes: {
          ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 5, inbound: { answerTimeoutMs: ANSWER_TIMEOUT_MS } },
          ZA_RTC: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 5, inbound: { answerTimeoutMs: ANSWER_TIMEOUT_MS } },
        },
      },
    }) as { integrators: Record<string, unknown>[] };
    const [demo, other] = config.integrators;
    // other-bank answers after its budget; async-bank authorises by arrangement, through its report (within a budget of its own), and takes the older event names.
    config.integrators = [
      demo!,
      { ...other!, partnerApiUrl: slowReceiver.partnerApiUrl, eventsApiUrl: slowReceiver.eventsApiUrl },
      { ...demo!, id: 'async-bank', institution: { bicfi: 'ASYNZAJJ', memberId: '260001' }, credentials: ASYNC_USER, inbound: { authorisation: 'async', identifierDetermination: 'async', answerTimeoutMs: ASYNC_ANSWER_TIMEOUT_MS }, events: { typeNames: 'legacy' } },
      { ...demo!, id: 'auto-bank', institution: { bicfi: 'AUTOZAJJ', memberId: '270001' }, credentials: AUTO_USER, inbound: { authorisation: 'auto' } },
    ];
    const configPath = join(mkdtempSync(join(tmpdir(), 'regpay-receiving-config-')), 'regpay.json');
    writeFileSync(configPath, JSON.stringify(config));
    server = await startServer({ configPath });
  });
  after(async () => {
    await server?.stop();
    await receiver?.down();
    await slowReceiver?.down();
  });

  const originate = async (order: Record<string, unknown>): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${server.url}/admin/v1/simulator/inbound`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(OPERATOR) },
      body: JSON.stringify(order),
    });
    return { status: response.status, body: await response.json() };
  };
  const operatorView = async (scheme: string, uetr: string): Promise<any> => {
    const response = await fetch(`${server.url}/admin/v1/simulator/inbound/${scheme}/${uetr}`, { headers: { authorization: basicAuth(OPERATOR) } });
    return response.status === 200 ? response.json() : undefined;
  };
  const until = async <T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = await probe();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('answers a lookup of the customer from the integrator, then asks it to authorise the credit and tells it the settlement once', async () => {
    const started = await originate({ integratorId: 'demo-bank', scenario: 'LOOKUP_THEN_CREDIT', proxy: { value: '+27-821234567', schema: 'MOBILE' }, amount: '150.25' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const received = await receiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    assert.equal(callsFor(received, LOOKUP, uetr).length, 1, 'the integrator is asked once about the lookup');
    const authorisations = callsFor(received, AUTHORISE, uetr);
    assert.equal(authorisations.length, 1, 'the integrator is asked once to authorise');
    const credit = bodyOf(authorisations[0]!);
    assert.equal(credit.schema, 'CreditTransfer');
    assert.equal(credit.amounts.bankSettlementAmount.value, 150.25);
    assert.equal(credit.creditorAccount.identification.value, '4071000001', 'the credit goes to the account the lookup resolved');
    assert.equal(credit.creditorAgent.bicfi.slice(0, 8), 'DEMOZAJJ');
    const completion = bodyOf(callsFor(received, COMPLETION, uetr)[0]!);
    assert.equal(completion.schema, 'PaymentStatusReport');
    assert.equal(completion.status.outcome, 'APPROVED');
    assert.deepEqual(completion.transactionIdentifiers, credit.transactionIdentifiers);

    const view = await until(async () => {
      const seen = await operatorView('ZA_RPP', uetr);
      return seen?.finalWord === undefined ? undefined : seen;
    }, 'the operator to see the answers');
    assert.ok(JSON.stringify(view).includes('ACSP'), `the scheme was told the credit is approved: ${JSON.stringify(view)}`);

    await receiver.waitFor((all) => eventsFor(all, uetr).some((event) => event.type === 'PAYMENT_COMPLETION_DELIVERED'), 10_000);
    const events = eventsFor(receiver.received(), uetr);
    assert.ok(events.every((event) => event.tranInfo.direction === 'INBOUND' && event.tranInfo.service === 'RPP_INBOUND'));
    const creditTypes = events.filter((event) => event.type.startsWith('PAYMENT_')).map((event) => event.type);
    assert.deepEqual(creditTypes, [
      'PAYMENT_AUTH_REQUEST_RECEIVED',
      'PAYMENT_AUTH_REQUEST_ACCEPTED',
      'PAYMENT_AUTH_REQUEST_PENDING',
      'PAYMENT_AUTH_REQUEST_DELIVERED',
      'PAYMENT_AUTH_RESPONSE_RECEIVED',
      'PAYMENT_AUTH_RESPONSE_ACCEPTED',
      'PAYMENT_AUTH_RESPONSE_PENDING',
      'PAYMENT_AUTH_RESPONSE_DELIVERED',
      'PAYMENT_COMPLETION_RECEIVED',
      'PAYMENT_COMPLETION_PENDING',
      'PAYMENT_COMPLETION_DELIVERED',
    ]);
    for (const event of events) assertDocumentedPayload(event);
    const payloadOf = (type: string) => events.find((event) => event.type === type)?.payload;
    assert.equal(payloadOf('PAYMENT_AUTH_RESPONSE_PENDING').schema, 'PaymentStatusReport', 'the answer given to the scheme');
    assert.equal(payloadOf('PAYMENT_AUTH_RESPONSE_PENDING').status.outcome, 'APPROVED');
    assert.deepEqual(payloadOf('PAYMENT_COMPLETION_PENDING'), completion, 'the completion callback');
    assert.deepEqual(payloadOf('PAYMENT_COMPLETION_DELIVERED'), completion);
  });

  it('passes the integrator’s rejection to the scheme and completes the credit REJECTED with its reason', async () => {
    const started = await originate({ integratorId: 'demo-bank', scheme: 'ZA_RTC', scenario: 'CREDIT', accountNumber: '4071000004', amount: '10.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const received = await receiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    const completion = bodyOf(callsFor(received, COMPLETION, uetr)[0]!);
    assert.equal(completion.status.outcome, 'REJECTED');
    assert.equal(completion.status.reasonInfo[0].reason.value, 'AC04');
    const view = await until(async () => {
      const seen = await operatorView('ZA_RTC', uetr);
      return JSON.stringify(seen ?? {}).includes('RJCT') ? seen : undefined;
    }, 'the operator to see the rejection');
    assert.ok(JSON.stringify(view).includes('AC04'), 'the scheme was told the integrator’s reason');
    assert.equal(view.finalWord, undefined, 'no final word follows a rejection');
  });

  it('answers a resent pacs.008 identically and never asks the integrator twice', async () => {
    const started = await originate({ integratorId: 'demo-bank', scheme: 'ZA_RTC', scenario: 'CREDIT_DUPLICATE', accountNumber: '4071000011', amount: '99.99' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const received = await receiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(callsFor(receiver.received(), AUTHORISE, uetr).length, 1, 'one authorisation call for two identical pacs.008');
    assert.equal(callsFor(received, COMPLETION, uetr).length, 1, 'one completion');
  });

  it('answers the scheme AB06 within its budget when the integrator answers too late, and completes the credit REJECTED AB06 once', async () => {
    const started = await originate({ integratorId: 'other-bank', scheme: 'ZA_RTC', scenario: 'CREDIT', accountNumber: '4071000021', amount: '20.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const received = await slowReceiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    const completion = bodyOf(callsFor(received, COMPLETION, uetr)[0]!);
    assert.equal(completion.status.outcome, 'REJECTED');
    assert.equal(completion.status.reasonInfo[0].reason.value, 'AB06');
    const view = await until(async () => {
      const seen = await operatorView('ZA_RTC', uetr);
      return JSON.stringify(seen ?? {}).includes('AB06') ? seen : undefined;
    }, 'the operator to be answered AB06');
    assert.equal(view.finalWord, undefined, 'no final word follows a rejection');
    // The answer came ANSWER_TIMEOUT_MS after the pacs.008 (the scheme's budget is 10 s), not after the integrator's 3 s.
    const events = eventsFor(slowReceiver.received(), uetr);
    const at = (type: string) => Date.parse(events.find((event) => event.type === type)?.messageInfo.creationDateTime);
    const answeredAfterMs = at('PAYMENT_AUTH_RESPONSE_PENDING') - at('PAYMENT_AUTH_REQUEST_RECEIVED');
    assert.ok(answeredAfterMs >= ANSWER_TIMEOUT_MS - 50 && answeredAfterMs < ANSWER_TIMEOUT_MS + 1_000, `answered ${answeredAfterMs} ms after the pacs.008`);
    assert.ok(events.some((event) => event.type === 'PAYMENT_AUTH_TIMEOUT'));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    assert.equal(callsFor(slowReceiver.received(), COMPLETION, uetr).length, 1, 'the late approval changes nothing: one completion');
  });

  it('takes an async decision through the integrator API: 404 for another integrator, 202 once and for its retry, 409 for a second decision', async () => {
    const started = await originate({ integratorId: 'async-bank', scheme: 'ZA_RTC', scenario: 'CREDIT', accountNumber: '4071000031', amount: '31.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const asked = await receiver.waitFor((all) => callsFor(all, AUTHORISE_ASYNC, uetr).length > 0, 20_000);
    const credit = bodyOf(callsFor(asked, AUTHORISE_ASYNC, uetr)[0]!);
    const decision = (messageIdentification: string, outcome: 'APPROVED' | 'REJECTED') => ({
      schema: 'PaymentStatusReport',
      messageIdentifiers: { messageIdentification, creationDateTime: new Date().toISOString() },
      originalMessageIdentifiers: credit.messageIdentifiers,
      transactionIdentifiers: credit.transactionIdentifiers,
      status: outcome === 'APPROVED' ? { outcome } : { outcome, reasonInfo: [{ reason: { schema: 'CODE', value: 'AC06' } }] },
    });
    const report = (user: { username: string; password: string }, body: unknown) =>
      fetch(`${server.url}/api/v1/transactions/inbound/credit-transfer-authorisation-response`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth(user) },
        body: JSON.stringify(body),
      });
    const approval = decision(`ASYNC${Date.now()}`, 'APPROVED');
    assert.equal((await report(OTHER_USER, approval)).status, 404, 'another integrator cannot answer it');
    assert.equal((await report(ASYNC_USER, approval)).status, 202);
    assert.equal((await report(ASYNC_USER, approval)).status, 202, 'the identical retry');
    const second = await report(ASYNC_USER, decision(`ASYNC${Date.now()}b`, 'REJECTED'));
    assert.equal(second.status, 409);
    assert.equal(((await second.json()) as { errors: { field: string }[] }).errors[0]?.field, '/transactionIdentifiers/uetr');
    const received = await receiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    assert.equal(bodyOf(callsFor(received, COMPLETION, uetr)[0]!).status.outcome, 'APPROVED');
    // async-bank asked for the seed system's older type names (docs/receiving.md has the table).
    await receiver.waitFor((all) => eventsFor(all, uetr).some((event) => event.type === 'CREDIT_COMPLETION_DELIVERED'), 10_000);
    const events = eventsFor(receiver.received(), uetr);
    assert.deepEqual(
      events.map((event) => event.type),
      [
        'CREDIT_AUTH_RECEIVED',
        'CREDIT_AUTH_ACCEPTED',
        'CREDIT_AUTH_PENDING',
        'CREDIT_AUTH_DELIVERED',
        'CREDIT_AUTH_RESPONSE_RECEIVED',
        'CREDIT_AUTH_RESPONSE_ACCEPTED',
        'CREDIT_AUTH_RESPONSE_PENDING',
        'CREDIT_AUTH_RESPONSE_DELIVERED',
        'CREDIT_COMPLETION_RECEIVED',
        'CREDIT_COMPLETION_PENDING',
        'CREDIT_COMPLETION_DELIVERED',
      ],
    );
    assert.ok(events.every((event) => event.name === `TRANSACTION_STATE_${event.type}` && event.tranInfo.service === 'RTC_INBOUND'));
  });

  it('refuses an async decision that comes after the budget ran out (409: the scheme was answered AB06), and completes the credit REJECTED AB06', async () => {
    const started = await originate({ integratorId: 'async-bank', scheme: 'ZA_RTC', scenario: 'CREDIT', accountNumber: '4071000051', amount: '51.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const asked = await receiver.waitFor((all) => callsFor(all, AUTHORISE_ASYNC, uetr).length > 0, 20_000);
    const credit = bodyOf(callsFor(asked, AUTHORISE_ASYNC, uetr)[0]!);
    await receiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    const late = await fetch(`${server.url}/api/v1/transactions/inbound/credit-transfer-authorisation-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(ASYNC_USER) },
      body: JSON.stringify({
        schema: 'PaymentStatusReport',
        messageIdentifiers: { messageIdentification: `LATE${Date.now()}`, creationDateTime: new Date().toISOString() },
        transactionIdentifiers: credit.transactionIdentifiers,
        status: { outcome: 'APPROVED' },
      }),
    });
    assert.equal(late.status, 409);
    assert.match(((await late.json()) as { message: string }).message, /the scheme was already answered/);
    const completion = bodyOf(callsFor(receiver.received(), COMPLETION, uetr)[0]!);
    assert.deepEqual([completion.status.outcome, completion.status.reasonInfo[0].reason.value], ['REJECTED', 'AB06']);
  });

  it('refuses an async lookup answer SUCCESSFUL without both names, naming each, and takes the complete one', async () => {
    const started = await originate({ integratorId: 'async-bank', scenario: 'LOOKUP_THEN_CREDIT', proxy: { value: '+27-829990001', schema: 'MOBILE' }, amount: '5.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const asked = await receiver.waitFor((all) => callsFor(all, `${PARTNER}/identifiers/inbound/identifier-determination`, uetr).length > 0, 20_000);
    const lookup = bodyOf(callsFor(asked, `${PARTNER}/identifiers/inbound/identifier-determination`, uetr)[0]!);
    const answer = (messageIdentification: string, owner: Record<string, string>) => ({
      schema: 'IdentifierDeterminationResponse',
      messageIdentifiers: { messageIdentification, creationDateTime: new Date().toISOString() },
      originalMessageIdentifiers: lookup.messageIdentifiers,
      scheme: 'ZA_RPP',
      uetr,
      verificationIdentification: lookup.request.verificationIdentification,
      report: { reportInformation: { outcome: 'SUCCESSFUL', accountInformation: { traditionalIdentifier: '4071000061' }, accountOwner: owner } },
    });
    const post = (body: unknown) =>
      fetch(`${server.url}/api/v1/identifiers/inbound/identifier-determination-report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth(ASYNC_USER) },
        body: JSON.stringify(body),
      });
    const unnamed = await post(answer(`NONAME${Date.now()}`, {}));
    assert.equal(unnamed.status, 400);
    const fields = ((await unnamed.json()) as { errors: { field: string }[] }).errors.map((error) => error.field).sort();
    assert.deepEqual(fields, ['/report/reportInformation/accountOwner/knownAsName', '/report/reportInformation/accountOwner/legalName']);
    assert.equal((await post(answer(`NAMED${Date.now()}`, { knownAsName: 'Lindiwe', legalName: 'Lindiwe Dube' }))).status, 202);
    // The scheme, answered SUCCESSFUL, goes on with the credit to the account the answer named.
    const authorised = await receiver.waitFor((all) => callsFor(all, AUTHORISE_ASYNC, uetr).length > 0, 20_000);
    assert.equal(bodyOf(callsFor(authorised, AUTHORISE_ASYNC, uetr)[0]!).creditorAccount.identification.value, '4071000061');
  });

  it('approves by arrangement without asking the integrator (auto-authorisation), which learns of the credit from its completion alone', async () => {
    const started = await originate({ integratorId: 'auto-bank', scheme: 'ZA_RTC', scenario: 'CREDIT', accountNumber: '4071000071', amount: '71.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const received = await receiver.waitFor((all) => callsFor(all, COMPLETION, uetr).length > 0, 20_000);
    assert.equal(bodyOf(callsFor(received, COMPLETION, uetr)[0]!).status.outcome, 'APPROVED');
    assert.deepEqual([...callsFor(received, AUTHORISE, uetr), ...callsFor(received, AUTHORISE_ASYNC, uetr)], [], 'never asked');
    const view = await until(async () => {
      const seen = await operatorView('ZA_RTC', uetr);
      return seen?.finalWord === undefined ? undefined : seen;
    }, 'the operator to settle');
    assert.ok(JSON.stringify(view).includes('ACSP'));
  });

  it('refuses an async decision that breaks the rules, naming every bad field, and changes nothing', async () => {
    const response = await fetch(`${server.url}/api/v1/transactions/inbound/credit-transfer-authorisation-response`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(ASYNC_USER) },
      body: JSON.stringify({ schema: 'PaymentStatusReport', messageIdentifiers: { messageIdentification: 'X'.repeat(36), creationDateTime: 'yesterday' }, transactionIdentifiers: { uetr: 'not-a-uuid' }, status: { outcome: 'REJECTED' } }),
    });
    assert.equal(response.status, 400);
    const fields = ((await response.json()) as { errors: { field: string }[] }).errors.map((error) => error.field).sort();
    for (const field of ['/messageIdentifiers/messageIdentification', '/messageIdentifiers/creationDateTime', '/transactionIdentifiers/uetr', '/status/reasonInfo']) {
      assert.ok(fields.includes(field), `${field} is named: ${fields.join(', ')}`);
    }
  });

  it('lists the received transactions apart from the sent ones by direction, each saying its direction, and refuses an unknown direction naming the field', async () => {
    const started = await originate({ integratorId: 'demo-bank', scheme: 'ZA_RTC', scenario: 'CREDIT', accountNumber: '4071000001', amount: '12.00' });
    assert.equal(started.status, 202, JSON.stringify(started.body));
    const { uetr } = started.body as { uetr: string };
    const sent = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify(creditTransfer('ZA_RTC')),
    });
    assert.equal(sent.status, 202, await sent.text());
    const list = async (query: string): Promise<any> => {
      const response = await fetch(`${server.url}/admin/v1/transactions?${query}`, { headers: { authorization: basicAuth(OPERATOR) } });
      return { status: response.status, body: await response.json() };
    };
    const credit = await until(async () => (await list(`uetr=${uetr}&direction=INBOUND`)).body.transactions[0], 'the credit to be listed');
    assert.equal(credit.kind, 'INBOUND_CREDIT_TRANSFER');
    assert.equal(credit.direction, 'INBOUND');
    assert.deepEqual((await list(`uetr=${uetr}&direction=OUTBOUND`)).body.transactions, [], 'not among the sent ones');

    const inbound = (await list('direction=INBOUND&limit=500')).body.transactions as { id: string; kind: string; direction: string }[];
    const outbound = (await list('direction=OUTBOUND&limit=500')).body.transactions as { id: string; kind: string; direction: string }[];
    const everything = (await list('limit=500')).body.transactions as { id: string; kind: string }[];
    assert.ok(inbound.some((row) => row.id === credit.id));
    assert.ok(inbound.every((row) => row.direction === 'INBOUND' && row.kind.startsWith('INBOUND_')), 'only received ones');
    assert.ok(outbound.length > 0 && outbound.every((row) => row.direction === 'OUTBOUND' && !row.kind.startsWith('INBOUND_')), 'only sent ones');
    assert.deepEqual([...inbound, ...outbound].map((row) => row.id).sort(), everything.map((row) => row.id).sort(), 'every transaction goes one way or the other');
    assert.deepEqual((await list('direction=INBOUND&kind=CREDIT_TRANSFER')).body.transactions, [], 'an outbound kind is never inbound');

    const detail = await fetch(`${server.url}/admin/v1/transactions/${credit.id}`, { headers: { authorization: basicAuth(OPERATOR) } });
    assert.equal(((await detail.json()) as { direction: string }).direction, 'INBOUND');

    const refused = await list('direction=SIDEWAYS');
    assert.equal(refused.status, 400);
    assert.deepEqual(refused.body.errors, [{ field: '/direction', message: 'must be one of OUTBOUND, INBOUND' }]);
  });

  it('refuses to originate for an integrator that does not exist', async () => {
    const started = await originate({ integratorId: 'nobody', scenario: 'CREDIT', accountNumber: '1', amount: '1.00' });
    assert.equal(started.status, 404);
  });
});
