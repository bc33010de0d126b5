import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../support/delivery.js';
import { basicAuth, startServer, writeTestConfig } from '../support/server.js';
import { open, startApp } from '../support/sockets.js';
/**
 * A request answered before its body was read (413 for a declared length over the limit, 401
 * before the body, ...) over real sockets against the service as it runs: the answer reaches the
 * client still sending, and the connection is kept only within bounds (lingering close).
 */
const MiB = 1024 * 1024;
const PATH = '/api/v1/transactions/outbound/credit-transfer';
const LINGER_MS = 1_000;
void describe('answers before the body, over real sockets', () => {
    let server;
    before(async () => {
        const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-e2e-')), 'regpay.db')}`;
        // requestTimeoutMs is long so that lingerMs alone ends a refused connection.
        server = await startServer({ configPath: writeTestConfig({ database, extra: { server: { host: '127.0.0.1', port: 0, lingerMs: LINGER_MS, requestTimeoutMs: 120_000 } } }) });
    });
    after(async () => {
        assert.equal(await server?.stop(), 0, 'the server shuts down cleanly on SIGTERM');
    });
    const upload = async (body) => {
        const response = await fetch(`${server.url}${PATH}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: basicAuth() },
            body,
            ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
        });
        return { status: response.status, schema: (await response.json()).schema };
    };
    for (const mib of [4.5, 11, 64]) {
        void it(`answers 413 ErrorDetail to fetch uploads of ${mib} MiB with Content-Length, five in a row`, async () => {
            const body = new Uint8Array(Math.round(mib * MiB)).fill(0x20);
            for (let attempt = 0; attempt < 5; attempt += 1) {
                assert.deepEqual(await upload(body), { status: 413, schema: 'ErrorDetail' }, `upload ${attempt + 1}`);
            }
        });
    }
    void it('answers 413 ErrorDetail to chunked fetch uploads of 64 MiB, five in a row', async () => {
        const piece = new Uint8Array(256 * 1024).fill(0x20);
        for (let attempt = 0; attempt < 5; attempt += 1) {
            let sent = 0;
            const body = new ReadableStream({
                pull(controller) {
                    if (sent === 64 * MiB)
                        controller.close();
                    else {
                        sent += piece.length;
                        controller.enqueue(piece);
                    }
                },
            });
            assert.deepEqual(await upload(body), { status: 413, schema: 'ErrorDetail' }, `upload ${attempt + 1}`);
        }
    });
    void it('serves the next request from a new connection after a 413', async () => {
        assert.equal((await upload(new Uint8Array(2 * MiB).fill(0x20))).status, 413);
        const health = await fetch(`${server.url}/health/live`);
        assert.equal(health.status, 200);
    });
    void it('answers 413 at once, without 100 Continue, to a client that asks before sending a body over the limit', async () => {
        const { port } = new URL(server.url);
        const head = `POST ${PATH} HTTP/1.1\r\nHost: regpay.test\r\nAuthorization: ${basicAuth()}\r\nContent-Type: application/json\r\nContent-Length: ${2 * MiB}\r\nExpect: 100-continue\r\n\r\n`;
        const watched = await open(Number(port), '127.0.0.1', head);
        try {
            await eventually(() => watched.received().includes('}'), 'an answer with a body', 10_000);
            assert.match(watched.received(), /^HTTP\/1\.1 413 /);
        }
        finally {
            watched.socket.destroy();
        }
    });
    void it('closes a connection refused before its body (401) within server.lingerMs while the body keeps trickling in', async () => {
        const { port } = new URL(server.url);
        const head = `POST ${PATH} HTTP/1.1\r\nHost: regpay.test\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`;
        // The client keeps sending after the server's end of stream, so only the server's bound closes it.
        const watched = await open(Number(port), '127.0.0.1', head, { allowHalfOpen: true });
        const timer = setInterval(() => watched.closed() || watched.socket.write(' '), 100);
        try {
            await eventually(() => watched.received().includes('\r\n\r\n'), 'the 401 arrives', 10_000);
            assert.match(watched.received(), /^HTTP\/1\.1 401 /);
            assert.match(watched.received(), /\r\nconnection: close\r\n/i);
            const answeredAt = Date.now();
            await eventually(() => watched.closed(), 'the refused connection is closed', 15_000);
            assert.ok(Date.now() - answeredAt < LINGER_MS + 3_000, `closed ${Date.now() - answeredAt} ms after the answer`);
        }
        finally {
            clearInterval(timer);
            watched.socket.destroy();
        }
    });
});
void describe('lingering close bounded in bytes', () => {
    void it('closes a connection after discarding server.lingerBytesMax of a chunked body that does not end', async () => {
        const app = await startApp({ bodyBytesMax: 1_024, lingerBytesMax: MiB, lingerMs: 60_000, requestTimeoutMs: 120_000 });
        const head = `POST ${PATH} HTTP/1.1\r\nHost: regpay.test\r\nAuthorization: ${basicAuth()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
        const watched = await open(app.port, '127.0.0.1', head, { allowHalfOpen: true });
        const chunk = `${(64 * 1024).toString(16)}\r\n${' '.repeat(64 * 1024)}\r\n`;
        let written = 0;
        const send = () => {
            while (!watched.closed() && watched.socket.writable) {
                written += chunk.length;
                if (!watched.socket.write(chunk)) {
                    watched.socket.once('drain', send);
                    return;
                }
            }
        };
        try {
            send();
            await eventually(() => watched.closed(), 'the connection is closed', 20_000);
            assert.match(watched.received(), /^HTTP\/1\.1 413 /);
            assert.ok(written > MiB, `closed after ${written} bytes written`);
            // What the kernel buffers on both sides is written but never read.
            assert.ok(written < 16 * MiB, `closed only after ${written} bytes written`);
        }
        finally {
            watched.socket.destroy();
            await app.close();
        }
    });
});
//# sourceMappingURL=lingering-close.test.js.map