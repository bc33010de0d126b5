import { Type, type Static, type TSchema } from '@sinclair/typebox';
import type { SchemeName } from '../domain/schemes.js';
import { SCHEMES } from '../domain/schemes.js';

/**
 * The schema of the configuration file (CONTRACT §8). Every key, its type, default and unit is
 * listed in docs/configuration.md; a test keeps the two in step. Defaults live here and nowhere
 * else, with the unit last in the key name (STYLE.md rule 3). Rules that span several keys
 * (password xor passwordHash, unique ids, issuer needs jwksUrl) are checked in load.ts.
 */

/** A string from a closed set, rendered as a plain JSON-schema `enum` so errors read "must be one of". */
function StringEnum<const T extends readonly string[]>(values: T, options: { default?: T[number]; description?: string } = {}) {
  return Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });
}

const NonEmpty = (options: Record<string, unknown> = {}) => Type.String({ minLength: 1, ...options });
/** Holds an address block: `10.0.0.0/8`, `2001:db8::/32`, or a single address (a /32 or /128). */
const Cidr = Type.String({ format: 'cidr' });
/** An absolute http or https URL. */
const HttpUrl = Type.String({ format: 'http-url' });

export const DEFAULTS = {
  /** A determination links a proxy payment for ten minutes (the sender confirms the name, then pays). */
  determinationValidityMs: 600_000,
  /** A request-to-pay may ask to be paid within a week. */
  requestToPayExpiryHorizonMs: 604_800_000,
  serverHost: '127.0.0.1',
  serverPort: 8080,
  bodyBytesMax: 1_048_576,
  heldConnectionMs: 30_000,
  heldConnectionsMax: 1_000,
  connectionsMax: 10_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  lingerMs: 10_000,
  lingerBytesMax: 67_108_864,
  operationsAllowlist: ['127.0.0.1/32', '::1/128'],
  shutdownGraceMs: 10_000,
  /** A held identifier determination reads its row this often when no notice of a change reaches it. */
  heldRequestPollMs: 1_000,
  database: 'sqlite:./data/regpay.db',
  storePoolMax: 10,
  storeGroupCommitConcurrency: 4,
  authMode: 'oauth2',
  accessTokenTtlS: 300,
  refreshTokenTtlS: 1_800,
  clockToleranceS: 30,
  /** A spent refresh token presented again within this long gets the pair it was spent for (concurrent refreshes of one client). */
  refreshTokenReuseIntervalS: 5,
  /** Each instance reads the sessions other instances revoked this often. */
  revocationPollMs: 1_000,
  failedAuthBurst: 20,
  failedAuthPerMinute: 10,
  requestsPerSecond: 50,
  burst: 100,
  amountMaxZaRpp: '50000.00',
  connector: 'simulator',
  simulatorLatencyMs: 50,
  operatorLinkInboundHost: '127.0.0.1',
  operatorLinkRequestTimeoutMs: 10_000,
  operatorLinkConnectionsMax: 32,
  operatorLinkSignatureMaxAgeS: 300,
  deliveryTimeoutMs: 15_000,
  deliveryInFlightMax: 512,
  processingBacklogMax: 4_096,
  processingWriteBacklogMax: 2_048,
  processingHeldLookupsMax: 256,
  processingHeldLookupMarginMs: 1_000,
  deliveryEndpointInFlightMax: 64,
  deliveryConnectionsPerOriginMax: 64,
  deliveryClaimBatchMax: 256,
  deliveryLeaseMs: 90_000,
  deliveryPollIntervalMs: 1_000,
  deliveryResponseBytesMax: 65_536,
  deliveryRetryJitterRatio: 0.1,
  /**
   * Delay before each attempt of a callback: immediately, 1 s, 5 s, 15 s, 30 s, 1 min, 2 min,
   * 5 min, then Standard Webhooks' tail (30 min, 2 h, 5 h, 10 h, 10 h). A must-deliver callback
   * that a short outage held back goes out soon after the endpoint is back.
   */
  deliveryCallbackRetryScheduleMs: [0, 1_000, 5_000, 15_000, 30_000, 60_000, 120_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  /** Standard Webhooks' schedule for events: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
  deliveryEventRetryScheduleMs: [0, 5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
  adminAllowlist: ['127.0.0.1/32', '::1/128'],
  metricsBacklogRefreshMs: 10_000,
  telemetryServiceName: 'regpay',
  /** Scheme messages are for diagnosing recent payments; each transaction's history keeps what they said for good. */
  schemeMessagesRetentionDays: 30,
  /** The built-in simulator originates no traffic of its own unless asked to. */
  simulatorInboundRatePerSecond: 0,
  simulatorInboundOutstandingMax: 100,
  simulatorInboundOutstandingMs: 60_000,
  simulatorInboundAmount: '100.00',
  /** The demo bank's first customer (src/app/demo-customers.ts): in the demo every originated credit settles. */
  simulatorInboundAccountNumber: '4071000001',
} as const;

/**
 * Time budget per scheme when the file gives none. The instant schemes answer in seconds
 * (PayShap's own budget is 10 s; RTC allows a minute); EFT and CBPR+ settle in batches or
 * through correspondents, so their budget is a day.
 */
export const TIME_BUDGET_MS_DEFAULTS: Readonly<Record<SchemeName, number>> = {
  ZA_RPP: 10_000,
  ZA_RTC: 60_000,
  ZA_EFT: 86_400_000,
  ZA_AC: 60_000,
  ZA_RMS: 60_000,
  CBPR_PLUS: 86_400_000,
  TCIB: 60_000,
};

/** The default wait for an integrator's answer to a scheme-originated message: half the scheme's budget, at most this. */
export const INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT = 5_000;

const SchemeNameSchema = StringEnum(SCHEMES);

const ServerSchema = Type.Object(
  {
    host: NonEmpty({ default: DEFAULTS.serverHost }),
    port: Type.Integer({ minimum: 0, maximum: 65_535, default: DEFAULTS.serverPort }),
    bodyBytesMax: Type.Integer({ minimum: 1_024, maximum: 67_108_864, default: DEFAULTS.bodyBytesMax }),
    trustedProxies: Type.Array(Cidr, { default: [] }),
    heldConnectionMs: Type.Integer({ minimum: 0, maximum: 600_000, default: DEFAULTS.heldConnectionMs }),
    heldConnectionsMax: Type.Integer({ minimum: 0, maximum: 100_000, default: DEFAULTS.heldConnectionsMax }),
    connectionsMax: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULTS.connectionsMax }),
    operationsAllowlist: Type.Array(Cidr, { default: [...DEFAULTS.operationsAllowlist] }),
    headersTimeoutMs: Type.Integer({ minimum: 100, maximum: 600_000, default: DEFAULTS.headersTimeoutMs }),
    requestTimeoutMs: Type.Integer({ minimum: 100, maximum: 3_600_000, default: DEFAULTS.requestTimeoutMs }),
    lingerMs: Type.Integer({ minimum: 0, maximum: 600_000, default: DEFAULTS.lingerMs }),
    lingerBytesMax: Type.Integer({ minimum: 0, maximum: 1_073_741_824, default: DEFAULTS.lingerBytesMax }),
    shutdownGraceMs: Type.Integer({ minimum: 0, maximum: 600_000, default: DEFAULTS.shutdownGraceMs }),
    heldRequestPollMs: Type.Integer({ minimum: 10, maximum: 60_000, default: DEFAULTS.heldRequestPollMs }),
    logLevel: StringEnum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, { default: 'info' }),
    logRequests: Type.Boolean({ default: false }),
  },
  { additionalProperties: false, default: {} },
);

const AuthSchema = Type.Object(
  {
    mode: StringEnum(['basic', 'oauth2'] as const, { default: DEFAULTS.authMode }),
    issuer: Type.Optional(NonEmpty()),
    jwksUrl: Type.Optional(HttpUrl),
    audience: Type.Optional(NonEmpty()),
    publicUrl: Type.Optional(HttpUrl),
    signingKey: Type.Optional(NonEmpty()),
    // Public keys whose tokens the embedded provider accepts besides its signing key's (rotation).
    verificationKeys: Type.Optional(Type.Array(NonEmpty(), { maxItems: 8 })),
    accessTokenTtlS: Type.Integer({ minimum: 1, maximum: 86_400, default: DEFAULTS.accessTokenTtlS }),
    refreshTokenTtlS: Type.Integer({ minimum: 1, maximum: 2_592_000, default: DEFAULTS.refreshTokenTtlS }),
    clockToleranceS: Type.Integer({ minimum: 0, maximum: 300, default: DEFAULTS.clockToleranceS }),
    refreshTokenReuseIntervalS: Type.Integer({ minimum: 0, maximum: 60, default: DEFAULTS.refreshTokenReuseIntervalS }),
    revocationPollMs: Type.Integer({ minimum: 100, maximum: 60_000, default: DEFAULTS.revocationPollMs }),
    failedAuthentications: Type.Object(
      {
        burst: Type.Integer({ minimum: 1, maximum: 10_000, default: DEFAULTS.failedAuthBurst }),
        perMinute: Type.Integer({ minimum: 1, maximum: 60_000, default: DEFAULTS.failedAuthPerMinute }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

const CredentialsSchema = Type.Object(
  {
    username: NonEmpty({ maxLength: 256, pattern: '^[^:]+$' }),
    password: Type.Optional(NonEmpty({ maxLength: 1_024 })),
    passwordHash: Type.Optional(NonEmpty()),
    clientId: Type.Optional(NonEmpty({ maxLength: 256 })),
    clientSecret: Type.Optional(NonEmpty({ maxLength: 1_024 })),
    clientSecretHash: Type.Optional(NonEmpty()),
  },
  { additionalProperties: false },
);

const CallbackAuthSchema = Type.Object(
  {
    type: StringEnum(['none', 'basic', 'oauth2'] as const),
    username: Type.Optional(NonEmpty({ pattern: '^[^:]+$' })),
    password: Type.Optional(NonEmpty()),
    tokenUrl: Type.Optional(HttpUrl),
    clientId: Type.Optional(NonEmpty()),
    clientSecret: Type.Optional(NonEmpty()),
    scope: Type.Optional(NonEmpty()),
    tokenAuthMethod: Type.Optional(StringEnum(['client_secret_basic', 'client_secret_post'] as const)),
  },
  { additionalProperties: false, default: { type: 'none' } },
);

const DECIMAL_AMOUNT = '^(0|[1-9][0-9]{0,17})(\\.[0-9]{1,5})?$';

const AmountMaxSchema = Type.Object(
  Object.fromEntries(
    SCHEMES.map((scheme): [string, TSchema] => [
      scheme,
      scheme === 'ZA_RPP'
        ? Type.String({ pattern: DECIMAL_AMOUNT, default: DEFAULTS.amountMaxZaRpp })
        : Type.Optional(Type.String({ pattern: DECIMAL_AMOUNT })),
    ]),
  ),
  { additionalProperties: false, default: {} },
);

const LimitsSchema = Type.Object(
  {
    requestsPerSecond: Type.Number({ exclusiveMinimum: 0, maximum: 10_000_000, default: DEFAULTS.requestsPerSecond }),
    burst: Type.Integer({ minimum: 1, maximum: 10_000_000, default: DEFAULTS.burst }),
    amountMax: AmountMaxSchema,
  },
  { additionalProperties: false, default: {} },
);

/** How the integrator is asked as the receiving bank (CONTRACT §11; docs/receiving.md). */
const IntegratorInboundSchema = Type.Object(
  {
    /** sync: the call's 200 carries the decision; async: 202, then the integrator's report; auto: approved by the service, by arrangement. */
    authorisation: StringEnum(['sync', 'async', 'auto'] as const, { default: 'sync' }),
    identifierDetermination: StringEnum(['sync', 'async'] as const, { default: 'sync' }),
    /** How long the integrator's answer is awaited; the scheme's `inbound.answerTimeoutMs` when absent. */
    answerTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
  },
  { additionalProperties: false, default: {} },
);

const IntegratorSchema = Type.Object(
  {
    id: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$' }),
    institution: Type.Object(
      {
        bicfi: Type.Optional(Type.String({ pattern: '^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$' })),
        memberId: Type.Optional(NonEmpty({ maxLength: 35 })),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    allowlist: Type.Array(Cidr, { minItems: 1 }),
    credentials: CredentialsSchema,
    partnerApiUrl: HttpUrl,
    eventsApiUrl: HttpUrl,
    /** true / false, or the events' settings (on): `typeNames: legacy` for the seed system's older credit-transfer names (CREDIT_AUTH_*). */
    events: Type.Union([Type.Boolean(), Type.Object({ typeNames: Type.Optional(StringEnum(['current', 'legacy'] as const, {})) }, { additionalProperties: false })], {
      default: true,
    }),
    identifierDetermination: StringEnum(['sync', 'async'] as const, { default: 'sync' }),
    schemes: Type.Array(SchemeNameSchema, { minItems: 1, uniqueItems: true }),
    callbackAuth: CallbackAuthSchema,
    webhookSecret: Type.Optional(Type.String({ pattern: '^whsec_[A-Za-z0-9+/]+={0,2}$' })),
    limits: LimitsSchema,
    inbound: IntegratorInboundSchema,
  },
  { additionalProperties: false },
);

/** Delay before each attempt, the first counted from when the message is written (so it must be 0: immediately). */
const RetryScheduleSchema = (defaultMs: readonly number[]) =>
  Type.Array(Type.Integer({ minimum: 0, maximum: 604_800_000 }), { minItems: 1, maxItems: 100, default: [...defaultMs] });

const DeliverySchema = Type.Object(
  {
    timeoutMs: Type.Integer({ minimum: 100, maximum: 120_000, default: DEFAULTS.deliveryTimeoutMs }),
    retryScheduleMs: Type.Object(
      { callback: RetryScheduleSchema(DEFAULTS.deliveryCallbackRetryScheduleMs), event: RetryScheduleSchema(DEFAULTS.deliveryEventRetryScheduleMs) },
      { additionalProperties: false, default: {} },
    ),
    retryJitterRatio: Type.Number({ minimum: 0, maximum: 1, default: DEFAULTS.deliveryRetryJitterRatio }),
    inFlightMax: Type.Integer({ minimum: 1, maximum: 10_000, default: DEFAULTS.deliveryInFlightMax }),
    endpointInFlightMax: Type.Integer({ minimum: 1, maximum: 1_000, default: DEFAULTS.deliveryEndpointInFlightMax }),
    connectionsPerOriginMax: Type.Integer({ minimum: 1, maximum: 1_000, default: DEFAULTS.deliveryConnectionsPerOriginMax }),
    claimBatchMax: Type.Integer({ minimum: 1, maximum: 1_000, default: DEFAULTS.deliveryClaimBatchMax }),
    leaseMs: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: DEFAULTS.deliveryLeaseMs }),
    pollIntervalMs: Type.Integer({ minimum: 10, maximum: 60_000, default: DEFAULTS.deliveryPollIntervalMs }),
    responseBytesMax: Type.Integer({ minimum: 1_024, maximum: 16_777_216, default: DEFAULTS.deliveryResponseBytesMax }),
  },
  { additionalProperties: false, default: {} },
);

const ProcessingSchema = Type.Object(
  {
    /** false: accept and store requests, but neither process transfers nor deliver callbacks and events. */
    enabled: Type.Boolean({ default: true }),
    /** Admission control: the engine's work under way at which new intake gets 503 OVERLOADED and scheme reports are refused (resent). */
    backlogMax: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULTS.processingBacklogMax }),
    /** Admission control: writes waiting for the database plus intakes under way (admitted, not yet answered) at which new intake gets 503 OVERLOADED. */
    writeBacklogMax: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULTS.processingWriteBacklogMax }),
    /** Admission control: sync identifier determinations held at once beyond which a new one gets 503 OVERLOADED. */
    heldLookupsMax: Type.Integer({ minimum: 1, maximum: 1_000_000, default: DEFAULTS.processingHeldLookupsMax }),
    /** How long before the end of its time budget a sync lookup's timeout is decided (at most a tenth of the budget), so its answer is out within the budget. */
    heldLookupMarginMs: Type.Integer({ minimum: 0, maximum: 600_000, default: DEFAULTS.processingHeldLookupMarginMs }),
  },
  { additionalProperties: false, default: {} },
);

const AdminSchema = Type.Object(
  {
    username: NonEmpty({ maxLength: 256, pattern: '^[^:]+$' }),
    password: Type.Optional(NonEmpty({ maxLength: 1_024 })),
    passwordHash: Type.Optional(NonEmpty()),
    allowlist: Type.Array(Cidr, { minItems: 1, default: [...DEFAULTS.adminAllowlist] }),
  },
  { additionalProperties: false },
);

const FilePath = NonEmpty({ maxLength: 4_096 });

/** `connector: operator-link`: the scheme operator over HTTPS with mutual TLS and signed messages (docs/operator-link.md). */
const OperatorLinkSchema = Type.Object(
  {
    url: HttpUrl,
    caFile: FilePath,
    certFile: FilePath,
    keyFile: FilePath,
    signingKeyFile: FilePath,
    operatorKeyFiles: Type.Array(FilePath, { minItems: 1, maxItems: 8 }),
    operatorCertificateSha256: Type.Array(Type.String({ pattern: '^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$' }), { maxItems: 16, default: [] }),
    inbound: Type.Object(
      {
        host: NonEmpty({ default: DEFAULTS.operatorLinkInboundHost }),
        port: Type.Integer({ minimum: 0, maximum: 65_535 }),
      },
      { additionalProperties: false },
    ),
    requestTimeoutMs: Type.Integer({ minimum: 100, maximum: 120_000, default: DEFAULTS.operatorLinkRequestTimeoutMs }),
    connectionsMax: Type.Integer({ minimum: 1, maximum: 1_000, default: DEFAULTS.operatorLinkConnectionsMax }),
    signatureMaxAgeS: Type.Integer({ minimum: 1, maximum: 3_600, default: DEFAULTS.operatorLinkSignatureMaxAgeS }),
  },
  { additionalProperties: false },
);

const SchemeConfigSchema = Type.Object(
  {
    connector: NonEmpty({ default: DEFAULTS.connector }),
    timeBudgetMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 604_800_000 })),
    simulatorLatencyMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 600_000 })),
    simulatorDirectory: Type.Optional(FilePath),
    operatorLink: Type.Optional(OperatorLinkSchema),
    inbound: Type.Optional(
      Type.Object(
        {
          /** How long an integrator's answer to a scheme-originated message is awaited (inside the scheme's own budget). */
          answerTimeoutMs: Type.Optional(Type.Integer({ minimum: 100, maximum: 600_000 })),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

const ProxyPaymentsSchema = Type.Object(
  {
    /** A ZA_RPP credit transfer to a proxy needs a successful identifier determination of it first. */
    determinationRequired: Type.Boolean({ default: true }),
    /** How old that determination may be. */
    determinationValidityMs: Type.Integer({ minimum: 1_000, maximum: 86_400_000, default: DEFAULTS.determinationValidityMs }),
  },
  { additionalProperties: false, default: {} },
);

/** The PostgreSQL store's connections and group commit (SQLite ignores it). docs/deployment.md sizes them. */
const StoreSchema = Type.Object(
  {
    poolMax: Type.Integer({ minimum: 2, maximum: 1_000, default: DEFAULTS.storePoolMax }),
    groupCommitConcurrency: Type.Integer({ minimum: 1, maximum: 64, default: DEFAULTS.storeGroupCommitConcurrency }),
  },
  { additionalProperties: false, default: {} },
);

/** Operator visibility (docs/operations.md). */
const MetricsSchema = Type.Object(
  {
    /** false: no /metrics and nothing counted (the benchmark's baseline). */
    enabled: Type.Boolean({ default: true }),
    /** The outbox gauges read the backlog from the store at most this often (scrapes in between reuse it). */
    backlogRefreshMs: Type.Integer({ minimum: 0, maximum: 3_600_000, default: DEFAULTS.metricsBacklogRefreshMs }),
  },
  { additionalProperties: false, default: {} },
);

const TelemetrySchema = Type.Object(
  {
    /** OTLP/HTTP endpoint (base URL; spans go to `<it>/v1/traces`); absent: no spans exported (OTEL_EXPORTER_OTLP_ENDPOINT is read when this is absent). */
    otlpEndpoint: Type.Optional(HttpUrl),
    serviceName: NonEmpty({ maxLength: 256, default: DEFAULTS.telemetryServiceName }),
  },
  { additionalProperties: false, default: {} },
);

const SchemeMessagesSchema = Type.Object(
  {
    /** Scheme messages (the XML sent and received) are kept this many days, then forgotten. */
    retentionDays: Type.Integer({ minimum: 1, maximum: 36_500, default: DEFAULTS.schemeMessagesRetentionDays }),
  },
  { additionalProperties: false, default: {} },
);

const RequestToPaySchema = Type.Object(
  {
    /** How far ahead a request-to-pay's expiryDateTime may lie. */
    expiryHorizonMs: Type.Integer({ minimum: 60_000, maximum: 31_536_000_000, default: DEFAULTS.requestToPayExpiryHorizonMs }),
  },
  { additionalProperties: false, default: {} },
);

/**
 * The built-in simulator as the scheme's other side (docs/simulator.md): a steady rate of lookups
 * and credits originated on ZA_RPP for every integrator with ZA_RPP on the simulator.
 */
const SimulatorSchema = Type.Object(
  {
    inbound: Type.Object(
      {
        /** Orders a second, LOOKUP_THEN_CREDIT and CREDIT in turn; 0: none. */
        ratePerSecond: Type.Number({ minimum: 0, maximum: 1_000, default: DEFAULTS.simulatorInboundRatePerSecond }),
        /** No new order while this many it started are still going. */
        outstandingMax: Type.Integer({ minimum: 1, maximum: 100_000, default: DEFAULTS.simulatorInboundOutstandingMax }),
        /** An order the service never finishes stops counting as going after this long. */
        outstandingMs: Type.Integer({ minimum: 1_000, maximum: 3_600_000, default: DEFAULTS.simulatorInboundOutstandingMs }),
        /** ZAR, decimal text. */
        amount: Type.String({ pattern: '^[0-9]{1,15}(\\.[0-9]{1,2})?$', default: DEFAULTS.simulatorInboundAmount }),
        /** The integrators' customer the orders name. */
        accountNumber: Type.String({ pattern: '^[A-Za-z0-9]{1,34}$', default: DEFAULTS.simulatorInboundAccountNumber }),
      },
      { additionalProperties: false, default: {} },
    ),
  },
  { additionalProperties: false, default: {} },
);

export const ConfigFileSchema = Type.Object(
  {
    server: ServerSchema,
    database: Type.String({ pattern: '^(sqlite:.+|postgres(ql)?://.+)$', default: DEFAULTS.database }),
    store: StoreSchema,
    auth: AuthSchema,
    integrators: Type.Array(IntegratorSchema, { minItems: 1 }),
    schemes: Type.Object(
      Object.fromEntries(SCHEMES.map((scheme) => [scheme, Type.Optional(SchemeConfigSchema)])),
      { additionalProperties: false, default: {} },
    ),
    delivery: DeliverySchema,
    processing: ProcessingSchema,
    proxyPayments: ProxyPaymentsSchema,
    requestToPay: RequestToPaySchema,
    admin: Type.Optional(AdminSchema),
    metrics: MetricsSchema,
    telemetry: TelemetrySchema,
    schemeMessages: SchemeMessagesSchema,
    simulator: SimulatorSchema,
  },
  { additionalProperties: false },
);

/** What Ajv hands back after filling defaults: the file as written, before hashing and freezing. */
export interface ConfigFile {
  server: Static<typeof ServerSchema>;
  database: string;
  store: Static<typeof StoreSchema>;
  auth: Static<typeof AuthSchema>;
  integrators: IntegratorFile[];
  schemes: Partial<
    Record<
      SchemeName,
      { connector: string; timeBudgetMs?: number; simulatorLatencyMs?: number; simulatorDirectory?: string; operatorLink?: OperatorLinkFile; inbound?: { answerTimeoutMs?: number } }
    >
  >;
  delivery: Static<typeof DeliverySchema>;
  processing: Static<typeof ProcessingSchema>;
  proxyPayments: Static<typeof ProxyPaymentsSchema>;
  requestToPay: Static<typeof RequestToPaySchema>;
  admin?: Static<typeof AdminSchema>;
  metrics: Static<typeof MetricsSchema>;
  telemetry: Static<typeof TelemetrySchema>;
  schemeMessages: Static<typeof SchemeMessagesSchema>;
  simulator: Static<typeof SimulatorSchema>;
}

export type IntegratorFile = Omit<Static<typeof IntegratorSchema>, 'limits'> & {
  limits: { requestsPerSecond: number; burst: number; amountMax: Partial<Record<SchemeName, string>> };
};
export type CallbackAuthFile = Static<typeof CallbackAuthSchema>;
export type OperatorLinkFile = Static<typeof OperatorLinkSchema>;
