import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../support/delivery.js';
import { basicAuth } from '../support/server.js';
import { open, startApp } from '../support/sockets.js';
/**
 * Time bounds on receiving a request (headers, then the whole request), over real sockets from
 * the allowlisted address (127.0.0.1), with short configured bounds.
 */
const TIMEOUTS = { headersTimeoutMs: 500, requestTimeoutMs: 1_500 };
const PATH = '/api/v1/transactions/outbound/credit-transfer';
function headers(contentLength, extra = {}) {
    const lines = [`POST ${PATH} HTTP/1.1`, 'Host: regpay.test', 'Content-Type: application/json', `Content-Length: ${contentLength}`, ...Object.entries(extra).map(([name, value]) => `${name}: ${value}`)];
    return `${lines.join('\r\n')}\r\n\r\n`;
}
/** Write one byte of body every `everyMs` until the connection closes. */
function trickle(watched, everyMs) {
    const timer = setInterval(() => {
        if (watched.closed())
            clearInterval(timer);
        else
            watched.socket.write(' ');
    }, everyMs);
    return timer;
}
function errorDetail(received) {
    const status = Number(/^HTTP\/1\.1 (\d{3}) /.exec(received)?.[1]);
    const body = JSON.parse(received.slice(received.indexOf('\r\n\r\n') + 4));
    return { status, body };
}
void describe('time bounds on receiving a request', () => {
    void it('answers 408 ErrorDetail and closes the connection when a body trickles in beyond server.requestTimeoutMs', async () => {
        const server = await startApp(TIMEOUTS);
        const slow = [];
        const timers = [];
        try {
            for (let i = 0; i < 5; i += 1) {
                const watched = await open(server.port, '127.0.0.1', headers(10_000, { authorization: basicAuth() }) + '{');
                slow.push(watched);
                timers.push(trickle(watched, 200));
            }
            await eventually(() => slow.every((watched) => watched.closed()), 'every slow upload is closed', 15_000);
            for (const watched of slow) {
                const answer = errorDetail(watched.received());
                assert.equal(answer.status, 408);
                assert.deepEqual(answer.body, { schema: 'ErrorDetail', message: 'Request not received in time', errors: [] });
                assert.ok((watched.closedAfterMs() ?? Infinity) < 8_000, `closed after ${watched.closedAfterMs()} ms`);
            }
        }
        finally {
            for (const timer of timers)
                clearInterval(timer);
            for (const watched of slow)
                watched.socket.destroy();
            await server.close();
        }
    });
    void it('answers 408 ErrorDetail when the headers do not arrive within server.headersTimeoutMs', async () => {
        const server = await startApp(TIMEOUTS);
        const watched = await open(server.port, '127.0.0.1', `POST ${PATH} HTTP/1.1\r\nHost: regpay.test\r\n`);
        try {
            await eventually(() => watched.closed(), 'the half-open request is closed', 10_000);
            assert.equal(errorDetail(watched.received()).status, 408);
        }
        finally {
            watched.socket.destroy();
            await server.close();
        }
    });
    void it('answers an allowlisted client 400 MALFORMED_REQUEST for what is not HTTP and 431 HEADERS_TOO_LARGE for oversized headers, as ErrorDetail', async () => {
        const server = await startApp({});
        const garbage = await open(server.port, '127.0.0.1', 'GARBAGE\r\n\r\n');
        const oversized = await open(server.port, '127.0.0.1', `GET /health/live HTTP/1.1\r\nHost: regpay.test\r\nX-Filler: ${'a'.repeat(64 * 1024)}\r\n\r\n`);
        try {
            await eventually(() => garbage.closed() && oversized.closed(), 'both closed', 10_000);
            assert.deepEqual(errorDetail(garbage.received()), { status: 400, body: { schema: 'ErrorDetail', message: 'Request is not valid HTTP/1.1', errors: [] } });
            assert.deepEqual(errorDetail(oversized.received()), { status: 431, body: { schema: 'ErrorDetail', message: 'Request headers are too large', errors: [] } });
        }
        finally {
            garbage.socket.destroy();
            oversized.socket.destroy();
            await server.close();
        }
    });
    void it('writes nothing when a held request times out', async () => {
        // 127.0.0.2 is admitted for the operations endpoints only, so its API request is held.
        const server = await startApp({ ...TIMEOUTS, heldConnectionMs: 5_000, operationsAllowlist: ['127.0.0.2/32'] });
        const watched = await open(server.port, '127.0.0.2', headers(10_000, { authorization: basicAuth() }) + '{');
        const timer = trickle(watched, 200);
        try {
            await eventually(() => watched.closed(), 'the held connection is closed', 15_000);
            assert.equal(watched.received(), '');
        }
        finally {
            clearInterval(timer);
            watched.socket.destroy();
            await server.close();
        }
    });
});
//# sourceMappingURL=request-timeouts.test.js.map