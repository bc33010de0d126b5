import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestToPay, requestToPayCancellation, requestToPayStatusRequest } from '../fixtures/request-to-pay.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../support/postgres.js';
import { Receiver, type Received } from '../support/receiver.js';
import { basicAuth, OTHER_USER, startServer, writeTestConfig, type RunningServer } from '../support/server.js';
import { assertDocumentedPayload } from '../support/event-payloads.js';

const LATENCY_MS = 100;
const RESPONSE_PATH = '/partner-api/v1/transactions/outbound/request-to-pay-response';
const CANCELLATION_PATH = '/partner-api/v1/transactions/outbound/request-to-pay/cancellation-response';
const EVENTS_PATH = '/events-api/v1/events';

type Rtp = ReturnType<typeof requestToPay>;

/** A request-to-pay whose debtor account number picks the simulator's scenario; expiring `expiresInMs` from now. */
function rtpFor(debtorAccount: string, expiresInMs = 60 * 60 * 1000): Rtp {
  const body = requestToPay('ACCOUNT');
  body.debtorAccount = { identification: { schema: 'GENERIC', value: debtorAccount } };
  body.expiryDateTime = new Date(Date.now() + expiresInMs).toISOString();
  return body;
}

const bodyOf = (message: Received): any => JSON.parse(message.body);
const uetrOf = (rtp: Rtp) => rtp.transactionIdentifiers.uetr;
const statuses = (received: Received[], rtp: Rtp) =>
  received.filter((m) => m.path === RESPONSE_PATH && bodyOf(m).transactionIdentifiers.uetr === uetrOf(rtp)).map((m) => bodyOf(m).status.status as string);
const cancellations = (received: Received[], rtp: Rtp) =>
  received.filter((m) => m.path === CANCELLATION_PATH && bodyOf(m).originalTransactionIdentifiers.uetr === uetrOf(rtp)).map((m) => bodyOf(m));
const eventTypes = (received: Received[], rtp: Rtp) =>
  received.filter((m) => m.path === EVENTS_PATH && bodyOf(m).tranInfo.tranUetr === uetrOf(rtp)).map((m) => bodyOf(m).type as string);
const distinct = (values: string[]) => values.filter((value, index) => values.indexOf(value) === index);

function configPath(database: string, receiver: Receiver, extra: Record<string, unknown> = {}): string {
  return writeTestConfig({
    database,
    integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl },
    extra: { schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 2_000, simulatorLatencyMs: LATENCY_MS } }, ...extra },
  });
}

async function post(server: RunningServer, path: string, body: unknown, user?: { username: string; password: string }) {
  const response = await fetch(`${server.url}/api/v1/transactions/outbound/request-to-pay${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basicAuth(user) },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
}

/** Waits until `rtp` has pushed a final status; returns everything received. */
const untilFinal = (receiver: Receiver, rtp: Rtp, timeoutMs = 20_000) =>
  receiver.waitFor((all) => statuses(all, rtp).some((status) => ['PAID', 'REJECTED', 'EXPIRED', 'CANCELLED'].includes(status)), timeoutMs);

void describe('request-to-pay end to end (service, simulated operator and integrator as separate processes)', () => {
  let receiver: Receiver;
  let server: RunningServer;

  before(async () => {
    receiver = await Receiver.start();
    server = await startServer({ configPath: configPath(`sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-rtp-')), 'regpay.db')}`, receiver) });
  });
  after(async () => {
    await server?.stop();
    await receiver?.down();
  });

  void it('pushes PENDING, PRESENTED, PAID in order for a request the debtor pays, with one event per state, each status event carrying its push', async () => {
    const rtp = rtpFor('0799000100');
    assert.equal((await post(server, '', rtp)).status, 202);
    const received = await untilFinal(receiver, rtp);
    assert.deepEqual(statuses(received, rtp), ['PENDING', 'PRESENTED', 'PAID']);
    const push = received.find((m) => m.path === RESPONSE_PATH && bodyOf(m).transactionIdentifiers.uetr === uetrOf(rtp))!;
    assert.deepEqual(bodyOf(push).originalMessageIdentifiers, rtp.messageIdentifiers);
    assert.match(push.body, /"maxAmount":\{"currency":"ZAR","value":9000\.00\}/, 'conditions echoed exactly');
    const events = await receiver.waitFor((all) => eventTypes(all, rtp).includes('REQUEST_TO_PAY_STATUS_PAID'));
    assert.deepEqual(
      distinct(eventTypes(events, rtp)),
      ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'REQUEST_DELIVERED', 'STATUS_PENDING', 'STATUS_PRESENTED', 'STATUS_PAID'].map((type) => `REQUEST_TO_PAY_${type}`),
    );
    const pushes = received.filter((m) => m.path === RESPONSE_PATH && bodyOf(m).transactionIdentifiers.uetr === uetrOf(rtp)).map(bodyOf);
    for (const event of events.filter((m) => m.path === EVENTS_PATH && bodyOf(m).tranInfo.tranUetr === uetrOf(rtp)).map(bodyOf)) {
      assertDocumentedPayload(event);
      if (!String(event.type).startsWith('REQUEST_TO_PAY_STATUS_')) continue;
      const status = String(event.type).slice('REQUEST_TO_PAY_STATUS_'.length);
      assert.deepEqual(event.payload, pushes.find((push) => push.status.status === status), `${event.type} carries the ${status} push`);
    }
  });

  void it('pushes REJECTED with the reason code of every rejection the simulator knows', async () => {
    const codes = ['AC01', 'AC04', 'AC06', 'AG01', 'AM04', 'FRAD', 'MD07', 'MS02', 'MS03', 'NARR', 'RR04'];
    const rtps = codes.map((_, index) => rtpFor(`07990001${String(index + 1).padStart(2, '0')}`));
    for (const rtp of rtps) assert.equal((await post(server, '', rtp)).status, 202);
    for (const [index, rtp] of rtps.entries()) {
      const received = await untilFinal(receiver, rtp);
      assert.deepEqual(statuses(received, rtp), ['PENDING', 'PRESENTED', 'REJECTED']);
      const rejected = received.filter((m) => m.path === RESPONSE_PATH && bodyOf(m).transactionIdentifiers.uetr === uetrOf(rtp)).at(-1)!;
      assert.equal(bodyOf(rejected).status.reasonInfo[0].reason.value, codes[index]);
    }
  });

  void it('reports ACCEPTED then PAID, one PAID for a report sent twice, and an unknown status as pending', async () => {
    const [acceptThenPay, paidTwice, unknown] = [rtpFor('0799000203'), rtpFor('0799000204'), rtpFor('0799000205')];
    for (const rtp of [acceptThenPay, paidTwice, unknown]) assert.equal((await post(server, '', rtp)).status, 202);
    assert.deepEqual(statuses(await untilFinal(receiver, acceptThenPay), acceptThenPay), ['PENDING', 'PRESENTED', 'ACCEPTED', 'PAID']);
    await untilFinal(receiver, paidTwice);
    await new Promise((resolve) => setTimeout(resolve, 4 * LATENCY_MS));
    assert.deepEqual(statuses(receiver.received(), paidTwice), ['PENDING', 'PRESENTED', 'PAID'], 'the second PAID is not reported');
    assert.deepEqual(statuses(await untilFinal(receiver, unknown), unknown), ['PENDING', 'PAID']);
  });

  void it('expires a request never presented, and one presented but never paid, at its expiry', async () => {
    const [neverPresented, neverPaid] = [rtpFor('0799000201', 1_500), rtpFor('0799000202', 1_500)];
    for (const rtp of [neverPresented, neverPaid]) assert.equal((await post(server, '', rtp)).status, 202);
    assert.deepEqual(statuses(await untilFinal(receiver, neverPresented), neverPresented), ['PENDING', 'EXPIRED']);
    assert.deepEqual(statuses(await untilFinal(receiver, neverPaid), neverPaid), ['PENDING', 'PRESENTED', 'EXPIRED']);
  });

  void it('cancels an open request (ACCEPTED, request CANCELLED) and refuses to cancel a paid one, with its status', async () => {
    const open = rtpFor('0799000202');
    assert.equal((await post(server, '', open)).status, 202);
    await receiver.waitFor((all) => statuses(all, open).includes('PRESENTED'));
    const cancellation = requestToPayCancellation(open);
    assert.equal((await post(server, '/cancellation-request', cancellation)).status, 202);
    assert.equal((await post(server, '/cancellation-request', cancellation)).status, 202, 'a retry is answered as before');
    const received = await untilFinal(receiver, open);
    assert.deepEqual(statuses(received, open), ['PENDING', 'PRESENTED', 'CANCELLED']);
    const [answer] = cancellations(await receiver.waitFor((all) => cancellations(all, open).length > 0), open);
    assert.equal(answer.cancellationStatus.status, 'ACCEPTED');
    assert.equal(answer.requestToPayStatus.status, 'CANCELLED');
    assert.deepEqual(answer.originalMessageIdentifiers, cancellation.messageIdentifiers);

    const paid = rtpFor('0799000100');
    assert.equal((await post(server, '', paid)).status, 202);
    await untilFinal(receiver, paid);
    assert.equal((await post(server, '/cancellation-request', requestToPayCancellation(paid))).status, 202);
    const [refused] = cancellations(await receiver.waitFor((all) => cancellations(all, paid).length > 0), paid);
    assert.equal(refused.cancellationStatus.status, 'REJECTED');
    assert.equal(refused.requestToPayStatus.status, 'PAID');
  });

  void it('decides a cancellation racing the payment once: the payment stands and the cancellation is refused with PAID', async () => {
    const racing = rtpFor('0799000203');
    assert.equal((await post(server, '', racing)).status, 202);
    await receiver.waitFor((all) => statuses(all, racing).includes('ACCEPTED'));
    // The payer accepted; the simulator pays shortly. The cancellation either wins (CANCELLED) or loses to PAID: never both.
    assert.equal((await post(server, '/cancellation-request', requestToPayCancellation(racing))).status, 202);
    const received = await untilFinal(receiver, racing);
    const [answer] = cancellations(await receiver.waitFor((all) => cancellations(all, racing).length > 0), racing);
    const final = statuses(received, racing).at(-1);
    assert.equal(statuses(received, racing).filter((status) => ['PAID', 'CANCELLED'].includes(status)).length, 1, 'one final status');
    assert.equal(answer.cancellationStatus.status, final === 'CANCELLED' ? 'ACCEPTED' : 'REJECTED');
    assert.equal(answer.requestToPayStatus.status, final);
  });

  void it('re-sends the current status on a status request, and answers 404 for another integrator\'s request', async () => {
    const rtp = rtpFor('0799000100');
    assert.equal((await post(server, '', rtp)).status, 202);
    await untilFinal(receiver, rtp);
    assert.equal((await post(server, '/status-request', requestToPayStatusRequest(rtp))).status, 202);
    await receiver.waitFor((all) => statuses(all, rtp).length === 4);
    assert.deepEqual(statuses(receiver.received(), rtp), ['PENDING', 'PRESENTED', 'PAID', 'PAID']);
    const foreign = await post(server, '/status-request', requestToPayStatusRequest(rtp), OTHER_USER);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.json.errors[0].field, '/originalTransactionIdentifiers/uetr');
    assert.equal((await post(server, '/cancellation-request', requestToPayCancellation(rtp), OTHER_USER)).status, 404);
  });

  void it('refuses an expiry in the past, an amount outside the conditions, another scheme and another creditor agent', async () => {
    const past = rtpFor('0799000100', -1_000);
    const expired = await post(server, '', past);
    assert.equal(expired.status, 400);
    assert.equal(expired.json.errors[0].field, '/expiryDateTime');
    const outside = rtpFor('0799000100');
    outside.requestToPayConditions = { minAmount: { currency: 'ZAR', value: 9000 }, maxAmount: { currency: 'ZAR', value: 9500 } };
    assert.equal((await post(server, '', outside)).status, 400);
    const rtc = rtpFor('0799000100');
    (rtc.paymentScheme as any).schema = 'ZA_RTC';
    assert.equal((await post(server, '', rtc)).status, 422);
    const foreignAgent = rtpFor('0799000100');
    foreignAgent.creditorAgent = { bicfi: 'OTHRZAJJ' };
    const refused = await post(server, '', foreignAgent);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.json.errors.map((error: any) => error.field), ['/creditorAgent/bicfi'], 'the 403 names the field to correct');
  });
});

void describe('request-to-pay pushes in the admin API', () => {
  void it('lists a status push the integrator never took as undelivered, and delivers it on replay', async () => {
    // The integrator answers 503 to the first request of each path: with one attempt per push, the PENDING push is given up on.
    const receiver = await Receiver.start({ failFirst: 1 });
    const admin = { username: 'ops', password: 'operator-password-for-tests' };
    const server = await startServer({
      configPath: configPath(`sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-rtp-admin-')), 'regpay.db')}`, receiver, {
        delivery: { retryScheduleMs: { callback: [0], event: [0] } },
        admin: { ...admin, allowlist: ['127.0.0.1/32', '::1/128'] },
      }),
    });
    const adminGet = async (path: string) => (await fetch(`${server.url}/admin/v1${path}`, { headers: { authorization: basicAuth(admin) } })).json() as Promise<any>;
    try {
      const rtp = rtpFor('0799000100');
      assert.equal((await post(server, '', rtp)).status, 202);
      let undelivered: any[] = [];
      for (let tries = 0; tries < 100 && undelivered.length === 0; tries += 1) {
        undelivered = ((await adminGet('/deliveries?status=UNDELIVERED')).deliveries as any[]).filter((row) => String(row.url).endsWith('/request-to-pay-response'));
        if (undelivered.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(undelivered.length, 1, 'the first push was given up on');
      const detail = await adminGet(`/deliveries/${undelivered[0].id}`);
      assert.equal(JSON.parse(detail.body).status.status, 'PENDING');
      const replay = await fetch(`${server.url}/admin/v1/deliveries/replay`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth(admin) },
        body: JSON.stringify({ outboxId: undelivered[0].id }),
      });
      assert.deepEqual(await replay.json(), { replayed: 1 });
      // A push given up on stops holding back the ones behind it; replayed, it arrives after whichever of them went already.
      const received = await receiver.waitFor((all) => statuses(all, rtp).includes('PENDING') && statuses(all, rtp).includes('PAID'));
      const seen = statuses(received, rtp);
      assert.deepEqual([...seen].sort(), ['PAID', 'PENDING', 'PRESENTED'], 'each push delivered once');
      assert.ok(seen.indexOf('PRESENTED') < seen.indexOf('PAID'), `the pushes that were not given up on kept their order: ${seen.join(', ')}`);
    } finally {
      await server.stop();
      await receiver.down();
    }
  });
});

void describe('request-to-pay across restarts and instances', () => {
  void it('after kill -9 with requests in every state, each ends once: paid ones stay paid, open ones expire after the restart', async () => {
    const receiver = await Receiver.start();
    const path = configPath(`sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-rtp-crash-')), 'regpay.db')}`, receiver);
    let server = await startServer({ configPath: path });
    try {
      const paid = rtpFor('0799000100');
      const presented = rtpFor('0799000202', 4_000);
      const pending = rtpFor('0799000201', 4_000);
      assert.equal((await post(server, '', paid)).status, 202);
      assert.equal((await post(server, '', presented)).status, 202);
      assert.equal((await post(server, '', pending)).status, 202);
      await untilFinal(receiver, paid);
      await receiver.waitFor((all) => statuses(all, presented).includes('PRESENTED') && statuses(all, pending).includes('PENDING'));
      // Accepted a moment before the kill: it may not even have reached the scheme.
      const justAccepted = rtpFor('0799000201', 4_000);
      assert.equal((await post(server, '', justAccepted)).status, 202);
      await server.kill9();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      server = await startServer({ configPath: path });
      for (const rtp of [presented, pending, justAccepted]) await untilFinal(receiver, rtp, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const received = receiver.received();
      assert.deepEqual(distinct(statuses(received, paid)), ['PENDING', 'PRESENTED', 'PAID']);
      assert.deepEqual(distinct(statuses(received, presented)), ['PENDING', 'PRESENTED', 'EXPIRED']);
      assert.deepEqual(distinct(statuses(received, pending)), ['PENDING', 'EXPIRED']);
      assert.equal(distinct(statuses(received, justAccepted)).at(-1), 'EXPIRED');
    } finally {
      await server.stop();
      await receiver.down();
    }
  });

  void it('fires each expiry once with two instances on one PostgreSQL', async () => {
    const receiver = await Receiver.start();
    const database = await freshPostgresUrl();
    const path = configPath(database, receiver);
    const first = await startServer({ configPath: path });
    const second = await startServer({ configPath: path });
    try {
      // Expiring 6 s on: long enough that a loaded machine still takes all twelve before they expire.
      const rtps = Array.from({ length: 12 }, () => rtpFor('0799000201', 6_000));
      await Promise.all(rtps.map((rtp, index) => post(index % 2 === 0 ? first : second, '', rtp).then((answer) => assert.equal(answer.status, 202))));
      for (const rtp of rtps) await untilFinal(receiver, rtp, 30_000);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      for (const rtp of rtps) {
        assert.deepEqual(distinct(statuses(receiver.received(), rtp)), ['PENDING', 'EXPIRED']);
        assert.equal(eventTypes(receiver.received(), rtp).filter((type) => type === 'REQUEST_TO_PAY_STATUS_EXPIRED').length, 1, 'one expiry event');
      }
    } finally {
      await first.stop();
      await second.stop();
      await receiver.down();
      await dropPostgresDatabase(database);
    }
  });
});
