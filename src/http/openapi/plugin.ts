import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import swagger, { type FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, FastifyRequest, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/types.js';
import { assert } from '../../lib/assert.js';
import type { Clock } from '../../ports/clock.js';
import { REFERENCED_SCHEMAS } from '../schemas.js';
import { componentSchemas } from './components.js';
import { AddressSet, holdRequest } from '../plugins/allowlist.js';
import { completeDocument, documentSkeleton, publish, schemaRef, type Audience, type Document } from './document.js';
import { buildExamples } from './examples.js';
import { PROVIDER_OPERATIONS } from './provider.js';
import { webhooks } from './webhooks.js';

/**
 * The OpenAPI 3.1 documents of the service: the integrators' at `/openapi.json`, shown at `/docs`
 * (Swagger UI), and, with an admin section, the operators' at `/admin/openapi.json`, answered to
 * `admin.allowlist` only (like the console's files, it carries no secret and asks for no
 * credentials). Register it before any route: it adds the schemas the routes reference
 * (`Type.Ref('ErrorDetail')`…), and @fastify/swagger documents the routes registered after it.
 *
 * One document is generated once from the routes and split by audience (document.ts,
 * documentFor); each time one is served it gets its servers, the token URL of the Authorize button
 * and the examples of that moment (examples.ts).
 */
export interface OpenApiOptions {
  readonly config: Config;
  readonly clock: Clock;
}

/** Where the admin API's own document is served. */
export const ADMIN_DOCUMENT_PATH = '/admin/openapi.json';

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);

/**
 * Where the service is reached: auth.publicUrl when configured; else the configured host and the
 * port it listens on; else (listening on every interface, or not listening at all, as under
 * inject) the origin the request itself was sent to.
 */
function serviceUrl(config: Config, app: FastifyInstance, request: FastifyRequest): string {
  if (config.auth.publicUrl !== undefined) return config.auth.publicUrl;
  const address = app.server.listening ? (app.server.address() as AddressInfo | null) : null;
  const host = config.server.host;
  if (address !== null && !WILDCARD_HOSTS.has(host)) return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  return `${request.protocol}://${request.host}`;
}

/** A route body declared with a named schema (a message) is published as a reference to that schema's component. */
function bodyByReference(schema: FastifySchema): FastifySchema {
  const body = schema.body as { $id?: unknown } | undefined;
  return typeof body?.$id === 'string' ? { ...schema, body: schemaRef(body.$id) } : schema;
}

export const openApiPlugin = fp(
  async (app: FastifyInstance, options: OpenApiOptions) => {
    const { config, clock } = options;
    for (const schema of REFERENCED_SCHEMAS) app.addSchema(schema);
    const components = componentSchemas();
    await app.register(swagger, {
      // Plain JSON built here; its shape is checked by linting the served document (test/unit/openapi-document.test.ts).
      openapi: documentSkeleton(config, webhooks()) as FastifyDynamicSwaggerOptions['openapi'],
      // Components are named by their $id; the document has no def-N names.
      refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json['$id'] === 'string' ? json['$id'] : `def-${index}`) },
      transform: ({ schema, url, route }) => {
        const described = PROVIDER_OPERATIONS[`${String(route.method)} ${url}`];
        return { schema: described ?? bodyByReference(schema), url };
      },
      transformObject: (generated) => {
        assert('openapiObject' in generated, 'the document is OpenAPI 3, not Swagger 2');
        return completeDocument(generated.openapiObject as Document, components);
      },
    });
    const served = (request: FastifyRequest, audience: Audience) =>
      publish(config, app.swagger() as Document, audience, {
        serviceUrl: serviceUrl(config, app, request),
        examples: buildExamples({ now: clock.now(), uuid: randomUUID }),
      });
    await app.register(swaggerUi, {
      routePrefix: '/docs',
      transformSpecification: (_document, request) => served(request, 'integrators'),
      transformSpecificationClone: false,
    });
    app.get('/openapi.json', { schema: { hide: true } }, (request) => served(request, 'integrators'));
    const { admin } = config;
    if (admin !== undefined) {
      // An admin route (plugins/allowlist.ts, isAdminRoute): it applies admin.allowlist itself.
      const operators = new AddressSet(admin.allowlist);
      app.get(ADMIN_DOCUMENT_PATH, {
        schema: { hide: true },
        onRequest: async (request, reply) => {
          if (!operators.contains(request.clientAddress)) holdRequest(request, reply);
        },
        handler: (request) => served(request, 'admin'),
      });
    }
  },
  { name: 'regpay-openapi' },
);
