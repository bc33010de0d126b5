import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ConfigError, configFromObject, loadConfig } from '../../src/config/load.js';
import { demoCredentialLines } from '../../src/config/demo.js';
import { ConfigFileSchema } from '../../src/config/schema.js';
import { steadyInbound } from '../../src/connectors/registry.js';
import { SCHEMES } from '../../src/domain/schemes.js';
import { hashSecret, verifySecret } from '../../src/lib/password-hash.js';
import { linkPki } from '../support/pki.js';
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(REPO, 'test/fixtures/config-example.yaml');
const EXAMPLE_ENV = { DEMO_PASSWORD: 'pw-from-env', DEMO_CLIENT_SECRET: 'cs-from-env' };
function minimal(overrides = {}, integratorOverrides = {}) {
    return {
        integrators: [
            {
                id: 'bank-a',
                institution: { bicfi: 'BANKZAJJ' },
                allowlist: ['10.0.0.0/8'],
                credentials: { username: 'alice', password: 'a-password', clientId: 'a-client', clientSecret: 'a-secret' },
                partnerApiUrl: 'https://bank-a.test/partner-api/v1',
                eventsApiUrl: 'https://bank-a.test/events-api/v1',
                schemes: ['ZA_RPP'],
                ...integratorOverrides,
            },
        ],
        ...overrides,
    };
}
async function problemsOf(raw, env = {}) {
    try {
        await configFromObject(raw, env);
    }
    catch (error) {
        assert.ok(error instanceof ConfigError, String(error));
        return error.problems;
    }
    assert.fail('the configuration was accepted');
}
function tempFile(name, text) {
    const path = join(mkdtempSync(join(tmpdir(), 'regpay-config-')), name);
    writeFileSync(path, text);
    return path;
}
void describe('configuration loading', () => {
    void it('accepts the CONTRACT §8 example exactly as written', async () => {
        const config = await loadConfig({ argv: ['--config', EXAMPLE], env: EXAMPLE_ENV });
        assert.equal(config.demo, false);
        assert.deepEqual(config.server, {
            host: '127.0.0.1',
            port: 8080,
            bodyBytesMax: 1_048_576,
            trustedProxies: [],
            heldConnectionMs: 30_000,
            heldConnectionsMax: 1_000,
            connectionsMax: 10_000,
            operationsAllowlist: ['127.0.0.1/32', '::1/128'],
            headersTimeoutMs: 10_000,
            requestTimeoutMs: 30_000,
            lingerMs: 10_000,
            lingerBytesMax: 67_108_864,
            shutdownGraceMs: 10_000,
            heldRequestPollMs: 1_000,
            logLevel: 'info',
            logRequests: false,
        });
        assert.equal(config.database, 'sqlite:./data/regpay.db');
        assert.equal(config.auth.mode, 'oauth2');
        const [bank] = config.integrators;
        assert.ok(bank);
        assert.equal(bank.id, 'demo-bank');
        assert.deepEqual(bank.institution, { bicfi: 'DEMOZAJJ', memberId: '210001' });
        assert.deepEqual(bank.allowlist, ['127.0.0.1/32', '::1/128']);
        assert.equal(bank.credentials.username, 'demo');
        assert.equal(bank.credentials.clientId, 'demo-client');
        assert.equal(verifySecret('pw-from-env', bank.credentials.passwordHash?.reveal() ?? ''), true);
        assert.equal(verifySecret('cs-from-env', bank.credentials.clientSecretHash?.reveal() ?? ''), true);
        assert.equal(bank.identifierDetermination, 'sync');
        assert.deepEqual(bank.schemes, ['ZA_RPP', 'ZA_RTC', 'ZA_EFT', 'CBPR_PLUS', 'TCIB']);
        assert.deepEqual(bank.callbackAuth, { type: 'none' });
        assert.deepEqual(bank.limits, { requestsPerSecond: 50, burst: 100, amountMax: { ZA_RPP: '50000.00' } });
        // The receiving answer budget: half the scheme's, at most 5 s.
        const inbound = { answerTimeoutMs: 5_000 };
        assert.deepEqual(config.schemes, {
            ZA_RTC: { connector: 'simulator', timeBudgetMs: 60_000, inbound },
            ZA_RPP: { connector: 'simulator', timeBudgetMs: 10_000, inbound },
            ZA_EFT: { connector: 'simulator', timeBudgetMs: 86_400_000, inbound },
            CBPR_PLUS: { connector: 'simulator', timeBudgetMs: 86_400_000, inbound },
            TCIB: { connector: 'simulator', timeBudgetMs: 60_000, inbound },
        });
        assert.deepEqual(bank.inbound, { authorisation: 'sync', identifierDetermination: 'sync' });
        assert.equal(bank.eventTypeNames, 'current');
    });
    void it('finds the file through REGPAY_CONFIG and through --config=<path>', async () => {
        const viaEnv = await loadConfig({ argv: [], env: { ...EXAMPLE_ENV, REGPAY_CONFIG: EXAMPLE } });
        assert.equal(viaEnv.integrators[0]?.id, 'demo-bank');
        const viaFlag = await loadConfig({ argv: [`--config=${EXAMPLE}`], env: { ...EXAMPLE_ENV, REGPAY_CONFIG: '/nonexistent.yaml' } });
        assert.equal(viaFlag.integrators[0]?.id, 'demo-bank', '--config wins over REGPAY_CONFIG');
    });
    void it('reads a JSON file', async () => {
        const path = tempFile('regpay.json', JSON.stringify(minimal()));
        const config = await loadConfig({ argv: ['--config', path], env: {} });
        assert.equal(config.integrators[0]?.id, 'bank-a');
    });
    void it('names the file when it cannot be read or parsed, or repeats a key', async () => {
        await assert.rejects(loadConfig({ argv: ['--config', '/nonexistent/regpay.yaml'], env: {} }), /cannot read the file: ENOENT/);
        await assert.rejects(loadConfig({ argv: ['--config', tempFile('bad.yaml', 'server: [1, 2\n')], env: {} }), /cannot parse the file/);
        await assert.rejects(loadConfig({ argv: ['--config', tempFile('dup.yaml', 'database: sqlite:a\ndatabase: sqlite:b\n')], env: {} }), /cannot parse the file: .*[Uu]nique/);
        await assert.rejects(loadConfig({ argv: ['--config'], env: {} }), /--config: needs a file path/);
    });
    void it('returns a deeply frozen configuration whose secrets print as a mask', async () => {
        const config = await configFromObject(minimal({}, { webhookSecret: 'whsec_c2VjcmV0LXNpZ25pbmcta2V5' }));
        assert.ok(Object.isFrozen(config));
        assert.ok(Object.isFrozen(config.integrators[0]?.allowlist));
        assert.ok(Object.isFrozen(config.integrators[0]?.limits.amountMax));
        assert.throws(() => {
            config.server.port = 1;
        }, TypeError);
        const printed = JSON.stringify(config);
        assert.doesNotMatch(printed, /a-password|a-secret|c2VjcmV0/);
        assert.match(printed, /\[secret\]/);
    });
    void it('takes a given passwordHash as it is and fills every default', async () => {
        const hash = hashSecret('s3cret');
        const config = await configFromObject(minimal({}, { credentials: { username: 'alice', passwordHash: hash, clientId: 'a-client', clientSecret: 'x' } }));
        assert.equal(config.integrators[0]?.credentials.passwordHash?.reveal(), hash);
        assert.equal(config.integrators[0]?.events, true);
        assert.equal(config.auth.accessTokenTtlS, 300);
        assert.equal(config.auth.refreshTokenTtlS, 1_800);
    });
    void it('sizes the PostgreSQL store by store.poolMax and store.groupCommitConcurrency, within bounds', async () => {
        assert.deepEqual((await configFromObject(minimal())).store, { poolMax: 10, groupCommitConcurrency: 4 });
        assert.deepEqual((await configFromObject(minimal({ store: { poolMax: 24, groupCommitConcurrency: 8 } }))).store, { poolMax: 24, groupCommitConcurrency: 8 });
        const problems = await problemsOf(minimal({ store: { poolMax: 1, groupCommitConcurrency: 0, idle: 3 } }));
        assert.ok(problems.some((problem) => problem.includes('store.poolMax')), problems.join('\n'));
        assert.ok(problems.some((problem) => problem.includes('store.groupCommitConcurrency')), problems.join('\n'));
        assert.ok(problems.some((problem) => problem.includes('idle')), problems.join('\n'));
    });
    void it('turns single addresses into one-address blocks and trims trailing slashes from URLs', async () => {
        const config = await configFromObject(minimal({ server: { trustedProxies: ['192.0.2.1'] } }, { allowlist: ['10.1.2.3', '2001:db8::1'], partnerApiUrl: 'https://bank-a.test/partner-api/v1/' }));
        assert.deepEqual(config.server.trustedProxies, ['192.0.2.1/32']);
        assert.deepEqual(config.integrators[0]?.allowlist, ['10.1.2.3/32', '2001:db8::1/128']);
        assert.equal(config.integrators[0]?.partnerApiUrl, 'https://bank-a.test/partner-api/v1');
    });
    void it('accepts callback auth, webhook secret and limits beyond the example', async () => {
        const config = await configFromObject(minimal({}, {
            callbackAuth: { type: 'oauth2', tokenUrl: 'https://bank-a.test/token', clientId: 'regpay', clientSecret: '${CB_SECRET}', scope: 'callbacks' },
            webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
            limits: { requestsPerSecond: 5, burst: 10, amountMax: { ZA_RTC: '1000000.00' } },
        }), { CB_SECRET: 'callback-secret' });
        const bank = config.integrators[0];
        assert.ok(bank?.callbackAuth.type === 'oauth2');
        assert.equal(bank.callbackAuth.clientSecret.reveal(), 'callback-secret');
        assert.equal(bank.webhookSecret?.reveal(), 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
        assert.deepEqual(bank.limits, { requestsPerSecond: 5, burst: 10, amountMax: { ZA_RPP: '50000.00', ZA_RTC: '1000000.00' } });
    });
    void it('accepts a configured signing key in PEM', async () => {
        const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
        const config = await configFromObject(minimal({ auth: { mode: 'oauth2', signingKey: '${SIGNING_KEY}' } }), { SIGNING_KEY: pem });
        assert.equal(config.auth.signingKey?.reveal(), pem);
    });
});
void describe('configuration errors name every bad key', () => {
    void it('reports every schema problem at once, each by its path', async () => {
        const problems = await problemsOf({
            server: { port: 'eighty', colour: 'blue' },
            auth: { mode: 'kerberos' },
            integrators: [
                {
                    id: 'bank a',
                    institution: { bicfi: 'NOTABIC' },
                    allowlist: ['127.0.0.1/32', '10.0.0.0/33'],
                    credentials: { username: 'alice', password: 'x', clientId: 'c', clientSecret: 'y' },
                    partnerApiUrl: 'ftp://bank-a.test/partner-api/v1',
                    schemes: ['ZA_RPP', 'SEPA'],
                    webhookSecret: 'not-a-whsec-secret-value',
                },
            ],
            schemes: { ZA_RPP: { connector: 'simulator', timeBudgetMs: -1 } },
        });
        const expected = [
            'server.port: must be integer',
            'server.colour: is not a known key',
            'auth.mode: "kerberos" is not one of basic, oauth2',
            'integrators[0].id: "bank a" is not letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)',
            'integrators[0].institution.bicfi: "NOTABIC" is not a BIC of 8 or 11 letters and digits',
            'integrators[0].allowlist[1]: "10.0.0.0/33" is not a CIDR block',
            'integrators[0].partnerApiUrl: "ftp://bank-a.test/partner-api/v1" is not an http(s) URL',
            'integrators[0].eventsApiUrl: is required',
            'integrators[0].schemes[1]: "SEPA" is not one of ZA_RTC, ZA_RPP, ZA_EFT, ZA_AC, ZA_RMS, CBPR_PLUS, TCIB',
            'integrators[0].webhookSecret: the value is not a Standard Webhooks secret "whsec_<base64>"',
            'schemes.ZA_RPP.timeBudgetMs: must be >= 1',
        ];
        for (const line of expected)
            assert.ok(problems.includes(line), `missing ${JSON.stringify(line)} in\n${problems.join('\n')}`);
        assert.ok(!problems.join('\n').includes('not-a-whsec-secret-value'), 'secret values are not echoed');
    });
    void it('refuses an unknown scheme under schemes and a missing integrator list', async () => {
        const problems = await problemsOf({ schemes: { SEPA: { connector: 'x' } } });
        assert.ok(problems.includes('integrators: is required'), problems.join('\n'));
        assert.ok(problems.includes('schemes.SEPA: is not a known key'), problems.join('\n'));
    });
    void it('refuses duplicate integrator ids, usernames and client ids', async () => {
        const base = minimal().integrators[0] ?? {};
        const problems = await problemsOf({ integrators: [base, { ...base }] });
        assert.deepEqual([...problems].sort(), [
            'integrators[1].credentials.clientId: "a-client" is already used by integrators[0]',
            'integrators[1].credentials.username: "alice" is already used by integrators[0]',
            'integrators[1].id: "bank-a" is already used by integrators[0]',
        ]);
    });
    void it('refuses missing, doubled and unusable secrets', async () => {
        const problems = await problemsOf(minimal({}, {
            credentials: { username: 'alice', password: 'p', passwordHash: hashSecret('p'), clientId: 'a-client', clientSecretHash: 'md5$abc' },
            callbackAuth: { type: 'basic', username: 'regpay', tokenUrl: 'https://x.test/token' },
        }));
        assert.deepEqual([...problems].sort(), [
            'integrators[0].callbackAuth.password: is required when type is basic',
            'integrators[0].callbackAuth.tokenUrl: does not apply when type is basic',
            'integrators[0].credentials.clientSecretHash: is not a hash of the form scrypt$N$r$p$salt$hash',
            'integrators[0].credentials.passwordHash: give password or passwordHash, not both',
        ]);
    });
    void it('requires the secrets the auth mode needs', async () => {
        const noSecret = await problemsOf(minimal({ auth: { mode: 'oauth2' } }, { credentials: { username: 'alice', password: 'p', clientId: 'c' } }));
        assert.deepEqual(noSecret, ['integrators[0].credentials.clientSecret: is required (or clientSecretHash)']);
        const noClient = await problemsOf(minimal({ auth: { mode: 'oauth2' } }, { credentials: { username: 'alice', password: 'p' } }));
        assert.ok(noClient.includes('integrators[0].credentials.clientId: is required with auth.mode oauth2'), noClient.join('\n'));
        const basicOnly = await configFromObject(minimal({ auth: { mode: 'basic' } }, { credentials: { username: 'alice', password: 'p' } }));
        assert.equal(basicOnly.integrators[0]?.credentials.clientId, undefined);
        const external = await configFromObject(minimal({ auth: { mode: 'oauth2', issuer: 'https://idp.test/realms/x', jwksUrl: 'https://idp.test/realms/x/certs' } }, { credentials: { username: 'alice', clientId: 'c' } }));
        assert.equal(external.integrators[0]?.credentials.passwordHash, undefined);
    });
    void it('checks the auth keys against each other', async () => {
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'oauth2', issuer: 'https://idp.test' } })), ['auth.jwksUrl: is required when auth.issuer is set']);
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'basic', publicUrl: 'https://regpay.test' } })), ['auth.publicUrl: applies only with auth.mode oauth2']);
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'oauth2', signingKey: 'not a key' } })), ['auth.signingKey: is not a PEM or JWK private key']);
        const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'secp256k1' });
        const wrongCurve = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'oauth2', signingKey: wrongCurve } })), [
            'auth.signingKey: must be an EC P-256 or an RSA (2048 bits or more) private key',
        ]);
    });
    void it('refuses a headers timeout longer than the request timeout', async () => {
        assert.deepEqual(await problemsOf(minimal({ server: { headersTimeoutMs: 20_000, requestTimeoutMs: 10_000 } })), [
            'server.headersTimeoutMs: must be at most server.requestTimeoutMs (10000): the headers are part of the request',
        ]);
    });
    void it('takes auth.verificationKeys as public keys only, for the embedded provider only', async () => {
        const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        const spki = publicKey.export({ format: 'pem', type: 'spki' }).toString();
        const published = JSON.stringify({ ...publicKey.export({ format: 'jwk' }), kid: 'k1', alg: 'ES256', use: 'sig' });
        const config = await configFromObject(minimal({ auth: { mode: 'oauth2', verificationKeys: [spki, published] } }));
        assert.deepEqual(config.auth.verificationKeys, [spki, published]);
        assert.deepEqual((await configFromObject(minimal({ auth: { mode: 'oauth2' } }))).auth.verificationKeys, []);
        const privatePem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
        const privateJwk = JSON.stringify(privateKey.export({ format: 'jwk' }));
        const wrongCurve = generateKeyPairSync('ec', { namedCurve: 'secp256k1' }).publicKey.export({ format: 'pem', type: 'spki' }).toString();
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'oauth2', verificationKeys: [spki, privatePem, privateJwk, 'not a key', wrongCurve] } })), [
            'auth.verificationKeys[1]: is a private key: give its public key (PEM, or the JWK that /oauth/jwks publishes)',
            'auth.verificationKeys[2]: is a private key: give its public key (PEM, or the JWK that /oauth/jwks publishes)',
            'auth.verificationKeys[3]: is not a PEM or JWK public key',
            'auth.verificationKeys[4]: must be an EC P-256 or an RSA (2048 bits or more) public key',
        ]);
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'basic', verificationKeys: [spki] } })), ['auth.verificationKeys: applies only with auth.mode oauth2']);
        assert.deepEqual(await problemsOf(minimal({ auth: { mode: 'oauth2', issuer: 'https://idp.test/realms/x', jwksUrl: 'https://idp.test/realms/x/certs', verificationKeys: [spki] } }, { credentials: { username: 'alice', clientId: 'c' } })), ['auth.verificationKeys: applies only to the embedded provider (no auth.issuer)']);
    });
    void it('refuses a key written without a value', async () => {
        const problems = await problemsOf(minimal({ database: null }));
        assert.ok(problems.includes('database: has no value'), problems.join('\n'));
    });
});
void describe('environment variables in the configuration', () => {
    void it('resolves ${NAME} anywhere in any string, several per string, with $${ for a literal', async () => {
        const config = await configFromObject(minimal({ database: 'postgres://regpay:${PG_PASSWORD}@${PG_HOST}:5432/regpay' }, { allowlist: ['${OFFICE_CIDR}'], partnerApiUrl: 'https://bank-a.test/p/$${raw}/v1' }), { PG_PASSWORD: 'pg-pass', PG_HOST: 'db.internal', OFFICE_CIDR: '198.51.100.0/24' });
        assert.equal(config.database, 'postgres://regpay:pg-pass@db.internal:5432/regpay');
        assert.deepEqual(config.integrators[0]?.allowlist, ['198.51.100.0/24']);
        assert.equal(config.integrators[0]?.partnerApiUrl, 'https://bank-a.test/p/${raw}/v1');
    });
    void it('converts a reference standing for a number or boolean to the key type', async () => {
        const config = await configFromObject(minimal({ server: { port: '${APP_PORT}' } }, { events: '${EVENTS}' }), { APP_PORT: '9443', EVENTS: 'false' });
        assert.equal(config.server.port, 9443);
        assert.equal(config.integrators[0]?.events, false);
    });
    void it('names the key and the variable when a variable is not set', async () => {
        const problems = await problemsOf(minimal({}, { credentials: { username: 'alice', password: '${BANK_A_PASSWORD}', clientId: 'c', clientSecret: '${BANK_A_SECRET}' } }), {
            BANK_A_SECRET: 'set',
        });
        assert.deepEqual(problems, ['integrators[0].credentials.password: environment variable BANK_A_PASSWORD is not set']);
    });
    void it('refuses a malformed reference', async () => {
        const problems = await problemsOf(minimal({ database: 'sqlite:${not valid}' }));
        assert.deepEqual(problems, ['database: "${not valid}" is not a valid environment variable reference']);
    });
    void it('lets PORT and HOST override server.port and server.host', async () => {
        const config = await loadConfig({ argv: ['--config', EXAMPLE], env: { ...EXAMPLE_ENV, PORT: '9999', HOST: '0.0.0.0' } });
        assert.equal(config.server.port, 9999);
        assert.equal(config.server.host, '0.0.0.0');
        await assert.rejects(loadConfig({ argv: ['--config', EXAMPLE], env: { ...EXAMPLE_ENV, PORT: '80a' } }), /PORT: "80a" is not a port number/);
    });
    void it('takes OTEL_EXPORTER_OTLP_ENDPOINT when the file names no endpoint, and refuses one that is no http(s) URL', async () => {
        const taken = await configFromObject(minimal(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' });
        assert.equal(taken.telemetry.otlpEndpoint, 'http://collector:4318');
        assert.deepEqual(await problemsOf(minimal(), { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' }), ['OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318" is not an http(s) URL']);
        const fromFile = await configFromObject(minimal({ telemetry: { otlpEndpoint: 'https://otel.bank.example' } }), { OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' });
        assert.equal(fromFile.telemetry.otlpEndpoint, 'https://otel.bank.example', 'the file wins, and the variable is not read');
    });
});
void describe('the demo configuration', () => {
    void it('runs without any file: loopback demo integrator, simulator everywhere, credentials to print', async () => {
        const config = await loadConfig({ argv: [], env: {} });
        assert.equal(config.demo, true);
        assert.equal(config.database, 'sqlite:./data/regpay.db');
        assert.equal(config.auth.mode, 'oauth2');
        const [bank] = config.integrators;
        assert.ok(bank);
        assert.equal(bank.id, 'demo-bank');
        assert.deepEqual(bank.institution, { bicfi: 'DEMOZAJJ', memberId: '210001' });
        assert.deepEqual(bank.allowlist, ['127.0.0.1/32', '::1/128']);
        assert.equal(bank.partnerApiUrl, 'http://127.0.0.1:8080/demo/inbox/partner-api/v1', 'callbacks go to the demo inbox of the service itself');
        assert.equal(bank.eventsApiUrl, 'http://127.0.0.1:8080/demo/inbox/events-api/v1');
        assert.equal(config.admin?.username, 'admin', 'the demo has an admin API');
        const moved = await loadConfig({ argv: [], env: { PORT: '18081' } });
        assert.equal(moved.integrators[0]?.partnerApiUrl, 'http://127.0.0.1:18081/demo/inbox/partner-api/v1', 'the inbox follows PORT');
        assert.deepEqual(Object.keys(config.schemes).sort(), [...SCHEMES].sort());
        for (const scheme of SCHEMES)
            assert.equal(config.schemes[scheme]?.connector, 'simulator');
        const credentials = config.demoCredentials;
        assert.ok(credentials);
        assert.equal(credentials.username, 'demo');
        assert.equal(credentials.clientId, 'demo-client');
        assert.equal(String(credentials.password), '[secret]');
        assert.equal(verifySecret(credentials.password.reveal(), bank.credentials.passwordHash?.reveal() ?? ''), true);
        assert.equal(verifySecret(credentials.clientSecret.reveal(), bank.credentials.clientSecretHash?.reveal() ?? ''), true);
        const lines = demoCredentialLines(credentials).join('\n');
        assert.ok(lines.includes(credentials.password.reveal()) && lines.includes(credentials.clientSecret.reveal()), 'printable for the person who started the demo');
        assert.match(credentials.webhookSecret.reveal(), /^whsec_[A-Za-z0-9+/]{43}=$/, 'a Standard Webhooks secret of 32 random bytes');
        assert.equal(bank.webhookSecret?.reveal(), credentials.webhookSecret.reveal(), 'the demo signs its callbacks and events with the printed secret');
        const exportLine = demoCredentialLines(credentials, 'http://127.0.0.1:18080').find((line) => line.trim().startsWith('export '));
        assert.equal(exportLine?.trim(), `export REGPAY_URL=http://127.0.0.1:18080 REGPAY_USERNAME=demo REGPAY_PASSWORD='${credentials.password.reveal()}' REGPAY_CLIENT_ID=demo-client ` +
            `REGPAY_CLIENT_SECRET='${credentials.clientSecret.reveal()}' REGPAY_WEBHOOK_SECRET='${credentials.webhookSecret.reveal()}' ` +
            `REGPAY_ADMIN_USERNAME=admin REGPAY_ADMIN_PASSWORD='${credentials.adminPassword.reveal()}'`, 'one line to paste for the examples of docs/api.md and examples/receiver.mjs, and the admin API');
        const again = await loadConfig({ argv: [], env: { PORT: '0' } });
        assert.notEqual(again.demoCredentials?.password.reveal(), credentials.password.reveal(), 'fresh credentials on every start');
        assert.equal(again.server.port, 0);
    });
});
void describe('operator link configuration', () => {
    const pki = linkPki();
    const link = (overrides = {}) => ({
        url: 'https://operator.test:9443',
        caFile: pki.caFile,
        certFile: pki.bank.certFile,
        keyFile: pki.bank.keyFile,
        signingKeyFile: pki.bank.signing.privateFile,
        operatorKeyFiles: [pki.operator.signing.publicFile],
        inbound: { port: 9444 },
        ...overrides,
    });
    const linked = (schemes) => minimal({ schemes });
    void it('reads the files of a scheme on connector operator-link, with the documented defaults, keys kept as secrets', async () => {
        const config = await configFromObject(linked({ ZA_RPP: { connector: 'operator-link', operatorLink: link({ url: 'https://operator.test:9443/' }) } }));
        const operatorLink = config.schemes.ZA_RPP?.operatorLink;
        assert.ok(operatorLink);
        assert.equal(operatorLink.url, 'https://operator.test:9443');
        assert.equal(operatorLink.cert, readFileSync(pki.bank.certFile, 'utf8'));
        assert.equal(String(operatorLink.key), '[secret]');
        assert.equal(String(operatorLink.signingKey), '[secret]');
        assert.deepEqual(operatorLink.operatorKeys, [readFileSync(pki.operator.signing.publicFile, 'utf8')]);
        assert.deepEqual(operatorLink.inbound, { host: '127.0.0.1', port: 9444 });
        assert.deepEqual([operatorLink.requestTimeoutMs, operatorLink.connectionsMax, operatorLink.signatureMaxAgeS, operatorLink.operatorCertificateSha256], [10_000, 32, 300, []]);
    });
    void it('names the key of every link setting that cannot work: missing settings, a plain http URL, unreadable files, a key of another certificate, a private key given as the operator\'s', async () => {
        const problems = await problemsOf(linked({
            ZA_RPP: { connector: 'operator-link' },
            ZA_RTC: { connector: 'simulator', operatorLink: link() },
            ZA_EFT: {
                connector: 'operator-link',
                operatorLink: link({ url: 'http://operator.test', caFile: '/nonexistent/ca.pem', keyFile: pki.operator.keyFile, operatorKeyFiles: [pki.operator.signing.privateFile] }),
            },
        }));
        const expected = [
            'schemes.ZA_RPP.operatorLink: is required with connector operator-link',
            'schemes.ZA_RTC.operatorLink: applies only with connector operator-link',
            'schemes.ZA_EFT.operatorLink.url: must be an https URL (the link is mutual TLS)',
            'schemes.ZA_EFT.operatorLink.caFile: cannot read "/nonexistent/ca.pem" (ENOENT)',
            `schemes.ZA_EFT.operatorLink.keyFile: "${pki.operator.keyFile}" is not the private key of the certificate in certFile`,
            `schemes.ZA_EFT.operatorLink.operatorKeyFiles[0]: "${pki.operator.signing.privateFile}" is a private key: give the public key`,
        ];
        for (const line of expected)
            assert.ok(problems.includes(line), `missing ${JSON.stringify(line)} in\n${problems.join('\n')}`);
        assert.doesNotMatch(problems.join('\n'), /PRIVATE KEY-----/, 'no key content echoed');
        const pin = await problemsOf(linked({ TCIB: { connector: 'operator-link', operatorLink: link({ operatorCertificateSha256: ['not-a-fingerprint'] }) } }));
        assert.ok(pin.some((line) => line.startsWith('schemes.TCIB.operatorLink.operatorCertificateSha256[0]:')), pin.join('\n'));
    });
    void it('refuses two schemes listening on one host and port with different TLS files, and lets them share one with the same', async () => {
        const problems = await problemsOf(linked({ ZA_RTC: { connector: 'operator-link', operatorLink: link() }, ZA_RPP: { connector: 'operator-link', operatorLink: link({ certFile: pki.operator.certFile, keyFile: pki.operator.keyFile }) } }));
        // Schemes are checked in SCHEMES order: ZA_RTC first.
        assert.ok(problems.some((line) => line.startsWith('schemes.ZA_RPP.operatorLink.inbound: listens where schemes.ZA_RTC.operatorLink.inbound does (127.0.0.1:9444)')), problems.join('\n'));
        const shared = await configFromObject(linked({ ZA_RPP: { connector: 'operator-link', operatorLink: link() }, ZA_RTC: { connector: 'operator-link', operatorLink: link() } }));
        assert.equal(shared.schemes.ZA_RTC?.operatorLink?.inbound.port, 9444);
    });
});
void describe('docs/configuration.md', () => {
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
    void it('documents every key of the schema', () => {
        const docs = readFileSync(join(REPO, 'docs/configuration.md'), 'utf8');
        const paths = keyPaths(ConfigFileSchema, '');
        assert.ok(paths.length > 40);
        const missing = paths.filter((path) => !docs.includes(`| \`${path}\` |`));
        assert.deepEqual(missing, []);
    });
});
void describe('simulator.inbound: the steady rate of traffic the built-in simulator originates', () => {
    void it('originates nothing unless a rate is configured', async () => {
        const config = await configFromObject(minimal());
        assert.deepEqual(config.simulator.inbound, { ratePerSecond: 0, outstandingMax: 100, outstandingMs: 60_000, amount: '100.00', accountNumber: '4071000001' });
        assert.deepEqual(steadyInbound(config), {});
    });
    void it('addresses every integrator with ZA_RPP, on ZA_RPP, with the configured customer, amount and bound', async () => {
        const second = { ...minimal().integrators[0], id: 'bank-b', institution: { bicfi: 'BANKZAJC', memberId: '250001' }, credentials: { username: 'bob', password: 'b-password', clientId: 'b-client', clientSecret: 'b-secret' } };
        const third = { ...second, id: 'bank-c', institution: { bicfi: 'BANKZAJD' }, credentials: { username: 'carol', password: 'c-password', clientId: 'c-client', clientSecret: 'c-secret' }, schemes: ['ZA_RTC'] };
        const raw = minimal({ simulator: { inbound: { ratePerSecond: 2.5, outstandingMax: 7, amount: '12.34', accountNumber: '4071000002' } } });
        const config = await configFromObject({ ...raw, integrators: [...raw.integrators, second, third] });
        assert.deepEqual(steadyInbound(config), {
            ZA_RPP: {
                ratePerSecond: 2.5,
                outstandingMax: 7,
                outstandingMs: 60_000,
                amount: '12.34',
                targets: [
                    { institution: { bicfi: 'BANKZAJJ' }, accountNumber: '4071000002' },
                    { institution: { bicfi: 'BANKZAJC', memberId: '250001' }, accountNumber: '4071000002' },
                ],
            },
        });
    });
    void it('refuses a rate with no integrator on ZA_RPP to address, a zero amount and a negative rate, naming the keys', async () => {
        const noTarget = await problemsOf(minimal({ simulator: { inbound: { ratePerSecond: 1 } } }, { schemes: ['ZA_RTC'] }));
        assert.ok(noTarget.some((problem) => problem.startsWith('simulator.inbound.ratePerSecond: ') && problem.includes('ZA_RPP')), noTarget.join('\n'));
        const bad = await problemsOf(minimal({ simulator: { inbound: { ratePerSecond: -1, amount: '0.00', rate: 3 } } }));
        assert.ok(bad.some((problem) => problem.startsWith('simulator.inbound.ratePerSecond')), bad.join('\n'));
        assert.ok(bad.some((problem) => problem.startsWith('simulator.inbound.rate: is not a known key')), bad.join('\n'));
        const zero = await problemsOf(minimal({ simulator: { inbound: { amount: '0.00' } } }));
        assert.deepEqual(zero, ['simulator.inbound.amount: must be above zero']);
    });
});
//# sourceMappingURL=config.test.js.map