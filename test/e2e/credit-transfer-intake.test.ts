import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../../src/adapters/store.js';
import type { Store } from '../../src/ports/store.js';
import { Client } from 'undici';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { dropTestDatabase, freshPostgresUrl } from '../support/postgres.js';
import { basicAuth, OTHER_USER, startServer, writeTestConfig, type RunningServer } from '../support/server.js';

type Json = Record<string, any>;

const databases: Array<[string, () => Promise<string>]> = [
  ['SQLite', () => Promise.resolve(`sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-e2e-')), 'regpay.db')}`)],
  ['PostgreSQL', () => freshPostgresUrl()],
];

/** One transaction, entered into its first state once, with one RECEIVED event: a duplicate added nothing. */
async function assertOneTransfer(store: Store, uetr: string): Promise<void> {
  const stored = await store.findTransaction('demo-bank', uetr);
  assert.ok(stored);
  const history = await store.history(stored.id);
  assert.equal(history.filter((row) => row.toState === 'PAYMENT_AUTH_REQUEST_RECEIVED').length, 1);
  const received = (await store.outbox(stored.id)).filter((row) => row.channel === 'event' && row.body.includes('"type":"PAYMENT_AUTH_REQUEST_RECEIVED"'));
  assert.equal(received.length, 1);
}

for (const [storeName, makeDatabase] of databases) {
  describe(`credit-transfer intake over HTTP (${storeName})`, () => {
    let server: RunningServer;
    let store: Store;
    let database: string | undefined;

    before(async () => {
      database = await makeDatabase();
      server = await startServer({ configPath: writeTestConfig({ database }) });
      store = await openStore(database);
    });
    after(async () => {
      await store?.close();
      const code = await server?.stop();
      if (database !== undefined) await dropTestDatabase(database);
      assert.equal(code, 0, 'the server shuts down cleanly on SIGTERM');
    });

    const post = (body: unknown, init: { auth?: string; contentType?: string; raw?: string; path?: string; method?: string } = {}) =>
      fetch(`${server.url}/api/v1${init.path ?? '/transactions/outbound/credit-transfer'}`, {
        method: init.method ?? 'POST',
        headers: {
          'content-type': init.contentType ?? 'application/json',
          ...(init.auth === '' ? {} : { authorization: init.auth ?? basicAuth() }),
        },
        body: init.raw ?? JSON.stringify(body),
      });

    it("commits the engine's first decision with the intake: ACCEPTED and REQUEST_PENDING are written in the 202's own commit", async () => {
      const transfer = creditTransfer('ZA_RTC');
      const response = await post(transfer, {});
      assert.equal(response.status, 202);
      const stored = await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr);
      assert.ok(stored);
      const history = await store.history(stored.id);
      const first = history.slice(0, 3);
      assert.deepEqual(
        first.map((row) => [row.version, row.toState]),
        [
          [1, 'PAYMENT_AUTH_REQUEST_RECEIVED'],
          [2, 'PAYMENT_AUTH_REQUEST_ACCEPTED'],
          [3, 'PAYMENT_AUTH_REQUEST_PENDING'],
        ],
      );
      // A decision the engine made after the intake would carry its own, later time.
      assert.deepEqual(
        first.map((row) => row.at),
        [stored.createdAt, stored.createdAt, stored.createdAt],
        'the three states were written at the intake',
      );
    });

    it('answers 202 with no body and stores the transfer, its first state and its event', async () => {
      const transfer = creditTransfer('ZA_RTC');
      const response = await post(transfer, {});
      assert.equal(response.status, 202);
      assert.equal(await response.text(), '');

      const stored = await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr);
      assert.ok(stored, 'the transaction is in the store');
      assert.equal(stored.scheme, 'ZA_RTC');
      assert.equal(stored.currency, 'ZAR');
      const history = await store.history(stored.id);
      assert.equal(history[0]?.toState, 'PAYMENT_AUTH_REQUEST_RECEIVED', 'its first state');
      assert.equal(history[0]?.fromState, null);
      const outbox = await store.outbox(stored.id);
      const event = JSON.parse(outbox[0]!.body) as Json;
      assert.equal(event.name, 'TRANSACTION_STATE_PAYMENT_AUTH_REQUEST_RECEIVED');
      assert.equal(event.tranInfo.tranUetr, transfer.transactionIdentifiers.uetr);
      assert.deepEqual(event.payload, transfer);
      const message = await store.findMessage('demo-bank', transfer.messageIdentifiers.messageIdentification);
      assert.equal(message?.rawBody, JSON.stringify(transfer));
    });

    it('keeps the exact amount in minor units', async () => {
      const transfer = creditTransfer('ZA_RTC');
      transfer.amounts.bankSettlementAmount.value = 1234567.8;
      assert.equal((await post(transfer)).status, 202);
      const stored = await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr);
      assert.equal(stored?.amountMinor, 123456780n);
    });

    it('answers 202 again to an identical retry with other key order, without a second transaction or event', async () => {
      const transfer = creditTransfer('ZA_RPP');
      assert.equal((await post(transfer)).status, 202);
      const reordered = Object.fromEntries(Object.entries(transfer).reverse());
      assert.equal((await post(reordered)).status, 202);
      await assertOneTransfer(store, transfer.transactionIdentifiers.uetr);
    });

    it('answers 409 when a message id is reused with another amount', async () => {
      const transfer = creditTransfer('ZA_RTC');
      assert.equal((await post(transfer)).status, 202);
      const changed = structuredClone(transfer);
      changed.amounts.bankSettlementAmount.value = 999.99;
      const response = await post(changed);
      assert.equal(response.status, 409);
      const body = (await response.json()) as Json;
      assert.equal(body.schema, 'ErrorDetail');
      assert.deepEqual(body.errors.map((e: Json) => e.field), ['/messageIdentifiers/messageIdentification']);
      const stored = await store.findTransaction('demo-bank', transfer.transactionIdentifiers.uetr);
      assert.equal(stored?.amountMinor, BigInt(Math.round(transfer.amounts.bankSettlementAmount.value * 100)));
    });

    it('answers 409 when a new message would start a second transaction with a used uetr', async () => {
      const first = creditTransfer('ZA_RTC');
      assert.equal((await post(first)).status, 202);
      const second = creditTransfer('ZA_RTC');
      second.transactionIdentifiers.uetr = first.transactionIdentifiers.uetr.toUpperCase();
      const response = await post(second);
      assert.equal(response.status, 409);
      assert.deepEqual(((await response.json()) as Json).errors.map((e: Json) => e.field), ['/transactionIdentifiers/uetr']);
    });

    it('turns identical requests racing in parallel into one transaction, every one answered 202', async () => {
      const transfer = creditTransfer('ZA_RPP');
      const statuses = await Promise.all(Array.from({ length: 12 }, async () => (await post(transfer)).status));
      assert.deepEqual(statuses, Array.from({ length: 12 }, () => 202));
      await assertOneTransfer(store, transfer.transactionIdentifiers.uetr);
    });

    it('treats the same message id from another integrator as a different message', async () => {
      const ours = creditTransfer('ZA_RTC');
      assert.equal((await post(ours)).status, 202);
      const theirs = creditTransfer('ZA_RTC');
      theirs.messageIdentifiers.messageIdentification = ours.messageIdentifiers.messageIdentification;
      theirs.debtorAgent = { bicfi: 'OTHRZAJJ', clearingSystemMemberId: { memberId: '250655' } };
      assert.equal((await post(theirs, { auth: basicAuth(OTHER_USER) })).status, 202);
      assert.ok(await store.findTransaction('other-bank', theirs.transactionIdentifiers.uetr));
      assert.equal(await store.findTransaction('other-bank', ours.transactionIdentifiers.uetr), undefined);
    });

    it('answers 400 naming every violated field and stores nothing', async () => {
      const transfer = creditTransfer('ZA_RTC');
      transfer.amounts.bankSettlementAmount.value = 10.001;
      transfer.transactionIdentifiers.endToEndIdentification = 'E'.repeat(36);
      transfer.transactionIdentifiers.uetr = 'not-a-uuid';
      delete (transfer as Json).debtor;
      transfer.creditor.knownAsName = '';
      const response = await post(transfer);
      assert.equal(response.status, 400);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as Json;
      assert.equal(body.schema, 'ErrorDetail');
      const fields = body.errors.map((e: Json) => e.field).sort();
      assert.deepEqual(fields, [
        '/amounts/bankSettlementAmount/value',
        '/creditor/knownAsName',
        '/debtor',
        '/transactionIdentifiers/endToEndIdentification',
        '/transactionIdentifiers/uetr',
      ]);
      assert.equal(await store.findMessage('demo-bank', transfer.messageIdentifiers.messageIdentification), undefined);
    });

    it('answers 400 to unparseable JSON, 415 to another media type and 413 to an oversized body', async () => {
      const malformed = await post(undefined, { raw: '{"schema":"CreditTransfer",' });
      assert.equal(malformed.status, 400);
      assert.equal(((await malformed.json()) as Json).schema, 'ErrorDetail');
      const text = await post(undefined, { raw: 'hello', contentType: 'text/plain' });
      assert.equal(text.status, 415);
      assert.equal(((await text.json()) as Json).schema, 'ErrorDetail');
      const huge = creditTransfer('ZA_RTC');
      (huge as Json).supplementaryData = { blob: 'x'.repeat(2 * 1024 * 1024) };
      const tooLarge = await post(huge);
      assert.equal(tooLarge.status, 413);
      assert.equal(((await tooLarge.json()) as Json).schema, 'ErrorDetail');
    });

    /** A transfer's text with the debtor named `name`, spaced out and its keys in an unusual order. */
    const oddlyWritten = (name: string): { text: string; messageId: string } => {
      const transfer = creditTransfer('ZA_RTC');
      transfer.debtor = { legalName: name, countryOfResidence: 'ZA' };
      const reordered = Object.fromEntries(Object.entries(transfer).reverse());
      return { text: `\n  ${JSON.stringify(reordered, null, 3).replace(/,\n/g, ' ,\n\t')}  \r\n`, messageId: transfer.messageIdentifiers.messageIdentification };
    };
    const postBytes = (bytes: Uint8Array, contentType = 'application/json') =>
      fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, { method: 'POST', headers: { 'content-type': contentType, authorization: basicAuth() }, body: bytes });

    it('stores the raw message byte for byte as it arrived: non-ASCII text, whitespace and key order kept', async () => {
      const { text, messageId } = oddlyWritten('Zoë Ndlovu-Müller 陈');
      const sent = Buffer.from(text, 'utf8');
      const response = await postBytes(sent, 'application/json; charset="UTF-8"');
      assert.equal(response.status, 202, await response.text());
      const stored = await store.findMessage('demo-bank', messageId);
      assert.ok(stored);
      assert.deepEqual(Buffer.from(stored.rawBody, 'utf8'), sent);
    });

    it('answers 400 naming the document to a body that is not valid UTF-8, and stores nothing', async () => {
      const { text, messageId } = oddlyWritten('Zo@');
      // 0xEB alone is "ë" in Latin-1, and no character at all in UTF-8.
      const [before = '', after = ''] = text.split('@');
      const sent = Buffer.concat([Buffer.from(before), Buffer.from([0xeb]), Buffer.from(after)]);
      for (const bytes of [sent, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(oddlyWritten('Zoe').text)])]) {
        const response = await postBytes(bytes);
        assert.equal(response.status, 400);
        const body = (await response.json()) as Json;
        assert.equal(body.schema, 'ErrorDetail');
        assert.equal(body.message, 'Request body is not valid JSON');
        assert.deepEqual(body.errors.map((error: Json) => error.field), ['']);
      }
      assert.equal(await store.findMessage('demo-bank', messageId), undefined);
    });

    it('answers 415 to a JSON body declared in another charset than UTF-8, and stores nothing', async () => {
      const { text, messageId } = oddlyWritten('Zoë');
      for (const [charset, bytes] of [
        ['latin1', Buffer.from(text, 'latin1')],
        ['ISO-8859-1', Buffer.from(text, 'latin1')],
        ['utf-16', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])],
        ['utf-16le', Buffer.from(text, 'utf16le')],
      ] as const) {
        const response = await postBytes(bytes, `application/json; charset=${charset}`);
        assert.equal(response.status, 415, charset);
        const body = (await response.json()) as Json;
        assert.equal(body.schema, 'ErrorDetail');
        assert.match(body.detail, new RegExp(charset, 'i'));
      }
      assert.equal(await store.findMessage('demo-bank', messageId), undefined);
    });

    it('answers 413 to a client still sending an oversized body, twenty in a row, and the client sends its next transfer', async () => {
      // Closing the connection on a body refused unread reset a client still sending it, and
      // the reset often destroyed the 413 before it was read (fetch failed with EPIPE on about
      // six uploads in ten): twenty in a row would not all have passed. The connection lingers
      // instead, and closes after each 413; the client opens another for the next request.
      const huge = creditTransfer('ZA_RTC');
      (huge as Json).supplementaryData = { blob: 'x'.repeat(2 * 1024 * 1024) };
      const body = JSON.stringify(huge);
      const client = new Client(server.url, { pipelining: 1 });
      try {
        const headers = { 'content-type': 'application/json', authorization: basicAuth() };
        const path = '/api/v1/transactions/outbound/credit-transfer';
        for (let upload = 0; upload < 20; upload += 1) {
          const response = await client.request({ method: 'POST', path, headers, body });
          assert.equal(response.statusCode, 413);
          assert.equal(((await response.body.json()) as Json).schema, 'ErrorDetail');
        }
        const next = await client.request({ method: 'POST', path, headers, body: JSON.stringify(creditTransfer('ZA_RTC')) });
        await next.body.dump();
        assert.equal(next.statusCode, 202, 'the client carries on with the next transfer');
      } finally {
        await client.close();
      }
    });

    it('closes the connection after a 413 for a declared length beyond server.lingerBytesMax, without reading the body', async () => {
      const { hostname, port } = new URL(server.url);
      const socket = connect(Number(port), hostname);
      socket.setTimeout(5_000, () => socket.destroy(new Error('the connection was neither answered nor closed within 5 s')));
      try {
        // Headers only: the declared 100 MiB never come; the answer must not wait for them.
        socket.write(
          `POST /api/v1/transactions/outbound/credit-transfer HTTP/1.1\r\nHost: ${hostname}\r\nAuthorization: ${basicAuth()}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${100 * 1024 * 1024}\r\n\r\n{"schema":`,
        );
        let received = '';
        for await (const chunk of socket) received += (chunk as Buffer).toString('latin1');
        assert.match(received, /^HTTP\/1\.1 413 /);
        assert.match(received, /\r\nconnection: close\r\n/i);
      } finally {
        socket.destroy();
      }
    });

    it('answers 401 with WWW-Authenticate without credentials or with a wrong password', async () => {
      const missing = await post(creditTransfer('ZA_RTC'), { auth: '' });
      assert.equal(missing.status, 401);
      assert.match(missing.headers.get('www-authenticate') ?? '', /^Basic/);
      const wrong = await post(creditTransfer('ZA_RTC'), { auth: basicAuth({ username: 'demo', password: 'wrong' }) });
      assert.equal(wrong.status, 401);
      assert.equal(((await wrong.json()) as Json).schema, 'ErrorDetail');
    });

    it("answers 403 when the debtor agent is another institution, naming each identifier that differs", async () => {
      const byBic = creditTransfer('ZA_RTC');
      byBic.debtorAgent = { bicfi: 'OTHRZAJJ' };
      const response = await post(byBic);
      assert.equal(response.status, 403);
      const body = (await response.json()) as Json;
      assert.match(body.detail, /debtorAgent/);
      assert.deepEqual(body.errors, [{ field: '/debtorAgent/bicfi', message: "is not the integrator's institution (compared on its first 8 characters)" }]);

      const byMemberId = creditTransfer('ZA_RTC');
      byMemberId.debtorAgent = { bicfi: 'DEMOZAJJXXX', clearingSystemMemberId: { memberId: '250655' } };
      const memberIdAnswer = await post(byMemberId);
      assert.equal(memberIdAnswer.status, 403);
      assert.deepEqual(
        ((await memberIdAnswer.json()) as Json).errors.map((error: Json) => error.field),
        ['/debtorAgent/clearingSystemMemberId/memberId'],
        'the branch BIC of the own institution is right; only the member id is named',
      );
    });

    it('answers 422 for a scheme that takes no credit transfer', async () => {
      const transfer = creditTransfer('ZA_RTC');
      transfer.paymentScheme = { schema: 'ZA_AC' };
      const response = await post(transfer);
      assert.equal(response.status, 422);
      const body = (await response.json()) as Json;
      assert.deepEqual(body.errors.map((e: Json) => e.field), ['/paymentScheme/schema']);
      assert.match(body.detail, /ZA_AC/);
    });

    it('answers 404 for an unknown path and 405 for a wrong method, as ErrorDetail', async () => {
      const unknown = await post(creditTransfer('ZA_RTC'), { path: '/transactions/outbound/no-such-thing' });
      assert.equal(unknown.status, 404);
      assert.equal(((await unknown.json()) as Json).schema, 'ErrorDetail');
      const wrongMethod = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, { headers: { authorization: basicAuth() } });
      assert.equal(wrongMethod.status, 405);
      assert.equal(wrongMethod.headers.get('allow'), 'POST');
    });

    it('serves the OpenAPI 3.1 document describing the credit-transfer operation', async () => {
      const response = await fetch(`${server.url}/openapi.json`);
      assert.equal(response.status, 200);
      const document = (await response.json()) as Json;
      assert.equal(document.openapi, '3.1.0');
      const operation = document.paths['/api/v1/transactions/outbound/credit-transfer'].post;
      assert.equal(operation.operationId, 'outboundCreditTransfer');
      assert.ok(operation.requestBody.content['application/json'].schema, 'the request schema is published');
      const docs = await fetch(`${server.url}/docs`);
      assert.equal(docs.status, 200);
    });
  });
}
