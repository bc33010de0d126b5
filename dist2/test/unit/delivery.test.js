import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, configFromObject } from '../../src/config/load.js';
import { DEFAULTS } from '../../src/config/schema.js';
import { DEFAULT_DISPATCHER_OPTIONS, DEFAULT_RETRY_SCHEDULES_MS, retryAt } from '../../src/engine/dispatcher.js';
import { parseRfc3339 } from '../../src/http/routes/admin.js';
import { verifySecret } from '../../src/lib/password-hash.js';
import { webhookSignature } from '../../src/lib/webhook-signature.js';
void describe('Standard Webhooks signature', () => {
    void it('matches the reference libraries test vector', () => {
        // standard-webhooks/libraries/javascript/src/webhook.test.ts, "sign function works".
        const signature = webhookSignature('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}');
        assert.equal(signature, 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    });
    void it('signs the body as UTF-8 text, so any change of a character changes the signature', () => {
        const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
        assert.notEqual(webhookSignature(secret, 'id', 1, '{"name":"Zoë"}'), webhookSignature(secret, 'id', 1, '{"name":"Zoe"}'));
        assert.notEqual(webhookSignature(secret, 'id', 1, '{}'), webhookSignature(secret, 'id', 2, '{}'), 'the timestamp is signed');
        assert.notEqual(webhookSignature(secret, 'id-1', 1, '{}'), webhookSignature(secret, 'id-2', 1, '{}'), 'the id is signed');
    });
});
const integrator = {
    id: 'bank-a',
    institution: { bicfi: 'DEMOZAJJ' },
    allowlist: ['127.0.0.1/32'],
    credentials: { username: 'alice', password: 'alice-password' },
    partnerApiUrl: 'http://127.0.0.1:9/partner-api/v1',
    eventsApiUrl: 'http://127.0.0.1:9/events-api/v1',
    schemes: ['ZA_RPP'],
};
function file(extra) {
    return { database: 'sqlite::memory:', auth: { mode: 'basic' }, integrators: [integrator], ...extra };
}
async function problems(raw) {
    try {
        await configFromObject(raw);
    }
    catch (error) {
        if (error instanceof ConfigError)
            return error.problems;
        throw error;
    }
    assert.fail('the configuration was accepted');
}
void describe('delivery and admin configuration', () => {
    void it('defaults callbacks to an early schedule of their own and events to Standard Webhooks\' schedule, and no admin API', async () => {
        const config = await configFromObject(file({}));
        assert.deepEqual(config.delivery, {
            timeoutMs: 15_000,
            retryScheduleMs: {
                // Immediately, 1 s, 5 s, 15 s, 30 s, 1 min, 2 min, 5 min, then Standard Webhooks' tail from 30 min.
                callback: [0, 1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
                // Immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h.
                event: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
            },
            retryJitterRatio: 0.1,
            inFlightMax: 512,
            endpointInFlightMax: 64,
            connectionsPerOriginMax: 64,
            claimBatchMax: 256,
            leaseMs: 90_000,
            pollIntervalMs: 1_000,
            responseBytesMax: 65_536,
        });
        assert.equal(config.admin, undefined);
    });
    void it('keeps the dispatcher defaults and the configuration defaults the same', () => {
        assert.deepEqual(DEFAULT_RETRY_SCHEDULES_MS, { callback: [...DEFAULTS.deliveryCallbackRetryScheduleMs], event: [...DEFAULTS.deliveryEventRetryScheduleMs] });
        assert.equal(DEFAULT_DISPATCHER_OPTIONS.retryJitterRatio, DEFAULTS.deliveryRetryJitterRatio);
        assert.equal(DEFAULT_DISPATCHER_OPTIONS.claimBatchMax, DEFAULTS.deliveryClaimBatchMax);
        assert.equal(DEFAULT_DISPATCHER_OPTIONS.inFlightMax, DEFAULTS.deliveryInFlightMax);
        assert.equal(DEFAULT_DISPATCHER_OPTIONS.endpointInFlightMax, DEFAULTS.deliveryEndpointInFlightMax);
        assert.equal(DEFAULT_DISPATCHER_OPTIONS.leaseMs, DEFAULTS.deliveryLeaseMs);
        assert.equal(DEFAULT_DISPATCHER_OPTIONS.pollIntervalMs, DEFAULTS.deliveryPollIntervalMs);
    });
    void it('takes a schedule per channel', async () => {
        const config = await configFromObject(file({ delivery: { retryScheduleMs: { event: [0, 1_000] } } }));
        assert.deepEqual(config.delivery.retryScheduleMs.event, [0, 1_000]);
        assert.deepEqual(config.delivery.retryScheduleMs.callback, [...DEFAULTS.deliveryCallbackRetryScheduleMs]);
    });
    void it('retries a failed message on its own channel\'s schedule, each delay lengthened by its jitter', () => {
        const at = 1_000_000;
        const jitter = { ratio: 0.1, random: () => 0.5 };
        const delays = (channel) => Array.from({ length: 14 }, (_, attempts) => {
            const next = retryAt(DEFAULT_RETRY_SCHEDULES_MS, { channel, attempts }, at, jitter, null);
            return next === null ? null : next - at;
        });
        assert.deepEqual(delays('callback'), [1_050, 5_250, 15_750, 31_500, 63_000, 126_000, 315_000, 1_890_000, 7_560_000, 18_900_000, 37_800_000, 37_800_000, null, null]);
        assert.deepEqual(delays('event'), [5_250, 315_000, 1_890_000, 7_560_000, 18_900_000, 37_800_000, 37_800_000, null, null, null, null, null, null, null]);
        assert.equal(retryAt(DEFAULT_RETRY_SCHEDULES_MS, { channel: 'callback', attempts: 0 }, at, { ratio: 0.1, random: () => 0 }, null), at + 1_000, 'no jitter drawn: the scheduled delay');
        assert.equal(retryAt(DEFAULT_RETRY_SCHEDULES_MS, { channel: 'callback', attempts: 0 }, at, jitter, 120_000), at + 120_000, 'a longer Retry-After wins');
    });
    void it('refuses a schedule that does not start immediately and a lease shorter than an attempt can take', async () => {
        assert.deepEqual(await problems(file({ delivery: { retryScheduleMs: { callback: [1_000, 5_000] }, timeoutMs: 30_000, leaseMs: 60_000 } })), [
            'delivery.retryScheduleMs.callback[0]: must be 0 (the first attempt is immediate; list the delays of the retries after it)',
            'delivery.leaseMs: must be at least 4 × delivery.timeoutMs (120000), so a claim outlives the longest attempt',
        ]);
        assert.deepEqual(await problems(file({ delivery: { retryScheduleMs: { event: [] }, inFlightMax: 0 } })), [
            'delivery.retryScheduleMs.event: must NOT have fewer than 1 items',
            'delivery.inFlightMax: must be >= 1',
        ]);
    });
    void it('hashes the admin password at load and defaults the admin allowlist to loopback', async () => {
        const config = await configFromObject(file({ admin: { username: 'ops', password: 'ops-password' } }));
        assert.ok(config.admin);
        assert.equal(config.admin.username, 'ops');
        assert.equal(verifySecret('ops-password', config.admin.passwordHash.reveal()), true);
        assert.equal(String(config.admin.passwordHash), '[secret]');
        assert.deepEqual(config.admin.allowlist, ['127.0.0.1/32', '::1/128']);
    });
    void it('requires exactly one of the admin password and its hash', async () => {
        assert.deepEqual(await problems(file({ admin: { username: 'ops' } })), ['admin.password: is required (or passwordHash)']);
        assert.deepEqual(await problems(file({ admin: { username: 'ops', password: 'x', passwordHash: 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaA' } })), [
            'admin.passwordHash: give password or passwordHash, not both',
        ]);
    });
    void it('defaults the OAuth2 token client authentication to client_secret_basic', async () => {
        const config = await configFromObject(file({ integrators: [{ ...integrator, callbackAuth: { type: 'oauth2', tokenUrl: 'https://bank.test/token', clientId: 'regpay', clientSecret: 's' } }] }));
        const auth = config.integrators[0]?.callbackAuth;
        assert.ok(auth?.type === 'oauth2');
        assert.equal(auth.tokenAuthMethod, 'client_secret_basic');
        assert.deepEqual(await problems(file({ integrators: [{ ...integrator, callbackAuth: { type: 'basic', username: 'u', password: 'p', tokenAuthMethod: 'client_secret_post' } }] })), [
            'integrators[0].callbackAuth.tokenAuthMethod: does not apply when type is basic',
        ]);
    });
});
void describe('RFC 3339 times of the admin API', () => {
    void it('reads date-times with or without fractions, with Z or an offset', () => {
        assert.equal(parseRfc3339('2025-01-15T12:00:00Z'), Date.UTC(2025, 0, 15, 12));
        assert.equal(parseRfc3339('2025-01-15T12:00:00.250Z'), Date.UTC(2025, 0, 15, 12, 0, 0, 250));
        assert.equal(parseRfc3339('2025-01-15T14:00:00+02:00'), Date.UTC(2025, 0, 15, 12));
    });
    void it('refuses dates that are not RFC 3339 or not in the calendar', () => {
        for (const text of ['2025-01-15', '2025-01-15T12:00:00', '15/01/2025 12:00', '2025-02-30T00:00:00Z', '2025-01-15T24:00:00Z', 'yesterday']) {
            assert.equal(parseRfc3339(text), undefined, text);
        }
    });
});
//# sourceMappingURL=delivery.test.js.map