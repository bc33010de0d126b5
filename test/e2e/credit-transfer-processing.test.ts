import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testValue } from '../../src/connectors/simulator/test-values.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { Receiver, type Received } from '../support/receiver.js';
import { basicAuth, startServer, writeTestConfig, type RunningServer } from '../support/server.js';
import { assertDocumentedPayload } from '../support/event-payloads.js';

const TIME_BUDGET_MS = 1_500;
const CALLBACK_PATH = '/partner-api/v1/transactions/outbound/credit-transfer-response';
const EVENTS_PATH = '/events-api/v1/events';
const P = 'PAYMENT_AUTH_';
const HAPPY = ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'REQUEST_DELIVERED', 'RESPONSE_RECEIVED', 'RESPONSE_ACCEPTED', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].map((t) => P + t);

type Transfer = ReturnType<typeof creditTransfer>;

function transferTo(account: string): Transfer {
  const transfer = creditTransfer('ZA_RTC');
  transfer.creditorAccount = { identification: { schema: 'GENERIC', value: account } };
  return transfer;
}

const bodyOf = (message: Received): any => JSON.parse(message.body);
const callbacksFor = (received: Received[], uetr: string) => received.filter((m) => m.path === CALLBACK_PATH && bodyOf(m).transactionIdentifiers.uetr === uetr);
const eventsFor = (received: Received[], uetr: string) => received.filter((m) => m.path === EVENTS_PATH && bodyOf(m).tranInfo.tranUetr === uetr);
const eventTypes = (received: Received[], uetr: string) => eventsFor(received, uetr).map((m) => bodyOf(m).type as string);

describe('credit-transfer processing end to end (service and integrator as separate processes)', () => {
  let receiver: Receiver;
  let server: RunningServer;

  before(async () => {
    receiver = await Receiver.start();
    const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-flow-')), 'regpay.db')}`;
    const configPath = writeTestConfig({
      database,
      integratorExtra: { partnerApiUrl: receiver.partnerApiUrl, eventsApiUrl: receiver.eventsApiUrl, webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' },
      extra: { schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: TIME_BUDGET_MS }, ZA_RTC: { connector: 'simulator', timeBudgetMs: TIME_BUDGET_MS } } },
    });
    server = await startServer({ configPath });
  });
  after(async () => {
    await server?.stop();
    await receiver?.down();
  });

  const submit = async (transfer: unknown, traceparent?: string): Promise<void> => {
    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth(), ...(traceparent === undefined ? {} : { traceparent }) },
      body: JSON.stringify(transfer),
    });
    assert.equal(response.status, 202, await response.text());
  };
  const finalCallback = async (uetr: string): Promise<any> => {
    const received = await receiver.waitFor((all) => eventTypes(all, uetr).includes(`${P}RESPONSE_DELIVERED`));
    const callbacks = callbacksFor(received, uetr);
    assert.equal(callbacks.length, 1, 'exactly one outcome callback');
    return bodyOf(callbacks[0]!);
  };

  it('approves a plain transfer: one APPROVED callback and the eight events in order, each once, each carrying the message docs/api.md names for it', async () => {
    const transfer = creditTransfer('ZA_RTC');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await submit(transfer, `00-${traceId}-00f067aa0ba902b7-01`);
    const uetr = transfer.transactionIdentifiers.uetr;
    const callback = await finalCallback(uetr);
    assert.equal(callback.schema, 'PaymentStatusReport');
    assert.equal(callback.status.outcome, 'APPROVED');
    assert.deepEqual(callback.originalMessageIdentifiers, transfer.messageIdentifiers);
    const received = receiver.received();
    assert.deepEqual(eventTypes(received, uetr), HAPPY);
    const events = eventsFor(received, uetr).map(bodyOf);
    for (const event of events) {
      assert.equal(event.name, `TRANSACTION_STATE_${event.type}`);
      assert.equal(event.class, 'TRANSACTION_STATE');
      assert.equal(event.tranInfo.direction, 'OUTBOUND');
      assert.equal(event.tranInfo.paymentScheme, 'ZA_RTC');
      assert.equal(typeof event.payload.schema, 'string', `${event.type} carries a payload with its schema`);
      assertDocumentedPayload(event);
    }
    assert.equal(events[0].payload.schema, 'CreditTransfer');
    assert.deepEqual(events[0].payload, transfer);
    // The outcome callback is the payload of the states that queue and deliver it.
    for (const type of ['PAYMENT_AUTH_RESPONSE_PENDING', 'PAYMENT_AUTH_RESPONSE_DELIVERED']) {
      assert.deepEqual(events.find((event) => event.type === type)?.payload, callback, `${type} carries the PaymentStatusReport`);
    }
    const ids = eventsFor(received, uetr).map((m) => m.headers['webhook-id']);
    assert.equal(new Set(ids).size, ids.length, 'every event has its own stable id');
    for (const message of [...eventsFor(received, uetr), ...callbacksFor(received, uetr)]) {
      assert.match(message.headers['webhook-signature'] ?? '', /^v1,/);
      assert.ok(message.headers['webhook-timestamp']);
      assert.match(message.headers.traceparent ?? '', new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`), 'the trace continues');
    }
  });

  for (const reasonCode of ['AC01', 'AC04', 'AC06', 'AG01', 'AM02', 'MD07', 'NOCM', 'BE01']) {
    it(`reports the scheme's rejection ${reasonCode} as a REJECTED outcome with that reason`, async () => {
      const transfer = transferTo(testValue('reject', reasonCode).value);
      await submit(transfer);
      const callback = await finalCallback(transfer.transactionIdentifiers.uetr);
      assert.equal(callback.status.outcome, 'REJECTED');
      assert.equal(callback.status.reasonInfo[0].reason.value, reasonCode);
      assert.deepEqual(eventTypes(receiver.received(), transfer.transactionIdentifiers.uetr), HAPPY);
    });
  }

  it('refuses a PayShap transfer over the R50,000 scheme limit at intake (422 naming the amount, AM02): nothing is stored or sent', async () => {
    const transfer = creditTransfer('ZA_RPP');
    transfer.amounts.bankSettlementAmount = { currency: 'ZAR', value: 50_000.01 };
    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify(transfer),
    });
    assert.equal(response.status, 422);
    const detail = (await response.json()) as { message: string; detail: string; errors: Array<{ field: string; message: string }> };
    assert.deepEqual(detail.errors.map((error) => error.field), ['/amounts/bankSettlementAmount/value']);
    assert.match(detail.detail, /ZA_RPP/);
    assert.match(detail.detail, /AM02/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(eventTypes(receiver.received(), transfer.transactionIdentifiers.uetr), [], 'no transaction, no event');
  });

  it('takes only the first of two answers from the scheme', async () => {
    const transfer = transferTo(testValue('twice').value);
    await submit(transfer);
    const callback = await finalCallback(transfer.transactionIdentifiers.uetr);
    assert.equal(callback.status.outcome, 'APPROVED');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(callbacksFor(receiver.received(), transfer.transactionIdentifiers.uetr).length, 1);
    assert.deepEqual(eventTypes(receiver.received(), transfer.transactionIdentifiers.uetr), HAPPY);
  });

  it('times out a late answer, then reports its verdict', async () => {
    const transfer = transferTo(testValue('late').value);
    await submit(transfer);
    const callback = await finalCallback(transfer.transactionIdentifiers.uetr);
    assert.equal(callback.status.outcome, 'APPROVED');
    const types = eventTypes(receiver.received(), transfer.transactionIdentifiers.uetr);
    assert.deepEqual(types, [...HAPPY.slice(0, 4), `${P}TIMEOUT`, ...HAPPY.slice(4)]);
  });

  it('never guesses an outcome for a scheme that stays silent: TIMEOUT, no callback, status PENDING on request', async () => {
    const transfer = transferTo(testValue('silent').value);
    await submit(transfer);
    const uetr = transfer.transactionIdentifiers.uetr;
    await receiver.waitFor((all) => eventTypes(all, uetr).includes(`${P}TIMEOUT`));
    assert.equal(callbacksFor(receiver.received(), uetr).length, 0);
    const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer/status-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify({
        schema: 'PaymentStatusRequest',
        messageIdentifiers: { messageIdentification: `SR${Date.now()}`, creationDateTime: new Date().toISOString() },
        originalTransactionIdentifiers: { uetr },
      }),
    });
    assert.equal(response.status, 202);
    const received = await receiver.waitFor((all) => callbacksFor(all, uetr).length === 1);
    assert.equal(bodyOf(callbacksFor(received, uetr)[0]!).status.outcome, 'PENDING');
  });

  it('approves after a PENDING answer, and after a transient transport failure', async () => {
    const pending = transferTo(testValue('pending_then_accept').value);
    const transient = transferTo(testValue('transient_failure').value);
    await submit(pending);
    await submit(transient);
    assert.equal((await finalCallback(pending.transactionIdentifiers.uetr)).status.outcome, 'APPROVED');
    assert.equal((await finalCallback(transient.transactionIdentifiers.uetr)).status.outcome, 'APPROVED');
    assert.ok(eventTypes(receiver.received(), transient.transactionIdentifiers.uetr).includes(`${P}REQUEST_DELIVERY_FAILURE`));
  });

  it('declines a transfer the scheme can never take (permanent transport failure) with AB10 and a reason text of whole words', async () => {
    const transfer = transferTo(testValue('permanent_failure').value);
    await submit(transfer);
    const callback = await finalCallback(transfer.transactionIdentifiers.uetr);
    assert.equal(callback.status.outcome, 'REJECTED');
    assert.equal(callback.status.reasonInfo[0].reason.value, 'AB10');
    assert.deepEqual(callback.status.reasonInfo[0].additionalInformation, ['Permanent transport failure']);
  });

  it('re-sends the final status on a status request, once per request message', async () => {
    const transfer = creditTransfer('ZA_RTC');
    await submit(transfer);
    const uetr = transfer.transactionIdentifiers.uetr;
    await finalCallback(uetr);
    const statusRequest = {
      schema: 'PaymentStatusRequest',
      messageIdentifiers: { messageIdentification: `SR${Date.now()}x`, creationDateTime: new Date().toISOString() },
      originalTransactionIdentifiers: { uetr },
    };
    for (let i = 0; i < 2; i += 1) {
      const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer/status-request`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth() },
        body: JSON.stringify(statusRequest),
      });
      assert.equal(response.status, 202);
    }
    await receiver.waitFor((all) => callbacksFor(all, uetr).length >= 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const callbacks = callbacksFor(receiver.received(), uetr).map(bodyOf);
    assert.equal(callbacks.length, 2, 'the outcome, then one re-send for one status-request message');
    assert.equal(callbacks[1].status.outcome, 'APPROVED');
  });

  it('exposes Prometheus metrics of requests, states entered and delivery attempts', async () => {
    const response = await fetch(`${server.url}/metrics`);
    assert.equal(response.status, 200);
    const text = await response.text();
    assert.match(text, /regpay_http_request_duration_seconds_count\{method="POST",route="\/api\/v1\/transactions\/outbound\/credit-transfer",status="202"\} [1-9]/);
    assert.match(text, /regpay_transaction_states_entered_total\{kind="CREDIT_TRANSFER",scheme="ZA_RTC",state="PAYMENT_AUTH_REQUEST_RECEIVED"\} [1-9]/);
    assert.match(text, /regpay_transaction_states_entered_total\{kind="CREDIT_TRANSFER",scheme="ZA_RTC",state="PAYMENT_AUTH_RESPONSE_DELIVERED"\} [1-9]/);
    assert.match(text, /regpay_delivery_attempts_total\{channel="event",result="delivered"\} [1-9]/);
  });
});
