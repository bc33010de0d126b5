import type { Config } from '../../config/types.js';
import { TOKEN_SCOPE } from '../../app/issue-token.js';
import { REQUEST_EXAMPLES, RESPONSE_EXAMPLES, type Example } from './examples.js';

/**
 * The parts of the OpenAPI document that are not generated from the routes: info, tags, security
 * schemes, shared header parameters, and what is filled in each time it is served (servers, the
 * token URL, the examples).
 */

export const SCHEME_NAMES = {
  /** The API with auth mode basic. */
  basic: 'basic',
  /** The API with the embedded identity provider: the /docs Authorize button gets a token from /oauth/token. */
  oauth2: 'oauth2',
  /** The API with an external issuer's tokens. */
  bearer: 'bearer',
  /** Client authentication at the token endpoint by an Authorization: Basic header. */
  tokenClient: 'tokenClientBasic',
  admin: 'adminBasic',
  callbackBasic: 'callbackBasic',
  callbackBearer: 'callbackBearer',
} as const;

export const TAG_NAMES = {
  creditTransfer: 'credit transfer',
  identifierDetermination: 'identifier determination',
  requestToPay: 'request-to-pay',
  receiving: 'receiving',
  token: 'token',
  operations: 'operations',
  admin: 'admin',
  callbacks: 'callbacks',
  receivingCalls: 'receiving calls',
  creditTransferEvents: 'credit-transfer events',
  identifierDeterminationEvents: 'identifier-determination events',
  requestToPayEvents: 'request-to-pay events',
  inboundEvents: 'inbound events',
} as const;

const TAGS = [
  { name: TAG_NAMES.creditTransfer, description: 'Outbound credit transfers in every scheme; the outcome follows as a callback' },
  { name: TAG_NAMES.identifierDetermination, description: 'PayShap (ZA_RPP) proxy and account resolution, sync or async' },
  { name: TAG_NAMES.requestToPay, description: 'PayShap (ZA_RPP) requests to pay; every status change follows as a callback' },
  { name: TAG_NAMES.receiving, description: "The integrator's async answers as the receiving bank: decisions on inbound credits, answers to lookups of its customers" },
  { name: TAG_NAMES.token, description: 'The embedded identity provider (auth mode oauth2 without an external issuer)' },
  { name: TAG_NAMES.operations, description: 'Probes and metrics for the platform; no integrator authentication' },
  { name: TAG_NAMES.admin, description: 'Operator API for deliveries (only with an admin section in the configuration)' },
  { name: TAG_NAMES.callbacks, description: "Callbacks POSTed under the integrator's partnerApiUrl; must-deliver" },
  { name: TAG_NAMES.receivingCalls, description: "Calls made under the integrator's partnerApiUrl as the receiving bank: lookups, credits, requests-to-pay the scheme brings (docs/receiving.md)" },
  { name: TAG_NAMES.creditTransferEvents, description: 'Events of credit transfers, POSTed to {eventsApiUrl}/events' },
  { name: TAG_NAMES.identifierDeterminationEvents, description: 'Events of identifier determinations, POSTed to {eventsApiUrl}/events' },
  { name: TAG_NAMES.requestToPayEvents, description: 'Events of requests-to-pay, POSTed to {eventsApiUrl}/events' },
  { name: TAG_NAMES.inboundEvents, description: 'Events of transactions the scheme starts for the integrator (direction INBOUND), POSTed to {eventsApiUrl}/events' },
];

export const PARAMETERS = {
  traceparent: 'Traceparent',
  tracestate: 'Tracestate',
  prefer: 'PreferRespondAsync',
  webhookId: 'WebhookId',
  webhookTimestamp: 'WebhookTimestamp',
  webhookSignature: 'WebhookSignature',
} as const;

const headerParameter = (name: string, required: boolean, description: string, schema: Record<string, unknown> = { type: 'string' }) => ({
  name,
  in: 'header',
  required,
  description,
  schema,
});

const PARAMETER_COMPONENTS = {
  [PARAMETERS.traceparent]: headerParameter(
    'traceparent',
    false,
    'W3C Trace Context: the trace this request belongs to. Callbacks and events it causes continue it.',
    { type: 'string', pattern: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$' },
  ),
  [PARAMETERS.tracestate]: headerParameter('tracestate', false, 'W3C Trace Context vendor state, passed on as received'),
  [PARAMETERS.prefer]: headerParameter(
    'Prefer',
    false,
    'respond-async (RFC 7240): answer 202 and POST the report to {partnerApiUrl}/identifiers/outbound/identifier-determination-report, ' +
      'whatever the integrator is configured for (answered with Preference-Applied: respond-async)',
    { type: 'string', examples: ['respond-async'] },
  ),
  [PARAMETERS.webhookId]: headerParameter(
    'webhook-id',
    true,
    'Standard Webhooks message id: the same on every attempt and replay of one message; de-duplicate on it (delivery is at least once)',
  ),
  [PARAMETERS.webhookTimestamp]: headerParameter('webhook-timestamp', true, 'Standard Webhooks: Unix seconds of this attempt; refuse stale ones', {
    type: 'string',
    pattern: '^[0-9]+$',
  }),
  [PARAMETERS.webhookSignature]: headerParameter(
    'webhook-signature',
    false,
    'Standard Webhooks signature, sent when the integrator has a webhookSecret (whsec_<base64 key>): `v1,` and the base64 HMAC-SHA256, keyed ' +
      'with the decoded key, of `{webhook-id}.{webhook-timestamp}.{body}`. Verify it against the raw body before parsing it.',
    { type: 'string', pattern: '^v1,[A-Za-z0-9+/]+={0,2}( v1,[A-Za-z0-9+/]+={0,2})*$' },
  ),
};

export function schemaRef(name: string): { $ref: string } {
  return { $ref: `#/components/schemas/${name}` };
}

export function exampleRefs(names: readonly string[]): Record<string, { $ref: string }> {
  return Object.fromEntries(names.map((name) => [name, { $ref: `#/components/examples/${name}` }]));
}

/** The security scheme every `/api/v1` operation requires, by the deployment's auth mode. */
function apiScheme(config: Config): string {
  if (config.auth.mode === 'basic') return SCHEME_NAMES.basic;
  return config.auth.issuer === undefined ? SCHEME_NAMES.oauth2 : SCHEME_NAMES.bearer;
}

/**
 * The two documents served (plugin.ts): the integrators' at `/openapi.json` (the API, the token
 * endpoint, the operations endpoints, callbacks and events), and the operators' at
 * `/admin/openapi.json` (the admin API, answered to `admin.allowlist` only), so that a bank's
 * generated client holds only what the bank may call.
 */
export type Audience = 'integrators' | 'admin';

/** The admin API's paths, which only the admin document holds. */
export function isAdminPath(path: string): boolean {
  return path.startsWith('/admin/');
}

/**
 * The security schemes a document uses, and only those. The integrators': the API's (by auth
 * mode), the token endpoint's client authentication (embedded provider only), and the two ways
 * callbacks authenticate to the integrator. The admin document's: the operator's Basic
 * credentials (only with an admin section).
 */
function securitySchemes(config: Config, serviceUrl: string, audience: Audience | 'all'): Record<string, unknown> {
  const schemes: Record<string, unknown> = {};
  if (audience !== 'integrators' && config.admin !== undefined) {
    schemes[SCHEME_NAMES.admin] = { type: 'http', scheme: 'basic', description: 'The operator credentials of the admin section' };
  }
  if (audience === 'admin') return schemes;
  const embedded = config.auth.mode === 'oauth2' && config.auth.issuer === undefined;
  if (config.auth.mode === 'basic') {
    schemes[SCHEME_NAMES.basic] = { type: 'http', scheme: 'basic', description: "The integrator's username and password (RFC 7617)" };
  } else if (embedded) {
    const tokenUrl = `${serviceUrl}/oauth/token`;
    const scopes = { [TOKEN_SCOPE]: 'The integrator API (every token grants it)' };
    schemes[SCHEME_NAMES.oauth2] = {
      type: 'oauth2',
      description:
        "A bearer JWT from the token endpoint: by the client-credentials grant (the integrator's client_id and client_secret), or by " +
        "the password grant (also the integrator's username and password).",
      // One flow per grant the token endpoint takes (provider.ts TOKEN_GRANTS).
      flows: {
        clientCredentials: { tokenUrl, scopes },
        password: { tokenUrl, refreshUrl: tokenUrl, scopes },
      },
    };
    schemes[SCHEME_NAMES.tokenClient] = { type: 'http', scheme: 'basic', description: 'client_id:client_secret, each form-encoded (RFC 6749 §2.3.1)' };
  } else {
    schemes[SCHEME_NAMES.bearer] = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: `An access token of ${config.auth.issuer ?? 'the issuer'}` };
  }
  schemes[SCHEME_NAMES.callbackBasic] = { type: 'http', scheme: 'basic', description: 'callbackAuth type basic: the credentials configured for the integrator' };
  schemes[SCHEME_NAMES.callbackBearer] = {
    type: 'http',
    scheme: 'bearer',
    description: "callbackAuth type oauth2: a token from the integrator's token endpoint (client-credentials grant)",
  };
  return schemes;
}

/**
 * The @fastify/swagger `openapi` option: everything but the paths (from the routes) and the
 * component schemas (completeDocument). The token URL in it is the configured address; each
 * serving replaces it with the address the service is reached at (publish).
 */
export function documentSkeleton(config: Config, webhooks: Record<string, unknown>) {
  return {
    openapi: '3.1.0',
    info: {
      title: 'regpay API',
      version: '1.0.0',
      description:
        'Regulated payments service. Integrators call the operations under /api/v1; the service answers through the callbacks and ' +
        'events listed under webhooks. Errors are ErrorDetail bodies (CONTRACT §5). Examples are made for the demo integrator ' +
        '(demo-bank, DEMOZAJJ) at the time the document is served. The operators\' admin API is described apart, at /admin/openapi.json.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    tags: TAGS,
    security: [{ [apiScheme(config)]: [] }],
    components: { securitySchemes: securitySchemes(config, config.auth.publicUrl ?? `http://${config.server.host}:${config.server.port}`, 'all'), parameters: PARAMETER_COMPONENTS },
    webhooks,
  };
}

export type Document = Record<string, unknown> & { components: Record<string, unknown>; paths: Record<string, Record<string, unknown>>; tags?: Array<{ name: string }> };

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

function operations(pathItems: Record<string, Record<string, unknown>>): Array<Record<string, unknown>> {
  return Object.values(pathItems).flatMap((item) => HTTP_METHODS.flatMap((method) => (item[method] === undefined ? [] : [item[method] as Record<string, unknown>])));
}

/**
 * Completes the generated document once (@fastify/swagger's transformObject): the named schemas
 * as published (components.ts) in place of those generated from the routes' references, example
 * references on request and response bodies, the trace headers on every API path and `Prefer` on
 * identifier determination. Each audience's part keeps only the tags and schemas it uses (documentFor).
 */
export function completeDocument(document: Document, components: Readonly<Record<string, unknown>>): Document {
  const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });
  for (const [path, item] of Object.entries(document.paths)) {
    if (path.startsWith('/api/v1/')) item['parameters'] = [parameterRef(PARAMETERS.traceparent), parameterRef(PARAMETERS.tracestate)];
  }
  for (const operation of operations(document.paths)) {
    const id = String(operation['operationId']);
    const body = operation['requestBody'] as { content: Record<string, Record<string, unknown>> } | undefined;
    const requestExamples = REQUEST_EXAMPLES[id];
    if (body !== undefined && requestExamples !== undefined) for (const media of Object.values(body.content)) media['examples'] = exampleRefs(requestExamples);
    const responses = operation['responses'] as Record<string, { content?: Record<string, Record<string, unknown>> }>;
    for (const [status, names] of Object.entries(RESPONSE_EXAMPLES[id] ?? {})) {
      for (const media of Object.values(responses[status]?.content ?? {})) media['examples'] = exampleRefs(names);
    }
    if (id.startsWith('outboundSynchronousIdentifierDetermination')) operation['parameters'] = [parameterRef(PARAMETERS.prefer)];
  }
  return { ...document, components: { ...document.components, schemas: { ...(document.components['schemas'] as Record<string, unknown>), ...components } } };
}

/** Names of the components of `kind` that `value` refers to. */
function references(value: unknown, kind: 'schemas' | 'examples' | 'parameters'): Set<string> {
  const pattern = new RegExp(`"#/components/${kind}/([^"/]+)"`, 'g');
  return new Set([...JSON.stringify(value).matchAll(pattern)].map((match) => match[1] ?? ''));
}

/**
 * The schemas the operations and webhooks use, directly or through other schemas. The others
 * belong to the other audience's document, or to routes this deployment does not register (the
 * token endpoint without the embedded provider, the admin API without an admin section), and are
 * left out.
 */
function referencedSchemas(document: Document, schemas: Readonly<Record<string, unknown>>): Set<string> {
  const found = references([document.paths, document['webhooks']], 'schemas');
  const queue = [...found];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    for (const next of references(schemas[name], 'schemas')) {
      if (!found.has(next)) {
        found.add(next);
        queue.push(next);
      }
    }
  }
  return found;
}

function pick<T>(record: Readonly<Record<string, T>>, names: ReadonlySet<string>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => names.has(name)));
}

const ADMIN_INFO = {
  title: 'regpay admin API',
  version: '1.0.0',
  description:
    "The operators' API under /admin/v1 (only with an admin section in the configuration; answered to admin.allowlist, with the " +
    "operator's Basic credentials): transactions, deliveries and their replay, scheme health, the simulator's traffic. Errors are " +
    'ErrorDetail bodies. The integrators\' API is described at /openapi.json.',
  license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
};

/** Each audience's part of a generated document, made once per document. */
const parts = new WeakMap<Document, Readonly<Record<Audience, Document>>>();

/**
 * The part of the generated (completed) document an audience is given: its paths, the webhooks
 * for integrators only, and only the tags and schemas those use.
 */
export function documentFor(document: Document, audience: Audience): Document {
  let made = parts.get(document);
  if (made === undefined) {
    made = { integrators: part(document, 'integrators'), admin: part(document, 'admin') };
    parts.set(document, made);
  }
  return made[audience];
}

function part(document: Document, audience: Audience): Document {
  const paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => isAdminPath(path) === (audience === 'admin')));
  const { webhooks, ...rest } = document;
  const kept: Document = {
    ...rest,
    ...(audience === 'admin' ? { info: ADMIN_INFO, security: [{ [SCHEME_NAMES.admin]: [] }] } : { webhooks }),
    paths,
  };
  const used = new Set([...operations(paths), ...operations((kept['webhooks'] ?? {}) as Record<string, Record<string, unknown>>)].flatMap((operation) => (operation['tags'] as string[] | undefined) ?? []));
  const schemas = document.components['schemas'] as Record<string, unknown>;
  return {
    ...kept,
    tags: (document.tags ?? []).filter((tag) => used.has(tag.name)),
    components: {
      ...document.components,
      schemas: pick(schemas, referencedSchemas(kept, schemas)),
      parameters: pick(document.components['parameters'] as Record<string, unknown>, references([paths, kept['webhooks']], 'parameters')),
    },
  };
}

/** The examples a generated document refers to, worked out once per document. */
const referencedExamples = new WeakMap<Document, Set<string>>();

export interface Publication {
  /** The URL the service is reached at: auth.publicUrl, or the address it listens on. */
  readonly serviceUrl: string;
  readonly examples: Readonly<Record<string, Example>>;
}

/** An audience's document as served: its part of the generated one with its servers, token URL and the examples of this moment it refers to. */
export function publish(config: Config, generated: Document, audience: Audience, publication: Publication): Record<string, unknown> {
  const document = documentFor(generated, audience);
  let exampleNames = referencedExamples.get(document);
  if (exampleNames === undefined) {
    exampleNames = references(document, 'examples');
    referencedExamples.set(document, exampleNames);
  }
  const { openapi, info, ...rest } = document;
  return {
    openapi,
    info,
    servers: [{ url: publication.serviceUrl, description: config.auth.publicUrl === undefined ? 'The address the service listens on' : 'auth.publicUrl' }],
    ...rest,
    components: { ...document.components, securitySchemes: securitySchemes(config, publication.serviceUrl, audience), examples: pick(publication.examples, exampleNames) },
  };
}
