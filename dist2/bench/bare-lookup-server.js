/**
 * The baseline of the identifier-determination benchmark: a bare Fastify server on the same path
 * that parses the request with Fastify's default JSON parser, holds it for HOLD_MS (the
 * simulator's latency regpay is configured with, so both are measured the same way: HTTP
 * latency minus that) and answers 200 with an IdentifierDeterminationResponse of regpay's size
 * and shape (the request's identifiers, outcome SUCCESSFUL), and nothing else: no
 * authentication, validation, store or scheme exchange.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
const HOLD_MS = Number(process.env.HOLD_MS ?? 0);
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.post('/api/v1/identifiers/outbound/identifier-determination', async (request, reply) => {
    const body = request.body;
    if (HOLD_MS > 0)
        await new Promise((resolve) => setTimeout(resolve, HOLD_MS));
    return reply
        .code(200)
        .type('application/json')
        .send(JSON.stringify({
        schema: 'IdentifierDeterminationResponse',
        messageIdentifiers: { messageIdentification: randomUUID().replaceAll('-', ''), creationDateTime: new Date().toISOString() },
        originalMessageIdentifiers: body.messageIdentifiers,
        scheme: 'ZA_RPP',
        uetr: body.request.uetr,
        verificationIdentification: body.request.verificationIdentification,
        report: {
            reportInformation: {
                outcome: 'SUCCESSFUL',
                accountInformation: { creationDate: '2016-04-12', proxy: body.request.identifier, traditionalIdentifier: '62845123907' },
                accountOwner: { knownAsName: 'Thandi D', legalName: 'Thandiwe Nomvula Dlamini' },
                accountAgent: { bicfi: 'FIRNZAJJ' },
                transactionLimit: { currency: 'ZAR', value: '50000.00' },
            },
        },
    }));
});
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
//# sourceMappingURL=bare-lookup-server.js.map