import { randomBytes } from 'node:crypto';
import { Secret } from '../lib/secret.js';
import { SCHEMES } from '../domain/schemes.js';
import { WEBHOOK_SECRET_PREFIX } from '../lib/webhook-signature.js';
import type { DemoCredentials } from './types.js';

/**
 * The configuration used when the service starts with no file at all (CONTRACT §8): SQLite under
 * ./data, the simulator for every scheme, one integrator on loopback. It goes through the same
 * validation as a file, so the demo can never drift from what a file may say.
 *
 * Decisions: auth mode is oauth2 (the mode CONTRACT §7 prefers, and the one that exercises the
 * embedded token endpoint); the credentials are random on every start, because a fixed published
 * password is a password someone will forget to change. main prints them at start. Callbacks and
 * events are signed (a random webhook secret, printed too), so the demo shows what a deployment
 * sends and examples/receiver.mjs can verify it. They go to the service's own demo inbox
 * (http/routes/demo-inbox.ts), which verifies and keeps them for the admin API: the demo shows
 * what an integrator is sent with nothing else running, instead of retrying to a dead port;
 * REGPAY_DEMO_RECEIVER sends them to a receiver of one's own instead. The
 * demo has an admin API (user `admin`, a random password) to see it, and every transaction.
 */
export const DEMO_INTEGRATOR_ID = 'demo-bank';

function randomText(bytes: number): string {
  return randomBytes(bytes).toString('base64url');
}

/** Where the service itself receives the demo integrator's callbacks and events (http/routes/demo-inbox.ts). */
export const DEMO_INBOX_PATH = '/demo/inbox';

/**
 * `where`: the host and port the service will listen on (PORT and HOST applied), which the demo
 * integrator's callback and event URLs point at: its inbox is the service itself, so the demo
 * shows what an integrator is sent without anything else running. `receiver` (REGPAY_DEMO_RECEIVER),
 * when given, is the base URL of a receiver they go to instead, e.g. examples/receiver.mjs.
 */
export function demoSource(
  where: { readonly host: string; readonly port: number } = { host: '127.0.0.1', port: 8080 },
  receiver?: string,
): {
  source: Record<string, unknown>;
  credentials: DemoCredentials;
} {
  const inbox = receiver ?? `${inboxOrigin(where)}${DEMO_INBOX_PATH}`;
  const credentials: DemoCredentials = {
    integratorId: DEMO_INTEGRATOR_ID,
    username: 'demo',
    password: new Secret(randomText(18)),
    clientId: 'demo-client',
    clientSecret: new Secret(randomText(24)),
    webhookSecret: new Secret(`${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64')}`),
    adminUsername: 'admin',
    adminPassword: new Secret(randomText(18)),
  };
  const source = {
    server: { host: where.host, port: where.port },
    database: 'sqlite:./data/regpay.db',
    auth: { mode: 'oauth2' },
    integrators: [
      {
        id: DEMO_INTEGRATOR_ID,
        institution: { bicfi: 'DEMOZAJJ', memberId: '210001' },
        allowlist: ['127.0.0.1/32', '::1/128'],
        credentials: {
          username: credentials.username,
          password: credentials.password.reveal(),
          clientId: credentials.clientId,
          clientSecret: credentials.clientSecret.reveal(),
        },
        webhookSecret: credentials.webhookSecret.reveal(),
        partnerApiUrl: `${inbox}/partner-api/v1`,
        eventsApiUrl: `${inbox}/events-api/v1`,
        events: true,
        identifierDetermination: 'sync',
        schemes: [...SCHEMES],
      },
    ],
    schemes: Object.fromEntries(SCHEMES.map((scheme) => [scheme, { connector: 'simulator' }])),
    admin: { username: credentials.adminUsername, password: credentials.adminPassword.reveal(), allowlist: ['127.0.0.1/32', '::1/128'] },
  };
  return { source, credentials };
}

/** The service as its own process reaches it: a wildcard address through loopback. */
function inboxOrigin(where: { readonly host: string; readonly port: number }): string {
  const host = where.host === '0.0.0.0' || where.host === '::' ? '127.0.0.1' : where.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${where.port}`;
}

/**
 * The lines main prints at a demo start. This is the one place demo secrets are revealed on
 * purpose: they are random, loopback-only and exist to be copied by the person who started it.
 * The last line is a shell command that sets the variables docs/api.md's examples and
 * examples/receiver.mjs read, so the person can paste it as it is (every value is base64 or
 * base64url text and a URL: nothing in them needs shell quoting beyond the single quotes).
 */
export function demoCredentialLines(credentials: DemoCredentials, url = 'http://127.0.0.1:8080', receiver?: string): string[] {
  return [
    `  integrator:     ${credentials.integratorId}`,
    `  username:       ${credentials.username}`,
    `  password:       ${credentials.password.reveal()}`,
    `  client_id:      ${credentials.clientId}`,
    `  client_secret:  ${credentials.clientSecret.reveal()}`,
    `  webhook secret: ${credentials.webhookSecret.reveal()}   (callbacks and events are signed with it)`,
    '',
    `  admin API:      ${url}/admin/v1   username: ${credentials.adminUsername}   password: ${credentials.adminPassword.reveal()}`,
    receiver === undefined
      ? `  demo inbox:     ${url}/admin/v1/demo-inbox   (the callbacks and events sent to the demo integrator, received by the service itself)`
      : `  receiver:       ${receiver}   (REGPAY_DEMO_RECEIVER: the demo integrator's callbacks go to ${receiver}/partner-api/v1/…, its events to ${receiver}/events-api/v1/events)`,
    `  transactions:   ${url}/admin/v1/transactions`,
    `  console:        ${url}/console/   (the operator's web console: sign in with the admin username and password)`,
    '',
    '  For the examples in docs/api.md and examples/receiver.mjs, paste into your shell:',
    '',
    `  export REGPAY_URL=${url} REGPAY_USERNAME=${credentials.username} REGPAY_PASSWORD='${credentials.password.reveal()}' ` +
      `REGPAY_CLIENT_ID=${credentials.clientId} REGPAY_CLIENT_SECRET='${credentials.clientSecret.reveal()}' ` +
      `REGPAY_WEBHOOK_SECRET='${credentials.webhookSecret.reveal()}' REGPAY_ADMIN_USERNAME=${credentials.adminUsername} REGPAY_ADMIN_PASSWORD='${credentials.adminPassword.reveal()}'`,
  ];
}
