import { receiveFromScheme, type ReceiveDeps } from '../../src/app/receive-from-scheme.js';
import { validateAuthorisationReport } from '../../src/domain/messages/inbound-answers.js';
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import type { FastifyInstance } from 'fastify';
import { createMetrics } from '../../src/adapters/metrics/prometheus.js';
import { openStore } from '../../src/adapters/store.js';
import { systemClock, systemIds } from '../../src/adapters/system/system.js';
import { configFromObject } from '../../src/config/load.js';
import { CALLBACK_PATHS, INBOUND_PATHS } from '../../src/domain/callback-paths.js';
import { directionOf, EVENT_CLASS } from '../../src/domain/events.js';
import type { FieldError } from '../../src/domain/errors.js';
import { MACHINES } from '../../src/domain/machines/registry.js';
import { validateIdentifierDeterminationRequest, IdentifierDeterminationResponseSchema } from '../../src/domain/messages/identifier-determination.js';
import { validatePaymentStatusRequest } from '../../src/domain/messages/payment-status-request.js';
import {
  expiryProblem,
  RequestToPayCancellationResponseSchema,
  RequestToPayResponseSchema,
  validateRequestToPay,
  validateRequestToPayCancellation,
  validateRequestToPayStatusRequest,
} from '../../src/domain/messages/request-to-pay.js';
import { makeValidator, validateCreditTransfer, type Validation } from '../../src/domain/messages/validate.js';
import { buildApp } from '../../src/http/app.js';
import { EventSchema, PaymentStatusReportSchema } from '../../src/http/openapi/components.js';
import { TOKEN_PLACEHOLDERS } from '../../src/http/openapi/examples.js';
import type { Processing } from '../../src/ports/processing.js';
import { httpGet, integrator, rawRequest } from '../support/auth-app.js';
import { DEMO_USER, testConfigObject } from '../support/server.js';

type Json = Record<string, any>;

const OPERATOR = { username: 'ops', password: 'operator-password-for-tests' };
const PUBLIC_URL = 'https://regpay.demobank.co.za';

/** Requests about a request-to-pay go to its machine: taken as decided, for the intake is what is tested here. */
const processing: Processing = { leaseForNew: () => undefined, accepted: () => undefined, decideNow: () => Promise.resolve(), request: () => Promise.resolve('decided') };

const apps: FastifyInstance[] = [];
after(async () => {
  for (const app of apps) await app.close();
});

interface AppOptions {
  readonly auth?: Record<string, unknown>;
  readonly admin?: boolean;
  readonly metrics?: boolean;
}

/** One app per configuration, shared by the tests (hashing the configured secrets makes each start slow). */
const started = new Map<string, Promise<FastifyInstance>>();
/** What each app stands on, for the tests that set up transactions the scheme originated. */
const receiving = new WeakMap<FastifyInstance, ReceiveDeps>();

function startApp(options: AppOptions = {}): Promise<FastifyInstance> {
  const key = JSON.stringify(options);
  let app = started.get(key);
  if (app === undefined) {
    app = buildTestApp(options);
    started.set(key, app);
  }
  return app;
}

async function buildTestApp(options: AppOptions): Promise<FastifyInstance> {
  const raw = testConfigObject({ database: 'sqlite::memory:', extra: { ...(options.admin === false ? {} : { admin: OPERATOR }) } });
  const config = await configFromObject({ ...raw, auth: options.auth ?? { mode: 'oauth2', publicUrl: PUBLIC_URL } });
  const store = await openStore('sqlite::memory:');
  const app = await buildApp({
    config,
    store,
    clock: systemClock,
    ids: systemIds,
    readiness: { accepting: () => true },
    processing,
    ...(options.metrics === false ? {} : { metrics: createMetrics({ backlog: () => store.outboxBacklog(), backlogRefreshMs: 0, now: () => Date.now(), knownReason: () => true, durable: () => store.durableCounts() }) }),
  });
  app.addHook('onClose', () => store.close());
  apps.push(app);
  const silent = { warn: () => undefined };
  receiving.set(app, { store, clock: systemClock, ids: systemIds, integrators: new Map(config.integrators.map((integrator) => [integrator.id, integrator])), schemes: config.schemes, log: silent, processing });
  return app;
}

/**
 * The scheme-originated transaction an example answer of the receiving bank names, made as the
 * scheme's message would make it (through receiveFromScheme): the answers are about it.
 */
async function originateFor(app: FastifyInstance, document: Json, answer: { where: string; value: unknown }, sequence: number): Promise<void> {
  const deps = receiving.get(app);
  assert.ok(deps !== undefined, 'the app was built by buildTestApp');
  const kind = answer.where.endsWith('/credit-transfer-authorisation-response') ? 'credit' : answer.where.endsWith('/request-to-pay-response') ? 'request_to_pay' : 'lookup';
  const uetr = kind === 'lookup' ? (answer.value as Json).uetr : (answer.value as Json).transactionIdentifiers.uetr;
  const requests = Object.values(document.components.examples as Json).map((example) => (example as Json).value as Json);
  const schema = { credit: 'CreditTransfer', request_to_pay: 'RequestToPay', lookup: 'IdentifierDeterminationRequest' }[kind];
  const request = requests.find((value) => value?.schema === schema && (kind === 'lookup' ? value.request.uetr : value.transactionIdentifiers.uetr) === uetr);
  assert.ok(request !== undefined, `an example request with the uetr ${String(uetr)} the answer names`);
  const body = kind === 'credit' ? { ...request, creditorAgent: { bicfi: 'DEMOZAJJ' } } : request;
  const messageName = { credit: 'pacs.008.001.08', request_to_pay: 'pain.013.001.09', lookup: 'acmt.023.001.03' }[kind];
  const outcome = await receiveFromScheme(deps, {
    kind,
    scheme: kind === 'credit' ? request.paymentScheme.schema : 'ZA_RPP',
    original: { messageId: `SEXAMPLE${sequence}`, messageName },
    institution: { bicfi: 'DEMOZAJJ' },
    bodyJson: JSON.stringify(body),
    received: { messageName, messageId: `SEXAMPLE${sequence}`, document: '<Document/>' },
    receivedAt: Date.now(),
  });
  assert.deepEqual(outcome, { kind: 'accepted' }, `the ${messageName} an example answers is taken`);
}

async function documentOf(app: FastifyInstance, host = 'regpay.internal:8080', url = '/openapi.json'): Promise<Json> {
  const response = await app.inject({ method: 'GET', url, headers: { host } });
  assert.equal(response.statusCode, 200);
  return response.json();
}

/** The operators' document (an admin section is configured unless the options say otherwise). */
function adminDocumentOf(app: FastifyInstance): Promise<Json> {
  return documentOf(app, 'regpay.internal:8080', '/admin/openapi.json');
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'];

/** Every operation of the document, path items and webhooks alike. */
function operationsOf(document: Json): Array<{ where: string; method: string; operation: Json }> {
  const items = [...Object.entries(document.paths as Json), ...Object.entries((document.webhooks ?? {}) as Json)];
  return items.flatMap(([where, item]) => HTTP_METHODS.filter((method) => item[method] !== undefined).map((method) => ({ where, method, operation: item[method] as Json })));
}

/** Each request or webhook body's examples, with the component name of its schema. */
function bodyExamples(document: Json): Array<{ where: string; schema: string; name: string; value: unknown }> {
  return operationsOf(document).flatMap(({ where, operation }) =>
    Object.values((operation.requestBody?.content ?? {}) as Json).flatMap((media: Json) =>
      Object.entries((media.examples ?? {}) as Json).map(([name, example]: [string, Json]) => ({
        where,
        schema: String(media.schema.$ref).replace('#/components/schemas/', ''),
        name,
        value: document.components.examples[String(example.$ref).replace('#/components/examples/', '')]?.value,
      })),
    ),
  );
}

/** Every route of the app as `METHOD /path` (OpenAPI path parameters), read from the tree `printRoutes` draws. */
function registeredRoutes(app: FastifyInstance): Set<string> {
  const routes = new Set<string>();
  const parents: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (match === null) continue;
    const depth = (match[1] ?? '').length / 4;
    parents.length = depth;
    const path = `${parents[depth - 1] ?? ''}${match[2] ?? ''}`;
    parents.push(path);
    for (const method of match[3]?.split(', ') ?? []) routes.add(`${method} ${path.replace(/:([A-Za-z]+)/g, '{$1}')}`);
  }
  return routes;
}

async function lint(document: Json): Promise<string[]> {
  const config = await createConfig(
    { extends: ['recommended'] },
    {
      // Probes, metrics and key publication take no input, so they have no 4XX answer to document.
      ignore: {
        '/openapi.json': {
          'operation-4xx-response': new Set(['/health/live', '/health/ready', '/metrics', '/oauth/jwks'].map((path) => `#/paths/${path.replaceAll('/', '~1')}/get/responses`)),
        },
      },
    },
  );
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: '/openapi.json', config });
  return problems.filter((problem) => !problem.ignored).map((problem) => `${problem.severity} ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ''}`);
}

const check = <T>(validate: (body: unknown) => Validation<T>) => (value: unknown): readonly FieldError[] => {
  const result = validate(value);
  return result.ok ? [] : result.errors;
};

/** The validator of each message the document gives examples of: for requests, the very ones the routes run. */
const VALIDATORS: Readonly<Record<string, (value: unknown) => readonly FieldError[]>> = {
  CreditTransfer: check(validateCreditTransfer),
  AuthorisationReport: check(validateAuthorisationReport),
  PaymentStatusRequest: check(validatePaymentStatusRequest),
  IdentifierDeterminationRequest: check(validateIdentifierDeterminationRequest),
  RequestToPay: (value) => {
    const errors = check(validateRequestToPay)(value);
    const expiry = expiryProblem((value as Json).expiryDateTime, Date.now(), 7 * 24 * 3_600_000);
    return expiry === undefined ? errors : [...errors, { field: '/expiryDateTime', message: expiry }];
  },
  RequestToPayStatusRequest: check(validateRequestToPayStatusRequest),
  RequestToPayCancellation: check(validateRequestToPayCancellation),
  IdentifierDeterminationResponse: check(makeValidator(IdentifierDeterminationResponseSchema)),
  RequestToPayResponse: check(makeValidator(RequestToPayResponseSchema)),
  RequestToPayCancellationResponse: check(makeValidator(RequestToPayCancellationResponseSchema)),
  PaymentStatusReport: check(makeValidator(PaymentStatusReportSchema)),
  Event: (value) => {
    const errors = check(makeValidator(EventSchema))(value);
    const payload = (value as Json).payload as Json;
    const ofPayload = VALIDATORS[String(payload.schema)];
    return [...errors, ...(ofPayload === undefined ? [] : ofPayload(payload).map((error) => ({ ...error, field: `/payload${error.field}` })))];
  },
};

/** Bodies no validator of the service reads on its own: the running app is their judge (below). */
const JUDGED_BY_THE_APP = new Set(['TokenRequest', 'ReplayRequest', 'SimulatorSampleRequest']);

void describe('OpenAPI document', () => {
  void it("documents every route the app registers in one of its two documents, except the documents themselves, Swagger UI and the console's files", async () => {
    const app = await startApp();
    const [document, admin] = [await documentOf(app), await adminDocumentOf(app)];
    const documented = new Set(operationsOf({ paths: { ...document.paths, ...admin.paths } }).map(({ where, method }) => `${method.toUpperCase()} ${where}`));
    const expected = [...registeredRoutes(app)].filter((route) => !route.startsWith('HEAD ') && !/ \/(docs|openapi\.json|admin\/openapi\.json|console)/.test(route));
    for (const route of ['POST /oauth/token', 'GET /health/ready', 'GET /metrics', 'GET /admin/v1/deliveries/{id}', 'POST /api/v1/transactions/outbound/credit-transfer']) {
      assert.ok(expected.includes(route), `${route} is among the routes read: ${expected.join(', ')}`);
    }
    assert.deepEqual([...documented].sort(), expected.sort());
  });

  void it('answers every operation with documented status codes, errors as ErrorDetail on the API and admin paths', async () => {
    const app = await startApp();
    const document = await documentOf(app);
    for (const { where, operation } of operationsOf({ paths: { ...document.paths, ...(await adminDocumentOf(app)).paths } })) {
      assert.ok(operation.operationId && operation.summary, `${where} has an operationId and a summary`);
      if (!where.startsWith('/api/v1/') && !where.startsWith('/admin/v1/')) continue;
      for (const status of ['400', '401', '429']) {
        assert.equal(operation.responses[status]?.content['application/json'].schema.$ref, '#/components/schemas/ErrorDetail', `${where} ${status}`);
      }
    }
    const transfer = document.paths['/api/v1/transactions/outbound/credit-transfer'].post;
    assert.deepEqual(Object.keys(transfer.responses).sort(), ['202', '400', '401', '403', '409', '413', '415', '422', '429', '500', '503']);
    assert.ok(transfer.responses['429'].headers['Retry-After'] && transfer.responses['401'].headers['WWW-Authenticate']);
  });

  void it('publishes every message as a named component, none named def-N', async () => {
    const app = await startApp();
    const document = await documentOf(app);
    const names = [...Object.keys(document.components.schemas), ...Object.keys((await adminDocumentOf(app)).components.schemas)];
    assert.deepEqual(names.filter((name) => /^def-\d+$/.test(name)), []);
    for (const name of ['CreditTransfer', 'ErrorDetail', 'PaymentStatusRequest', 'PaymentStatusReport', 'IdentifierDeterminationRequest', 'IdentifierDeterminationResponse', 'RequestToPay', 'RequestToPayResponse', 'RequestToPayStatusRequest', 'RequestToPayCancellation', 'RequestToPayCancellationResponse', 'Event', 'EventPayload', 'Amount', 'Party', 'TokenResponse', 'DeliveryDetail']) {
      assert.ok(names.includes(name), name);
    }
    assert.equal(document.paths['/api/v1/transactions/outbound/credit-transfer'].post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/CreditTransfer');
    assert.equal(document.components.schemas.CreditTransfer.properties.amounts.properties.bankSettlementAmount.$ref, '#/components/schemas/Amount');
  });

  void it('documents a webhook for every callback, every call to the receiving bank and every event type, with the Standard Webhooks headers', async () => {
    const document = await documentOf(await startApp());
    // Inbound kinds share type names with outbound ones: their webhooks are named INBOUND_….
    const eventNames = [...MACHINES.values()].flatMap((machine) => Object.keys(machine.transitions).map((type) => `${directionOf(machine.kind) === 'INBOUND' ? 'INBOUND_' : ''}${EVENT_CLASS}_${type}`));
    const calls = Object.entries(document.webhooks as Json).filter(([name]) => !eventNames.includes(name));
    const paths = calls.map(([, item]) => /^POST \{partnerApiUrl\}(\S+)\. /.exec(String(item.post.description))?.[1]).sort();
    assert.deepEqual(paths, [...Object.values(CALLBACK_PATHS), ...Object.values(INBOUND_PATHS)].sort(), 'one webhook per path the service POSTs to under partnerApiUrl');
    assert.deepEqual(Object.keys(document.webhooks).sort(), [...calls.map(([name]) => name), ...eventNames].sort());
    for (const [name, item] of calls) assert.equal(item.post.operationId, name, 'a call is named by its operation');
    for (const [name, item] of Object.entries(document.webhooks as Json)) {
      const headers = (item.post.parameters as Json[]).map((parameter) => document.components.parameters[String(parameter.$ref).split('/').pop() ?? ''].name);
      assert.deepEqual(headers, ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'traceparent', 'tracestate'], name);
    }
    assert.equal(document.webhooks.outboundCreditTransferResponse.post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/PaymentStatusReport');
    assert.match(document.webhooks.outboundCreditTransferResponse.post.description, /\{partnerApiUrl\}\/transactions\/outbound\/credit-transfer-response/);
    const sync = document.webhooks.inboundCreditTransferAuthorisation.post;
    assert.equal(sync.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/PaymentStatusReport', 'the sync call is answered with the decision');
  });

  void it('names every operation the interface names as it names it: the spec and CONTRACT §11', async () => {
    const document = await documentOf(await startApp());
    const ids = new Set(operationsOf(document).map(({ operation }) => String(operation.operationId)));
    const named = [
      // spec: Endpoints 1, 2, 3 and 5
      'outboundCreditTransfer',
      'outboundSynchronousIdentifierDetermination',
      'outboundRequestToPayResponse',
      'outboundRequestToPayStatusRequest',
      // CONTRACT §11
      'inboundSynchronousIdentifierDetermination',
      'inboundCreditTransferAuthorisation',
      'inboundCreditTransferCompletion',
      'inboundRequestToPay',
    ];
    assert.deepEqual(named.filter((name) => !ids.has(name)), []);
    assert.equal(document.webhooks.outboundRequestToPayResponse.post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/RequestToPayResponse');
    assert.equal(document.webhooks.requestToPayResponse, undefined, 'the old name is gone');
  });

  void it("serves the admin API's document apart, at /admin/openapi.json: the integrators' document holds nothing of it", async () => {
    const app = await startApp();
    const [document, admin] = [await documentOf(app), await adminDocumentOf(app)];
    assert.deepEqual(Object.keys(document.paths).filter((path) => path.startsWith('/admin/')), []);
    assert.equal(document.components.securitySchemes.adminBasic, undefined);
    assert.ok(!document.tags.some((tag: Json) => tag.name === 'admin'));
    for (const name of ['DeliveryDetail', 'TransactionDetail', 'SchemeHealthReport']) assert.equal(document.components.schemas[name], undefined, `${name} is the admin API's`);
    assert.ok(Object.keys(admin.paths).length > 0 && Object.keys(admin.paths).every((path) => path.startsWith('/admin/v1/')), Object.keys(admin.paths).join(', '));
    assert.deepEqual(Object.keys(admin.components.securitySchemes), ['adminBasic']);
    assert.deepEqual(admin.security, [{ adminBasic: [] }]);
    assert.equal(admin.webhooks, undefined);
    assert.ok(admin.components.schemas.DeliveryDetail && admin.components.schemas.ErrorDetail);
    assert.equal(admin.components.schemas.CreditTransfer, undefined, 'no integrator message the admin API does not use');
    assert.equal((await app.inject({ method: 'GET', url: '/admin/openapi.json' })).statusCode, 200, 'no credentials asked: it holds no secret');
    const withoutAdmin = await startApp({ auth: { mode: 'basic' }, admin: false });
    assert.equal((await withoutAdmin.inject({ method: 'GET', url: '/admin/openapi.json' })).statusCode, 404, 'without an admin section there is no admin API to describe');
  });

  void it('holds a request for the admin document from outside admin.allowlist without a byte of answer, where the integrators\' one is answered', async () => {
    const config = await configFromObject({
      server: { heldConnectionMs: 300, heldConnectionsMax: 10, logLevel: 'silent' },
      database: 'sqlite::memory:',
      auth: { mode: 'basic' },
      integrators: [integrator('bank-a', ['127.0.0.1/32'], { username: 'alice', password: 'alice-password' })],
      admin: { ...OPERATOR, allowlist: ['10.0.0.0/8'] },
    });
    const store = await openStore('sqlite::memory:');
    const app = await buildApp({ config, store, clock: systemClock, ids: systemIds, readiness: { accepting: () => true }, processing });
    try {
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const exchange = await rawRequest({ host: '127.0.0.1', port: Number(new URL(url).port), request: httpGet('/admin/openapi.json'), timeoutMs: 5_000 });
      assert.equal(exchange.received, '', 'nothing answered');
      assert.ok(exchange.closedAfterMs >= 250, `held, closed after ${exchange.closedAfterMs} ms`);
      assert.equal((await fetch(`${url}/openapi.json`)).status, 200);
    } finally {
      await app.close();
      await store.close();
    }
  });

  void it('names as server auth.publicUrl, or else the address the service listens on, and points the Authorize button at its token endpoint', async () => {
    const configured = await documentOf(await startApp());
    assert.deepEqual(configured.servers.map((server: Json) => server.url), [PUBLIC_URL]);
    assert.equal(configured.components.securitySchemes.oauth2.flows.password.tokenUrl, `${PUBLIC_URL}/oauth/token`);
    assert.deepEqual(configured.security, [{ oauth2: [] }]);

    const app = await startApp({ auth: { mode: 'oauth2' } });
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    const listening = (await (await fetch(`${address}/openapi.json`)).json()) as Json;
    assert.deepEqual(listening.servers.map((server: Json) => server.url), [address]);
    assert.equal(listening.components.securitySchemes.oauth2.flows.password.tokenUrl, `${address}/oauth/token`);
    const ui = (await (await fetch(`${address}/docs/json`)).json()) as Json;
    assert.deepEqual(ui.servers, listening.servers, 'Swagger UI is given the same document');
  });

  void it('asks for Basic credentials in basic mode and an external issuer’s bearer token with one, without the token endpoint', async () => {
    const basic = await documentOf(await startApp({ auth: { mode: 'basic' }, admin: false }));
    assert.deepEqual(basic.security, [{ basic: [] }]);
    assert.equal(basic.paths['/oauth/token'], undefined);
    assert.equal(basic.paths['/admin/v1/deliveries'], undefined);
    assert.equal(basic.components.schemas.TokenResponse, undefined, 'no schema of a route that is not there');
    const external = await documentOf(await startApp({ auth: { mode: 'oauth2', issuer: 'https://login.demobank.co.za/realms/regpay', jwksUrl: 'https://login.demobank.co.za/realms/regpay/certs' } }));
    assert.deepEqual(external.security, [{ bearer: [] }]);
    assert.equal(external.components.securitySchemes.bearer.bearerFormat, 'JWT');
  });

  void it('passes the Redocly linter (recommended rules) with no error and no warning, in every auth mode', async () => {
    const documents = [
      await documentOf(await startApp()),
      await adminDocumentOf(await startApp()),
      await documentOf(await startApp({ auth: { mode: 'basic' }, admin: false, metrics: false })),
      await documentOf(await startApp({ auth: { mode: 'oauth2', issuer: 'https://login.demobank.co.za/realms/regpay', jwksUrl: 'https://login.demobank.co.za/realms/regpay/certs' } })),
    ];
    for (const document of documents) assert.deepEqual(await lint(document), []);
  });

  void it('catches a broken document: the linter is not a formality', async () => {
    const document = await documentOf(await startApp());
    delete document.components.schemas.Amount;
    document.paths['/health/live'].get.operationId = 'outboundCreditTransfer';
    const problems = await lint(document);
    assert.ok(problems.some((problem) => problem.startsWith('error no-unresolved-refs')), problems.join('\n'));
    assert.ok(problems.some((problem) => problem.startsWith('error operation-operationId-unique')), problems.join('\n'));
  });

  void it('gives every request body and every webhook body examples, in both documents, each valid by the validator of its message', async () => {
    const app = await startApp();
    const [document, admin] = [await documentOf(app), await adminDocumentOf(app)];
    const examples = [...bodyExamples(document), ...bodyExamples(admin)];
    for (const { where, operation } of [...operationsOf(document), ...operationsOf(admin)]) {
      if (operation.requestBody === undefined) continue;
      assert.ok(examples.some((example) => example.where === where), `${where} has an example`);
    }
    for (const example of examples) {
      assert.notEqual(example.value, undefined, `${example.where}: ${example.name} is in components.examples`);
      if (JUDGED_BY_THE_APP.has(example.schema)) continue;
      const validate = VALIDATORS[example.schema];
      assert.ok(validate, `a validator for ${example.schema}`);
      assert.deepEqual(validate(example.value), [], `${example.where}: ${example.name}`);
    }
    const schemes = examples.filter((example) => example.schema === 'CreditTransfer').map((example) => (example.value as Json).paymentScheme.schema);
    assert.deepEqual([...new Set(schemes)].sort(), ['CBPR_PLUS', 'TCIB', 'ZA_EFT', 'ZA_RPP', 'ZA_RTC'], 'a credit transfer per scheme that carries them');
  });

  void it('makes its examples afresh each time it is served: new identifiers, and a request-to-pay expiring an hour after serving', async () => {
    const app = await startApp();
    const before = Date.now();
    const [first, second] = [await documentOf(app), await documentOf(app)];
    const uetr = (document: Json) => document.components.examples.CreditTransferZaRtc.value.transactionIdentifiers.uetr;
    assert.notEqual(uetr(first), uetr(second));
    const status = first.components.examples.PaymentStatusRequest.value;
    assert.equal(status.originalTransactionIdentifiers.uetr, uetr(first), 'the status request asks about the transfer example of the same page');
    const expiresInMs = Date.parse(first.components.examples.RequestToPayMobile.value.expiryDateTime) - before;
    assert.ok(expiresInMs > 59 * 60_000 && expiresInMs <= 61 * 60_000, `expires in ${expiresInMs} ms`);
  });

  void it('makes request examples the running app accepts, as the demo integrator would send them', async () => {
    const app = await startApp();
    const [document, admin] = [await documentOf(app), await adminDocumentOf(app)];
    const examples = [...bodyExamples({ paths: document.paths, components: document.components }), ...bodyExamples({ paths: admin.paths, components: admin.components })];
    const form = (value: Json) =>
      new URLSearchParams(
        Object.entries(value).map(([key, text]): [string, string] => [
          key,
          text === TOKEN_PLACEHOLDERS.password ? DEMO_USER.password : text === TOKEN_PLACEHOLDERS.clientSecret ? DEMO_USER.clientSecret : String(text),
        ]),
      );
    let tokens: Json = {};
    const answers: string[] = [];
    for (const [index, example] of examples.entries()) {
      const value = example.value as Json;
      if (example.where.includes('/inbound/')) await originateFor(app, document, example, index);
      let response;
      if (example.where === '/oauth/token') {
        const body = form(value);
        if (body.get('grant_type') === 'refresh_token') body.set('refresh_token', tokens.refresh_token);
        response = await app.inject({ method: 'POST', url: example.where, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: body.toString() });
        if (response.statusCode === 200) tokens = response.json();
      } else {
        const admin = example.where.startsWith('/admin/');
        response = await app.inject({
          method: 'POST',
          url: example.where,
          headers: {
            'content-type': 'application/json',
            authorization: admin ? `Basic ${Buffer.from(`${OPERATOR.username}:${OPERATOR.password}`).toString('base64')}` : `Bearer ${tokens.access_token}`,
            // Without an engine a sync determination would wait out the time budget: the intake is what is judged here.
            ...(example.where.includes('identifier-determination') ? { prefer: 'respond-async' } : {}),
          },
          payload: JSON.stringify(value),
        });
      }
      answers.push(`${example.where} ${example.name}: ${response.statusCode}`);
      assert.ok([200, 202].includes(response.statusCode), `${example.where} ${example.name}: ${response.statusCode} ${response.body}`);
    }
    assert.ok(answers.some((answer) => answer.startsWith('/oauth/token')) && answers.some((answer) => answer.startsWith('/admin/')), answers.join('\n'));
  });
});
