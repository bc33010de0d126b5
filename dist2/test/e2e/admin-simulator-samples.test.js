import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, testConfigObject } from '../support/server.js';
import { probeUntil } from '../support/probe.js';
/**
 * The operator's rehearsal tools on the real service (a separate process, SQLite file, the
 * built-in simulator): the simulator's test values are listed, a sample carrying each one is sent
 * as an integrator through the integrator API's own validation and use cases, and the scheme
 * health report shows what came of them.
 */
const OPERATOR = { username: 'ops', password: 'operator-password-for-tests' };
const admin = `Basic ${Buffer.from(`${OPERATOR.username}:${OPERATOR.password}`).toString('base64')}`;
describe('simulator samples and scheme health (admin API)', () => {
    let server;
    const call = async (method, path, body) => {
        const response = await fetch(`${server.url}${path}`, {
            method,
            headers: { authorization: admin, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
            ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        });
        return { status: response.status, body: await response.json() };
    };
    const send = (testValueId, integratorId) => call('POST', '/admin/v1/simulator/samples', { testValueId, ...(integratorId === undefined ? {} : { integratorId }) });
    before(async () => {
        const config = testConfigObject({
            database: `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-samples-')), 'regpay.db')}`,
            extra: {
                admin: OPERATOR,
                schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: 2_000, simulatorLatencyMs: 20 }, ZA_RTC: { connector: 'simulator', timeBudgetMs: 2_000, simulatorLatencyMs: 20 } },
            },
        });
        const configPath = join(mkdtempSync(join(tmpdir(), 'regpay-samples-config-')), 'regpay.json');
        writeFileSync(configPath, JSON.stringify(config));
        server = await startServer({ configPath });
    });
    after(async () => {
        await server?.stop();
    });
    it('lists the test values of every simulated scheme an integrator has, each saying what the scheme does and what the integrator sees', async () => {
        const { status, body } = await call('GET', '/admin/v1/simulator/test-values');
        assert.equal(status, 200);
        const values = body.testValues;
        assert.deepEqual([...new Set(values.map((value) => value.scheme))].sort(), ['CBPR_PLUS', 'TCIB', 'ZA_EFT', 'ZA_RPP', 'ZA_RTC'], 'ZA_AC and ZA_RMS: no integrator has them');
        assert.deepEqual([...new Set(values.map((value) => value.kind))].sort(), ['CREDIT_TRANSFER', 'IDENTIFIER_DETERMINATION', 'REQUEST_TO_PAY']);
        assert.ok(values.filter((value) => value.kind !== 'CREDIT_TRANSFER').every((value) => value.scheme === 'ZA_RPP'), 'determination and request-to-pay are PayShap only');
        assert.equal(new Set(values.map((value) => value.id)).size, values.length, 'ids are unique');
        const rejectAc04 = values.find((value) => value.id === 'ct-za-rtc-reject-ac04');
        assert.deepEqual(rejectAc04 && { value: rejectAc04.value, expected: rejectAc04.expected }, { value: '9990000102', expected: 'REJECTED AC04' });
        for (const value of values)
            assert.ok(value.label !== '' && value.description !== '' && value.expected !== '', `${value.id} is described`);
    });
    it('sends a sample of every credit-transfer and request-to-pay value as the integrator, answered 202 with the transaction it made', async () => {
        const values = (await call('GET', '/admin/v1/simulator/test-values')).body.testValues.filter((value) => value.kind !== 'IDENTIFIER_DETERMINATION');
        for (const value of values) {
            const { status, body } = await send(value.id);
            assert.equal(status, 200);
            assert.equal(body.status, 202, `${value.id}: ${JSON.stringify(body.body)}`);
            assert.equal(body.integratorId, 'demo-bank');
            assert.ok(body.transactionId, `${value.id} made a transaction`);
            const made = await call('GET', `/admin/v1/transactions/${body.transactionId}`);
            assert.deepEqual([made.body.kind, made.body.scheme, made.body.uetr], [value.kind, value.scheme, body.uetr]);
        }
    });
    it('answers an identifier-determination sample with the determination, as the sync API does', async () => {
        const found = await send('id-za-rpp-thandi');
        assert.equal(found.body.status, 200);
        assert.equal(found.body.body.report.reportInformation.outcome, 'SUCCESSFUL');
        const failed = await send('id-za-rpp-fail-ac06');
        assert.equal(failed.body.status, 200);
        assert.deepEqual([failed.body.body.report.reportInformation.outcome, failed.body.body.report.reportInformation.reasonCode], ['FAILED', 'AC06']);
    });
    it('sends as another integrator when asked, from that integrator’s institution, and the scheme takes the sample as any transfer', async () => {
        const { body } = await send('ct-za-rtc-approve', 'other-bank');
        assert.deepEqual([body.status, body.integratorId], [202, 'other-bank']);
        const made = await probeUntil('the sample is approved', async () => {
            const { body: detail } = await call('GET', `/admin/v1/transactions/${body.transactionId}`);
            return detail.outcome === null ? undefined : detail;
        });
        assert.deepEqual([made.integratorId, made.request.debtorAgent.bicfi, made.outcome], ['other-bank', 'OTHRZAJJ', 'APPROVED']);
    });
    it('refuses an unknown test value or integrator (404) and a malformed request (400 naming the fields)', async () => {
        const unknown = await send('ct-za-rtc-no-such-value');
        assert.equal(unknown.status, 404);
        assert.deepEqual(unknown.body.errors.map((error) => error.field), ['/testValueId']);
        const nobody = await send('ct-za-rtc-approve', 'no-such-bank');
        assert.equal(nobody.status, 404);
        assert.deepEqual(nobody.body.errors.map((error) => error.field), ['/integratorId']);
        const malformed = await call('POST', '/admin/v1/simulator/samples', { testValueId: '', colour: 'red' });
        assert.equal(malformed.status, 400);
        assert.deepEqual(malformed.body.errors.map((error) => error.field).sort(), ['/colour', '/testValueId']);
    });
    it("reports each scheme's health: in flight, timeouts, rejections by reason code and the time to outcome", async () => {
        await send('ct-za-rtc-reject-ac01');
        await send('ct-za-rtc-never-answer');
        const health = await probeUntil('the rejection and the timeout are reported', async () => {
            const { status, body } = await call('GET', '/admin/v1/schemes/health?windowMinutes=30');
            assert.equal(status, 200);
            const rtc = body.schemes.find((scheme) => scheme.scheme === 'ZA_RTC');
            return rtc?.rejections.some((entry) => entry.reasonCode === 'AC01') && rtc.timeouts > 0 ? { body, rtc } : undefined;
        });
        assert.deepEqual(health.body.schemes.map((scheme) => scheme.scheme), ['ZA_RTC', 'ZA_RPP', 'ZA_EFT', 'CBPR_PLUS', 'TCIB'], 'every configured scheme, in order');
        const { rtc } = health;
        assert.ok(!rtc.rejections.some((entry) => entry.reasonCode === 'FF02'), 'no sample is refused as malformed by the scheme connector');
        assert.equal(rtc.connector, 'simulator');
        assert.ok(rtc.inFlight >= 1, 'the transfer never answered is still in flight');
        assert.ok(rtc.outcomes.some((entry) => entry.outcome === 'APPROVED' && entry.count >= 1));
        assert.ok(rtc.latencyMs.count >= 2 && rtc.latencyMs.p50 >= 0 && rtc.latencyMs.max >= rtc.latencyMs.p95 && rtc.latencyMs.p95 >= rtc.latencyMs.p50);
        assert.ok(rtc.accepted >= rtc.latencyMs.count);
        const bad = await call('GET', '/admin/v1/schemes/health?windowMinutes=0');
        assert.equal(bad.status, 400);
        assert.deepEqual(bad.body.errors.map((error) => error.field), ['/windowMinutes']);
    });
});
//# sourceMappingURL=admin-simulator-samples.test.js.map