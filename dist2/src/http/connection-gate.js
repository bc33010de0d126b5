import { createServer, STATUS_CODES } from 'node:http';
import { ApiError } from '../domain/errors.js';
import { AddressSet } from './plugins/allowlist.js';
import { errorBody } from './plugins/errors.js';
/**
 * The allowlist decided on the connection, before HTTP (CONTRACT §5 and §7: a client outside
 * every allowlist gets nothing). The service creates its own HTTP server (Fastify's
 * `serverFactory`), takes Node's connection listener off it and calls that listener only for
 * sockets whose peer some list admits: an integrator's allowlist, `admin.allowlist`,
 * `server.operationsAllowlist` or `server.trustedProxies` (a proxy's requests are judged one by
 * one by their X-Forwarded-For, as before). Any other socket is never read: no parser, no buffer,
 * not a byte written (not even the 400, 408 or 431 Node writes by itself); it joins the
 * connections the allowlist holds (`server.heldConnectionsMax` for all of them together) and is
 * destroyed after `server.heldConnectionMs`, or at once beyond the bound.
 *
 * Admitted connections are bounded too (`server.connectionsMax`): beyond it a new connection is
 * destroyed at once, so foreign and admitted connections together stay below the open-file limit
 * (connectionBudgetProblem, checked at start) and the process can always accept.
 */
/** Open files kept for everything but client connections: database, outbound calls, logs, threads. */
export const OPEN_FILES_RESERVE = 1_024;
/** Why the configured connection bounds could exhaust the open-file limit; undefined when they cannot. */
export function connectionBudgetProblem(server, openFilesLimit) {
    const needed = server.connectionsMax + server.heldConnectionsMax + OPEN_FILES_RESERVE;
    if (needed <= openFilesLimit)
        return undefined;
    return (`server.connectionsMax (${server.connectionsMax}) + server.heldConnectionsMax (${server.heldConnectionsMax}) + ${OPEN_FILES_RESERVE} files ` +
        `kept for the database and outbound calls exceed the open-file limit (${openFilesLimit}, ulimit -n): lower them or raise the limit`);
}
/** The answer to a client error on an admitted connection, by Node's error code. */
const CLIENT_ERROR_CODES = {
    ERR_HTTP_REQUEST_TIMEOUT: 'REQUEST_TIMEOUT',
    HPE_HEADER_OVERFLOW: 'HEADERS_TOO_LARGE',
};
/** A whole HTTP response with an ErrorDetail body, written on a socket whose parser has given up. */
function rawErrorResponse(code) {
    const error = new ApiError(code);
    const body = JSON.stringify(errorBody(error));
    return `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
const CLIENT_ERROR_RESPONSES = new Map(['MALFORMED_REQUEST', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE'].map((code) => [code, rawErrorResponse(code)]));
/** Whether a response to the socket's current request has begun (then nothing else may be written on it). */
function responseStarted(socket) {
    // Node's own guard before it writes an error on a socket (_http_server.js socketOnError).
    return socket._httpMessage?.headersSent === true;
}
export class ConnectionGate {
    /** Addresses whose client errors are answered: admitted for themselves, not only as a proxy for others. */
    #answerable;
    #admitted;
    #holder;
    #lingering;
    #log;
    #server;
    #open = 0;
    #fullLoggedAt = 0;
    constructor(options) {
        const { config } = options;
        const own = [...config.integrators.flatMap((integrator) => integrator.allowlist), ...(config.admin?.allowlist ?? []), ...config.server.operationsAllowlist];
        this.#answerable = new AddressSet(own);
        this.#admitted = new AddressSet([...own, ...config.server.trustedProxies]);
        this.#holder = options.holder;
        this.#lingering = options.lingering;
        this.#log = options.log;
        this.#server = config.server;
    }
    /**
     * Fastify's `serverFactory`: the node HTTP server, gated, with the time bounds on receiving a
     * request (`server.headersTimeoutMs`, `server.requestTimeoutMs`; Fastify would turn the
     * latter off). Node checks them every `connectionsCheckingInterval`, so a bound is overrun by
     * at most a quarter of the shorter one, and by at most a second. Called once per listening address.
     */
    serverFactory = (handler, options) => {
        const { headersTimeoutMs, requestTimeoutMs } = this.#server;
        const server = createServer({ headersTimeout: headersTimeoutMs, requestTimeout: requestTimeoutMs, connectionsCheckingInterval: Math.min(1_000, Math.ceil(headersTimeoutMs / 4)) }, (request, response) => {
            // Its connection closes after the answer already going out: this one could never be answered.
            if (this.#lingering.refused(request.socket))
                request.resume();
            else
                handler(request, response);
        });
        // As Fastify sets up a server it creates itself.
        server.keepAliveTimeout = options['keepAliveTimeout'];
        server.setTimeout(options['connectionTimeout']);
        this.#gate(server);
        return server;
    };
    /** Fastify's `clientErrorHandler`: what a socket whose request cannot be parsed or timed out is told. */
    onClientError = (error, socket) => {
        const answer = this.#answerTo(error, socket);
        if (answer !== undefined && socket.writable)
            socket.write(answer);
        socket.destroy();
    };
    #answerTo(error, socket) {
        const code = error.code ?? '';
        if (!(code in CLIENT_ERROR_CODES) && !code.startsWith('HPE_'))
            return undefined;
        if (!this.#answerable.contains(socket.remoteAddress) || this.#holder.holds(socket) || this.#lingering.refused(socket) || responseStarted(socket))
            return undefined;
        return CLIENT_ERROR_RESPONSES.get(CLIENT_ERROR_CODES[code] ?? 'MALFORMED_REQUEST');
    }
    #gate(server) {
        // Sockets start paused, so a foreign one is never read; Node's listener is called for the others.
        // (net.Server's `pauseOnConnect` option, which http.createServer does not pass on: net reads the
        // property on each connection.)
        server.pauseOnConnect = true;
        const nodeListeners = server.listeners('connection');
        server.removeAllListeners('connection');
        server.on('connection', (socket) => {
            if (!this.#admitted.contains(socket.remoteAddress)) {
                this.#holder.hold(socket);
                return;
            }
            if (this.#open >= this.#server.connectionsMax) {
                socket.destroy();
                this.#logFull();
                return;
            }
            this.#open += 1;
            socket.once('close', () => (this.#open -= 1));
            for (const listener of nodeListeners)
                listener.call(server, socket);
            socket.resume();
        });
    }
    /** At most one line a minute: a flood would otherwise write one per refused connection. */
    #logFull() {
        const now = Date.now();
        if (now - this.#fullLoggedAt < 60_000)
            return;
        this.#fullLoggedAt = now;
        this.#log.warn({ connectionsMax: this.#server.connectionsMax }, 'server.connectionsMax connections are open: new connections are closed unanswered');
    }
}
//# sourceMappingURL=connection-gate.js.map