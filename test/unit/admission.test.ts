import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { Admission } from '../../src/app/admission.js';
import { determineIdentifier, timeoutDecidedAt } from '../../src/app/determine-identifier.js';
import { configFromObject } from '../../src/config/load.js';
import type { Config } from '../../src/config/types.js';
import { schemeRulesOf } from '../../src/connectors/registry.js';
import { ApiError } from '../../src/domain/errors.js';
import { validateOutboundIdentifierDeterminationRequest } from '../../src/domain/messages/identifier-determination.js';
import { AnswerNotRecordedError, Engine } from '../../src/engine/engine.js';
import { buildApp } from '../../src/http/app.js';
import { newTraceparent } from '../../src/lib/trace.js';
import type { Timers } from '../../src/ports/clock.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import type { SchemeConnector } from '../../src/ports/scheme.js';
import type { Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { eventually, withStoreMethods } from '../support/delivery.js';
import { configuredZaRppEngine } from '../support/engine.js';
import { basicAuth, testConfigObject } from '../support/server.js';
import { HangingScheme } from '../support/scheme.js';

/** The lookups' time budget: small, so being late by the old half-second grace shows. */
const BUDGET_MS = 500;
/**
 * What a held lookup may take beyond its budget, counted from its arrival. The promise is 100 ms
 * (issue #25); the test allows 300 ms because the machines that run it are shared and a loaded
 * one delays any timer by a few hundred ms. The old behaviour was late by 500 ms and more.
 */
const SLACK_MS = 300;
/** Transfers the engine runs at once: this many hanging sends keep it full, so nothing is claimed. */
const IN_FLIGHT_MAX = 2;
/** The engine's backlog bound, the same for intake (processing.backlogMax) and for scheme reports. */
const BACKLOG_MAX = 3;
/** processing.heldLookupMarginMs at its default (1 s) is capped at a tenth of the budget. */
const MARGIN_MS = BUDGET_MS / 10;



void describe('admission control: budgets kept under load, excess refused at once', () => {
  let store: Store;
  let config: Config;
  let scheme: HangingScheme;
  let connector: SchemeConnector;
  let engine: Engine;
  let app: FastifyInstance;
  const hangingTransfers: string[] = [];

  before(async () => {
    store = await openStore('sqlite::memory:');
    config = await configFromObject(
      testConfigObject({
        database: 'sqlite::memory:',
        integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
        extra: {
          schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: BUDGET_MS } },
          processing: { backlogMax: BACKLOG_MAX },
          server: { host: '127.0.0.1', port: 0, heldRequestPollMs: 10_000 },
        },
      }),
    );
    scheme = new HangingScheme();
    ({ engine, connector } = await configuredZaRppEngine(store, config, scheme, { inFlightMax: IN_FLIGHT_MAX, backlogMax: config.processing.backlogMax }));
    engine.start();
    app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true }, processing: engine });
    // The engine's every slot is taken by a transfer whose send never returns: a busy engine that claims nothing more.
    for (let i = 0; i < IN_FLIGHT_MAX; i += 1) {
      const body = creditTransfer('ZA_RPP');
      assert.equal((await post('/api/v1/transactions/outbound/credit-transfer', body)).statusCode, 202);
      hangingTransfers.push((await store.findTransaction('demo-bank', body.transactionIdentifiers.uetr, 'CREDIT_TRANSFER'))?.id ?? '');
    }
    await eventually(() => scheme.hanging === IN_FLIGHT_MAX, 'every engine slot hangs on a send');
    assert.equal(engine.backlog(), IN_FLIGHT_MAX);
  });

  after(async () => {
    scheme.release();
    await engine.stop();
    await connector.stop();
    await app.close();
    await store.close();
  });

  async function post(url: string, body: unknown) {
    return app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json', authorization: basicAuth() }, payload: JSON.stringify(body) });
  }

  async function stored(uetr: string, kind: 'IDENTIFIER_DETERMINATION' | 'CREDIT_TRANSFER'): Promise<unknown> {
    return store.findTransaction('demo-bank', uetr, kind);
  }

  void it('answers a lookup held while the scheme never answers and the engine is full within budget + 100 ms, with the AB06 it stored', async () => {
    const body = identifierDetermination('MOBILE');
    const started = performance.now();
    const response = await post('/api/v1/identifiers/outbound/identifier-determination', body);
    const elapsedMs = performance.now() - started;
    assert.equal(response.statusCode, 200, response.body);
    assert.ok(elapsedMs <= BUDGET_MS + SLACK_MS, `answered ${Math.round(elapsedMs)} ms after the request, budget ${BUDGET_MS} ms`);
    assert.ok(elapsedMs >= BUDGET_MS - MARGIN_MS - 5, `answered ${Math.round(elapsedMs)} ms after the request, before the budget less its margin ran out`);
    const answer = JSON.parse(response.body) as { report: { reportInformation: { outcome: string; reasonCode?: string } } };
    assert.equal(answer.report.reportInformation.outcome, 'FAILED');
    assert.equal(answer.report.reportInformation.reasonCode, 'AB06');
    const transaction = (await store.findTransaction('demo-bank', body.request.uetr, 'IDENTIFIER_DETERMINATION'))!;
    assert.equal((transaction.data as { response?: string }).response, response.body, 'the answer given is the one stored');
    assert.equal(transaction.state, 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED');
    // The deadline becomes the transaction's timer, an integer column (PostgreSQL refuses a fraction).
    const { deadlineAt } = transaction.data as { deadlineAt?: number };
    assert.ok(Number.isInteger(deadlineAt), `deadlineAt ${deadlineAt} is whole milliseconds`);
  });

  void it('counts the budget from the request\'s arrival, not from when the use case got to it', async () => {
    const body = identifierDetermination('MOBILE');
    const valid = validateOutboundIdentifierDeterminationRequest(JSON.parse(JSON.stringify(body)));
    assert.ok(valid.ok);
    // The request arrived 300 ms ago (it waited for a parser, a lock, the event loop): 200 ms of its budget remain.
    const receivedAt = systemClock.now() - 300;
    const deps = { store, clock: systemClock, ids: systemIds, processing: engine, schemeRules: schemeRulesOf, timeBudgetMs: () => BUDGET_MS, pollIntervalMs: 10_000 };
    const integrator = config.integrators.find((candidate) => candidate.id === 'demo-bank')!;
    const result = await determineIdentifier(deps, { integrator, request: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null }, respondAsync: false, receivedAt });
    const answeredAfterMs = systemClock.now() - receivedAt;
    assert.equal(result.kind, 'answered');
    assert.ok(answeredAfterMs <= BUDGET_MS + SLACK_MS, `answered ${answeredAfterMs} ms after its arrival, budget ${BUDGET_MS} ms`);
    assert.match(result.kind === 'answered' ? result.response : '', /"reasonCode":"AB06"/);
  });

  void it('beyond processing.backlogMax refuses a new lookup and a new transfer at once with 503 OVERLOADED and Retry-After, storing nothing', async () => {
    // One more piece of work for the engine: a decision on a hanging transfer, queued behind its send.
    void engine.decideNow(hangingTransfers[0]!);
    assert.equal(engine.backlog(), BACKLOG_MAX);
    const lookup = identifierDetermination('MOBILE');
    const transfer = creditTransfer('ZA_RPP');
    for (const [url, body, uetr, kind] of [
      ['/api/v1/identifiers/outbound/identifier-determination', lookup, lookup.request.uetr, 'IDENTIFIER_DETERMINATION'],
      ['/api/v1/transactions/outbound/credit-transfer', transfer, transfer.transactionIdentifiers.uetr, 'CREDIT_TRANSFER'],
    ] as const) {
      const started = performance.now();
      const response = await post(url, body);
      const elapsedMs = performance.now() - started;
      assert.equal(response.statusCode, 503, response.body);
      assert.equal(response.headers['retry-after'], '1');
      assert.equal((JSON.parse(response.body) as { schema: string }).schema, 'ErrorDetail');
      assert.match(response.body, /backlogMax/);
      // At once: no queueing behind the backlog (a loaded shared machine adds a few hundred ms to anything).
      assert.ok(elapsedMs < 400, `refused after ${Math.round(elapsedMs)} ms, not at once`);
      assert.equal(await stored(uetr, kind), undefined, `nothing of the refused ${kind} was stored`);
    }
  });

  void it('beyond processing.backlogMax refuses intake before reading its body: a lookup and a transfer whose body never arrives get 503 OVERLOADED at once', async () => {
    if (engine.backlog() < BACKLOG_MAX) void engine.decideNow(hangingTransfers[0]!);
    assert.equal(engine.backlog(), BACKLOG_MAX);
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    for (const path of ['/api/v1/identifiers/outbound/identifier-determination', '/api/v1/transactions/outbound/credit-transfer']) {
      const started = performance.now();
      const answer = await new Promise<{ status: number; retryAfter: unknown; body: string }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, path, method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '4096', authorization: basicAuth() } }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => void (body += chunk));
          response.on('end', () => {
            request.destroy();
            resolve({ status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body });
          });
        });
        request.on('error', reject);
        request.setTimeout(2_000, () => request.destroy(new Error(`${path}: no answer while its body is incomplete`)));
        // A tenth of the body, and never the rest: only a check before the body is read can answer.
        request.write('{"request":{'.padEnd(400, ' '));
      });
      const elapsedMs = performance.now() - started;
      assert.equal(answer.status, 503, answer.body);
      assert.equal(answer.retryAfter, '1');
      const detail = JSON.parse(answer.body) as { schema: string; detail: string };
      assert.equal(detail.schema, 'ErrorDetail');
      assert.match(detail.detail, /backlogMax/);
      assert.ok(elapsedMs < 400, `refused after ${Math.round(elapsedMs)} ms, not at once`);
    }
  });

  void it('beyond its backlog bound the engine refuses a scheme report (its sender delivers it again) and answers a request busy; both are taken once it drains', async () => {
    assert.ok(engine.backlog() >= BACKLOG_MAX);
    const transactionId = hangingTransfers[1]!;
    const transaction = (await store.getTransaction(transactionId))!;
    const report = {
      scheme: 'ZA_RPP',
      uetr: transaction.uetr,
      idempotencyKey: transactionId,
      kind: 'status',
      status: 'ACCEPTED',
      message: { schema: 'pacs.002.001.10' },
      receivedAt: Date.now(),
      received: { messageName: 'pacs.002.001.10', messageId: 'ADMISSION0000000000000000000000001', document: '<Document/>' },
    } as const;
    await assert.rejects(engine.receive(report), AnswerNotRecordedError);
    assert.equal((await store.schemeMessages(transactionId)).filter((row) => row.direction === 'received').length, 0, 'nothing of the report was kept');
    assert.equal(await engine.request(transactionId, { type: 'status', trace: { traceparent: newTraceparent(), tracestate: null } }), 'busy');

    scheme.release();
    await eventually(() => engine.backlog() < BACKLOG_MAX, 'the backlog drains once the sends return');
    await engine.receive(report);
    assert.equal((await store.schemeMessages(transactionId)).filter((row) => row.direction === 'received').length, 1, 'the report delivered again was kept');
  });
});

void describe('held lookups falling due at once: the timeout decided a margin before the budget ends', () => {
  /** A budget long enough that its tenth (the margin, processing.heldLookupMarginMs capped) covers a loaded machine's delays. */
  const budgetMs = 3_000;
  const lookups = 100;

  void it('decides a sync lookup\'s timeout heldLookupMarginMs before the end of its budget, at most a tenth of it; an async one\'s at the end', () => {
    assert.equal(timeoutDecidedAt(1_000, 10_000, 'sync', 1_000), 10_000);
    assert.equal(timeoutDecidedAt(1_000, 10_000, 'sync', 5_000), 10_000, 'a tenth of the budget at most');
    assert.equal(timeoutDecidedAt(1_000, 500, 'sync', 1_000), 1_450);
    assert.equal(timeoutDecidedAt(1_000, 10_000, 'sync'), 11_000, 'no margin given: at the end');
    assert.equal(timeoutDecidedAt(1_000, 10_000, 'async', 1_000), 11_000, 'an async lookup keeps the whole budget');
  });

  /** A scheme that takes every message at once and never reports on it. */
  const silentScheme: SchemeTransport = {
    send: () => Promise.resolve({ kind: 'delivered' }),
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };

  void it(`answers ${lookups} sync lookups held at once, the scheme never answering, all within the budget (not a commit queue after it), each with the AB06 it stored`, async () => {
    const store = await openStore('sqlite::memory:');
    const config = await configFromObject(
      testConfigObject({
        database: 'sqlite::memory:',
        integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
        extra: { schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: budgetMs } }, server: { host: '127.0.0.1', port: 0, heldRequestPollMs: 10_000 } },
      }),
    );
    const { engine, connector } = await configuredZaRppEngine(store, config, silentScheme);
    engine.start();
    try {
      const marginMs = Math.min(config.processing.heldLookupMarginMs, budgetMs / 10);
      const deps = {
        store,
        clock: systemClock,
        ids: systemIds,
        processing: engine,
        schemeRules: schemeRulesOf,
        timeBudgetMs: () => budgetMs,
        pollIntervalMs: 10_000,
        heldLookupMarginMs: config.processing.heldLookupMarginMs,
      };
      const integrator = config.integrators.find((candidate) => candidate.id === 'demo-bank')!;
      // All arrived in the same millisecond: their timeouts fall due in the same instant.
      const receivedAt = systemClock.now();
      const answers = await Promise.all(
        Array.from({ length: lookups }, async () => {
          const body = identifierDetermination('MOBILE');
          const valid = validateOutboundIdentifierDeterminationRequest(JSON.parse(JSON.stringify(body)));
          assert.ok(valid.ok);
          const result = await determineIdentifier(deps, { integrator, request: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null }, respondAsync: false, receivedAt });
          return { result, uetr: body.request.uetr, elapsedMs: systemClock.now() - receivedAt };
        }),
      );
      const late = answers.filter(({ elapsedMs }) => elapsedMs > budgetMs).map(({ elapsedMs }) => elapsedMs);
      assert.deepEqual(late, [], `answered after the ${budgetMs} ms budget`);
      for (const { result, uetr, elapsedMs } of answers) {
        assert.equal(result.kind, 'answered');
        assert.match(result.kind === 'answered' ? result.response : '', /"reasonCode":"AB06"/);
        assert.ok(elapsedMs >= budgetMs - marginMs, `answered ${elapsedMs} ms after the request, before the budget less its margin`);
        const transaction = (await store.findTransaction('demo-bank', uetr, 'IDENTIFIER_DETERMINATION'))!;
        assert.equal((transaction.data as { deadlineAt?: number }).deadlineAt, receivedAt + budgetMs - marginMs, 'the timeout falls due the margin before the budget ends');
      }
    } finally {
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });
});

/** A 503 OVERLOADED refusal whose detail matches `why`. */
function refusedFor(why: RegExp): (error: unknown) => boolean {
  return (error) => error instanceof ApiError && error.code === 'OVERLOADED' && why.test(error.detail ?? '');
}

void describe('Admission: the writer backlog and the held lookups', () => {
  void it('refuses intake at once while processing.writeBacklogMax writes wait for the database, and takes it again once they are committed', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const admission = new Admission({ backlogMax: 100, writeBacklogMax: 5, heldLookupsMax: 100 }, store);
      // Queued in this turn of the event loop; the writer takes them in the next.
      const writes = Array.from({ length: 5 }, (_, i) => store.releaseTransaction(`no-such-transaction-${i}`, 'nobody'));
      assert.equal(store.writesWaiting(), 5);
      assert.throws(
        () => admission.refuseWhenOverloaded('intake'),
        (error: unknown) => error instanceof ApiError && error.code === 'OVERLOADED' && error.status === 503 && error.headers['Retry-After'] === '1' && /writeBacklogMax/.test(error.detail ?? ''),
      );
      await Promise.all(writes);
      assert.equal(store.writesWaiting(), 0);
      admission.refuseWhenOverloaded('intake');
    } finally {
      await store.close();
    }
  });

  void it('counts an admitted intake against processing.writeBacklogMax until it is released, with the writes waiting: the excess of a burst is refused', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const admission = new Admission({ backlogMax: 100, writeBacklogMax: 3, heldLookupsMax: 100 }, store);
      // Three intakes admitted in one turn, none of which has queued its write yet.
      const releases = [admission.admit('intake'), admission.admit('intake'), admission.admit('intake')];
      assert.equal(store.writesWaiting(), 0);
      assert.equal(admission.intakes, 3);
      assert.throws(() => admission.admit('intake'), refusedFor(/writeBacklogMax/));
      assert.throws(() => admission.admit('held lookup'), refusedFor(/writeBacklogMax/), 'a lookup\'s intake would queue behind them too');
      assert.equal(admission.intakes, 3, 'a refused intake is not counted');
      releases[0]!();
      releases[0]!();
      assert.equal(admission.intakes, 2, 'an intake is released once, however often its release is called');
      // One write waiting and two intakes under way are at the bound as well.
      const write = store.releaseTransaction('no-such-transaction', 'nobody');
      assert.throws(() => admission.admit('intake'), refusedFor(/1 writes wait for the database and 2 intakes are under way/));
      await write;
      const next = admission.admit('intake');
      for (const release of [...releases, next]) release();
      assert.equal(admission.intakes, 0);
    } finally {
      await store.close();
    }
  });

  void it('writes the change a held request waits on (its deadline came) ahead of a writer backlog, not behind it', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      /** The position among `backlog` writes queued before it at which a change resolves. */
      async function settledAfter(urgent: boolean): Promise<number> {
        let settled = 0;
        const backlog = Array.from({ length: 3_000 }, (_, i) => store.releaseTransaction(`no-such-transaction-${i}`, 'nobody').then(() => void (settled += 1)));
        let position = -1;
        const change = store
          .applyChange({ transactionId: 'no-such-transaction', expectedVersion: 1, toState: 'X', at: Date.now(), cause: null, dueAt: null, outbox: [], ...(urgent ? { urgent: true } : {}) })
          .then(() => void (position = settled));
        await Promise.all([...backlog, change]);
        return position;
      }
      assert.equal(await settledAfter(false), 3_000, 'a change that is not urgent waits behind the whole backlog');
      const urgentPosition = await settledAfter(true);
      assert.ok(urgentPosition < 1_024, `the urgent change was written in the first batch, not after ${urgentPosition} queued writes`);
    } finally {
      await store.close();
    }
  });

  void it('refuses a new sync lookup once processing.heldLookupsMax are held, but not other intake; a lookup answered frees its place', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const admission = new Admission({ backlogMax: 100, writeBacklogMax: 100, heldLookupsMax: 2 }, store);
      const first = admission.admit('held lookup');
      admission.admit('held lookup');
      assert.throws(() => admission.admit('held lookup'), (error: unknown) => error instanceof ApiError && error.code === 'OVERLOADED' && /heldLookupsMax/.test(error.detail ?? ''));
      assert.equal(admission.held, 2, 'a refused lookup is not counted');
      admission.refuseWhenOverloaded('intake');
      first();
      first();
      assert.equal(admission.held, 1, 'a place is freed once, however often its release is called');
      admission.refuseWhenOverloaded('held lookup');
    } finally {
      await store.close();
    }
  });
});

void describe('a held lookup whose client went away', () => {
  void it('stops waiting at once when its signal is aborted, its timer cleared and its change listener removed, its transaction stored', async () => {
    const budgetMs = 5_000;
    const store = await openStore('sqlite::memory:');
    try {
      let listening = 0;
      const counted = withStoreMethods(store, {
        onChange: (target) => (listener) => {
          listening += 1;
          const stop = target.onChange(listener);
          return () => {
            listening -= 1;
            stop();
          };
        },
      });
      const pending = new Set<unknown>();
      const timers: Timers = {
        setTimeout: (callback, ms) => {
          const handle = setTimeout(() => {
            pending.delete(handle);
            callback();
          }, ms);
          pending.add(handle);
          return handle;
        },
        clearTimeout: (handle) => {
          pending.delete(handle);
          clearTimeout(handle as NodeJS.Timeout);
        },
      };
      // No engine: nothing decides the lookup, so only the client going away ends its wait before the budget.
      const deps = { store: counted, clock: systemClock, ids: systemIds, schemeRules: schemeRulesOf, timeBudgetMs: () => budgetMs, pollIntervalMs: 10_000, timers };
      const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:' }));
      const integrator = config.integrators.find((candidate) => candidate.id === 'demo-bank')!;
      const body = identifierDetermination('MOBILE');
      const valid = validateOutboundIdentifierDeterminationRequest(JSON.parse(JSON.stringify(body)));
      assert.ok(valid.ok);
      const client = new AbortController();
      const answer = determineIdentifier(deps, { integrator, request: valid.value, rawBody: JSON.stringify(body), trace: { traceparent: newTraceparent(), tracestate: null }, respondAsync: false, signal: client.signal });
      answer.catch(() => undefined);
      await eventually(() => listening === 1 && pending.size === 1, 'the lookup is stored and waits for its answer');
      assert.ok(await store.findTransaction('demo-bank', body.request.uetr, 'IDENTIFIER_DETERMINATION'), 'the lookup was stored before its client went');

      const goneAt = performance.now();
      client.abort();
      await assert.rejects(answer, (error: unknown) => error instanceof ApiError && error.code === 'DETERMINATION_PENDING' && error.status === 503);
      const endedAfterMs = performance.now() - goneAt;
      assert.ok(endedAfterMs < 300, `the wait ended ${Math.round(endedAfterMs)} ms after the client went, budget ${budgetMs} ms`);
      assert.equal(pending.size, 0, 'no timer of the wait is left');
      assert.equal(listening, 0, 'no change listener of the wait is left');
    } finally {
      await store.close();
    }
  });
});
