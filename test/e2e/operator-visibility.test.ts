import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { Receiver } from '../support/receiver.js';
import { basicAuth, OTHER_USER, startServer, testConfigObject, type RunningServer } from '../support/server.js';
import { probeUntil } from '../support/probe.js';

/**
 * What operators see of transfers run through the real service (a separate process, SQLite file,
 * simulator, a separate integrator process): the admin API finds each transfer by every key with
 * its history, deliveries and scheme XML; /metrics moves; the log tells each transfer's story in
 * info lines without account numbers or secrets; spans reach an OTLP/HTTP receiver under the
 * integrator's trace.
 */
const OPERATOR = { username: 'ops', password: 'operator-password-for-tests' };
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const INCOMING_SPAN = '00f067aa0ba902b7';
const P = 'PAYMENT_AUTH_';

interface OtlpSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly name: string;
}

/** An OTLP/HTTP receiver: keeps every span of every JSON export POSTed to /v1/traces. */
async function otlpReceiver(): Promise<{ server: Server; url: string; spans: OtlpSpan[] }> {
  const spans: OtlpSpan[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      const text = (request.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw).toString('utf8');
      if (request.url === '/v1/traces') {
        const body = JSON.parse(text) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { server, url: `http://127.0.0.1:${port}`, spans };
}

describe('operator visibility of transfers (admin API, metrics, logs, traces)', () => {
  let receiver: Receiver;
  let otlp: Awaited<ReturnType<typeof otlpReceiver>>;
  let server: RunningServer;
  const admin = `Basic ${Buffer.from(`${OPERATOR.username}:${OPERATOR.password}`).toString('base64')}`;
  const approved = creditTransfer('ZA_RTC');
  approved.transactionIdentifiers.endToEndIdentification = `E2E-${approved.transactionIdentifiers.uetr.slice(0, 8)}`;
  const rejected = creditTransfer('ZA_RTC');
  rejected.creditorAccount = { identification: { schema: 'GENERIC', value: testValue('reject', 'AC04').value } };
  // other-bank's endpoints are down (port 9): its callback and events stay pending.
  const stuck = creditTransfer('ZA_RTC');
  stuck.debtorAgent = { bicfi: 'OTHRZAJJ', clearingSystemMemberId: { memberId: '250655' } };
  const startedAt = new Date(Date.now() - 1_000).toISOString();

  const get = async (path: string): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${server.url}${path}`, { headers: { authorization: admin } });
    return { status: response.status, body: await response.json() };
  };
  const submit = async (transfer: unknown, auth: string, traceparent?: string): Promise<void> => {
    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: auth, ...(traceparent === undefined ? {} : { traceparent }) },
      body: JSON.stringify(transfer),
    });
    assert.equal(response.status, 202, await response.text());
  };
  const found = async (query: string): Promise<string[]> => ((await get(`/admin/v1/transactions?${query}`)).body.transactions as { id: string }[]).map((row) => row.id);

  before(async () => {
    receiver = await Receiver.start();
    otlp = await otlpReceiver();
    const config = testConfigObject({
      database: `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-visibility-')), 'regpay.db')}`,
      extra: {
        admin: OPERATOR,
        telemetry: { otlpEndpoint: otlp.url },
        metrics: { backlogRefreshMs: 0 },
        schemes: { ZA_RTC: { connector: 'simulator', timeBudgetMs: 5_000 } },
        delivery: { retryScheduleMs: { callback: [0, 60_000], event: [0, 60_000] } },
      },
    });
    const [demoBank] = config['integrators'] as Record<string, unknown>[];
    Object.assign(demoBank!, { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, webhookSecret: WEBHOOK_SECRET });
    const configPath = join(mkdtempSync(join(tmpdir(), 'regpay-visibility-config-')), 'regpay.json');
    writeFileSync(configPath, JSON.stringify(config));
    server = await startServer({ configPath });

    await submit(approved, basicAuth(), `00-${TRACE_ID}-${INCOMING_SPAN}-01`);
    await submit(rejected, basicAuth());
    await submit(stuck, basicAuth(OTHER_USER));
    for (const transfer of [approved, rejected]) {
      const uetr = transfer.transactionIdentifiers.uetr;
      await receiver.waitFor((all) => all.some((m) => m.path === '/events-api/v1/events' && (JSON.parse(m.body)).tranInfo.tranUetr === uetr && (JSON.parse(m.body)).type === `${P}RESPONSE_DELIVERED`), 30_000);
    }
  });
  after(async () => {
    await server?.stop();
    await receiver?.down();
    await new Promise((resolve) => otlp?.server.close(resolve));
  });

  it('finds a transfer by uetr, message id and end-to-end id, among every integrator or one', async () => {
    const uetr = approved.transactionIdentifiers.uetr;
    const [id] = await found(`uetr=${uetr.toUpperCase()}`);
    assert.ok(id, 'found by uetr, whatever its case');
    assert.deepEqual(await found(`messageId=${approved.messageIdentifiers.messageIdentification}`), [id]);
    assert.deepEqual(await found(`endToEndId=${encodeURIComponent(approved.transactionIdentifiers.endToEndIdentification)}&integratorId=demo-bank`), [id]);
    assert.deepEqual(await found(`uetr=${uetr}&integratorId=other-bank`), [], 'not among the transactions of another integrator');
    assert.equal((await found(`uetr=${stuck.transactionIdentifiers.uetr}`)).length, 1, 'every configured integrator is searched');
  });

  it("shows a transfer's request, every state entered, its callbacks and events with their attempts, and the scheme's XML", async () => {
    const [id] = await found(`uetr=${approved.transactionIdentifiers.uetr}`);
    const { status, body } = await get(`/admin/v1/transactions/${id}`);
    assert.equal(status, 200);
    assert.equal(body.kind, 'CREDIT_TRANSFER');
    assert.equal(body.direction, 'OUTBOUND');
    assert.equal(body.scheme, 'ZA_RTC');
    assert.equal(body.outcome, 'APPROVED');
    assert.equal(body.state, `${P}RESPONSE_DELIVERED`);
    assert.equal(body.amount.currency, 'ZAR');
    assert.match(body.amount.value, /^[0-9]+\.[0-9]{2}$/, 'the amount as a decimal string');
    assert.equal(body.request.messageIdentifiers.messageIdentification, approved.messageIdentifiers.messageIdentification);
    assert.deepEqual(
      body.history.map((step: { toState: string }) => step.toState),
      ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'REQUEST_DELIVERED', 'RESPONSE_RECEIVED', 'RESPONSE_ACCEPTED', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].map((state) => P + state),
    );
    assert.ok(body.history.every((step: { at: string }) => !Number.isNaN(Date.parse(step.at))), 'each state with its time');
    const callbacks = body.deliveries.filter((delivery: { channel: string }) => delivery.channel === 'callback');
    assert.equal(callbacks.length, 1);
    assert.equal(callbacks[0].status, 'DELIVERED');
    assert.equal(callbacks[0].body.status.outcome, 'APPROVED');
    assert.equal(callbacks[0].attemptHistory[0].delivered, true);
    assert.ok(callbacks[0].attemptHistory[0].httpStatus >= 200 && callbacks[0].attemptHistory[0].httpStatus < 300);
    assert.equal(body.deliveries.filter((delivery: { channel: string }) => delivery.channel === 'event').length, 8);
    const names = body.schemeMessages.map((message: { direction: string; messageName: string }) => `${message.direction} ${message.messageName.slice(0, 8)}`);
    assert.deepEqual(names, ['sent pacs.008', 'received pacs.002']);
    for (const message of body.schemeMessages) assert.match(message.document, /^<\?xml[\s\S]*<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pac/);
    assert.ok(body.schemeMessages[0].document.includes(approved.transactionIdentifiers.uetr), 'the pacs.008 carries the uetr');
    assert.equal((await get('/admin/v1/transactions/no-such-id')).status, 404);
  });

  it('lists transactions of a time range newest first, filtered by outcome, state, scheme and kind, page by page', async () => {
    const approvedId = (await found(`uetr=${approved.transactionIdentifiers.uetr}`))[0];
    const rejectedId = (await found(`uetr=${rejected.transactionIdentifiers.uetr}`))[0];
    const stuckId = (await found(`uetr=${stuck.transactionIdentifiers.uetr}`))[0];
    const range = `from=${startedAt}&to=${new Date(Date.now() + 60_000).toISOString()}`;
    assert.deepEqual(await found(range), [stuckId, rejectedId, approvedId], 'newest first');
    assert.deepEqual(await found(`${range}&outcome=APPROVED`), [stuckId, approvedId], "the scheme approved other-bank's transfer too");
    const rejectedRows = (await get(`/admin/v1/transactions?outcome=REJECTED`)).body.transactions;
    assert.deepEqual(rejectedRows.map((row: { id: string; reasonCode: string }) => [row.id, row.reasonCode]), [[rejectedId, 'AC04']]);
    assert.deepEqual(await found(`integratorId=other-bank&kind=CREDIT_TRANSFER&scheme=ZA_RTC`), [stuckId]);
    assert.deepEqual(await found(`state=${P}RESPONSE_DELIVERED&integratorId=demo-bank`), [rejectedId, approvedId]);
    const first = (await get(`/admin/v1/transactions?${range}&limit=2`)).body;
    assert.equal(first.transactions.length, 2);
    const second = (await get(`/admin/v1/transactions?${range}&limit=2&cursor=${first.nextCursor}`)).body;
    assert.deepEqual(second.transactions.map((row: { id: string }) => row.id), [approvedId]);
    assert.equal(second.nextCursor, null);
  });

  it('refuses bad search parameters with an ErrorDetail naming each, and strangers without the operator credentials', async () => {
    const { status, body } = await get('/admin/v1/transactions?uetr=nope&messageId=M1&endToEndId=E1&from=yesterday&limit=0&kind=LOAN&direction=UP&scheme=XX&color=red&cursor=zz');
    assert.equal(status, 400);
    assert.equal(body.schema, 'ErrorDetail');
    const fields = body.errors.map((error: { field: string }) => error.field).sort();
    assert.deepEqual(fields, ['', '/color', '/cursor', '/direction', '/from', '/kind', '/limit', '/scheme', '/uetr'].sort());
    const later = (await get(`/admin/v1/transactions?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z`)).body;
    assert.deepEqual(later.errors, [{ field: '/to', message: 'must be later than from' }]);
    const anonymous = await fetch(`${server.url}/admin/v1/transactions`);
    assert.equal(anonymous.status, 401);
  });

  it('exposes metrics named for operators, moved by the transfers', async () => {
    const text = await (await fetch(`${server.url}/metrics`)).text();
    const value = (pattern: RegExp): number => Number(pattern.exec(text)?.[1] ?? 'NaN');
    assert.ok(value(/regpay_transaction_outcomes_total\{kind="CREDIT_TRANSFER",scheme="ZA_RTC",outcome="APPROVED",reason="none"\} (\d+)/) >= 1);
    assert.ok(value(/regpay_transaction_outcomes_total\{kind="CREDIT_TRANSFER",scheme="ZA_RTC",outcome="REJECTED",reason="AC04"\} (\d+)/) >= 1);
    assert.ok(value(/regpay_transaction_outcome_duration_seconds_count\{kind="CREDIT_TRANSFER",scheme="ZA_RTC"\} (\d+)/) >= 2);
    assert.ok(value(/regpay_transaction_states_entered_total\{kind="CREDIT_TRANSFER",scheme="ZA_RTC",state="PAYMENT_AUTH_REQUEST_RECEIVED"\} (\d+)/) >= 3);
    assert.ok(value(/regpay_scheme_messages_sent_total\{scheme="ZA_RTC",command="submit",result="delivered"\} (\d+)/) >= 2);
    assert.ok(value(/regpay_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/transactions\/outbound\/credit-transfer",status="202"\} (\d+)/) >= 3);
    assert.ok(value(/regpay_store_batch_writes_count (\d+)/) >= 1);
    assert.ok(value(/regpay_store_commit_duration_seconds_count (\d+)/) >= 1);
    assert.ok(value(/regpay_store_commits_total\{holding="transactions"\} (\d+)/) >= 1, 'the store counts its commits');
    assert.ok(value(/regpay_store_fsyncs_total\{source="commit"\} (\d+)/) >= 1, 'and on SQLite their fsyncs');
    assert.ok(value(/regpay_outbox_pending_messages\{integrator="other-bank",channel="callback"\} (\d+)/) >= 1, 'the stuck callback is in the backlog');
    assert.ok(value(/regpay_outbox_oldest_pending_age_seconds\{integrator="other-bank",channel="event"\} ([\d.e-]+)/) >= 0);
    for (const name of ['regpay_scheme_time_budgets_spent_total', 'regpay_store_batch_retries_total', 'regpay_delivery_attempts_total', 'regpay_transitions_refused_total']) {
      assert.match(text, new RegExp(`# TYPE ${name} counter`));
    }
  });

  it("logs each transfer's milestones at info with uetr, integrator, scheme and trace id, and no account number or secret", async () => {
    const uetr = approved.transactionIdentifiers.uetr;
    const lines = await probeUntil('the callback milestone logged', () => {
      const logged = server
        .output()
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => line['uetr'] === uetr && line['milestone'] !== undefined);
      return Promise.resolve(logged.some((line) => line['milestone'] === 'callback_delivered') ? logged : undefined);
    });
    assert.deepEqual(
      [...new Set(lines.map((line) => line['milestone']))],
      ['accepted', 'submitted', 'scheme_answer', 'outcome', 'callback_delivered'],
    );
    for (const line of lines) {
      assert.equal(line['level'], 30, 'info');
      assert.equal(line['integratorId'], 'demo-bank');
      assert.equal(line['scheme'], 'ZA_RTC');
      assert.equal(line['traceId'], TRACE_ID);
    }
    const output = server.output();
    for (const account of [approved.debtorAccount?.identification?.value, rejected.creditorAccount.identification?.value, '4071234567']) {
      assert.ok(account !== undefined && !output.includes(account), `account number ${account} is never logged`);
    }
    for (const secret of [WEBHOOK_SECRET, OPERATOR.password, 'demo-password-for-tests']) assert.ok(!output.includes(secret), 'no secret is logged');
  });

  it("exports spans of the intake, the scheme exchange and the delivery under the integrator's trace over OTLP", async () => {
    const spans = await probeUntil('the delivery span exported', () => {
      const ours = otlp.spans.filter((span) => span.traceId === TRACE_ID);
      return Promise.resolve(ours.some((span) => span.name === 'deliver callback') ? ours : undefined);
    });
    const intake = spans.find((span) => span.name === 'POST /api/v1/transactions/outbound/credit-transfer');
    assert.ok(intake, `the intake span among ${spans.map((span) => span.name).join(', ')}`);
    assert.equal(intake.parentSpanId, INCOMING_SPAN, "the intake is a child of the integrator's span");
    const submit = spans.find((span) => span.name === 'scheme submit');
    assert.equal(submit?.parentSpanId, intake.spanId, 'the scheme exchange continues the intake');
    const delivery = spans.find((span) => span.name === 'deliver callback');
    assert.equal(delivery?.parentSpanId, intake.spanId, 'so does the delivery');
    const callback = receiver.received().find((m) => m.path.endsWith('/credit-transfer-response') && (JSON.parse(m.body)).transactionIdentifiers.uetr === approved.transactionIdentifiers.uetr);
    const sentSpans = spans.filter((span) => span.name === 'deliver callback').map((span) => span.spanId);
    assert.ok(sentSpans.includes(callback?.headers['traceparent']?.split('-')[2] ?? ''), 'the integrator is sent the delivery span as its parent');
  });
});
