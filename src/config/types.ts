import type { Secret } from '../lib/secret.js';
import type { SchemeName } from '../domain/schemes.js';

/**
 * The validated, frozen configuration the rest of the service reads. Produced only by
 * config/load.ts (the one reader of process.env). Every key is documented in docs/configuration.md.
 */
export interface IntegratorCredentials {
  readonly username: string;
  /**
   * scrypt hash string of the password (plain passwords in the file are hashed at load; format
   * in src/lib/password-hash.ts). Absent only with an external OAuth2 issuer, which checks passwords itself.
   */
  readonly passwordHash?: Secret<string>;
  /** The `azp` (or `client_id`) claim of this integrator's access tokens; required with auth mode oauth2. */
  readonly clientId?: string;
  /** Absent only with an external OAuth2 issuer. */
  readonly clientSecretHash?: Secret<string>;
}

export type CallbackAuth =
  | { readonly type: 'none' }
  | { readonly type: 'basic'; readonly username: string; readonly password: Secret<string> }
  | {
      readonly type: 'oauth2';
      readonly tokenUrl: string;
      readonly clientId: string;
      readonly clientSecret: Secret<string>;
      readonly scope?: string;
      /** How the client authenticates at the token endpoint (RFC 6749 §2.3.1): Basic header (default) or form fields. */
      readonly tokenAuthMethod: 'client_secret_basic' | 'client_secret_post';
    };

export interface IntegratorLimits {
  /** Sustained requests per second allowed (token bucket refill). */
  readonly requestsPerSecond: number;
  /** Burst size of the token bucket. */
  readonly burst: number;
  /** Per-scheme maximum amount of one credit transfer, in major units as a decimal string (e.g. ZA_RPP: "50000.00"). */
  readonly amountMax: Readonly<Partial<Record<SchemeName, string>>>;
}

export interface IntegratorConfig {
  readonly id: string;
  readonly institution: { readonly bicfi?: string; readonly memberId?: string };
  /** CIDR blocks, IPv4 and IPv6. */
  readonly allowlist: readonly string[];
  readonly credentials: IntegratorCredentials;
  readonly partnerApiUrl: string;
  readonly eventsApiUrl: string;
  readonly events: boolean;
  /** `legacy`: credit-transfer events carry the seed system's older type names (CREDIT_AUTH_*; docs/state-machine.md). */
  readonly eventTypeNames: 'current' | 'legacy';
  readonly identifierDetermination: 'sync' | 'async';
  readonly schemes: readonly SchemeName[];
  readonly callbackAuth: CallbackAuth;
  /** Standard Webhooks signing secret (`whsec_...`); no signature when absent. */
  readonly webhookSecret?: Secret<string>;
  readonly limits: IntegratorLimits;
  readonly inbound: IntegratorInbound;
}

/** The integrator as the receiving bank (CONTRACT §11, docs/receiving.md). */
export interface IntegratorInbound {
  /** sync: the call's 200 carries the decision; async: 202, then the integrator's report; auto: every credit approved by the service, by arrangement. */
  readonly authorisation: 'sync' | 'async' | 'auto';
  readonly identifierDetermination: 'sync' | 'async';
  /** How long the integrator's answer is awaited; absent: the scheme's. */
  readonly answerTimeoutMs?: number;
}

export interface SchemeConfig {
  readonly connector: string;
  readonly timeBudgetMs: number;
  /** With `connector: simulator`: delay of the simulated scheme's answers (default in config/schema.ts DEFAULTS). */
  readonly simulatorLatencyMs?: number;
  /** With `connector: simulator` on ZA_RPP: the directory file of proxies and accounts it resolves (docs/simulator.md). */
  readonly simulatorDirectory?: string;
  /** Present exactly with `connector: operator-link`. */
  readonly operatorLink?: OperatorLinkConfig;
  /** The receiving direction: how long an integrator's answer is awaited, inside the scheme's own budget. */
  readonly inbound: { readonly answerTimeoutMs: number };
}

/**
 * The link to a scheme operator (docs/operator-link.md): HTTPS with mutual TLS both ways and a
 * signature on every message. The files the configuration names are read and checked at load;
 * this holds their contents.
 */
export interface OperatorLinkConfig {
  /** The operator's base URL (https); messages are posted to `{url}/v1/schemes/{SCHEME}/messages`. */
  readonly url: string;
  /** PEM: the CA certificate(s) that issued the operator's server and client certificates. */
  readonly ca: string;
  /** PEM: our certificate (chain), presented to the operator as client and as server certificate. */
  readonly cert: string;
  /** PEM: its private key. */
  readonly key: Secret<string>;
  /** PEM: the private key our messages are signed with (its public key is the operator's to hold). */
  readonly signingKey: Secret<string>;
  /** PEM: the operator's public keys its messages may be signed with (several while it rotates). */
  readonly operatorKeys: readonly string[];
  /** When not empty: the only client certificates (SHA-256, `AB:CD:...`) the operator may connect with. */
  readonly operatorCertificateSha256: readonly string[];
  /** Where the operator's messages are received (one listener per host and port, shared by the schemes naming it). */
  readonly inbound: { readonly host: string; readonly port: number };
  /** Deadline of one message posted to the operator. */
  readonly requestTimeoutMs: number;
  /** Pooled connections to the operator. */
  readonly connectionsMax: number;
  /** How far a message signature's time may be from ours. */
  readonly signatureMaxAgeS: number;
}

/** PayShap payments to a proxy (docs/identifier-determination.md). */
export interface ProxyPaymentsConfig {
  /** Refuse (422) a ZA_RPP credit transfer to a proxy without a successful determination of that proxy. */
  readonly determinationRequired: boolean;
  /** How old that determination may be. */
  readonly determinationValidityMs: number;
}

export interface AuthConfig {
  readonly mode: 'basic' | 'oauth2';
  /** External issuer: tokens are verified against its JWKS instead of the embedded provider. */
  readonly issuer?: string;
  readonly jwksUrl?: string;
  /** Audience required in access tokens (embedded tokens always carry it; external ones only when configured). */
  readonly audience?: string;
  /** Base URL the service is reached at; the embedded provider's issuer (`iss`) and discovery URLs. */
  readonly publicUrl?: string;
  /** Private key of the embedded provider (PEM PKCS#8 or JWK text); generated and kept in the store when absent. */
  readonly signingKey?: Secret<string>;
  /**
   * Public keys (PEM or JWK text) whose tokens the embedded provider accepts too, and publishes at
   * /oauth/jwks: the way to rotate signingKey without refusing tokens already issued. Empty: none.
   */
  readonly verificationKeys: readonly string[];
  readonly accessTokenTtlS: number;
  readonly refreshTokenTtlS: number;
  /**
   * A spent refresh token presented again less than this long after its rotation gets the same
   * new pair (two threads of one client refreshing at once); later, the reuse revokes the session.
   * 0: every reuse revokes.
   */
  readonly refreshTokenReuseIntervalS: number;
  /** Allowed clock difference when checking exp/nbf of access tokens. */
  readonly clockToleranceS: number;
  /**
   * How often each instance reads the sessions revoked by refresh-token reuse (on any instance),
   * whose access tokens it then refuses; its own revocations apply at once (embedded provider).
   */
  readonly revocationPollMs: number;
  /** Failed credential checks allowed per client address: `burst` at once, then `perMinute` (http/plugins/failed-auth.ts). */
  readonly failedAuthentications: { readonly burst: number; readonly perMinute: number };
}

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Largest accepted request body. */
  readonly bodyBytesMax: number;
  /** Proxies whose X-Forwarded-For is honoured (CIDR). */
  readonly trustedProxies: readonly string[];
  /** Connections from non-allowlisted addresses are held unanswered this long, then closed. */
  readonly heldConnectionMs: number;
  /** At most this many such connections are held at once; more are closed at once. */
  readonly heldConnectionsMax: number;
  /** Connections from admitted addresses open at once; more are closed at once (http/connection-gate.ts). */
  readonly connectionsMax: number;
  /** Addresses admitted for the operations endpoints only (health probes, metrics scrapers), CIDR. */
  readonly operationsAllowlist: readonly string[];
  /** A request's headers must have arrived this long after it began (Node's headersTimeout); at most requestTimeoutMs. */
  readonly headersTimeoutMs: number;
  /** A whole request, headers and body, must have arrived this long after it began (Node's requestTimeout). */
  readonly requestTimeoutMs: number;
  /** After an answer sent before its request was read, the rest is read and discarded this long at most, then the connection is closed. */
  readonly lingerMs: number;
  /** ... and this many bytes at most; a declared longer body is not read at all. */
  readonly lingerBytesMax: number;
  /** On SIGTERM: how long in-flight requests may take before the process exits anyway. */
  readonly shutdownGraceMs: number;
  /** A held request (sync identifier determination) reads its transaction this often when no notice of a change reaches it. */
  readonly heldRequestPollMs: number;
  /** pino level of the service log. */
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Log one line per HTTP request (off by default: at thousands of requests a second it costs real CPU). */
  readonly logRequests: boolean;
}

/** Delivery of callbacks and events to integrators (docs/delivery.md). */
export interface DeliveryConfig {
  /** Deadline of each outbound HTTP call: connect, headers and body together. */
  readonly timeoutMs: number;
  /** Delay before each attempt (the first is 0: immediately); after the last, a message is UNDELIVERED. */
  readonly retryScheduleMs: { readonly callback: readonly number[]; readonly event: readonly number[] };
  /** Each retry delay is lengthened by up to this fraction of itself, at random, so retries spread out. */
  readonly retryJitterRatio: number;
  /** Deliveries in flight at once, per instance. */
  readonly inFlightMax: number;
  /** Deliveries in flight at once to one integrator's callback endpoint, or to its events endpoint. */
  readonly endpointInFlightMax: number;
  /** Pooled connections per origin (scheme, host, port). */
  readonly connectionsPerOriginMax: number;
  /** Messages claimed per poll. */
  readonly claimBatchMax: number;
  /** A claimed message is another instance's to take after this long (must cover a whole attempt). */
  readonly leaseMs: number;
  /** How often the outbox is polled when nothing wakes the dispatcher. */
  readonly pollIntervalMs: number;
  /** Largest part of an integrator's answer read; the rest is discarded. */
  readonly responseBytesMax: number;
}

/**
 * Whether this instance works the queue (docs/configuration.md). Off, it still accepts and stores
 * every request (202 as usual) but runs neither the engine nor delivery: the API tier of a
 * PostgreSQL deployment whose workers are other instances, or payments held while a scheme is
 * down. Whatever it accepts is processed by an instance with processing on, or by this one once
 * restarted with it on.
 */
export interface ProcessingConfig {
  readonly enabled: boolean;
  /**
   * Admission control (docs/architecture.md, "Overload"): work under way in this instance's engine
   * at which new intake is refused (503 OVERLOADED) and scheme reports are refused to their sender,
   * which delivers them again.
   */
  readonly backlogMax: number;
  /** Writes queued for the database, with the intakes admitted and not yet finished, at which new intake is refused (503 OVERLOADED). */
  readonly writeBacklogMax: number;
  /** Sync identifier determinations held at once at which a new one is refused (503 OVERLOADED). */
  readonly heldLookupsMax: number;
  /**
   * How long before the end of its time budget a sync lookup's timeout is decided (at most a tenth
   * of the budget): the decision, its commit and the answer leave within the budget even when many
   * fall due at once (docs/identifier-determination.md, "Time budget and AB06").
   */
  readonly heldLookupMarginMs: number;
}

/** The operator's credential for the admin API (`/admin/v1`); absent = no admin API. */
export interface AdminConfig {
  readonly username: string;
  /** scrypt hash string (a plain password in the file is hashed at load). */
  readonly passwordHash: Secret<string>;
  /** CIDR blocks the admin API answers; others get no response. */
  readonly allowlist: readonly string[];
}

export interface Config {
  readonly server: ServerConfig;
  /** `sqlite:<path>` or `postgres://...` */
  readonly database: string;
  /** PostgreSQL connections and concurrent group commits of this instance. */
  readonly store: { readonly poolMax: number; readonly groupCommitConcurrency: number };
  readonly auth: AuthConfig;
  readonly integrators: readonly IntegratorConfig[];
  readonly schemes: Readonly<Partial<Record<SchemeName, SchemeConfig>>>;
  readonly delivery: DeliveryConfig;
  readonly processing: ProcessingConfig;
  readonly proxyPayments: ProxyPaymentsConfig;
  readonly requestToPay: { readonly expiryHorizonMs: number };
  readonly admin?: AdminConfig;
  /** Prometheus metrics at /metrics (docs/operations.md). */
  readonly metrics: { readonly enabled: boolean; readonly backlogRefreshMs: number };
  /** OpenTelemetry spans, exported over OTLP/HTTP when an endpoint is configured. */
  readonly telemetry: { readonly otlpEndpoint?: string; readonly serviceName: string };
  /** How long the scheme messages sent and received are kept. */
  readonly schemeMessages: { readonly retentionDays: number };
  /** The built-in simulator as the scheme's other side. */
  readonly simulator: { readonly inbound: SimulatorInboundConfig };
  /** True when started without a config file: the demo setup (its credentials are printed). */
  readonly demo: boolean;
  /** Present exactly when `demo` is true: the generated credentials main prints at start. */
  readonly demoCredentials?: DemoCredentials;
  /**
   * The demo only, from REGPAY_DEMO_RECEIVER: the base URL of the integrator's receiver (e.g.
   * examples/receiver.mjs) its callbacks and events go to instead of the service's own demo inbox.
   */
  readonly demoReceiver?: string;
}

/**
 * A steady rate of traffic the built-in simulator originates on ZA_RPP, for every integrator
 * with ZA_RPP on the simulator (docs/simulator.md, inbound scenarios).
 */
export interface SimulatorInboundConfig {
  /** LOOKUP_THEN_CREDIT and CREDIT orders a second, in turn; 0: none. */
  readonly ratePerSecond: number;
  /** No new order while this many started are still going. */
  readonly outstandingMax: number;
  /** An order the service never finishes stops counting as going after this long. */
  readonly outstandingMs: number;
  /** ZAR, decimal text. */
  readonly amount: string;
  /** The integrators' customer the orders name. */
  readonly accountNumber: string;
}

/** The demo integrator's credentials, generated at each start (config/demo.ts). */
export interface DemoCredentials {
  readonly integratorId: string;
  readonly username: string;
  readonly password: Secret<string>;
  readonly clientId: string;
  readonly clientSecret: Secret<string>;
  /** The demo integrator's Standard Webhooks signing secret (`whsec_…`): its callbacks and events are signed. */
  readonly webhookSecret: Secret<string>;
  /** The operator's credentials for the admin API. */
  readonly adminUsername: string;
  readonly adminPassword: Secret<string>;
}
