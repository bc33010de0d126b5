import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import type { SchemeTransport } from '../../src/connectors/transport.js';
import { buildApp } from '../../src/http/app.js';
import type { Store } from '../../src/ports/store.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { eventually } from '../support/delivery.js';
import { configuredZaRppEngine } from '../support/engine.js';
import { basicAuth, testConfigObject } from '../support/server.js';

/**
 * Admission control counts what it admitted until the request ends (src/http/plugins/admission.ts),
 * over real HTTP: an intake whose body is still arriving holds its place against
 * processing.writeBacklogMax, so a burst arriving together cannot all pass the check before any
 * of them has queued a write; and a held lookup whose client went away stops waiting and frees
 * its place at once, while its transaction is still decided by the engine.
 */
const CREDIT_TRANSFER_PATH = '/api/v1/transactions/outbound/credit-transfer';
const LOOKUP_PATH = '/api/v1/identifiers/outbound/identifier-determination';

interface Answer {
  readonly status: number;
  readonly retryAfter: string | undefined;
  readonly body: string;
}

/** A request whose headers are sent at once and whose body only when `finish` is called (or never). */
interface PendingRequest {
  readonly request: ClientRequest;
  /** Its answer, once one came (undefined before). */
  answer(): Answer | undefined;
  /** Resolves with its answer. */
  readonly answered: Promise<Answer>;
  /** Send the body and end the request. */
  finish(body: string): void;
}

/** Every request a test started, destroyed at its end (the app's close waits for requests under way). */
const started = new Set<ClientRequest>();

function destroyStarted(): void {
  for (const request of started) request.destroy();
  started.clear();
}

function pendingRequest(port: number, path: string, contentLength: number): PendingRequest {
  let answer: Answer | undefined;
  const request = httpRequest({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(contentLength), authorization: basicAuth() },
  });
  const answered = new Promise<Answer>((resolve, reject) => {
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => void (body += chunk));
      response.on('end', () => {
        answer = { status: response.statusCode ?? 0, retryAfter: response.headers['retry-after'], body };
        resolve(answer);
      });
    });
    request.on('error', reject);
  });
  answered.catch(() => undefined);
  started.add(request);
  request.flushHeaders();
  return {
    request,
    answer: () => answer,
    answered,
    finish: (body) => request.end(body),
  };
}

function send(port: number, path: string, body: string): Promise<Answer> {
  const pending = pendingRequest(port, path, Buffer.byteLength(body));
  pending.finish(body);
  return pending.answered;
}

async function listening(app: FastifyInstance): Promise<number> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return (app.server.address() as AddressInfo).port;
}

function assertOverloaded(answer: Answer, bound: RegExp): void {
  assert.equal(answer.status, 503, answer.body);
  assert.equal(answer.retryAfter, '1');
  const detail = JSON.parse(answer.body) as { schema: string; code: string; detail: string };
  assert.equal(detail.schema, 'ErrorDetail');
  assert.match(detail.detail, bound);
}

void describe('admission counts each admitted request until it ends, over real HTTP', () => {
  /** processing.writeBacklogMax: intakes under way and writes waiting at which new intake is refused. */
  const WRITE_BACKLOG_MAX = 3;
  const BURST = 8;

  async function intakeApp(): Promise<{ app: FastifyInstance; store: Store; port: number }> {
    const config = await configFromObject(
      testConfigObject({
        database: 'sqlite::memory:',
        integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
        extra: { processing: { writeBacklogMax: WRITE_BACKLOG_MAX }, server: { host: '127.0.0.1', port: 0, logLevel: 'silent' } },
      }),
    );
    const store = await openStore(config.database);
    const app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true } });
    return { app, store, port: await listening(app) };
  }

  void it(`refuses the excess of a burst of ${BURST} transfers arriving together (bodies still on their way) with 503 OVERLOADED at once, and takes the ${WRITE_BACKLOG_MAX} within processing.writeBacklogMax`, async () => {
    const { app, store, port } = await intakeApp();
    try {
      const bodies = Array.from({ length: BURST }, () => creditTransfer('ZA_RPP'));
      const texts = bodies.map((body) => JSON.stringify(body));
      // Every request's headers arrive; no body does yet, so no write is queued by any of them.
      const requests = texts.map((text) => pendingRequest(port, CREDIT_TRANSFER_PATH, Buffer.byteLength(text)));
      await eventually(() => requests.filter((request) => request.answer() !== undefined).length >= BURST - WRITE_BACKLOG_MAX, `${BURST - WRITE_BACKLOG_MAX} of the burst are refused before their bodies arrive`);
      // Give any further refusal the time to come: there must be none.
      await new Promise((resolve) => setTimeout(resolve, 100));
      const refused = requests.flatMap((request, index) => (request.answer() === undefined ? [] : [index]));
      assert.equal(refused.length, BURST - WRITE_BACKLOG_MAX, 'exactly the excess is refused');
      for (const index of refused) assertOverloaded(requests[index]!.answer()!, /writeBacklogMax/);

      const taken = requests.flatMap((request, index) => (request.answer() === undefined ? [index] : []));
      for (const index of taken) requests[index]!.finish(texts[index]!);
      for (const index of taken) assert.equal((await requests[index]!.answered).status, 202);
      for (const [index, body] of bodies.entries()) {
        const stored = await store.findTransaction('demo-bank', body.transactionIdentifiers.uetr, 'CREDIT_TRANSFER');
        assert.equal(stored !== undefined, taken.includes(index), `transfer ${index} stored exactly when it was taken`);
      }
    } finally {
      destroyStarted();
      await app.close();
      await store.close();
    }
  });

  void it('frees an intake\'s place when its request ends, whatever the end: a 202, a 400, a client gone while its body arrived', async () => {
    const { app, store, port } = await intakeApp();
    try {
      const valid = JSON.stringify(creditTransfer('ZA_RPP'));
      const ends = [
        pendingRequest(port, CREDIT_TRANSFER_PATH, Buffer.byteLength(valid)),
        pendingRequest(port, CREDIT_TRANSFER_PATH, 20),
        pendingRequest(port, CREDIT_TRANSFER_PATH, 4_096),
      ];
      // All places taken: the next intake is refused.
      await eventually(async () => (await send(port, CREDIT_TRANSFER_PATH, JSON.stringify(creditTransfer('ZA_RPP')))).status === 503, 'the places are all taken');
      const [accepted, invalid, gone] = ends as [PendingRequest, PendingRequest, PendingRequest];
      accepted.finish(valid);
      assert.equal((await accepted.answered).status, 202);
      invalid.finish('{"not":"a transfer"}');
      assert.equal((await invalid.answered).status, 400);
      gone.request.write('{"paymentScheme":');
      gone.request.destroy();
      await new Promise((resolve) => gone.request.once('close', resolve));
      // Every place is free again: as many transfers at once as the bound are all taken.
      await eventually(async () => {
        const answers = await Promise.all(Array.from({ length: WRITE_BACKLOG_MAX }, () => send(port, CREDIT_TRANSFER_PATH, JSON.stringify(creditTransfer('ZA_RPP')))));
        return answers.every((answer) => answer.status === 202);
      }, `${WRITE_BACKLOG_MAX} transfers at once are all taken once the requests holding the places ended`, 2_000);
    } finally {
      destroyStarted();
      await app.close();
      await store.close();
    }
  });
});

void describe('a held lookup whose client went away', () => {
  /** Long enough that a place freed only at the lookup's deadline (or later) shows. */
  const BUDGET_MS = 5_000;
  /** How soon after its client went away a held lookup's place must be free (a loaded shared machine delays anything by a few hundred ms). */
  const FREED_WITHIN_MS = 1_500;
  /** A scheme that takes every message at once and never reports on it. */
  const silentScheme: SchemeTransport = {
    send: () => Promise.resolve({ kind: 'delivered' }),
    start: () => Promise.resolve(),
    stop: () => Promise.resolve(),
  };

  /** A sync lookup sent whole; 'refused' if it was answered 503 at once, else the request held open. */
  async function lookup(port: number): Promise<{ held: PendingRequest; uetr: string } | 'refused'> {
    const body = identifierDetermination('MOBILE');
    const text = JSON.stringify(body);
    const pending = pendingRequest(port, LOOKUP_PATH, Buffer.byteLength(text));
    pending.finish(text);
    const first = await Promise.race([pending.answered, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 200))]);
    if (first === undefined) return { held: pending, uetr: body.request.uetr };
    assertOverloaded(first, /heldLookupsMax/);
    return 'refused';
  }

  void it('stops waiting and frees its place at once (not at its deadline); the engine still decides it, and the next lookup is answered in time', async () => {
    const config = await configFromObject(
      testConfigObject({
        database: 'sqlite::memory:',
        integratorExtra: { limits: { requestsPerSecond: 1_000_000, burst: 1_000_000 } },
        extra: {
          schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: BUDGET_MS } },
          processing: { heldLookupsMax: 1 },
          server: { host: '127.0.0.1', port: 0, logLevel: 'silent', heldRequestPollMs: 10_000 },
        },
      }),
    );
    const store = await openStore(config.database);
    const { engine, connector } = await configuredZaRppEngine(store, config, silentScheme);
    engine.start();
    const app = await buildApp({
      config,
      store,
      clock: systemClock,
      ids: systemIds,
      readiness: { accepting: () => true },
      processing: engine,
    });
    try {
      const port = await listening(app);
      const first = await lookup(port);
      assert.notEqual(first, 'refused');
      const { held, uetr } = first as { held: PendingRequest; uetr: string };
      await eventually(async () => (await store.findTransaction('demo-bank', uetr, 'IDENTIFIER_DETERMINATION')) !== undefined, 'the held lookup is stored');
      assert.equal(await lookup(port), 'refused', 'the one place is taken while the lookup is held');

      held.request.destroy();
      const goneAt = performance.now();
      let next: { held: PendingRequest; uetr: string } | undefined;
      await eventually(async () => {
        const attempt = await lookup(port);
        if (attempt !== 'refused') next = attempt;
        return next !== undefined;
      }, 'a new lookup is held once the first one\'s client went away', BUDGET_MS * 2);
      const freedAfterMs = performance.now() - goneAt;
      assert.ok(freedAfterMs < FREED_WITHIN_MS, `the place was freed ${Math.round(freedAfterMs)} ms after the client went away, budget ${BUDGET_MS} ms`);

      // Nothing accepted is lost: the engine decides the abandoned lookup's timeout and stores its answer.
      await eventually(async () => {
        const transaction = await store.findTransaction('demo-bank', uetr, 'IDENTIFIER_DETERMINATION');
        return transaction?.state === 'IDENTIFIER_DETERMINATION_RESPONSE_DELIVERED';
      }, 'the engine decided the abandoned lookup', BUDGET_MS * 2);
      const abandoned = (await store.findTransaction('demo-bank', uetr, 'IDENTIFIER_DETERMINATION'))!;
      assert.match((abandoned.data as { response?: string }).response ?? '', /"reasonCode":"AB06"/);

      const answer = await next!.held.answered;
      assert.equal(answer.status, 200, answer.body);
      assert.match(answer.body, /"reasonCode":"AB06"/);
    } finally {
      destroyStarted();
      await app.close();
      await engine.stop();
      await connector.stop();
      await store.close();
    }
  });
});
