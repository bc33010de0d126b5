import { Type } from '@sinclair/typebox';
import { SCHEMES } from '../../domain/schemes.js';
import { domainValidator } from '../validation.js';
import { ADMIN_PREFIX, adminErrors, adminSchema, iso, isRecord } from './admin.js';
const WINDOW_MINUTES_DEFAULT = 60;
const WINDOW_MINUTES_MAX = 1_440;
const MINUTE_MS = 60_000;
export function adminSchemeRoutes(scope, deps) {
    const configured = SCHEMES.filter((scheme) => deps.config.schemes[scheme] !== undefined);
    scope.get(`${ADMIN_PREFIX}/schemes/health`, {
        schema: {
            ...adminSchema,
            operationId: 'adminSchemeHealth',
            summary: 'Per scheme: in flight now, and of the transactions accepted in the window the timeouts, outcomes, rejections by reason code and latency',
            querystring: Type.Object({
                windowMinutes: Type.Optional(Type.Integer({ minimum: 1, maximum: WINDOW_MINUTES_MAX, default: WINDOW_MINUTES_DEFAULT, description: 'The window: transactions accepted this many minutes back' })),
            }, { additionalProperties: false }),
            response: { 200: { description: 'Health per configured scheme', content: { 'application/json': { schema: Type.Ref('SchemeHealthReport') } } }, ...adminErrors },
        },
        validatorCompiler: domainValidator(validateHealthQuery, 'scheme health query'),
    }, async (request) => {
        const to = deps.clock.now();
        const from = to - request.query.windowMinutes * MINUTE_MS;
        const found = new Map((await deps.store.schemeHealth(from, to)).map((health) => [health.scheme, health]));
        return {
            from: iso(from),
            to: iso(to),
            schemes: configured.map((scheme) => healthView(scheme, deps.config.schemes[scheme]?.connector ?? '', found.get(scheme))),
        };
    });
}
function healthView(scheme, connector, health) {
    const outcomes = new Map();
    const rejections = new Map();
    for (const entry of health?.outcomes ?? []) {
        outcomes.set(entry.outcome, (outcomes.get(entry.outcome) ?? 0) + entry.count);
        if (entry.reasonCode !== null)
            rejections.set(entry.reasonCode, (rejections.get(entry.reasonCode) ?? 0) + entry.count);
    }
    const descending = (map) => [...map.entries()].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
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
function validateHealthQuery(query) {
    const input = isRecord(query) ? query : {};
    const errors = [];
    for (const key of Object.keys(input)) {
        if (key !== 'windowMinutes')
            errors.push({ field: `/${key}`, message: 'is not a known query parameter' });
    }
    const value = input['windowMinutes'];
    let windowMinutes = WINDOW_MINUTES_DEFAULT;
    if (value !== undefined) {
        if (typeof value === 'string' && /^[0-9]{1,4}$/.test(value) && Number(value) >= 1 && Number(value) <= WINDOW_MINUTES_MAX)
            windowMinutes = Number(value);
        else
            errors.push({ field: '/windowMinutes', message: `must be an integer from 1 to ${WINDOW_MINUTES_MAX}` });
    }
    return errors.length > 0 ? { ok: false, errors } : { ok: true, value: { windowMinutes } };
}
//# sourceMappingURL=admin-schemes.js.map