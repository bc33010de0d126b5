import { parseLinkPrivateKey, parseLinkPublicKey } from '../../lib/link-keys.js';
import { LinkClient } from './link-client.js';
import { LinkServer } from './link-server.js';
/**
 * The `operator-link` transport (docs/operator-link.md): the scheme's documents go to the
 * operator's gateway as signed HTTPS POSTs over mutual TLS, and the operator's documents come in
 * the same way to a listener of the service. A bank points regpay at an operator by configuration
 * (`schemes.<SCHEME>.operatorLink`); the standalone operator simulator (src/operator/) speaks the
 * same link, so every instance of the service shares one operator.
 *
 * Inbound, a message is answered 2xx only once the connector's handler resolved, i.e. the engine
 * recorded it durably; a handler that fails answers 503 and the operator sends it again, to this
 * instance or another. Schemes whose listeners name one host and port share one listener (the
 * configuration makes sure their TLS settings agree), each on its own path.
 */
/** Listeners of this process by `host:port`, shared by the schemes that name them. */
const listeners = new Map();
/** The one place a link key is parsed after the configuration checked it: a failure here is a bug. */
function key(parsed, what) {
    if (!parsed.ok)
        throw new Error(`${what} ${parsed.reason}, though the configuration passed it`);
    return parsed.value;
}
/** Logs nothing: for a transport built without a log (tests that do not look). */
const SILENT = { warn: () => undefined };
export class OperatorLinkTransport {
    #scheme;
    #link;
    #client;
    #operatorKeys;
    #clock;
    #log;
    #listener;
    constructor(scheme, link, clock, log = SILENT) {
        this.#scheme = scheme;
        this.#link = link;
        this.#clock = clock;
        this.#log = log;
        const at = `schemes.${scheme}.operatorLink`;
        this.#operatorKeys = link.operatorKeys.map((text, index) => key(parseLinkPublicKey(text), `${at}.operatorKeyFiles[${index}]`));
        this.#client = new LinkClient({
            tls: { ca: link.ca, cert: link.cert, key: link.key.reveal() },
            signingKey: key(parseLinkPrivateKey(link.signingKey.reveal()), `${at}.signingKeyFile`),
            timeoutMs: link.requestTimeoutMs,
            connectionsMax: link.connectionsMax,
            clock,
        });
    }
    /** The port the operator's messages are received on, once started. */
    get inboundPort() {
        return this.#listener === undefined ? undefined : listeners.get(this.#listener)?.server.port;
    }
    async send(message) {
        const outcome = await this.#client.send(this.#link.url, {
            scheme: message.scheme,
            messageName: message.messageName,
            idempotencyKey: message.messageId,
            document: message.document,
            traceparent: message.traceparent,
        });
        if (outcome.kind === 'delivered')
            return outcome;
        if (outcome.status === 401 || outcome.status === 403) {
            this.#log.warn({ scheme: this.#scheme, messageName: message.messageName, status: outcome.status }, 'operator link: the operator refused our certificate or signature; check the link keys at both ends');
        }
        return { kind: 'failed', retryable: outcome.retryable, error: outcome.error };
    }
    async start(handler) {
        const { host, port } = this.#link.inbound;
        const where = `${host}:${port}`;
        let listener = listeners.get(where);
        if (listener === undefined) {
            const server = new LinkServer({
                name: 'operator link (inbound)',
                host,
                port,
                tls: { ca: this.#link.ca, cert: this.#link.cert, key: this.#link.key.reveal() },
                peerFingerprints: this.#link.operatorCertificateSha256,
                signatureMaxAgeS: this.#link.signatureMaxAgeS,
                clock: this.#clock,
                log: this.#log,
            });
            listener = { server, listening: server.listen() };
            listeners.set(where, listener);
            // A listener that cannot listen is not kept: the next start tries again.
            listener.listening.catch(() => listeners.delete(where));
        }
        listener.server.route(this.#scheme, {
            keys: this.#operatorKeys,
            take: async (message) => {
                await handler({ document: message.document });
                return { status: 204 };
            },
        });
        this.#listener = where;
        await listener.listening;
    }
    async stop() {
        const where = this.#listener;
        this.#listener = undefined;
        const listener = where === undefined ? undefined : listeners.get(where);
        if (where !== undefined && listener !== undefined) {
            listener.server.unroute(this.#scheme);
            if (listener.server.routeCount === 0) {
                listeners.delete(where);
                await listener.server.close();
            }
        }
        await this.#client.close();
    }
}
/** The registry's `operator-link` factory: the scheme's `operatorLink` settings, which the configuration requires with this connector. */
export function operatorLinkTransport(context) {
    const link = context.config?.operatorLink;
    if (link === undefined)
        throw new Error(`schemes.${context.scheme}.operatorLink: is required with connector operator-link`);
    return new OperatorLinkTransport(context.scheme, link, context.clock, context.log);
}
//# sourceMappingURL=transport.js.map