import fp from 'fastify-plugin';
import ipaddr from 'ipaddr.js';
import { BoundedMap } from '../../lib/bounded-map.js';
/**
 * Addresses parsed lately. Every request is judged several times (trusted proxy, any integrator,
 * its own integrator) and comes from one of few addresses, so each is parsed once, not per check.
 * Bounded: a flood from many addresses only evicts.
 */
const knownAddresses = new BoundedMap(4_096);
function knownAddress(text) {
    const known = knownAddresses.get(text);
    if (known !== undefined)
        return known ?? undefined;
    const trimmed = text.trim();
    let parsed = null;
    if (ipaddr.isValid(trimmed)) {
        const address = ipaddr.process(trimmed);
        if (address.kind() === 'ipv6')
            address.zoneId = undefined;
        parsed = { address, text: address.toString() };
    }
    knownAddresses.set(text, parsed);
    return parsed ?? undefined;
}
/**
 * Parse an address, turning IPv4-mapped IPv6 (`::ffff:10.1.2.3`) into plain IPv4; undefined when
 * unparseable. The result is shared by every caller with the same text: never change it.
 */
export function parseAddress(text) {
    return knownAddress(text)?.address;
}
function parseBlock(cidr) {
    const [network, prefix] = ipaddr.parseCIDR(cidr);
    // An IPv4-mapped IPv6 block (`::ffff:10.0.0.0/104`) is the IPv4 block it maps, because
    // addresses are compared after the same mapping.
    if (network.kind() === 'ipv6' && network.isIPv4MappedAddress() && prefix >= 96) {
        return [network.toIPv4Address(), prefix - 96];
    }
    return [network, prefix];
}
/** A set of CIDR blocks (config strings are validated at load, so parsing here cannot fail). */
export class AddressSet {
    #blocks;
    constructor(cidrs) {
        this.#blocks = cidrs.map(parseBlock);
    }
    contains(address) {
        const parsed = typeof address === 'string' ? parseAddress(address) : address;
        if (parsed === undefined)
            return false;
        return this.#blocks.some(([network, prefix]) => network.kind() === parsed.kind() && parsed.match(network, prefix));
    }
}
/**
 * The address to judge. The socket peer, unless the peer is a trusted proxy: then walk
 * X-Forwarded-For from the right (the entry the nearest proxy appended) past further trusted
 * proxies, and take the first untrusted entry. Entries to its left were written by the client
 * and could say anything. An unparseable entry is taken as the address (and matches nothing).
 */
export function resolveClientAddress(socketAddress, forwardedFor, trusted) {
    let current = socketAddress ?? '';
    if (!trusted.contains(current) || forwardedFor === undefined)
        return normalize(current);
    const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
        .split(',')
        .map((entry) => entry.trim())
        .filter((entry) => entry !== '');
    for (let i = entries.length - 1; i >= 0; i -= 1) {
        current = entries[i] ?? '';
        if (!trusted.contains(current))
            break;
    }
    return normalize(current);
}
function normalize(text) {
    return knownAddress(text)?.text ?? text;
}
/** Route patterns of the operations endpoints, which are never allowlisted. */
export function isOperationsRoute(routeUrl) {
    if (routeUrl === undefined)
        return false;
    return (routeUrl === '/health/live' ||
        routeUrl === '/health/ready' ||
        routeUrl === '/metrics' ||
        routeUrl === '/openapi.json' ||
        routeUrl === '/docs' ||
        routeUrl.startsWith('/docs/'));
}
/** Route patterns of the admin API and the console, which answer the addresses of `admin.allowlist` instead. */
export function isAdminRoute(routeUrl) {
    return routeUrl !== undefined && (routeUrl.startsWith('/admin/') || routeUrl === '/console' || routeUrl.startsWith('/console/'));
}
/** Sockets held without an answer, each destroyed after the hold time; bounded in number. */
export class ConnectionHolder {
    holdMs;
    heldMax;
    #held = new Map();
    #closed = false;
    constructor(holdMs, heldMax) {
        this.holdMs = holdMs;
        this.heldMax = heldMax;
    }
    get size() {
        return this.#held.size;
    }
    holds(socket) {
        return this.#held.has(socket);
    }
    hold(socket) {
        if (this.#held.has(socket))
            return;
        if (this.#closed || this.#held.size >= this.heldMax || socket.destroyed) {
            socket.destroy();
            return;
        }
        const timer = setTimeout(() => socket.destroy(), this.holdMs);
        // The timer must not keep a stopping process alive; close() destroys the socket anyway.
        timer.unref();
        this.#held.set(socket, timer);
        socket.once('close', () => {
            clearTimeout(timer);
            this.#held.delete(socket);
        });
    }
    /** Destroy every held connection and refuse to hold more (app close). */
    close() {
        this.#closed = true;
        for (const [socket, timer] of this.#held) {
            clearTimeout(timer);
            socket.destroy();
        }
        this.#held.clear();
    }
}
/**
 * Hold this request's connection unanswered (for the auth layer and the token endpoint: an
 * integrator's credentials used from an address outside that integrator's own allowlist).
 * Nothing is written; after this call the reply must not be used.
 */
export function holdRequest(request, reply) {
    reply.hijack();
    request.server.connectionHolder.hold(request.raw.socket);
    request.log.info({ clientAddress: request.clientAddress }, 'request from a non-allowlisted address held unanswered');
}
const integratorSets = new WeakMap();
/** Is this address in this integrator's own allowlist? */
export function integratorAllows(integrator, address) {
    let set = integratorSets.get(integrator);
    if (set === undefined) {
        set = new AddressSet(integrator.allowlist);
        integratorSets.set(integrator, set);
    }
    return set.contains(address);
}
export const allowlistPlugin = fp((app, options) => {
    const { server, integrators } = options.config;
    const trusted = new AddressSet(server.trustedProxies);
    const anyIntegrator = new AddressSet(integrators.flatMap((integrator) => integrator.allowlist));
    const admin = options.config.admin === undefined ? undefined : new AddressSet(options.config.admin.allowlist);
    const holder = options.holder ?? new ConnectionHolder(server.heldConnectionMs, server.heldConnectionsMax);
    const addressOf = (raw) => resolveClientAddress(raw.socket.remoteAddress, raw.headers['x-forwarded-for'], trusted);
    app.decorate('connectionHolder', holder);
    app.decorateRequest('clientAddress', '');
    app.addHook('onRequest', async (request, reply) => {
        request.clientAddress = addressOf(request.raw);
        if (isOperationsRoute(request.routeOptions.url) || isAdminRoute(request.routeOptions.url))
            return;
        if (anyIntegrator.contains(request.clientAddress))
            return;
        holdRequest(request, reply);
    });
    // Node answers `Expect: 100-continue` by itself before any hook runs, which would write bytes
    // to a non-allowlisted client. Taking the event over lets only allowed clients see the 100,
    // and not for a body declared over the limit: its 413 comes before the client sends it.
    const onCheckContinue = (request, response) => {
        const allowed = anyIntegrator.contains(addressOf(request)) || isOperationsPath(request.url) || admin?.contains(addressOf(request)) === true;
        if (allowed && !(Number(request.headers['content-length']) > server.bodyBytesMax))
            response.writeContinue();
        app.server.emit('request', request, response);
    };
    app.server.on('checkContinue', onCheckContinue);
    // preClose runs before the server stops accepting and waits for connections; held ones are
    // destroyed then, and onClose catches any that arrived in between.
    app.addHook('preClose', (done) => {
        holder.close();
        done();
    });
    app.addHook('onClose', (_instance, done) => {
        holder.close();
        app.server.off('checkContinue', onCheckContinue);
        done();
    });
}, { name: 'regpay-allowlist', fastify: '5.x' });
/** Raw-URL form of isOperationsRoute, for the one place that runs before routing. */
function isOperationsPath(url) {
    const path = (url ?? '').split('?')[0] ?? '';
    return isOperationsRoute(path);
}
//# sourceMappingURL=allowlist.js.map