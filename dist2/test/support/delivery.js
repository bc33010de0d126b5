import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { openStore } from '../../src/adapters/store.js';
import { configFromObject } from '../../src/config/load.js';
export class TestReceiver {
    requests = [];
    respond = () => ({ status: 204 });
    #server;
    #port = 0;
    #sockets = new Set();
    #timers = new Set();
    static async start(respond) {
        const receiver = new TestReceiver();
        if (respond !== undefined)
            receiver.respond = respond;
        await receiver.up();
        return receiver;
    }
    get port() {
        return this.#port;
    }
    get url() {
        return `http://127.0.0.1:${this.#port}`;
    }
    /** Requests to one path, in arrival order. */
    to(path) {
        return this.requests.filter((request) => request.path === path);
    }
    /** Listen (again, on the same port after down()). */
    async up() {
        const server = createServer((request, response) => this.#handle(request, response));
        server.on('connection', (socket) => {
            this.#sockets.add(socket);
            socket.once('close', () => this.#sockets.delete(socket));
        });
        await new Promise((resolve, reject) => {
            server.once('error', reject);
            server.listen({ host: '127.0.0.1', port: this.#port }, () => resolve());
        });
        this.#port = server.address().port;
        this.#server = server;
    }
    /** Stop listening and cut every open connection: the integrator is down. */
    async down() {
        const server = this.#server;
        if (server === undefined)
            return;
        this.#server = undefined;
        for (const timer of this.#timers)
            clearTimeout(timer);
        this.#timers.clear();
        const closed = new Promise((resolve) => server.close(() => resolve()));
        for (const socket of this.#sockets)
            socket.destroy();
        await closed;
    }
    #handle(request, response) {
        const chunks = [];
        request.on('data', (chunk) => chunks.push(chunk));
        request.on('end', () => {
            const headers = {};
            for (const [name, value] of Object.entries(request.headers)) {
                if (value !== undefined)
                    headers[name] = Array.isArray(value) ? value.join(', ') : value;
            }
            const received = {
                method: request.method ?? '',
                path: request.url ?? '',
                headers,
                body: Buffer.concat(chunks).toString('utf8'),
                index: this.requests.length,
            };
            this.requests.push(received);
            const answer = this.respond(received);
            if (answer.hang === true)
                return;
            const send = () => {
                response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
                if (answer.stallBody === true)
                    response.write('{"status":');
                else
                    response.end(answer.body ?? '');
            };
            if (answer.delayMs === undefined)
                send();
            else {
                const timer = setTimeout(() => {
                    this.#timers.delete(timer);
                    send();
                }, answer.delayMs);
                this.#timers.add(timer);
            }
        });
    }
}
/** Wait until `condition()` holds (polling), or fail naming what was awaited. */
export async function eventually(condition, what, timeoutMs = 5_000) {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        if (await condition())
            return;
        if (Date.now() > deadline)
            throw new Error(`not within ${timeoutMs} ms: ${what}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
    }
}
export const CALLBACK_PATH = '/partner-api/v1/transactions/outbound/credit-transfer-response';
export const EVENTS_PATH = '/events-api/v1/events';
export const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** An integrator as the service's configuration would produce it, its endpoints on `baseUrl`. */
export async function integratorConfig(id, baseUrl, extra = {}) {
    const config = await configFromObject({
        database: 'sqlite::memory:',
        auth: { mode: 'basic' },
        integrators: [
            {
                id,
                institution: { bicfi: 'DEMOZAJJ' },
                allowlist: ['127.0.0.1/32'],
                // A ready scrypt hash, so building the config costs no hashing.
                credentials: { username: `${id}-user`, passwordHash: 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaA' },
                partnerApiUrl: `${baseUrl}/partner-api/v1`,
                eventsApiUrl: `${baseUrl}/events-api/v1`,
                schemes: ['ZA_RPP'],
                ...extra,
            },
        ],
    });
    const integrator = config.integrators[0];
    if (integrator === undefined)
        throw new Error('no integrator');
    return integrator;
}
/** The delivery settings of a configuration that names none (what main.ts hands the dispatcher). */
export async function deliveryDefaults() {
    const config = await configFromObject({
        database: 'sqlite::memory:',
        auth: { mode: 'basic' },
        integrators: [
            {
                id: 'bank-defaults',
                institution: { bicfi: 'DEMOZAJJ' },
                allowlist: ['127.0.0.1/32'],
                credentials: { username: 'defaults-user', passwordHash: 'scrypt$1024$8$1$c2FsdHNhbHRzYWx0c2FsdA$aGFzaGhhc2hoYXNoaGFzaA' },
                partnerApiUrl: 'http://127.0.0.1:9/partner-api/v1',
                eventsApiUrl: 'http://127.0.0.1:9/events-api/v1',
                schemes: ['ZA_RPP'],
            },
        ],
    });
    return config.delivery;
}
/** The outbox rows of one transaction, as the engine would write them. */
export function message(integrator, channel, body = {}) {
    const id = randomUUID();
    return {
        id,
        channel,
        url: channel === 'callback' ? `${integrator.partnerApiUrl}/transactions/outbound/credit-transfer-response` : `${integrator.eventsApiUrl}/events`,
        body: JSON.stringify({ id, ...body }),
        headers: { traceparent: TRACEPARENT, tracestate: 'vendor=opaque' },
        availableAt: 0,
    };
}
/** Store a transaction with these outbox messages (in this order) and return its id. */
export async function seedTransaction(store, integrator, outbox, at = 0) {
    const uetr = randomUUID();
    const messageId = `MSG${uetr.replaceAll('-', '').slice(0, 20)}`;
    const tx = {
        id: randomUUID(),
        integratorId: integrator.id,
        kind: 'CREDIT_TRANSFER',
        uetr,
        scheme: 'ZA_RPP',
        messageId,
        payloadHash: `hash-${messageId}`,
        rawBody: '{}',
        amountMinor: 100n,
        currency: 'ZAR',
        state: 'PAYMENT_AUTH_REQUEST_RECEIVED',
        receivedAt: at,
        dueAt: null,
        traceparent: TRACEPARENT,
        tracestate: null,
        outbox: outbox.map((row) => ({ ...row, availableAt: at })),
    };
    const outcome = await store.intake(tx);
    if (outcome.kind !== 'accepted')
        throw new Error(`intake: ${outcome.kind}`);
    return tx.id;
}
export function memoryStore() {
    return openStore('sqlite::memory:');
}
/**
 * The store with some of its methods replaced, everything else passed through: for counting or
 * refusing calls. A replacement gets the real store to call on.
 */
export function withStoreMethods(store, replaced) {
    return new Proxy(store, {
        get(target, property) {
            const replace = replaced[property];
            if (replace !== undefined)
                return replace(target);
            const value = Reflect.get(target, property, target);
            return typeof value === 'function' ? value.bind(target) : value;
        },
    });
}
//# sourceMappingURL=delivery.js.map