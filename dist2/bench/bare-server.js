/**
 * The baseline: a bare Fastify server answering 202 to the same path and payload, with Fastify's
 * default JSON parsing and nothing else. regpay's figures are reported as ratios to this one,
 * measured in the same run on the same machine.
 */
import Fastify from 'fastify';
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 });
app.post('/api/v1/transactions/outbound/credit-transfer', (_request, reply) => reply.code(202).send());
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
//# sourceMappingURL=bare-server.js.map