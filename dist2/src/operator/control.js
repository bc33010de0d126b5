import { createServer } from 'node:http';
import { isRecord } from '../domain/messages/validate.js';
import { SCHEMES } from '../domain/schemes.js';
const BODY_BYTES_MAX = 65_536;
const ORIGINATE = /^\/v1\/schemes\/([A-Z_]+)\/inbound$/;
const VIEW = /^\/v1\/schemes\/([A-Z_]+)\/inbound\/([0-9a-fA-F-]{36})$/;
export class ControlServer {
    #server;
    constructor(target) {
        this.#server = createServer((request, response) => {
            handle(target, request, response).catch(() => answer(response, 500, { error: 'control request failed' }));
        });
    }
    listen(host, port) {
        return new Promise((resolve, reject) => {
            this.#server.once('error', reject);
            this.#server.listen(port, host, () => {
                const address = this.#server.address();
                resolve(typeof address === 'object' && address !== null ? address.port : port);
            });
        });
    }
    close() {
        return new Promise((resolve) => this.#server.close(() => resolve()));
    }
}
async function handle(target, request, response) {
    const url = request.url ?? '';
    const view = VIEW.exec(url);
    if (request.method === 'GET' && view !== null) {
        const scheme = schemeOf(view[1]);
        const seen = scheme === undefined ? undefined : target.inboundOf(scheme, (view[2] ?? '').toLowerCase());
        answer(response, seen === undefined ? 404 : 200, seen ?? { error: 'nothing originated with that uetr' });
        return;
    }
    const originate = ORIGINATE.exec(url);
    if (request.method !== 'POST' || originate === null) {
        answer(response, 404, { error: 'POST /v1/schemes/{SCHEME}/inbound or GET /v1/schemes/{SCHEME}/inbound/{uetr}' });
        return;
    }
    const scheme = schemeOf(originate[1]);
    const body = await bodyOf(request);
    let order;
    try {
        order = JSON.parse(body ?? '');
    }
    catch {
        answer(response, 400, { error: body === undefined ? `the body is over ${BODY_BYTES_MAX} bytes` : 'the body is not JSON' });
        return;
    }
    if (scheme === undefined || !isRecord(order) || !isRecord(order.institution)) {
        answer(response, 400, { error: scheme === undefined ? 'unknown scheme' : 'the body must be an order naming its institution' });
        return;
    }
    // The order's fields are checked by the operator (checkOrder), which refuses a bad one with its reason.
    const started = target.originate(scheme, order);
    answer(response, started.ok ? 202 : 400, started);
}
function schemeOf(name) {
    return SCHEMES.find((scheme) => scheme === name);
}
/** The body as text, or undefined past BODY_BYTES_MAX. */
async function bodyOf(request) {
    const chunks = [];
    let bytes = 0;
    for await (const chunk of request) {
        bytes += chunk.length;
        if (bytes > BODY_BYTES_MAX)
            return undefined;
        chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString('utf8');
}
function answer(response, status, body) {
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}
//# sourceMappingURL=control.js.map