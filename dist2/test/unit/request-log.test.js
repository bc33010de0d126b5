import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import { buildApp, createLogger } from '../../src/http/app.js';
import { testConfigObject } from '../support/server.js';
/** Every line the logger wrote. */
function capture() {
    let text = '';
    const stream = new Writable({
        write(chunk, _encoding, done) {
            text += chunk.toString();
            done();
        },
    });
    return { stream, lines: () => text.split('\n').filter((line) => line !== '') };
}
void describe('request log (server.logRequests)', () => {
    void it('logs the path of each request but never its query string', async () => {
        const store = await openStore('sqlite::memory:');
        const config = await configFromObject(testConfigObject({ database: 'sqlite::memory:', extra: { server: { logRequests: true } } }));
        const log = capture();
        const app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true } }, { logger: createLogger('info', log.stream) });
        try {
            const response = await app.inject({ method: 'GET', url: '/health/live?access_token=s3cr3t-token&account=1234567890' });
            assert.equal(response.statusCode, 200);
            const incoming = log.lines().map((line) => JSON.parse(line)).find((entry) => entry.msg === 'incoming request');
            assert.ok(incoming?.req, `an incoming-request line: ${log.lines().join('\n')}`);
            assert.equal(incoming.req.method, 'GET');
            assert.equal(incoming.req.url, '/health/live?[redacted]');
            for (const line of log.lines()) {
                assert.ok(!line.includes('s3cr3t-token') && !line.includes('1234567890'), `a log line shows the query: ${line}`);
            }
        }
        finally {
            await app.close();
            await store.close();
        }
    });
});
//# sourceMappingURL=request-log.test.js.map