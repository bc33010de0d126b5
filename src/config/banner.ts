import { demoCredentialLines } from './demo.js';
import type { Config } from './types.js';

/**
 * What main prints once the service listens, for every start: first the ready line (where it is
 * and what it runs on), then where the API, its docs, the token endpoint, the admin API and the
 * console are, and each integrator with where its callbacks and events go. The same lines for the
 * demo and for a file, so examples/regpay.yaml (the demo written out) starts as the demo does;
 * only the demo prints secrets, because only its secrets are random and made to be copied. A
 * file's secrets are never printed: the person who started it gave them.
 */
export function startBanner(config: Config, url: string): string[] {
  const origin = `${config.demo ? 'the demo: no config file given' : 'from a configuration file'}`;
  const token = config.auth.mode === 'oauth2' && config.auth.issuer === undefined ? `   token: ${url}/oauth/token` : '';
  return [
    '',
    `regpay is ready at ${url}: ${storeOf(config.database)}, ${schemesOf(config)} (${origin}).`,
    `  API:            ${url}/api/v1   docs: ${url}/docs${token}`,
    ...(config.demoCredentials === undefined ? fileLines(config, url) : demoCredentialLines(config.demoCredentials, url, config.demoReceiver)),
    '',
  ];
}

function fileLines(config: Config, url: string): string[] {
  const integrators = config.integrators.flatMap((integrator) => [
    `  integrator:     ${integrator.id}   username: ${integrator.credentials.username}${integrator.credentials.clientId === undefined ? '' : `   client_id: ${integrator.credentials.clientId}`}   (its secrets: as configured)`,
    `  callbacks:      ${integrator.partnerApiUrl}/…${integrator.events ? `   events: ${integrator.eventsApiUrl}/events` : ''}`,
  ]);
  const admin =
    config.admin === undefined
      ? ['  admin API:      none (no admin section)']
      : [
          `  admin API:      ${url}/admin/v1   username: ${config.admin.username}   (its password: as configured)`,
          `  transactions:   ${url}/admin/v1/transactions`,
          `  console:        ${url}/console/   (the operator's web console: sign in with the admin username and password)`,
        ];
  return [...integrators, '', ...admin];
}

/** The store, without a database URL's credentials. */
function storeOf(database: string): string {
  return database.startsWith('sqlite:') ? `SQLite at ${database.slice('sqlite:'.length)}` : 'PostgreSQL';
}

function schemesOf(config: Config): string {
  const connectors = Object.entries(config.schemes).map(([scheme, settings]) => [scheme, settings?.connector ?? 'simulator'] as const);
  if (connectors.every(([, connector]) => connector === 'simulator')) return 'the simulator for every scheme';
  return connectors.map(([scheme, connector]) => `${scheme} on ${connector}`).join(', ');
}
