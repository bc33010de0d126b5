import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config/types.js';
import type { FieldError } from '../../domain/errors.js';
import { SCHEME_CAPABILITIES, SCHEMES } from '../../domain/schemes.js';
import type { Clock } from '../../ports/clock.js';
import type { SchemeHealth, SchemeSeries, Store } from '../../ports/store.js';
import { domainValidator, type Validated } from '../validation.js';
import { ADMIN_PREFIX, adminErrors, adminSchema, iso, isRecord } from './admin.js';

/**
 * `GET /admin/v1/schemes`, in the admin scope: every configured scheme with its connector and the
 * operations it carries (the console's scheme filters: those a transaction can be of).
 *
 * `GET /admin/v1/schemes/health?windowMinutes=60`, in the admin scope: per configured scheme that
 * carries an operation (ZA_AC and ZA_RMS carry none: nothing to watch), what is in flight now
 * and, of the transactions accepted in the last `windowMinutes`, the timeouts, outcomes,
 * rejections by reason code and the time from acceptance to outcome (Store.schemeHealth), and the
 * window in at most 60 buckets of whole minutes: accepted, outcomes and p95 latency of each, for
 * charts (Store.schemeSeries). Read from the store, so every instance answers for all of them.
 */
export interface AdminSchemesDeps {
  readonly config: Pick<Config, 'schemes'>;
  readonly store: Store;
  readonly clock: Clock;
}

const WINDOW_MINUTES_DEFAULT = 60;
const WINDOW_MINUTES_MAX = 1_440;
const MINUTE_MS = 60_000;
/** The series has at most this many buckets: one a minute up to an hour's window, then wider. */
const BUCKETS_MAX = 60;

export function adminSchemeRoutes(scope: FastifyInstance, deps: AdminSchemesDeps): void {
  const configured = SCHEMES.filter((scheme) => deps.config.schemes[scheme] !== undefined);
  const watched = configured.filter((scheme) => SCHEME_CAPABILITIES[scheme].length > 0);
  scope.get(
    `${ADMIN_PREFIX}/schemes`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminSchemes',
        summary: 'Every configured scheme, with its connector and the operations it carries',
        response: { 200: { description: 'The configured schemes', content: { 'application/json': { schema: Type.Ref('SchemeList') } } }, ...adminErrors },
      },
    },
    () => ({ schemes: configured.map((scheme) => ({ scheme, connector: deps.config.schemes[scheme]?.connector ?? '', operations: SCHEME_CAPABILITIES[scheme] })) }),
  );
  scope.get<{ Querystring: { windowMinutes: number } }>(
    `${ADMIN_PREFIX}/schemes/health`,
    {
      schema: {
        ...adminSchema,
        operationId: 'adminSchemeHealth',
        summary: 'Per scheme: in flight now, and of the transactions accepted in the window the timeouts, outcomes, rejections by reason code and latency, also per minute',
        querystring: Type.Object(
          {
            windowMinutes: Type.Optional(
              Type.Integer({ minimum: 1, maximum: WINDOW_MINUTES_MAX, default: WINDOW_MINUTES_DEFAULT, description: 'The window: transactions accepted this many minutes back' }),
            ),
          },
          { additionalProperties: false },
        ),
        response: { 200: { description: 'Health per configured scheme', content: { 'application/json': { schema: Type.Ref('SchemeHealthReport') } } }, ...adminErrors },
      },
      validatorCompiler: domainValidator(validateHealthQuery, 'scheme health query'),
    },
    async (request) => {
      const { windowMinutes } = request.query;
      const to = deps.clock.now();
      const from = to - windowMinutes * MINUTE_MS;
      const bucketMinutes = Math.ceil(windowMinutes / BUCKETS_MAX);
      const [health, series] = await Promise.all([deps.store.schemeHealth(from, to), deps.store.schemeSeries(from, to, bucketMinutes * MINUTE_MS)]);
      const found = new Map(health.map((each) => [each.scheme, each]));
      const foundSeries = new Map(series.map((each) => [each.scheme, each]));
      const empty = Array.from({ length: Math.ceil(windowMinutes / bucketMinutes) }, (_, index) => ({ from: from + index * bucketMinutes * MINUTE_MS, accepted: 0, outcomes: [], p95Ms: null }));
      return {
        from: iso(from),
        to: iso(to),
        bucketMinutes,
        schemes: watched.map((scheme) => ({
          ...healthView(scheme, deps.config.schemes[scheme]?.connector ?? '', found.get(scheme)),
          operations: SCHEME_CAPABILITIES[scheme],
          series: seriesView(foundSeries.get(scheme)?.buckets ?? empty),
        })),
      };
    },
  );
}

function healthView(scheme: string, connector: string, health: SchemeHealth | undefined) {
  const outcomes = new Map<string, number>();
  const rejections = new Map<string, number>();
  for (const entry of health?.outcomes ?? []) {
    outcomes.set(entry.outcome, (outcomes.get(entry.outcome) ?? 0) + entry.count);
    if (entry.reasonCode !== null) rejections.set(entry.reasonCode, (rejections.get(entry.reasonCode) ?? 0) + entry.count);
  }
  const descending = (map: Map<string, number>) => [...map.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  return {
    scheme,
    connector,
    inFlight: health?.inFlight ?? 0,
    accepted: health?.created ?? 0,
    timeouts: health?.timedOut ?? 0,
    outcomes: descending(outcomes).map(([outcome, count]) => ({ outcome, count })),
    rejections: descending(rejections).map(([reasonCode, count]) => ({ reasonCode, count })),
    latencyMs: health?.latencyMs ?? null,
  };
}

function seriesView(buckets: SchemeSeries['buckets']) {
  return buckets.map((bucket) => ({ ...bucket, from: iso(bucket.from) }));
}

function validateHealthQuery(query: unknown): Validated<{ windowMinutes: number }> {
  const input = isRecord(query) ? query : {};
  const errors: FieldError[] = [];
  for (const key of Object.keys(input)) {
    if (key !== 'windowMinutes') errors.push({ field: `/${key}`, message: 'is not a known query parameter' });
  }
  const value = input['windowMinutes'];
  let windowMinutes = WINDOW_MINUTES_DEFAULT;
  if (value !== undefined) {
    if (typeof value === 'string' && /^[0-9]{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= WINDOW_MINUTES_MAX) windowMinutes = Number(value);
    else errors.push({ field: '/windowMinutes', message: `must be an integer from 1 to ${WINDOW_MINUTES_MAX}` });
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { windowMinutes } };
}
