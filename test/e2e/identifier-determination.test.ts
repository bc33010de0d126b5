import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IDENTIFIER_REASON_CODES } from '../../src/domain/messages/identifier-determination.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../support/postgres.js';
import { Receiver, type Received } from '../support/receiver.js';
import { basicAuth, startServer, testConfigObject, type RunningServer } from '../support/server.js';
import { assertDocumentedPayload } from '../support/event-payloads.js';

const TIME_BUDGET_MS = 1_500;
const PATH = '/api/v1/identifiers/outbound/identifier-determination';
const ALIAS = '/api/v1/identifiers/identifier-determination';
const REPORT_PATH = '/partner-api/v1/identifiers/outbound/identifier-determination-report';
const CT_CALLBACK_PATH = '/partner-api/v1/transactions/outbound/credit-transfer-response';
const EVENTS_PATH = '/events-api/v1/events';
const SEVEN = ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'RESPONSE_RECEIVED', 'RESPONSE_ACCEPTED', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].map(
  (type) => `IDENTIFIER_DETERMINATION_${type}`,
);

type Lookup = ReturnType<typeof identifierDetermination>;

/** A proxy lookup of `value` (MOBILE when it starts with + or a digit, else CUSTOM). */
function lookupOf(value: string): Lookup {
  const body = identifierDetermination(/^[+\d]/.test(value) ? 'MOBILE' : 'CUSTOM');
  body.request.identifier = { ...body.request.identifier, value };
  return body;
}

const bodyOf = (message: Received): any => JSON.parse(message.body);
const eventTypes = (received: Received[], uetr: string) =>
  received.filter((m) => m.path === EVENTS_PATH && bodyOf(m).tranInfo.tranUetr === uetr && String(bodyOf(m).type).startsWith('IDENTIFIER_')).map((m) => bodyOf(m).type as string);

/** A config of test/support/server.ts, written to a file: the simulator directory, time budget and integrator modes as given. */
function configFile(options: { database: string; receiver: Receiver; extra?: Record<string, unknown>; otherBankAsync?: boolean; timeBudgetMs?: number }): string {
  const config = testConfigObject({
    database: options.database,
    integratorExtra: { partnerApiUrl: options.receiver.partnerApiUrl, eventsApiUrl: options.receiver.eventsApiUrl },
    extra: {
      schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: options.timeBudgetMs ?? TIME_BUDGET_MS, simulatorLatencyMs: 20, simulatorDirectory: directoryFile() } },
      ...options.extra,
    },
  });
  if (options.otherBankAsync === true) (config.integrators as any[])[1].identifierDetermination = 'async';
  const path = join(mkdtempSync(join(tmpdir(), 'regpay-id-')), 'regpay.json');
  writeFileSync(path, JSON.stringify(config));
  return path;
}

/**
 * The shipped directory plus one proxy that resolves to a simulator test account rejecting
 * credit transfers with AC04: a payment to it is rejected only if its pacs.008 carries the
 * resolved account number.
 */
function directoryFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'regpay-directory-')), 'directory.json');
  writeFileSync(
    path,
    JSON.stringify({
      entries: [
        {
          name: 'closed-account',
          answer: 'SUCCESSFUL',
          proxies: [{ schema: 'CUSTOM', value: 'closed@shap' }],
          account: { traditionalIdentifier: '9990000102', accountAgentBicfi: 'FIRNZAJJ', knownAsName: 'Closed', legalName: 'Closed Account Holder', creationDate: '2001-01-01' },
        },
        {
          name: 'thandi',
          answer: 'SUCCESSFUL',
          proxies: [{ schema: 'MOBILE', value: '+27-821234567' }, { schema: 'CUSTOM', value: 'thandi@shap' }],
          account: {
            traditionalIdentifier: '62845123907',
            accountAgentBicfi: 'FIRNZAJJ',
            knownAsName: 'Thandi D',
            legalName: 'Thandiwe Nomvula Dlamini',
            creationDate: '2016-04-12',
            transactionLimit: { value: '50000.00', currency: 'ZAR' },
          },
        },
        {
          name: 'no-known-as-name',
          answer: 'SUCCESSFUL',
          proxies: [{ schema: 'CUSTOM', value: 'no-known-as@shap' }],
          account: { traditionalIdentifier: '9992000098', accountAgentBicfi: 'FIRNZAJJ', legalName: 'Nameless', creationDate: '2001-01-01' },
        },
        { name: 'never', answer: 'NEVER', proxies: [{ schema: 'CUSTOM', value: 'fail-ab06@shap' }] },
        ...Object.keys(IDENTIFIER_REASON_CODES)
          .filter((code) => code !== 'AB06')
          .map((code) => ({ name: `fail-${code}`, answer: 'FAILED', reasonCode: code, proxies: [{ schema: 'CUSTOM', value: `fail-${code.toLowerCase()}@shap` }] })),
      ],
    }),
  );
  return path;
}

async function post(server: RunningServer, body: unknown, options: { path?: string; headers?: Record<string, string>; user?: Parameters<typeof basicAuth>[0] } = {}) {
  const started = Date.now();
  const response = await fetch(`${server.url}${options.path ?? PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: basicAuth(options.user), ...options.headers },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, text, json: text === '' ? undefined : JSON.parse(text), headers: response.headers, elapsedMs: Date.now() - started };
}

const info = (answer: { json: any }) => answer.json.report.reportInformation;

void describe('identifier determination end to end (service, simulated operator and integrator as separate processes)', () => {
  let receiver: Receiver;
  let server: RunningServer;

  before(async () => {
    receiver = await Receiver.start();
    const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-id-db-')), 'regpay.db')}`;
    server = await startServer({ configPath: configFile({ database, receiver, extra: { proxyPayments: { determinationRequired: true } }, otherBankAsync: true }) });
    // The file's time budget is short, so late answers are quick to rehearse; one lookup first
    // starts the simulator's thread and reads its directory, which a loaded machine can take
    // longer than that budget to do.
    assert.equal((await post(server, lookupOf('0831234567'))).status, 200);
  });
  after(async () => {
    await server?.stop();
    await receiver?.down();
  });

  void it('answers 200 SUCCESSFUL with the account and both names, whatever the spelling of the mobile number, on both paths', async () => {
    for (const [value, path] of [
      ['0821234567', PATH],
      ['+27-0821234567', ALIAS],
      ['+27821234567', PATH],
    ] as const) {
      const body = lookupOf(value);
      const answer = await post(server, body, { path });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.schema, 'IdentifierDeterminationResponse');
      assert.deepEqual(answer.json.originalMessageIdentifiers, body.messageIdentifiers);
      assert.equal(answer.json.uetr, body.request.uetr);
      assert.equal(answer.json.verificationIdentification, body.request.verificationIdentification);
      assert.equal(answer.json.scheme, 'ZA_RPP');
      assert.equal(info(answer).outcome, 'SUCCESSFUL');
      assert.equal(info(answer).reasonCode, undefined);
      assert.equal(info(answer).accountInformation.traditionalIdentifier, '62845123907');
      assert.equal(info(answer).accountInformation.creationDate, '2016-04-12');
      assert.equal(info(answer).accountOwner.knownAsName, 'Thandi D');
      assert.equal(info(answer).accountOwner.legalName, 'Thandiwe Nomvula Dlamini');
      assert.match(answer.text, /"value":50000\.00[,}]/, 'the limit is written exactly as the scheme gave it');
    }
  });

  void it('posts the seven IDENTIFIER_DETERMINATION events in order, the last ones carrying the answer', async () => {
    const body = lookupOf('thandi@shap');
    const answer = await post(server, body);
    assert.equal(answer.status, 200, answer.text);
    const received = await receiver.waitFor((all) => eventTypes(all, body.request.uetr).length >= 7);
    assert.deepEqual(eventTypes(received, body.request.uetr), SEVEN);
    const pending = received.find((m) => m.path === EVENTS_PATH && bodyOf(m).type === 'IDENTIFIER_DETERMINATION_RESPONSE_PENDING' && bodyOf(m).tranInfo.tranUetr === body.request.uetr);
    assert.deepEqual(bodyOf(pending!).payload, answer.json, 'the event carries the response that was given');
  });

  void it('answers 200 FAILED with the reason code of every failing directory value, its description cut to 35 characters', async () => {
    const codes = Object.keys(IDENTIFIER_REASON_CODES).filter((code) => code !== 'AB06');
    const answers = await Promise.all(codes.map((code) => post(server, lookupOf(`fail-${code.toLowerCase()}@shap`))));
    answers.forEach((answer, index) => {
      assert.equal(answer.status, 200, answer.text);
      assert.equal(info(answer).outcome, 'FAILED');
      assert.equal(info(answer).reasonCode, codes[index]);
      const description = info(answer).reasonDescription as string | undefined;
      assert.ok(description === undefined || description.length <= 35, `description of ${codes[index]}: ${description}`);
    });
  });

  void it('answers 200 FAILED AB06 once the time budget is spent without an answer from the scheme', async () => {
    const answer = await post(server, lookupOf('fail-ab06@shap'));
    assert.equal(answer.status, 200, answer.text);
    assert.equal(info(answer).outcome, 'FAILED');
    assert.equal(info(answer).reasonCode, 'AB06');
    // Decided processing.heldLookupMarginMs (capped at a tenth of the budget) before the budget ends, so the answer is out within it.
    assert.ok(answer.elapsedMs >= TIME_BUDGET_MS - TIME_BUDGET_MS / 10, `answered after ${answer.elapsedMs} ms, before the budget less its margin`);
    assert.ok(answer.elapsedMs < TIME_BUDGET_MS + 1_500, `answered after ${answer.elapsedMs} ms`);
  });

  void it('reports FAILED CH21 when the scheme resolves an account without the known-as name ZA_RPP requires', async () => {
    const answer = await post(server, lookupOf('no-known-as@shap'));
    assert.equal(info(answer).outcome, 'FAILED');
    assert.equal(info(answer).reasonCode, 'CH21');
  });

  void it('gives a retry the same answer, byte for byte, also while the first is still held, and 409 for another body under the same id', async () => {
    const body = lookupOf('fail-ab06@shap');
    const [first, second] = await Promise.all([post(server, body), new Promise((r) => setTimeout(r, 200)).then(() => post(server, body))]);
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(second.text, first.text);
    const third = await post(server, body);
    assert.equal(third.text, first.text);
    const received = await receiver.waitFor((all) => eventTypes(all, body.request.uetr).includes('IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED'));
    assert.equal(eventTypes(received, body.request.uetr).filter((type) => type === 'IDENTIFIER_DETERMINATION_REQUEST_RECEIVED').length, 1, 'one transaction');
    const other = structuredClone(body);
    other.request.identifier = { ...other.request.identifier, value: 'thandi@shap' };
    const conflict = await post(server, other);
    assert.equal(conflict.status, 409, conflict.text);
    assert.equal(conflict.json.errors[0].field, '/messageIdentifiers/messageIdentification');
  });

  void it('answers 202 and posts the report to the integrator for Prefer: respond-async, and for an integrator configured async, the report being the payload of RESPONSE_DELIVERED', async () => {
    const byHeader = lookupOf('thandi@shap');
    const accepted = await post(server, byHeader, { headers: { prefer: 'respond-async' } });
    assert.equal(accepted.status, 202, accepted.text);
    assert.equal(accepted.headers.get('preference-applied'), 'respond-async');
    const byConfig = lookupOf('fail-ac04@shap');
    byConfig.request.requestor = { schema: 'INSTITUTION_IDENTIFICATION', bicfi: 'OTHRZAJJ', memberId: '250655' };
    byConfig.request.instructingAgent = { bicfi: 'OTHRZAJJ' };
    const acceptedByConfig = await post(server, byConfig, { user: { username: 'other', password: 'other-password-for-tests' } });
    assert.equal(acceptedByConfig.status, 202, acceptedByConfig.text);
    const reports = (received: Received[], uetr: string) => received.filter((m) => m.path === REPORT_PATH && bodyOf(m).uetr === uetr);
    const received = await receiver.waitFor((all) => reports(all, byHeader.request.uetr).length > 0 && reports(all, byConfig.request.uetr).length > 0);
    assert.equal(bodyOf(reports(received, byHeader.request.uetr)[0]!).report.reportInformation.outcome, 'SUCCESSFUL');
    assert.equal(bodyOf(reports(received, byConfig.request.uetr)[0]!).report.reportInformation.reasonCode, 'AC04');
    const delivered = await receiver.waitFor((all) => eventTypes(all, byHeader.request.uetr).includes('IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED'));
    assert.deepEqual(eventTypes(delivered, byHeader.request.uetr), SEVEN);
    const events = delivered.filter((m) => m.path === EVENTS_PATH && bodyOf(m).tranInfo.tranUetr === byHeader.request.uetr).map(bodyOf);
    for (const event of events) assertDocumentedPayload(event);
    const report = bodyOf(reports(delivered, byHeader.request.uetr)[0]!);
    assert.deepEqual(events.find((event) => event.type === 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED')?.payload, report, 'the delivered report, not the request');
    // A retry of the async request is answered 202 again, without a second report.
    assert.equal((await post(server, byHeader, { headers: { prefer: 'respond-async' } })).status, 202);
  });

  void it('refuses with field errors, 422 for another scheme and 403 for another institution', async () => {
    const noNamespace = lookupOf('thandi@shap');
    delete (noNamespace.request.identifier as { namespace?: string }).namespace;
    const invalid = await post(server, noNamespace);
    assert.equal(invalid.status, 400);
    assert.ok(invalid.json.errors.some((error: any) => error.field === '/request/identifier/namespace'));
    const rtc = lookupOf('thandi@shap');
    (rtc.request as any).schema = 'ZA_RTC';
    assert.equal((await post(server, rtc)).status, 422);
    const foreign = lookupOf('thandi@shap');
    foreign.request.requestor = { schema: 'INSTITUTION_IDENTIFICATION', bicfi: 'OTHRZAJJ' };
    assert.equal((await post(server, foreign)).status, 403);
  });

  void it('names in one 403 the requestor and the instructing agent that are not the integrator\'s institution', async () => {
    const foreign = lookupOf('thandi@shap');
    foreign.request.requestor = { schema: 'INSTITUTION_IDENTIFICATION', bicfi: 'DEMOZAJJ', memberId: '250655' };
    foreign.request.instructingAgent = { bicfi: 'OTHRZAJJ' };
    const answer = await post(server, foreign);
    assert.equal(answer.status, 403);
    assert.deepEqual(
      answer.json.errors.map((error: any) => error.field),
      ['/request/requestor/memberId', '/request/instructingAgent/bicfi'],
    );
    assert.match(answer.json.detail, /\/request\/requestor .*; \/request\/instructingAgent /);
  });

  void it('refuses a PayShap payment to a proxy without a determination, says where a determination resolved it when the payment names another bank, and pays one that has it to the resolved account', async () => {
    const transfer = creditTransfer('ZA_RPP');
    transfer.creditorAccount = { proxy: { namespace: 'ZA_CUSTOM', schema: 'CUSTOM', value: 'closed@shap' } };
    const pay = () =>
      fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: basicAuth() },
        body: JSON.stringify(transfer),
      });
    const refused = await pay();
    assert.equal(refused.status, 422);
    assert.equal(((await refused.json()) as any).errors[0].field, '/creditorAccount/proxy');

    const lookup = lookupOf('CLOSED@shap');
    lookup.request.identifier = { ...lookup.request.identifier, namespace: 'ZA_CUSTOM' };
    lookup.request.uetr = transfer.transactionIdentifiers.uetr;
    const determined = await post(server, lookup);
    assert.equal(info(determined).outcome, 'SUCCESSFUL', determined.text);

    // Determined, but the payment names another bank than the one the proxy resolved to: the refusal says so.
    const resolvedBank = String(info(determined).accountAgent.bicfi);
    const elsewhere = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basicAuth() },
      body: JSON.stringify({ ...transfer, creditorAgent: { ...transfer.creditorAgent, bicfi: 'OTHRZAJJ' } }),
    });
    assert.equal(elsewhere.status, 422);
    const refusal = (await elsewhere.json()) as any;
    assert.deepEqual(refusal.errors.map((error: any) => error.field), ['/creditorAgent/bicfi']);
    assert.ok(refusal.detail.includes(`resolved it to an account at ${resolvedBank}, but the payment's creditorAgent is OTHRZAJJ`), refusal.detail);
    assert.ok(!refusal.detail.includes('no successful identifier determination'), refusal.detail);

    const paid = await pay();
    assert.equal(paid.status, 202, await paid.text());
    const received = await receiver.waitFor((all) => all.some((m) => m.path === CT_CALLBACK_PATH && bodyOf(m).transactionIdentifiers.uetr === transfer.transactionIdentifiers.uetr));
    const callback = received.find((m) => m.path === CT_CALLBACK_PATH && bodyOf(m).transactionIdentifiers.uetr === transfer.transactionIdentifiers.uetr)!;
    // The simulator rejects account 9990000102 with AC04: the pacs.008 carried the resolved account.
    assert.equal(bodyOf(callback).status.outcome, 'REJECTED');
    assert.equal(bodyOf(callback).status.reasonInfo[0].reason.value, 'AC04');
  });
});

void describe('identifier determination across instances and crashes', () => {
  void it('answers a request held by an instance without processing as soon as another instance on the same PostgreSQL decides it', async () => {
    const receiver = await Receiver.start();
    const database = await freshPostgresUrl();
    // The held request's fallback read is made rare: only a notice can answer it within seconds.
    // A budget roomy enough for a busy machine: this is about hearing the answer, not about timeouts.
    const timeBudgetMs = 5_000;
    const api = await startServer({ configPath: configFile({ database, receiver, timeBudgetMs, extra: { processing: { enabled: false }, server: { host: '127.0.0.1', port: 0, heldRequestPollMs: 30_000 } } }) });
    const worker = await startServer({ configPath: configFile({ database, receiver, timeBudgetMs }) });
    try {
      const answer = await post(api, lookupOf('thandi@shap'));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(info(answer).outcome, 'SUCCESSFUL');
      // Decided by the worker's engine; the held request heard of it by notice, not by its (30 s) fallback read.
      assert.ok(answer.elapsedMs < 10_000, `answered after ${answer.elapsedMs} ms`);
      const timedOut = await post(api, lookupOf('fail-ab06@shap'));
      assert.equal(info(timedOut).reasonCode, 'AB06');
    } finally {
      await api.stop();
      await worker.stop();
      await receiver.down();
      await dropPostgresDatabase(database);
    }
  });

  void it('refuses to start, naming the key, when the simulator directory it is given cannot be read', async () => {
    const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-id-dir-')), 'regpay.db')}`;
    const config = testConfigObject({ database, extra: { schemes: { ZA_RPP: { connector: 'simulator', simulatorDirectory: '/nonexistent/directory.json' } } } });
    const path = join(mkdtempSync(join(tmpdir(), 'regpay-id-')), 'regpay.json');
    writeFileSync(path, JSON.stringify(config));
    await assert.rejects(startServer({ configPath: path }), /schemes\.ZA_RPP\.simulatorDirectory/);
  });

  void it('after kill -9 with lookups held, a retry of each gets a true answer and the events are whole and in order', async () => {
    const receiver = await Receiver.start();
    const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-id-crash-')), 'regpay.db')}`;
    const configPath = configFile({ database, receiver });
    let server = await startServer({ configPath });
    const held = [lookupOf('fail-ab06@shap'), lookupOf('fail-ab06@shap'), lookupOf('fail-ab06@shap')];
    try {
      const requests = held.map((body) => post(server, body).catch(() => undefined));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await server.kill9();
      await Promise.all(requests);
      server = await startServer({ configPath });
      const answers = await Promise.all(held.map((body) => post(server, body)));
      for (const answer of answers) {
        assert.equal(answer.status, 200, answer.text);
        assert.equal(info(answer).reasonCode, 'AB06');
      }
      // Asked again, each gives the same answer: it was stored, not made up per request.
      const again = await Promise.all(held.map((body) => post(server, body)));
      assert.deepEqual(
        again.map((answer) => answer.text),
        answers.map((answer) => answer.text),
      );
      const received = await receiver.waitFor((all) => held.every((body) => eventTypes(all, body.request.uetr).includes('IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED')));
      for (const body of held) {
        const types = eventTypes(received, body.request.uetr);
        assert.deepEqual(
          types.filter((type, index) => types.indexOf(type) === index),
          ['REQUEST_RECEIVED', 'REQUEST_ACCEPTED', 'REQUEST_PENDING', 'TIMEOUT', 'RESPONSE_PENDING', 'RESPONSE_DELIVERED'].map((type) => `IDENTIFIER_DETERMINATION_${type}`),
        );
      }
    } finally {
      await server.stop();
      await receiver.down();
    }
  });
});
