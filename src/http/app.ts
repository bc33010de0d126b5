import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import { schemeRulesOf } from '../connectors/registry.js';
import type { SchemeRules } from '../ports/scheme.js';
import pino, { type Logger } from 'pino';
import type { Config } from '../config/types.js';
import type { SchemeName } from '../domain/schemes.js';
import type { Clock, Ids } from '../ports/clock.js';
import type { OutboxDelivery } from '../ports/delivery.js';
import type { Processing } from '../ports/processing.js';
import type { Store } from '../ports/store.js';
import type { Tracing } from '../ports/observability.js';
import type { DemoInbox } from '../app/demo-inbox.js';
import { Admission } from '../app/admission.js';
import { intakeSpans } from './plugins/intake-spans.js';
import { demoInboxRoutes } from './routes/demo-inbox.js';
import { ConnectionGate } from './connection-gate.js';
import { LingeringClose, lingeringClosePlugin } from './lingering-close.js';
import { allowlistPlugin, ConnectionHolder } from './plugins/allowlist.js';
import { admissionPlugin } from './plugins/admission.js';
import { authPlugin } from './plugins/auth.js';
import { closingPlugin } from './plugins/closing.js';
import { errorsPlugin } from './plugins/errors.js';
import { jsonBodyPlugin } from './plugins/json-body.js';
import { metricsPlugin } from './plugins/metrics.js';
import type { Metrics } from '../adapters/metrics/prometheus.js';
import { failedAuthPlugin } from './plugins/failed-auth.js';
import { rateLimitPlugin } from './plugins/rate-limit.js';
import { revokedSessionsPlugin } from './plugins/revoked-sessions.js';
import { adminRoutes } from './routes/admin.js';
import { consoleRoutes } from './routes/console.js';
import { oauthRoutes } from './routes/oauth.js';
import { operationsRoutes, type Readiness } from './routes/operations.js';
import { creditTransferRoutes } from './routes/v1/credit-transfer.js';
import { identifierDeterminationRoutes } from './routes/v1/identifier-determination.js';
import { inboundRoutes } from './routes/v1/inbound.js';
import type { SimulatedInbound } from './routes/admin-inbound.js';
import { requestToPayRoutes } from './routes/v1/request-to-pay.js';
import { TIME_BUDGET_MS_DEFAULTS } from '../config/schema.js';
import { openApiPlugin } from './openapi/plugin.js';

export interface AppDeps {
  readonly config: Config;
  readonly store: Store;
  readonly clock: Clock;
  readonly ids: Ids;
  readonly readiness: Readiness;
  /** This instance's processing, handed each new transaction once it is committed. */
  readonly processing?: Processing;
  /** This instance's outbox delivery, told of the outbox messages requests write (none on an instance that does not process). */
  readonly delivery?: OutboxDelivery;
  /** Prometheus metrics; /metrics is served when given. */
  readonly metrics?: Metrics;
  /** Spans of the integrators' requests (intake), when telemetry is configured. */
  readonly tracing?: Tracing;
  /** The demo integrator's inbox, served under /demo/inbox and listed by the admin API (demo only). */
  readonly demoInbox?: DemoInbox;
  /** The built-in simulator's operator, which the admin API has originate traffic for integrators. */
  readonly simulatedInbound?: SimulatedInbound;
  /** The rules intake asks a scheme before accepting a message (default: those of the scheme's connector family). */
  readonly schemeRules?: (scheme: SchemeName) => SchemeRules | undefined;
}

/** Paths that logs must never show in clear. */
const REDACTED_LOG_PATHS = ['req.headers.authorization', 'req.headers.cookie', 'headers.authorization'];

/**
 * How a request appears in the log (`server.logRequests`): Fastify's own fields, but the query
 * string is replaced by a mark, because clients put tokens and account numbers there.
 */
function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  const query = request.url.indexOf('?');
  return {
    method: request.method,
    url: query === -1 ? request.url : `${request.url.slice(0, query)}?[redacted]`,
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The service's one logger (JSON on stdout unless another destination is given), shared by HTTP, engine and delivery. */
export function createLogger(level: Config['server']['logLevel'], destination?: pino.DestinationStream): Logger {
  return pino({ level, redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' }, serializers: { req: requestLogFields } }, destination);
}

/**
 * Builds the HTTP application without listening (STYLE.md: buildApp separate from listen), so
 * tests can `inject()` and main.ts can `listen()` the very same thing.
 */
export async function buildApp(deps: AppDeps, options: { logger?: FastifyBaseLogger } = {}): Promise<FastifyInstance> {
  const { config } = deps;
  const logger: FastifyBaseLogger = options.logger ?? pino({ level: 'silent' });
  const holder = new ConnectionHolder(config.server.heldConnectionMs, config.server.heldConnectionsMax);
  const lingering = new LingeringClose(config.server);
  const gate = new ConnectionGate({ config, holder, lingering, log: logger });
  const app = Fastify({
    serverFactory: gate.serverFactory,
    clientErrorHandler: gate.onClientError,
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: !config.server.logRequests }),
    bodyLimit: config.server.bodyBytesMax,
    // The address used for allowlisting is resolved by the allowlist plugin from the configured
    // trusted proxies; Fastify's own trustProxy stays off so nothing else second-guesses it.
    trustProxy: false,
    // Requests arriving while the app closes are answered by closingPlugin, as ErrorDetail.
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    ajv: { customOptions: { allErrors: true } },
  });

  await app.register(lingeringClosePlugin, { lingering });
  await app.register(errorsPlugin);
  await app.register(jsonBodyPlugin, { bodyBytesMax: config.server.bodyBytesMax });
  await app.register(openApiPlugin, { config, clock: deps.clock });

  if (deps.metrics !== undefined) await app.register(metricsPlugin, { metrics: deps.metrics });
  await app.register(allowlistPlugin, { config, holder });
  await app.register(closingPlugin);
  await app.register(failedAuthPlugin, { auth: config.auth, clock: deps.clock });
  await app.register(revokedSessionsPlugin, { auth: config.auth, store: deps.store, clock: deps.clock });
  operationsRoutes(app, deps);
  await app.register(async (scope) => oauthRoutes(scope, deps));
  // The integrator API's use cases, as its routes and the simulator's samples (admin) run them.
  const useCases = {
    ...deps,
    schemeRules: deps.schemeRules ?? schemeRulesOf,
    proxyPayments: config.proxyPayments,
    timeBudgetMs: (scheme: SchemeName) => config.schemes[scheme]?.timeBudgetMs ?? TIME_BUDGET_MS_DEFAULTS[scheme],
    pollIntervalMs: config.server.heldRequestPollMs,
    heldLookupMarginMs: config.processing.heldLookupMarginMs,
    admission: new Admission(config.processing, deps.store, deps.processing),
    expiryHorizonMs: config.requestToPay.expiryHorizonMs,
  };
  await app.register(async (scope) => {
    await adminRoutes(scope, {
      config,
      store: deps.store,
      clock: deps.clock,
      samples: useCases,
      ...(deps.delivery === undefined ? {} : { delivery: deps.delivery }),
      ...(deps.demoInbox === undefined ? {} : { demoInbox: deps.demoInbox }),
      ...(deps.simulatedInbound === undefined ? {} : { simulatedInbound: deps.simulatedInbound }),
    });
  });
  const { admin } = config;
  if (admin !== undefined) await app.register(async (scope) => consoleRoutes(scope, admin));
  const { demoInbox } = deps;
  if (demoInbox !== undefined) demoInboxRoutes(app, demoInbox);

  // The integrator API admits its intake before the body is read (plugins/admission.ts), so its
  // use cases run without admitting again; the admin's samples above admit in the use case.
  const { admission, ...apiUseCases } = useCases;
  await app.register(
    async (api) => {
      if (deps.tracing !== undefined) intakeSpans(api, deps.tracing);
      await api.register(authPlugin, { config, store: deps.store, clock: deps.clock });
      await api.register(admissionPlugin, { admission });
      await api.register(rateLimitPlugin, { config, clock: deps.clock });
      creditTransferRoutes(api, apiUseCases);
      identifierDeterminationRoutes(api, apiUseCases);
      requestToPayRoutes(api, apiUseCases);
      inboundRoutes(api, apiUseCases);
    },
    { prefix: '/api/v1' },
  );
  return app;
}
