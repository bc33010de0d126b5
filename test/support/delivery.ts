import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { randomUUID } from 'node:crypto';
import { openStore } from '../../src/adapters/store.js';
import { configFromObject } from '../../src/config/load.js';
import type { DeliveryConfig, IntegratorConfig } from '../../src/config/types.js';
import type { NewOutboxMessage, NewTransaction, OutboxChannel, Store } from '../../src/ports/store.js';

/**
 * An integrator's HTTP endpoints inside the test process: a real `node:http` server on
 * 127.0.0.1 that records every request and answers as the test tells it to. It can go down
 * (stop listening) and come back on the same port, like an integrator's outage.
 */
export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Arrival order across all requests. */
  readonly index: number;
}

export interface Answer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** Answer only after this long (a slow integrator). */
  readonly delayMs?: number;
  /** Never answer (a hung integrator); the connection is destroyed when the receiver closes. */
  readonly hang?: boolean;
  /** Send the status, headers and the start of the body, then never finish (a stalled answer). */
  readonly stallBody?: boolean;
}

export type Responder = (request: ReceivedRequest) => Answer;

export class TestReceiver {
  readonly requests: ReceivedRequest[] = [];
  respond: Responder = () => ({ status: 204 });
  #server: Server | undefined;
  #port = 0;
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();

  static async start(respond?: Responder): Promise<TestReceiver> {
    const receiver = new TestReceiver();
    if (respond !== undefined) receiver.respond = respond;
    await receiver.up();
    return receiver;
  }

  get port(): number {
    return this.#port;
  }

  get url(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  /** Requests to one path, in arrival order. */
  to(path: string): ReceivedRequest[] {
    return this.requests.filter((request) => request.path === path);
  }

  /** Listen (again, on the same port after down()). */
  async up(): Promise<void> {
    const server = createServer((request, response) => this.#handle(request, response));
    server.on('connection', (socket: Socket) => {
      this.#sockets.add(socket);
      socket.once('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ host: '127.0.0.1', port: this.#port }, () => resolve());
    });
    this.#port = (server.address() as AddressInfo).port;
    this.#server = server;
  }

  /** Stop listening and cut every open connection: the integrator is down. */
  async down(): Promise<void> {
    const server = this.#server;
    if (server === undefined) return;
    this.#server = undefined;
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of this.#sockets) socket.destroy();
    await closed;
  }

  #handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(request.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      }
      const received: ReceivedRequest = {
        method: request.method ?? '',
        path: request.url ?? '',
        headers,
        body: Buffer.concat(chunks).toString('utf8'),
        index: this.requests.length,
      };
      this.requests.push(received);
      const answer = this.respond(received);
      if (answer.hang === true) return;
      const send = (): void => {
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        if (answer.stallBody === true) response.write('{"status":');
        else response.end(answer.body ?? '');
      };
      if (answer.delayMs === undefined) send();
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
export async function eventually(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export const CALLBACK_PATH = '/partner-api/v1/transactions/outbound/credit-transfer-response';
export const EVENTS_PATH = '/events-api/v1/events';
export const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
export const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** An integrator as the service's configuration would produce it, its endpoints on `baseUrl`. */
export async function integratorConfig(id: string, baseUrl: string, extra: Record<string, unknown> = {}): Promise<IntegratorConfig> {
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
  if (integrator === undefined) throw new Error('no integrator');
  return integrator;
}

/** The delivery settings of a configuration that names none (what main.ts hands the dispatcher). */
export async function deliveryDefaults(): Promise<DeliveryConfig> {
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
export function message(integrator: IntegratorConfig, channel: OutboxChannel, body: Record<string, unknown> = {}): NewOutboxMessage {
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
export async function seedTransaction(store: Store, integrator: IntegratorConfig, outbox: readonly NewOutboxMessage[], at = 0): Promise<string> {
  const uetr = randomUUID();
  const messageId = `MSG${uetr.replaceAll('-', '').slice(0, 20)}`;
  const tx: NewTransaction = {
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
  if (outcome.kind !== 'accepted') throw new Error(`intake: ${outcome.kind}`);
  return tx.id;
}

export function memoryStore(): Promise<Store> {
  return openStore('sqlite::memory:');
}

/**
 * The store with some of its methods replaced, everything else passed through: for counting or
 * refusing calls. A replacement gets the real store to call on.
 */
export function withStoreMethods(store: Store, replaced: { readonly [K in keyof Store]?: (target: Store) => Store[K] }): Store {
  return new Proxy(store, {
    get(target, property) {
      const replace = (replaced as Record<PropertyKey, ((target: Store) => unknown) | undefined>)[property];
      if (replace !== undefined) return replace(target);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
