import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { Receiver, type Received } from '../support/receiver.js';
import { basicAuth, startServer, writeTestConfig, type RunningServer } from '../support/server.js';

/**
 * The receiving direction end to end (CONTRACT §11): the built-in simulator, as the scheme,
 * sends the demo bank a lookup of its customer and a credit, over real HTTP the service asks the
 * integrator (a separate process) and answers the scheme, and the integrator is told the final
 * word once, with events that say INBOUND.
 */
const OPERATOR = { username: 'ops', password: 'ops-password-for-tests' };
const PARTNER = '/partner-api/v1';
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
  let server: RunningServer;

  before(async () => {
    receiver = await Receiver.start();
    const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-receiving-')), 'regpay.db')}`;
    const configPath = writeTestConfig({
      database,
      integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl },
      extra: {
        admin: { username: OPERATOR.username, password: OPERATOR.password, allowlist: ['127.0.0.1/32', '::1/128'] },
        schemes: {
          ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 5, inbound: { answerTimeoutMs: 1_000 } },
          ZA_RTC: { connector: 'simulator', timeBudgetMs: 10_000, simulatorLatencyMs: 5, inbound: { answerTimeoutMs: 1_000 } },
        },
      },
    });
    server = await startServer({ configPath });
  });
  after(async () => {
    await server?.stop();
    await receiver?.down();
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
