import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { webhookSignature } from '../../src/lib/webhook-signature.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { demoAccessToken, startDemo, type RunningServer } from '../support/server.js';

/**
 * The zero-config demo shows what happens: started with no configuration (a real process in an
 * empty directory), its integrator's callbacks and events reach the service's own demo inbox,
 * which verifies their signatures and lists them through the admin API, and the start banner
 * says where everything is.
 */
describe('the demo inbox (service started with no configuration)', () => {
  let server: RunningServer;
  let variables: Record<string, string>;

  before(async () => {
    ({ server, variables } = await startDemo(mkdtempSync(join(tmpdir(), 'regpay-demo-inbox-'))));
  });
  after(async () => {
    await server?.stop();
  });

  const admin = (): string => `Basic ${Buffer.from(`${variables['REGPAY_ADMIN_USERNAME']}:${variables['REGPAY_ADMIN_PASSWORD']}`).toString('base64')}`;

  it('prints where the API, docs, admin API, inbox and console are, with the integrator and admin credentials', () => {
    const banner = server.output();
    for (const part of ['/api/v1', '/docs', '/admin/v1', '/admin/v1/demo-inbox', '/console', 'client_secret', 'webhook secret']) assert.ok(banner.includes(part), `${part} in the banner`);
    assert.equal(variables['REGPAY_URL'], server.url);
    assert.equal(variables['REGPAY_ADMIN_USERNAME'], 'admin');
    assert.ok((variables['REGPAY_ADMIN_PASSWORD'] ?? '').length >= 16);
  });

  it("receives the demo integrator's callback and events, signed, and lists them for the operator", async () => {
    const accessToken = await demoAccessToken(server, variables);
    const transfer = creditTransfer('ZA_RTC');
    const uetr = transfer.transactionIdentifiers.uetr;
    const accepted = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify(transfer),
    });
    assert.equal(accepted.status, 202, await accepted.text());

    type Entry = { seq: number; channel: string; path: string; signatureValid: boolean; body: any };
    const deadline = Date.now() + 30_000;
    let messages: Entry[] = [];
    for (;;) {
      const response = await fetch(`${server.url}/admin/v1/demo-inbox?limit=1000`, { headers: { authorization: admin() } });
      assert.equal(response.status, 200);
      messages = ((await response.json()) as { messages: Entry[] }).messages;
      const events = messages.filter((entry) => entry.channel === 'event' && entry.body.tranInfo?.tranUetr === uetr);
      if (events.some((entry) => entry.body.type === 'PAYMENT_AUTH_RESPONSE_DELIVERED')) break;
      if (Date.now() > deadline) assert.fail(`not every event reached the inbox: ${JSON.stringify(messages.map((entry) => [entry.channel, entry.path]))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const callback = messages.find((entry) => entry.channel === 'callback' && entry.body.transactionIdentifiers?.uetr === uetr);
    assert.ok(callback, 'the outcome callback is in the inbox');
    assert.equal(callback.path, '/transactions/outbound/credit-transfer-response');
    assert.equal(callback.body.status.outcome, 'APPROVED');
    const ours = messages.filter((entry) => entry.body.tranInfo?.tranUetr === uetr || entry.body.transactionIdentifiers?.uetr === uetr);
    assert.equal(ours.length, 9, 'eight events and the callback, each once');
    assert.ok(ours.every((entry) => entry.signatureValid), 'each signed with the printed webhook secret');

    const later = await fetch(`${server.url}/admin/v1/demo-inbox?after=${callback.seq}`, { headers: { authorization: admin() } });
    const rest = ((await later.json()) as { messages: Entry[] }).messages;
    assert.ok(rest.every((entry) => entry.seq > callback.seq), 'pages go on after a sequence number');
    assert.equal((await fetch(`${server.url}/admin/v1/demo-inbox`)).status, 401, 'only for the operator');
  });

  type Entry = {
    seq: number;
    channel: string;
    path: string;
    signatureValid: boolean;
    signatureHeaders: Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string | null>;
    rawBody: string;
    body: any;
    answer?: any;
    status: string | null;
    reason: { code: string; text: string | null } | null;
  };
  const uetrOf = (entry: Entry): string | undefined => entry.body?.transactionIdentifiers?.uetr ?? entry.body?.request?.uetr ?? entry.body?.tranInfo?.tranUetr;

  /** The operator's trigger: the simulated scheme sends the demo bank a lookup and/or a credit. */
  async function originate(order: Record<string, unknown>): Promise<string> {
    const response = await fetch(`${server.url}/admin/v1/simulator/inbound`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: admin() }, body: JSON.stringify(order) });
    const body = (await response.json()) as { uetr: string };
    assert.equal(response.status, 202, JSON.stringify(body));
    return body.uetr;
  }

  /** What reached the inbox about one transaction, once `done` holds. */
  async function inboxFor(uetr: string, done: (entries: Entry[]) => boolean): Promise<Entry[]> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await fetch(`${server.url}/admin/v1/demo-inbox?limit=1000`, { headers: { authorization: admin() } });
      const entries = ((await response.json()) as { messages: Entry[] }).messages.filter((entry) => uetrOf(entry) === uetr);
      if (done(entries)) return entries;
      if (Date.now() > deadline) assert.fail(`the inbox did not get there: ${JSON.stringify(entries.map((entry) => [entry.path, entry.body?.type]))}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  const completed = (entries: Entry[]) => entries.some((entry) => entry.body?.type === 'PAYMENT_COMPLETION_DELIVERED');

  it('answers the scheme’s lookup of a demo customer and its credit to them, and is told the credit settled, with INBOUND events', async () => {
    const uetr = await originate({ integratorId: 'demo-bank', scenario: 'LOOKUP_THEN_CREDIT', proxy: { value: '+27-0821234567', schema: 'MOBILE' }, amount: '150.25' });
    const entries = await inboxFor(uetr, completed);
    const lookup = entries.find((entry) => entry.path === '/identifiers/inbound/identifier-determination-sync');
    assert.ok(lookup, 'the demo bank was asked who the proxy is');
    assert.deepEqual(lookup.answer?.report.reportInformation.accountOwner, { knownAsName: 'Thandi', legalName: 'Thandi Nkosi' }, 'and answered from its directory');
    const authorisation = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-authorisation-sync');
    assert.equal(authorisation?.body.creditorAccount.identification.value, '4071000001', 'the credit goes to the account the demo bank named');
    assert.equal(authorisation?.answer?.status.outcome, 'APPROVED');
    const completion = entries.filter((entry) => entry.path === '/transactions/inbound/credit-transfer-completion');
    assert.equal(completion.length, 1, 'told the final word once');
    assert.equal(completion[0]?.body.status.outcome, 'APPROVED', 'settled: credit the customer');
    assert.equal(authorisation?.body.amounts.bankSettlementAmount.value, 150.25, 'the amount the scheme sent');
    assert.deepEqual(completion[0]?.body.transactionIdentifiers, authorisation?.body.transactionIdentifiers, 'the completion names the credit');
    assert.ok(entries.every((entry) => entry.signatureValid), 'every call signed with the printed webhook secret');
    const events = entries.filter((entry) => entry.channel === 'event').map((entry) => entry.body);
    assert.ok(events.length > 0 && events.every((event) => event.tranInfo.direction === 'INBOUND' && event.tranInfo.service === 'RPP_INBOUND'), JSON.stringify(events.map((event) => event.tranInfo)));
  });

  it('declines a credit to a demo customer whose account is closed, AC04, and is told the credit was rejected', async () => {
    const uetr = await originate({ integratorId: 'demo-bank', scenario: 'CREDIT', accountNumber: '4071001004', amount: '10.00' });
    const entries = await inboxFor(uetr, completed);
    const authorisation = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-authorisation-sync');
    assert.equal(authorisation?.answer?.status.reasonInfo[0].reason.value, 'AC04');
    const completion = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-completion');
    assert.equal(completion?.body.status.outcome, 'REJECTED');
    assert.equal(completion?.body.status.reasonInfo[0].reason.value, 'AC04');
  });

  /** Standard Webhooks as any library implements it (https://www.standardwebhooks.com): HMAC-SHA256 of `id.timestamp.body` under the secret's base64 key. */
  function standardWebhooksSignature(secret: string, id: string, timestamp: string, body: string): string {
    return `v1,${createHmac('sha256', Buffer.from(secret.slice('whsec_'.length), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
  }

  it('says on each message the status and reason it reports, and gives its raw body and signature headers, which verify with the printed webhook secret', async () => {
    const uetr = await originate({ integratorId: 'demo-bank', scenario: 'CREDIT', accountNumber: '4071001004', amount: '10.00' });
    const entries = await inboxFor(uetr, completed);
    const authorisation = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-authorisation-sync');
    assert.equal(authorisation?.status, 'REJECTED', "a sync call: the demo bank's answer");
    assert.deepEqual(authorisation?.reason, { code: 'AC04', text: 'Account closed' });
    const completion = entries.find((entry) => entry.path === '/transactions/inbound/credit-transfer-completion');
    assert.equal(completion?.status, 'REJECTED');
    assert.equal(completion?.reason?.code, 'AC04');
    const answered = entries.find((entry) => entry.body?.type === 'PAYMENT_AUTH_RESPONSE_RECEIVED');
    assert.equal(answered?.status, 'REJECTED', "an event: its payload's status");
    assert.deepEqual(answered?.reason, { code: 'AC04', text: 'Account closed' });

    const secret = variables['REGPAY_WEBHOOK_SECRET'] ?? '';
    assert.ok(entries.length >= 3);
    for (const entry of entries) {
      const { 'webhook-id': id, 'webhook-timestamp': timestamp, 'webhook-signature': signatures } = entry.signatureHeaders;
      assert.ok(id !== null && timestamp !== null && signatures !== null, `${entry.path}: every signature header`);
      assert.equal(id, (entry as unknown as { webhookId: string }).webhookId);
      assert.deepEqual(JSON.parse(entry.rawBody), entry.body, 'the raw body is the body');
      const sent = signatures.split(' ');
      assert.ok(sent.includes(standardWebhooksSignature(secret, id, timestamp, entry.rawBody)), `${entry.path}: verifies as Standard Webhooks`);
      assert.ok(sent.includes(webhookSignature(secret, id, Number(timestamp), entry.rawBody)), `${entry.path}: verifies with regpay's own code`);
      assert.ok(!sent.includes(standardWebhooksSignature(secret, id, timestamp, `${entry.rawBody} `)), 'a changed body does not verify');
    }
  });
});
