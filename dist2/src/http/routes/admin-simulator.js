import { randomUUID } from 'node:crypto';
import { Type } from '@sinclair/typebox';
import { acceptCreditTransfer } from '../../app/accept-credit-transfer.js';
import { determineIdentifier } from '../../app/determine-identifier.js';
import { requestToPay } from '../../app/request-to-pay.js';
import { simulatorTestValues } from '../../connectors/simulator/catalogue.js';
import { defaultDirectoryPath, loadDirectory } from '../../connectors/simulator/directory.js';
import { ApiError } from '../../domain/errors.js';
import { SCHEMES } from '../../domain/schemes.js';
import { validateIdentifierDeterminationRequest } from '../../domain/messages/identifier-determination.js';
import { validateRequestToPay } from '../../domain/messages/request-to-pay.js';
import { validateCreditTransfer } from '../../domain/messages/validate.js';
import { parseJson } from '../../lib/json.js';
import { newTraceparent } from '../../lib/trace.js';
import { buildExamples } from '../openapi/examples.js';
import { errorBody } from '../plugins/errors.js';
import { errorResponse } from '../schemas.js';
import { domainValidator } from '../validation.js';
import { ADMIN_PREFIX, adminErrors, adminSchema, isRecord } from './admin.js';
const ID_CHARS_MAX = 200;
export function adminSimulatorRoutes(scope, deps) {
    const simulated = SCHEMES.filter((scheme) => deps.config.schemes[scheme]?.connector === 'simulator' && deps.config.integrators.some((integrator) => integrator.schemes.includes(scheme)));
    if (simulated.length === 0)
        return;
    const testValues = simulatorTestValues(simulated, directoryOf(deps.config));
    const byId = new Map(testValues.map((value) => [value.id, value]));
    scope.get(`${ADMIN_PREFIX}/simulator/test-values`, {
        schema: {
            ...adminSchema,
            operationId: 'adminSimulatorTestValues',
            summary: "The built-in simulator's test values, with what each makes the simulated scheme do",
            response: { 200: { description: 'The test values', content: { 'application/json': { schema: Type.Ref('SimulatorTestValues') } } }, ...adminErrors },
        },
    }, () => ({ testValues: testValues.map(({ input: _input, ...view }) => view) }));
    scope.post(`${ADMIN_PREFIX}/simulator/samples`, {
        schema: {
            ...adminSchema,
            operationId: 'adminSendSimulatorSample',
            summary: 'Send a sample request carrying one test value, as an integrator, to the built-in simulator',
            description: 'The request goes through the validation and the use case of the integrator API; the answer says what that API answered ' +
                '(status and body) and which transaction it made. Identifier determinations are answered when the scheme answers (sync).',
            body: Type.Ref('SimulatorSampleRequest'),
            response: {
                200: { description: 'What the integrator API answered', content: { 'application/json': { schema: Type.Ref('SimulatorSampleResult') } } },
                ...adminErrors,
                404: errorResponse('No such test value or integrator'),
            },
        },
        validatorCompiler: domainValidator(validateSampleRequest, 'simulator sample'),
    }, async (request) => {
        const testValue = byId.get(request.body.testValueId);
        if (testValue === undefined)
            throw new ApiError('NOT_FOUND', `No test value ${request.body.testValueId}`, [{ field: '/testValueId', message: 'is not a test value of this service' }]);
        const integrator = integratorFor(deps.config.integrators, testValue.scheme, request.body.integratorId);
        return sendSample(deps.samples, integrator, testValue);
    });
}
function directoryOf(config) {
    const loaded = loadDirectory(config.schemes.ZA_RPP?.simulatorDirectory ?? defaultDirectoryPath());
    // A directory the simulator cannot load fails its determinations too; the list then has none.
    return loaded.ok ? loaded.directory.entries : [];
}
function integratorFor(integrators, scheme, integratorId) {
    if (integratorId !== undefined) {
        const named = integrators.find((integrator) => integrator.id === integratorId);
        if (named === undefined)
            throw new ApiError('NOT_FOUND', `No integrator ${integratorId}`, [{ field: '/integratorId', message: 'is not a configured integrator' }]);
        return named;
    }
    const first = integrators.find((integrator) => integrator.schemes.includes(scheme));
    if (first === undefined)
        throw new ApiError('NOT_FOUND', `No integrator has ${scheme}`, [{ field: '/testValueId', message: `no integrator has ${scheme} enabled` }]);
    return first;
}
async function sendSample(deps, integrator, testValue) {
    const message = sampleMessage(testValue.input, testValue.scheme, integrator, deps);
    const rawBody = JSON.stringify(message.body);
    const parsed = parseJson(rawBody);
    const answer = (status, body, transactionId = null) => ({
        testValueId: testValue.id,
        integratorId: integrator.id,
        status,
        transactionId,
        uetr: message.uetr,
        body,
    });
    const invalid = (errors) => answer(400, errorBody(new ApiError('VALIDATION_FAILED', 'The sample failed validation', errors)));
    if (!parsed.ok)
        return invalid([{ field: parsed.pointer, message: parsed.message }]);
    const trace = { traceparent: newTraceparent(), tracestate: null };
    try {
        let status = 202;
        let body = null;
        if (message.kind === 'CREDIT_TRANSFER') {
            const valid = validateCreditTransfer(parsed.value);
            if (!valid.ok)
                return invalid(valid.errors);
            await acceptCreditTransfer(deps, { integrator, transfer: valid.value, rawBody, trace });
        }
        else if (message.kind === 'IDENTIFIER_DETERMINATION') {
            const valid = validateIdentifierDeterminationRequest(parsed.value);
            if (!valid.ok)
                return invalid(valid.errors);
            const result = await determineIdentifier(deps, { integrator, request: valid.value, rawBody, trace, respondAsync: false });
            if (result.kind === 'answered') {
                status = 200;
                body = JSON.parse(result.response);
            }
        }
        else {
            const valid = validateRequestToPay(parsed.value);
            if (!valid.ok)
                return invalid(valid.errors);
            await requestToPay(deps, { integrator, request: valid.value, rawBody, trace });
        }
        const made = await deps.store.findTransaction(integrator.id, message.uetr, message.kind);
        return answer(status, body, made?.id ?? null);
    }
    catch (error) {
        if (error instanceof ApiError)
            return answer(error.status, errorBody(error));
        throw error;
    }
}
/** The integrator's own institution as an agent (the examples are written as the demo integrator). */
function ownAgent(integrator) {
    const { bicfi, memberId } = integrator.institution;
    return { ...(bicfi === undefined ? {} : { bicfi }), ...(memberId === undefined ? {} : { clearingSystemMemberId: { memberId } }) };
}
/** A fresh request of the value's kind, from the document's examples, carrying the value and sent from the integrator's institution. */
function sampleMessage(input, scheme, integrator, deps) {
    const examples = buildExamples({ now: deps.clock.now(), uuid: randomUUID });
    const example = (name) => structuredClone(examples[name]?.value);
    const agent = ownAgent(integrator);
    switch (input.kind) {
        case 'CREDIT_TRANSFER': {
            const body = example(TRANSFER_EXAMPLES[scheme]);
            const ids = body['transactionIdentifiers'];
            body['paymentScheme'] = { ...body['paymentScheme'], schema: scheme };
            body['creditorAccount'] = { identification: { schema: 'GENERIC', value: input.creditorAccount } };
            body['debtorAgent'] = agent;
            if (scheme === 'ZA_RPP')
                body['paymentTypeInformation'] = { localInstrument: { schema: 'PROPRIETARY', value: 'PBA' } };
            return { kind: input.kind, uetr: ids.uetr, body };
        }
        case 'IDENTIFIER_DETERMINATION': {
            const body = example('IdentifierDeterminationMobile');
            const request = body['request'];
            request['instructingAgent'] = agent;
            const { bicfi: _bicfi, memberId: _memberId, ...requestor } = request['requestor'];
            request['requestor'] = { ...requestor, ...integrator.institution };
            const namespace = input.namespace ?? DEFAULT_NAMESPACES[input.schema];
            request['identifier'] = { schema: input.schema, ...(namespace === undefined ? {} : { namespace }), value: input.value };
            if (input.accountAgentBicfi !== undefined)
                request['accountAgent'] = { bicfi: input.accountAgentBicfi };
            return { kind: input.kind, uetr: request['uetr'], body };
        }
        case 'REQUEST_TO_PAY': {
            const body = example('RequestToPayMobile');
            body['creditorAgent'] = agent;
            body['debtorAccount'] = { proxy: { namespace: 'ZA_MOBILE', schema: 'MOBILE', value: input.debtorMobile } };
            return { kind: input.kind, uetr: body['transactionIdentifiers'].uetr, body };
        }
    }
}
/** The namespace a proxy is looked up in when the directory lists it in every namespace. */
const DEFAULT_NAMESPACES = { MOBILE: 'ZA_MOBILE', CUSTOM: 'ZA_CUSTOM' };
/** The example each scheme's sample transfer starts from. */
const TRANSFER_EXAMPLES = {
    ZA_RTC: 'CreditTransferZaRtc',
    ZA_RPP: 'CreditTransferZaRppProxy',
    ZA_EFT: 'CreditTransferZaEft',
    ZA_AC: 'CreditTransferZaEft',
    ZA_RMS: 'CreditTransferZaEft',
    CBPR_PLUS: 'CreditTransferCbprPlus',
    TCIB: 'CreditTransferTcib',
};
function validateSampleRequest(body) {
    if (!isRecord(body))
        return { ok: false, errors: [{ field: '', message: 'must be an object {"testValueId": "…", "integratorId"?: "…"}' }] };
    const errors = [];
    for (const key of Object.keys(body)) {
        if (key !== 'testValueId' && key !== 'integratorId')
            errors.push({ field: `/${key}`, message: 'is not a known property' });
    }
    const text = (key, required) => {
        const value = body[key];
        if (value === undefined && !required)
            return undefined;
        if (typeof value === 'string' && value.length > 0 && value.length <= ID_CHARS_MAX)
            return value;
        errors.push({ field: `/${key}`, message: `must be text of 1 to ${ID_CHARS_MAX} characters` });
        return undefined;
    };
    const testValueId = text('testValueId', true);
    const integratorId = text('integratorId', false);
    if (errors.length > 0 || testValueId === undefined)
        return { ok: false, errors };
    return { ok: true, value: { testValueId, ...(integratorId === undefined ? {} : { integratorId }) } };
}
//# sourceMappingURL=admin-simulator.js.map