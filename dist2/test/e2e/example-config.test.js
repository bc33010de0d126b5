import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, configFromObject, loadConfig } from '../../src/config/load.js';
import { ConfigFileSchema } from '../../src/config/schema.js';
import { SCHEMES } from '../../src/domain/schemes.js';
import { newPassword, newWebhookSecret } from '../../src/cli/secret-commands.js';
import { verifySecret } from '../../src/lib/password-hash.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { startServer } from '../support/server.js';
/**
 * examples/regpay.yaml is what an operator copies: `--config` must accept it as it is (given the
 * environment variables its first lines name), the values it shows as defaults must be the
 * defaults, it must name every key there is, and the service must run with it.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(REPO, 'examples/regpay.yaml');
const SECRET_VARIABLES = ['REGPAY_PASSWORD', 'REGPAY_CLIENT_SECRET', 'REGPAY_WEBHOOK_SECRET', 'REGPAY_ADMIN_PASSWORD'];
function exampleEnv() {
    return { REGPAY_PASSWORD: newPassword(), REGPAY_CLIENT_SECRET: newPassword(), REGPAY_WEBHOOK_SECRET: newWebhookSecret(), REGPAY_ADMIN_PASSWORD: newPassword() };
}
/** Every key path of the configuration schema (`integrators[].limits.amountMax.<SCHEME>`), as docs/configuration.md lists them. */
function keyPaths(schema, prefix) {
    const items = schema['items'];
    if (schema['type'] === 'array' && items?.['type'] === 'object')
        return keyPaths(items, `${prefix}[]`);
    if (schema['type'] !== 'object')
        return [prefix];
    const properties = schema['properties'];
    const names = Object.keys(properties);
    if (names.length > 0 && names.every((name) => SCHEMES.includes(name))) {
        return keyPaths(properties[names[0] ?? ''] ?? {}, `${prefix}.<SCHEME>`);
    }
    return names.flatMap((name) => keyPaths(properties[name] ?? {}, prefix === '' ? name : `${prefix}.${name}`));
}
void describe('examples/regpay.yaml', () => {
    void it('is accepted by --config as it is, its secrets taken from the environment', async () => {
        const env = exampleEnv();
        const config = await loadConfig({ argv: ['--config', EXAMPLE], env });
        assert.equal(config.demo, false);
        const [bank] = config.integrators;
        assert.ok(bank);
        assert.equal(bank.id, 'demo-bank');
        assert.deepEqual(bank.institution, { bicfi: 'DEMOZAJJ', memberId: '210001' });
        assert.deepEqual([...bank.schemes].sort(), [...SCHEMES].sort(), 'every scheme, as in the demo');
        assert.equal(bank.webhookSecret?.reveal(), env.REGPAY_WEBHOOK_SECRET);
        assert.equal(verifySecret(env.REGPAY_PASSWORD, bank.credentials.passwordHash?.reveal() ?? ''), true);
        assert.equal(verifySecret(env.REGPAY_CLIENT_SECRET, bank.credentials.clientSecretHash?.reveal() ?? ''), true);
        assert.equal(verifySecret(env.REGPAY_ADMIN_PASSWORD, config.admin?.passwordHash.reveal() ?? ''), true);
        assert.deepEqual(Object.keys(config.schemes).sort(), [...SCHEMES].sort());
        for (const scheme of SCHEMES)
            assert.equal(config.schemes[scheme]?.connector, 'simulator');
    });
    void it('holds no secret of its own: without the environment it is refused, naming each variable', async () => {
        await assert.rejects(loadConfig({ argv: ['--config', EXAMPLE], env: {} }), (error) => {
            assert.ok(error instanceof ConfigError);
            for (const name of SECRET_VARIABLES)
                assert.ok(error.problems.some((problem) => problem.includes(`environment variable ${name} is not set`)), name);
            return true;
        });
    });
    void it('shows the defaults as they are: the example loads to what a file with only the required keys loads to', async () => {
        const env = exampleEnv();
        const example = await loadConfig({ argv: ['--config', EXAMPLE], env });
        const minimal = await configFromObject({
            integrators: [
                {
                    id: 'demo-bank',
                    institution: { bicfi: 'DEMOZAJJ', memberId: '210001' },
                    allowlist: ['127.0.0.1/32', '::1/128'],
                    credentials: { username: 'demo', password: 'x', clientId: 'demo-client', clientSecret: 'y' },
                    partnerApiUrl: 'http://127.0.0.1:9090/partner-api/v1',
                    eventsApiUrl: 'http://127.0.0.1:9090/events-api/v1',
                    schemes: [...SCHEMES],
                },
            ],
            schemes: Object.fromEntries(SCHEMES.map((scheme) => [scheme, { connector: 'simulator' }])),
        });
        assert.deepEqual(example.server, minimal.server);
        assert.equal(example.database, minimal.database);
        assert.deepEqual(example.auth, minimal.auth);
        assert.deepEqual(example.delivery, minimal.delivery);
        assert.deepEqual(example.processing, minimal.processing);
        assert.deepEqual(example.proxyPayments, minimal.proxyPayments);
        assert.deepEqual(example.requestToPay, minimal.requestToPay);
        // Secrets are hashed with a random salt, and scheme order is the file's: neither is a default.
        const withoutSecrets = ({ credentials: _credentials, webhookSecret: _webhookSecret, schemes, ...rest }) => ({ ...rest, schemes: [...schemes].sort() });
        assert.deepEqual(withoutSecrets(example.integrators[0]), withoutSecrets(minimal.integrators[0]));
        for (const scheme of SCHEMES) {
            assert.deepEqual({ simulatorLatencyMs: 50, ...minimal.schemes[scheme] }, { simulatorLatencyMs: 50, ...example.schemes[scheme] }, `${scheme}: the default time budget`);
        }
    });
    void it('names every key of the configuration, set or in a comment', () => {
        const text = readFileSync(EXAMPLE, 'utf8');
        const named = (key) => new RegExp(`^[ \\t]*(#[ \\t]*)?(- )?${key}:`, 'm').test(text);
        const missing = keyPaths(ConfigFileSchema, '').filter((path) => {
            const segments = path.replace(/\[\]/g, '').split('.');
            return segments.some((segment) => segment !== '<SCHEME>' && !named(segment));
        });
        assert.deepEqual(missing, []);
        for (const scheme of SCHEMES)
            assert.ok(named(scheme), `${scheme} under schemes and limits.amountMax`);
    });
});
void describe('the service started with examples/regpay.yaml', () => {
    const env = exampleEnv();
    let server;
    before(async () => {
        // The file's database is sqlite:./data/regpay.db: a directory of the test's own.
        server = await startServer({ configPath: EXAMPLE, cwd: mkdtempSync(join(tmpdir(), 'regpay-example-config-')), env });
    });
    after(async () => {
        const code = await server?.stop();
        assert.equal(code, 0, 'it shuts down cleanly on SIGTERM');
    });
    void it('issues a token for the configured integrator and takes a credit transfer with it', async () => {
        const token = await fetch(`${server.url}/oauth/token`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({ grant_type: 'password', username: 'demo', password: env.REGPAY_PASSWORD, client_id: 'demo-client', client_secret: env.REGPAY_CLIENT_SECRET }),
        });
        assert.equal(token.status, 200);
        const { access_token: accessToken } = (await token.json());
        const transfer = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
            body: JSON.stringify(creditTransfer('ZA_RTC')),
        });
        assert.equal(transfer.status, 202);
    });
    void it('serves the admin API to the configured operator', async () => {
        const authorization = `Basic ${Buffer.from(`ops:${env.REGPAY_ADMIN_PASSWORD}`).toString('base64')}`;
        const listing = await fetch(`${server.url}/admin/v1/deliveries?status=PENDING`, { headers: { authorization } });
        assert.equal(listing.status, 200);
        const wrong = await fetch(`${server.url}/admin/v1/deliveries`, { headers: { authorization: `Basic ${Buffer.from('ops:wrong').toString('base64')}` } });
        assert.equal(wrong.status, 401);
    });
});
//# sourceMappingURL=example-config.test.js.map