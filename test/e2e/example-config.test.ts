import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, configFromObject, loadConfig } from '../../src/config/load.js';
import { ConfigFileSchema } from '../../src/config/schema.js';
import { demoSource } from '../../src/config/demo.js';
import { SCHEMES } from '../../src/domain/schemes.js';
import { newPassword, newWebhookSecret } from '../../src/cli/secret-commands.js';
import { verifySecret } from '../../src/lib/password-hash.js';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { startDemo, startServer, type RunningServer } from '../support/server.js';

/**
 * examples/regpay.yaml is what an operator copies: `--config` must accept it as it is (given the
 * environment variables its first lines name), the values it shows as defaults must be the
 * defaults, it must name every key there is, and the service must run with it.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const EXAMPLE = join(REPO, 'examples/regpay.yaml');
const SECRET_VARIABLES = ['REGPAY_PASSWORD', 'REGPAY_CLIENT_SECRET', 'REGPAY_WEBHOOK_SECRET', 'REGPAY_ADMIN_PASSWORD'] as const;

function exampleEnv(): Record<(typeof SECRET_VARIABLES)[number], string> {
  return { REGPAY_PASSWORD: newPassword(), REGPAY_CLIENT_SECRET: newPassword(), REGPAY_WEBHOOK_SECRET: newWebhookSecret(), REGPAY_ADMIN_PASSWORD: newPassword() };
}

type Node = Readonly<Record<string, unknown>>;

/** Every key path of the configuration schema (`integrators[].limits.amountMax.<SCHEME>`), as docs/configuration.md lists them. */
function keyPaths(schema: Node, prefix: string): string[] {
  const items = schema['items'] as Node | undefined;
  if (schema['type'] === 'array' && items?.['type'] === 'object') return keyPaths(items, `${prefix}[]`);
  if (schema['type'] !== 'object') return [prefix];
  const properties = schema['properties'] as Readonly<Record<string, Node>>;
  const names = Object.keys(properties);
  if (names.length > 0 && names.every((name) => (SCHEMES as readonly string[]).includes(name))) {
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
    for (const scheme of SCHEMES) assert.equal(config.schemes[scheme]?.connector, 'simulator');
  });

  void it('holds no secret of its own: without the environment it is refused, naming each variable', async () => {
    await assert.rejects(loadConfig({ argv: ['--config', EXAMPLE], env: {} }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      for (const name of SECRET_VARIABLES) assert.ok(error.problems.some((problem) => problem.includes(`environment variable ${name} is not set`)), name);
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
    const withoutSecrets = ({ credentials: _credentials, webhookSecret: _webhookSecret, schemes, ...rest }: (typeof example.integrators)[number]) => ({ ...rest, schemes: [...schemes].sort() });
    assert.deepEqual(withoutSecrets(example.integrators[0]!), withoutSecrets(minimal.integrators[0]!));
    for (const scheme of SCHEMES) {
      assert.deepEqual({ simulatorLatencyMs: 50, ...minimal.schemes[scheme] }, { simulatorLatencyMs: 50, ...example.schemes[scheme] }, `${scheme}: the default time budget`);
    }
  });

  void it('names every key of the configuration, set or in a comment', () => {
    const text = readFileSync(EXAMPLE, 'utf8');
    const named = (key: string) => new RegExp(`^[ \\t]*(#[ \\t]*)?(- )?${key}:`, 'm').test(text);
    const missing = keyPaths(ConfigFileSchema, '').filter((path) => {
      const segments = path.replace(/\[\]/g, '').split('.');
      return segments.some((segment) => segment !== '<SCHEME>' && !named(segment));
    });
    assert.deepEqual(missing, []);
    for (const scheme of SCHEMES) assert.ok(named(scheme), `${scheme} under schemes and limits.amountMax`);
  });
});

void describe('the service started with examples/regpay.yaml', () => {
  const env = exampleEnv();
  let server: RunningServer;

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
    const { access_token: accessToken } = (await token.json()) as { access_token: string };
    const transfer = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
      body: JSON.stringify(creditTransfer('ZA_RTC')),
    });
    assert.equal(transfer.status, 202);
  });

  void it('serves the admin API to the configured operator, the demo\'s admin user', async () => {
    assert.equal(demoSource().credentials.adminUsername, 'admin');
    const authorization = `Basic ${Buffer.from(`admin:${env.REGPAY_ADMIN_PASSWORD}`).toString('base64')}`;
    const listing = await fetch(`${server.url}/admin/v1/deliveries?status=PENDING`, { headers: { authorization } });
    assert.equal(listing.status, 200);
    const wrong = await fetch(`${server.url}/admin/v1/deliveries`, { headers: { authorization: `Basic ${Buffer.from('admin:wrong').toString('base64')}` } });
    assert.equal(wrong.status, 401);
  });
});

/**
 * The example is the demo written out, so it starts as the demo does: the same ready line, and a
 * banner of the same lines in the same order (where the API, docs and token endpoint are, the
 * integrator, the admin API with the same admin user, the transactions and the console), though
 * only the demo prints secrets.
 */
void describe('the start banner of examples/regpay.yaml and of the demo', () => {
  const env = exampleEnv();
  let example: RunningServer;
  let demo: RunningServer;

  before(async () => {
    example = await startServer({ configPath: EXAMPLE, cwd: mkdtempSync(join(tmpdir(), 'regpay-example-banner-')), env });
    ({ server: demo } = await startDemo(mkdtempSync(join(tmpdir(), 'regpay-demo-banner-'))));
  });
  after(async () => {
    await Promise.all([example?.stop(), demo?.stop()]);
  });

  /** The banner's lines (the service's log lines are JSON), each cut to its label; the ready line with its address made general. */
  const banner = (server: RunningServer): string[] => {
    const lines = server.output().split('\n').filter((line) => line.trim() !== '' && !line.startsWith('{'));
    const start = lines.findIndex((line) => line.startsWith('regpay is ready at '));
    assert.ok(start >= 0, server.output());
    return lines.slice(start).map((line) => line.replace(server.url, 'URL').replace(/ \((the demo: no config file given|from a configuration file)\)\.$/, '.').replace(/^(\s+[a-zA-Z_ ]+:)\s.*$/, '$1'));
  };

  void it('says it is ready with the same line: where, on what store, and with which schemes', () => {
    const ready = (server: RunningServer) => banner(server)[0];
    assert.equal(ready(example), 'regpay is ready at URL: SQLite at ./data/regpay.db, the simulator for every scheme.');
    assert.equal(ready(example), ready(demo));
  });

  void it('names the API, the docs and token endpoint, the integrator, the admin API with its user admin, the transactions and the console, as the demo does', () => {
    const labels = (server: RunningServer) => banner(server).filter((line) => ['API:', 'integrator:', 'admin API:', 'transactions:', 'console:'].includes(line.trim()));
    assert.deepEqual(labels(example), ['  API:', '  integrator:', '  admin API:', '  transactions:', '  console:']);
    assert.deepEqual(labels(example), labels(demo));
    for (const server of [example, demo]) {
      const output = server.output();
      assert.match(output, new RegExp(`admin API:\\s+${server.url}/admin/v1\\s+username: admin\\s`));
      assert.match(output, new RegExp(`API:\\s+${server.url}/api/v1\\s+docs: ${server.url}/docs\\s+token: ${server.url}/oauth/token`));
      assert.match(output, /integrator:\s+demo-bank/);
    }
  });

  void it('prints none of the secrets a file was given', () => {
    assert.ok(!Object.values(env).some((secret) => example.output().includes(secret)));
  });
});
