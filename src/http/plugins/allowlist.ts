import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import ipaddr from 'ipaddr.js';
import type { Config, IntegratorConfig } from '../../config/types.js';
import { BoundedMap } from '../../lib/bounded-map.js';

/**
 * Layer 1 of authentication (CONTRACT §7, spec "Source IP allowlisting"), per request: a request
 * from an address in no integrator's allowlist gets no response at all. The connection is held
 * open without a byte written for `server.heldConnectionMs`, then destroyed, so to a scanner the
 * service looks like a black hole rather than a server that says no. Connections from addresses
 * in no list at all never reach HTTP: the connection gate (http/connection-gate.ts) holds them in
 * the same holder, so `server.heldConnectionsMax` bounds both together; beyond it they are
 * destroyed at once, so holding can never exhaust file descriptors. Closing the app destroys every
 * held connection, so shutdown never waits for them.
 *
 * The operations paths (`/health/*`, `/metrics`, `/openapi.json`, `/docs`) are exempt: they are
 * for the platform, not for integrators (the gate admits the platform's addresses,
 * `server.operationsAllowlist`). So are the admin routes (`/admin/v1/…`) and the operator's console
 * (`/console/…`), when configured: they apply the operator's own `admin.allowlist` instead.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The client address the allowlist judged (socket peer, or X-Forwarded-For behind a trusted proxy). */
    clientAddress: string;
  }
  interface FastifyInstance {
    /** Holds connections unanswered; see holdRequest. */
    connectionHolder: ConnectionHolder;
  }
}

export interface AllowlistOptions {
  readonly config: Config;
  /** The holder the connection gate shares; one of the configured size is made when absent. */
  readonly holder?: ConnectionHolder;
}

type Address = ipaddr.IPv4 | ipaddr.IPv6;
type Block = readonly [Address, number];

/** A parsed address with its normalized text (what the allowlist judged, as logged). */
interface KnownAddress {
  readonly address: Address;
  readonly text: string;
}

/**
 * Addresses parsed lately. Every request is judged several times (trusted proxy, any integrator,
 * its own integrator) and comes from one of few addresses, so each is parsed once, not per check.
 * Bounded: a flood from many addresses only evicts.
 */
const knownAddresses = new BoundedMap<string, KnownAddress | null>(4_096);

function knownAddress(text: string): KnownAddress | undefined {
  const known = knownAddresses.get(text);
  if (known !== undefined) return known ?? undefined;
  const trimmed = text.trim();
  let parsed: KnownAddress | null = null;
  if (ipaddr.isValid(trimmed)) {
    const address = ipaddr.process(trimmed);
    if (address.kind() === 'ipv6') (address as ipaddr.IPv6).zoneId = undefined;
    parsed = { address, text: address.toString() };
  }
  knownAddresses.set(text, parsed);
  return parsed ?? undefined;
}

/**
 * Parse an address, turning IPv4-mapped IPv6 (`::ffff:10.1.2.3`) into plain IPv4; undefined when
 * unparseable. The result is shared by every caller with the same text: never change it.
 */
export function parseAddress(text: string): Address | undefined {
  return knownAddress(text)?.address;
}

function parseBlock(cidr: string): Block {
  const [network, prefix] = ipaddr.parseCIDR(cidr);
  // An IPv4-mapped IPv6 block (`::ffff:10.0.0.0/104`) is the IPv4 block it maps, because
  // addresses are compared after the same mapping.
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(network as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return [network, prefix];
}

/** A set of CIDR blocks (config strings are validated at load, so parsing here cannot fail). */
export class AddressSet {
  readonly #blocks: readonly Block[];

  constructor(cidrs: readonly string[]) {
    this.#blocks = cidrs.map(parseBlock);
  }

  contains(address: string | Address | undefined): boolean {
    const parsed = typeof address === 'string' ? parseAddress(address) : address;
    if (parsed === undefined) return false;
    return this.#blocks.some(([network, prefix]) => network.kind() === parsed.kind() && parsed.match(network, prefix));
  }
}

/**
 * The address to judge. The socket peer, unless the peer is a trusted proxy: then walk
 * X-Forwarded-For from the right (the entry the nearest proxy appended) past further trusted
 * proxies, and take the first untrusted entry. Entries to its left were written by the client
 * and could say anything. An unparseable entry is taken as the address (and matches nothing).
 */
export function resolveClientAddress(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, trusted: AddressSet): string {
  let current = socketAddress ?? '';
  if (!trusted.contains(current) || forwardedFor === undefined) return normalize(current);
  const entries = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor)
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  for (let i = entries.length - 1; i >= 0; i -= 1) {
    current = entries[i] ?? '';
    if (!trusted.contains(current)) break;
  }
  return normalize(current);
}

function normalize(text: string): string {
  return knownAddress(text)?.text ?? text;
}

/** Route patterns of the operations endpoints, which are never allowlisted. */
export function isOperationsRoute(routeUrl: string | undefined): boolean {
  if (routeUrl === undefined) return false;
  return (
    routeUrl === '/health/live' ||
    routeUrl === '/health/ready' ||
    routeUrl === '/metrics' ||
    routeUrl === '/openapi.json' ||
    routeUrl === '/docs' ||
    routeUrl.startsWith('/docs/')
  );
}

/** Route patterns of the admin API and the console, which answer the addresses of `admin.allowlist` instead. */
export function isAdminRoute(routeUrl: string | undefined): boolean {
  return routeUrl !== undefined && (routeUrl.startsWith('/admin/') || routeUrl === '/console' || routeUrl.startsWith('/console/'));
}

/** Sockets held without an answer, each destroyed after the hold time; bounded in number. */
export class ConnectionHolder {
  readonly #held = new Map<Socket, NodeJS.Timeout>();
  #closed = false;

  constructor(
    readonly holdMs: number,
    readonly heldMax: number,
  ) {}

  get size(): number {
    return this.#held.size;
  }

  holds(socket: Socket): boolean {
    return this.#held.has(socket);
  }

  hold(socket: Socket): void {
    if (this.#held.has(socket)) return;
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
  close(): void {
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
export function holdRequest(request: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  request.server.connectionHolder.hold(request.raw.socket);
  request.log.info({ clientAddress: request.clientAddress }, 'request from a non-allowlisted address held unanswered');
}

const integratorSets = new WeakMap<IntegratorConfig, AddressSet>();

/** Is this address in this integrator's own allowlist? */
export function integratorAllows(integrator: IntegratorConfig, address: string): boolean {
  let set = integratorSets.get(integrator);
  if (set === undefined) {
    set = new AddressSet(integrator.allowlist);
    integratorSets.set(integrator, set);
  }
  return set.contains(address);
}

export const allowlistPlugin = fp(
  (app: FastifyInstance, options: AllowlistOptions) => {
    const { server, integrators } = options.config;
    const trusted = new AddressSet(server.trustedProxies);
    const anyIntegrator = new AddressSet(integrators.flatMap((integrator) => integrator.allowlist));
    const admin = options.config.admin === undefined ? undefined : new AddressSet(options.config.admin.allowlist);
    const holder = options.holder ?? new ConnectionHolder(server.heldConnectionMs, server.heldConnectionsMax);

    const addressOf = (raw: IncomingMessage): string => resolveClientAddress(raw.socket.remoteAddress, raw.headers['x-forwarded-for'], trusted);

    app.decorate('connectionHolder', holder);
    app.decorateRequest('clientAddress', '');

    app.addHook('onRequest', async (request, reply) => {
      request.clientAddress = addressOf(request.raw);
      if (isOperationsRoute(request.routeOptions.url) || isAdminRoute(request.routeOptions.url)) return;
      if (anyIntegrator.contains(request.clientAddress)) return;
      holdRequest(request, reply);
    });

    // Node answers `Expect: 100-continue` by itself before any hook runs, which would write bytes
    // to a non-allowlisted client. Taking the event over lets only allowed clients see the 100,
    // and not for a body declared over the limit: its 413 comes before the client sends it.
    const onCheckContinue = (request: IncomingMessage, response: ServerResponse): void => {
      const allowed = anyIntegrator.contains(addressOf(request)) || isOperationsPath(request.url) || admin?.contains(addressOf(request)) === true;
      if (allowed && !(Number(request.headers['content-length']) > server.bodyBytesMax)) response.writeContinue();
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
  },
  { name: 'regpay-allowlist', fastify: '5.x' },
);

/** Raw-URL form of isOperationsRoute, for the one place that runs before routing. */
function isOperationsPath(url: string | undefined): boolean {
  const path = (url ?? '').split('?')[0] ?? '';
  return isOperationsRoute(path);
}
