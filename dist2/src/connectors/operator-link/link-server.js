import { createServer } from 'node:https';
import { BODY_BYTES_MAX, HEADER, schemeOfPath, verifyMessage } from './protocol.js';
const HEADERS_TIMEOUT_MS = 10_000;
/** A message is answered once the receiver recorded it, which may wait on a busy store. */
const REQUEST_TIMEOUT_MS = 60_000;
const KEEP_ALIVE_TIMEOUT_MS = 10_000;
export class LinkServer {
    #options;
    #server;
    #routes = new Map();
    constructor(options) {
        this.#options = options;
        this.#server = createServer({
            ca: options.tls.ca,
            cert: options.tls.cert,
            key: options.tls.key,
            requestCert: true,
            rejectUnauthorized: true,
            minVersion: 'TLSv1.2',
            headersTimeout: HEADERS_TIMEOUT_MS,
            requestTimeout: REQUEST_TIMEOUT_MS,
            keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
        }, 
        // A request that breaks off while its body is read ends with its connection.
        (request, response) => void this.#handle(request, response).catch(() => response.destroy()));
        this.#server.on('tlsClientError', (error, socket) => {
            options.log.warn({ remoteAddress: socket.remoteAddress, reason: error.code ?? error.message }, `${options.name}: TLS connection refused`);
        });
        this.#server.on('secureConnection', (socket) => void this.#checkPin(socket));
    }
    /** The port listened on (the one given, or the one the system chose for 0). */
    get port() {
        return this.#server.address()?.port ?? this.#options.port;
    }
    get routeCount() {
        return this.#routes.size;
    }
    route(scheme, route) {
        this.#routes.set(scheme, route);
    }
    unroute(scheme) {
        this.#routes.delete(scheme);
    }
    listen() {
        return new Promise((resolve, reject) => {
            this.#server.once('error', reject);
            this.#server.listen({ host: this.#options.host, port: this.#options.port }, () => {
                this.#server.off('error', reject);
                resolve();
            });
        });
    }
    /** Stop listening; messages being handed on are answered first, idle connections are closed at once. */
    close() {
        const closed = new Promise((resolve) => this.#server.close(() => resolve()));
        this.#server.closeIdleConnections();
        return closed;
    }
    /**
     * A certificate the CA issued but the pins do not name: its connection is closed as soon as the
     * handshake is done (true when it is, false when the connection may go on). A request that came
     * with the handshake's last flight may already be parsed: #handle asks again before reading it.
     */
    #checkPin(socket) {
        const pins = this.#options.peerFingerprints;
        if (pins.length === 0)
            return false;
        const fingerprint = socket.getPeerCertificate().fingerprint256;
        if (pins.includes(fingerprint))
            return false;
        if (!socket.destroyed) {
            this.#options.log.warn({ remoteAddress: socket.remoteAddress, fingerprint256: fingerprint }, `${this.#options.name}: client certificate not among the pinned ones; connection refused`);
            socket.destroy();
        }
        return true;
    }
    async #handle(request, response) {
        if (this.#checkPin(request.socket))
            return;
        const path = (request.url ?? '').split('?')[0] ?? '';
        if (path === '/health') {
            reply(response, request.method === 'GET' ? 200 : 405, request.method === 'GET' ? undefined : 'method not allowed');
            return;
        }
        const scheme = schemeOfPath(path);
        const route = scheme === undefined ? undefined : this.#routes.get(scheme);
        if (scheme === undefined || route === undefined) {
            request.resume();
            reply(response, 404, scheme === undefined ? 'no such path' : `${scheme} is not served here`);
            return;
        }
        if (request.method !== 'POST') {
            request.resume();
            reply(response, 405, 'method not allowed');
            return;
        }
        if (!/^(application|text)\/xml\b/i.test(request.headers['content-type'] ?? '')) {
            request.resume();
            reply(response, 415, 'the body must be an ISO 20022 XML document (application/xml)');
            return;
        }
        const body = await readBody(request);
        if (body === undefined) {
            reply(response, 413, `the body is larger than ${BODY_BYTES_MAX} bytes`, { connection: 'close' });
            return;
        }
        const about = {
            scheme,
            messageName: single(request.headers[HEADER.messageName]),
            idempotencyKey: single(request.headers[HEADER.idempotencyKey]),
        };
        const verified = await verifyMessage({ ...about, signature: single(request.headers[HEADER.signature]), body }, route.keys, this.#options.clock.now(), this.#options.signatureMaxAgeS);
        if (!verified.ok) {
            this.#options.log.warn({ remoteAddress: request.socket.remoteAddress, ...about, reason: verified.reason }, `${this.#options.name}: message refused, its signature does not hold; nothing handed on`);
            reply(response, 401, `signature refused: ${verified.reason}`);
            return;
        }
        try {
            const answer = await route.take({
                scheme,
                messageName: about.messageName ?? '',
                idempotencyKey: about.idempotencyKey ?? '',
                document: Buffer.from(body).toString('utf8'),
                traceparent: single(request.headers[HEADER.traceparent]) ?? null,
            });
            reply(response, answer.status, answer.message);
        }
        catch (error) {
            this.#options.log.warn({ ...about, err: error }, `${this.#options.name}: message could not be taken now; the sender sends it again`);
            reply(response, 503, 'not taken now; send it again', { 'retry-after': '1' });
        }
    }
}
function single(value) {
    return Array.isArray(value) ? value[0] : value;
}
/** The whole body, or undefined when it is larger than the link allows (the rest is not read). */
function readBody(request) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let size = 0;
        request.on('data', (chunk) => {
            size += chunk.length;
            if (size > BODY_BYTES_MAX) {
                request.removeAllListeners('data');
                request.pause();
                resolve(undefined);
                return;
            }
            chunks.push(chunk);
        });
        request.once('end', () => resolve(Buffer.concat(chunks)));
        request.once('error', reject);
    });
}
/** An answer: empty for a success, an ErrorDetail with the reason otherwise. */
function reply(response, status, message, headers = {}) {
    if (message === undefined) {
        response.writeHead(status, headers).end();
        return;
    }
    const body = JSON.stringify({ schema: 'ErrorDetail', message });
    response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers }).end(body);
}
//# sourceMappingURL=link-server.js.map