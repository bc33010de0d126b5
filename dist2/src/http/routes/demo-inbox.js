import { DEMO_INBOX_PATH } from '../../config/demo.js';
/**
 * The demo integrator's endpoints, served by the service itself in demo mode (app/demo-inbox.ts):
 * `POST /demo/inbox/partner-api/v1/*` (callbacks) and `POST /demo/inbox/events-api/v1/events`.
 * A POST whose signature checks out is acknowledged `204`, or answered `200` with the demo bank's
 * answer when it is a sync lookup or authorisation (app/demo-customers.ts); one whose signature
 * does not check out is kept too (so it can be seen) and answered `401`, as a real receiver would,
 * and is retried like any failure.
 */
export function demoInboxRoutes(scope, inbox) {
    const receive = (channel, prefix) => scope.post(`${DEMO_INBOX_PATH}${prefix}/*`, { schema: { hide: true } }, async (request, reply) => {
        const path = request.url.slice(`${DEMO_INBOX_PATH}${prefix}`.length).split('?')[0] ?? '';
        const entry = inbox.receive(channel, path, request.headers, request.rawBody ?? '');
        request.log.debug({ channel, path, webhookId: entry.webhookId, signatureValid: entry.signatureValid }, 'demo inbox: message received');
        if (!entry.signatureValid)
            return reply.code(401).send();
        if (entry.answer !== undefined)
            return reply.code(200).header('content-type', 'application/json').send(JSON.stringify(entry.answer));
        return reply.code(204).send();
    });
    receive('callback', '/partner-api/v1');
    receive('event', '/events-api/v1');
}
//# sourceMappingURL=demo-inbox.js.map