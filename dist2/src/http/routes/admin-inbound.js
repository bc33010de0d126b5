import { Type } from '@sinclair/typebox';
import { checkOrder, INBOUND_SCENARIOS } from '../../connectors/simulator/inbound-values.js';
import { ApiError } from '../../domain/errors.js';
import { makeValidator } from '../../domain/messages/validate.js';
import { SCHEMES } from '../../domain/schemes.js';
import { errorResponse } from '../schemas.js';
import { domainValidator } from '../validation.js';
import { ADMIN_PREFIX, adminErrors, adminSchema } from './admin.js';
const ReceiveRequestSchema = Type.Object({
    integratorId: Type.Optional(Type.String({ maxLength: 64, description: 'The integrator whose institution receives; the first with the scheme when absent' })),
    scheme: Type.Optional(Type.Union(SCHEMES.map((scheme) => Type.Literal(scheme)), { description: 'ZA_RPP when absent' })),
    scenario: Type.Optional(Type.Union(INBOUND_SCENARIOS.map((scenario) => Type.Literal(scenario)), { description: 'docs/simulator.md, inbound scenarios; LOOKUP_THEN_CREDIT when absent' })),
    accountNumber: Type.Optional(Type.String({ minLength: 1, maxLength: 34 })),
    proxy: Type.Optional(Type.Object({ value: Type.String({ minLength: 1, maxLength: 2048 }), schema: Type.Union([Type.Literal('MOBILE'), Type.Literal('CUSTOM')]), namespace: Type.Optional(Type.String({ maxLength: 35 })) }, { additionalProperties: false })),
    amount: Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]{1,2})?$', description: 'ZAR, decimal text' }),
    customerName: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
    payerName: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
}, { additionalProperties: false, description: 'What the simulated scheme sends an integrator' });
const validateReceiveRequest = makeValidator(ReceiveRequestSchema);
/**
 * The built-in simulator sends an integrator traffic as the scheme would (the receiving
 * direction; docs/simulator.md has the scenarios). The POST starts a scenario for the
 * integrator's institution and answers with the UETR and message ids to follow it by; the GET says
 * what the simulated operator saw of it. Only for schemes on the built-in simulator.
 */
export function adminInboundRoutes(scope, deps) {
    const inbound = deps.simulatedInbound;
    if (inbound === undefined)
        return;
    const simulated = (scheme) => deps.config.schemes[scheme]?.connector === 'simulator';
    scope.post(`${ADMIN_PREFIX}/simulator/inbound`, {
        schema: {
            ...adminSchema,
            operationId: 'adminSimulatorInbound',
            summary: 'Have the built-in simulator send an integrator a lookup, a credit or a request-to-pay, as the scheme would',
            body: ReceiveRequestSchema,
            response: {
                202: { description: 'Started: the UETR and message ids of what the simulated scheme sends', type: 'object', additionalProperties: true },
                ...adminErrors,
                404: errorResponse('No such integrator, or none with the scheme'),
                422: errorResponse('The scheme does not run on the built-in simulator'),
            },
        },
        validatorCompiler: domainValidator(validateReceiveRequest, 'simulator inbound request'),
    }, async (request, reply) => {
        const { integratorId, scheme = 'ZA_RPP', ...rest } = request.body;
        const integrator = deps.config.integrators.find((candidate) => (integratorId === undefined ? candidate.schemes.includes(scheme) : candidate.id === integratorId));
        if (integrator === undefined)
            throw new ApiError('NOT_FOUND', `No integrator ${integratorId ?? `with ${scheme}`}`, [{ field: '/integratorId', message: 'names no configured integrator with the scheme' }]);
        if (!simulated(scheme))
            throw new ApiError('OPERATION_NOT_SUPPORTED', `${scheme} does not run on the built-in simulator`, [{ field: '/scheme', message: 'is not simulated here' }]);
        const order = { ...rest, institution: { ...integrator.institution } };
        const checked = checkOrder(order);
        if (!checked.ok)
            throw new ApiError('VALIDATION_FAILED', checked.error, [{ field: '', message: checked.error }]);
        const started = await inbound.originate(scheme, order);
        if (!started.ok)
            throw new ApiError('VALIDATION_FAILED', started.error, [{ field: '', message: started.error }]);
        return reply.code(202).send({ integratorId: integrator.id, ...started });
    });
    scope.get(`${ADMIN_PREFIX}/simulator/inbound/:scheme/:uetr`, {
        schema: {
            ...adminSchema,
            operationId: 'adminSimulatorInboundView',
            summary: 'What the built-in simulated operator sent and received for traffic it originated',
            params: Type.Object({ scheme: Type.String({ maxLength: 16 }), uetr: Type.String({ maxLength: 36 }) }),
            response: { 200: { description: 'The operator side of the transaction', type: 'object', additionalProperties: true }, ...adminErrors, 404: errorResponse('Not originated here') },
        },
    }, async (request) => {
        const scheme = SCHEMES.find((name) => name === request.params.scheme);
        const view = scheme === undefined ? undefined : await inbound.inboundOf(scheme, request.params.uetr.toLowerCase());
        if (view === undefined)
            throw new ApiError('NOT_FOUND', 'the simulated operator originated nothing with that uetr', [{ field: '/uetr', message: 'is not known to the simulated operator' }]);
        return view;
    });
}
//# sourceMappingURL=admin-inbound.js.map