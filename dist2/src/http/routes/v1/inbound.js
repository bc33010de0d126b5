import { Type } from '@sinclair/typebox';
import { reportInboundAnswer } from '../../../app/inbound-answers.js';
import { ApiError } from '../../../domain/errors.js';
import { validateAuthorisationReport, validateInboundRequestToPayResponse, validateLookupAnswer } from '../../../domain/messages/inbound-answers.js';
import { assert } from '../../../lib/assert.js';
import { traceFromHeaders } from '../../../lib/trace.js';
import { commonErrorResponses, errorResponse } from '../../schemas.js';
import { domainValidator } from '../../validation.js';
const ANSWERED_ALREADY = 'the scheme was already answered (the budget ran out, or another answer came first), or the message id was used for another body';
const ANSWER_ROUTES = [
    {
        path: '/transactions/inbound/credit-transfer-authorisation-response',
        about: 'credit',
        operationId: 'inboundCreditTransferAuthorisationResponse',
        summary: 'Decision on an inbound credit (async authorisation)',
        description: 'The receiving bank decides on a credit the scheme brought it (async authorisation by arrangement): APPROVED, or REJECTED with an ISO 20022 reason. ' +
            'Named by transactionIdentifiers.uetr; taken while the answer budget lasts, then sent to the scheme as a pacs.002.',
        schema: 'AuthorisationReport',
        message: 'PaymentStatusReport',
        validate: validateAuthorisationReport,
        notFound: 'No inbound credit of this integrator has that uetr',
        conflict: ANSWERED_ALREADY,
    },
    {
        path: '/identifiers/inbound/identifier-determination-report',
        about: 'lookup',
        operationId: 'inboundIdentifierDeterminationReport',
        summary: 'Answer to an inbound lookup (async)',
        description: "The receiving bank's answer to a lookup of its customer (async by arrangement): SUCCESSFUL with the account and both names, or FAILED with a reason code. " +
            'Named by uetr; taken while the answer budget lasts, then sent to the scheme as an acmt.024.',
        schema: 'IdentifierDeterminationResponse',
        message: 'IdentifierDeterminationResponse',
        validate: validateLookupAnswer,
        notFound: 'No inbound lookup of this integrator has that uetr',
        conflict: ANSWERED_ALREADY,
    },
    {
        path: '/transactions/inbound/request-to-pay-response',
        about: 'request_to_pay',
        operationId: 'inboundRequestToPayResponse',
        summary: "Decision on a request-to-pay to the bank's customer",
        description: "The paying bank reports its customer's decision on a request-to-pay the scheme brought it (the inboundRequestToPay callback): PRESENTED, ACCEPTED, " +
            "or REJECTED with an ISO 20022 reason; each is sent to the scheme as a pain.014. Named by transactionIdentifiers.uetr. PAID follows from the bank's own " +
            "credit transfer carrying the request's uetr and end-to-end id; PENDING, PAID, EXPIRED and CANCELLED are never the bank's to report (400 at /status/status).",
        schema: 'RequestToPayResponse',
        message: 'RequestToPayResponse',
        validate: validateInboundRequestToPayResponse,
        notFound: 'No inbound request-to-pay of this integrator has that uetr',
        conflict: 'The request-to-pay has ended (PAID, REJECTED, CANCELLED, EXPIRED), or the decision goes back (PRESENTED after ACCEPTED), or the message id was used for another body',
    },
];
/** The integrator's async answers as the receiving bank (CONTRACT §11), each handed to the machine of the transaction it names. */
export function inboundRoutes(app, deps) {
    const machine = () => {
        const processing = deps.processing;
        if (processing === undefined)
            throw new ApiError('NOT_READY', 'this instance takes no answers about inbound transactions', [], { 'retry-after': '1' });
        return { ...deps, processing };
    };
    for (const route of ANSWER_ROUTES) {
        app.post(route.path, {
            schema: {
                operationId: route.operationId,
                summary: route.summary,
                description: route.description,
                tags: ['receiving'],
                body: Type.Ref(route.schema),
                response: { ...commonErrorResponses, 202: { description: 'Taken; the scheme is answered', type: 'null' }, 404: errorResponse(route.notFound), 409: errorResponse(route.conflict) },
            },
            validatorCompiler: domainValidator(route.validate, route.message),
        }, async (request, reply) => {
            assert(request.integrator !== null && request.rawBody !== undefined, 'auth and body parsing ran');
            // The body is the one route.validate took, of the message route.about names.
            const answer = { about: route.about, report: request.body };
            await reportInboundAnswer(machine(), { ...answer, integrator: request.integrator, rawBody: request.rawBody, trace: traceFromHeaders(request.headers.traceparent, request.headers.tracestate) });
            return reply.code(202).send();
        });
    }
}
//# sourceMappingURL=inbound.js.map