import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import fp from 'fastify-plugin';
import { assert } from '../../lib/assert.js';
import { REFERENCED_SCHEMAS } from '../schemas.js';
import { componentSchemas } from './components.js';
import { completeDocument, documentSkeleton, publish, schemaRef } from './document.js';
import { buildExamples } from './examples.js';
import { PROVIDER_OPERATIONS } from './provider.js';
import { webhooks } from './webhooks.js';
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '']);
/**
 * Where the service is reached: auth.publicUrl when configured; else the configured host and the
 * port it listens on; else (listening on every interface, or not listening at all, as under
 * inject) the origin the request itself was sent to.
 */
function serviceUrl(config, app, request) {
    if (config.auth.publicUrl !== undefined)
        return config.auth.publicUrl;
    const address = app.server.listening ? app.server.address() : null;
    const host = config.server.host;
    if (address !== null && !WILDCARD_HOSTS.has(host))
        return `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
    return `${request.protocol}://${request.host}`;
}
/** A route body declared with a named schema (a message) is published as a reference to that schema's component. */
function bodyByReference(schema) {
    const body = schema.body;
    return typeof body?.$id === 'string' ? { ...schema, body: schemaRef(body.$id) } : schema;
}
export const openApiPlugin = fp(async (app, options) => {
    const { config, clock } = options;
    for (const schema of REFERENCED_SCHEMAS)
        app.addSchema(schema);
    const components = componentSchemas();
    await app.register(swagger, {
        // Plain JSON built here; its shape is checked by linting the served document (test/unit/openapi-document.test.ts).
        openapi: documentSkeleton(config, webhooks()),
        // Components are named by their $id; the document has no def-N names.
        refResolver: { buildLocalReference: (json, _baseUri, _fragment, index) => (typeof json['$id'] === 'string' ? json['$id'] : `def-${index}`) },
        transform: ({ schema, url, route }) => {
            const described = PROVIDER_OPERATIONS[`${String(route.method)} ${url}`];
            return { schema: described ?? bodyByReference(schema), url };
        },
        transformObject: (generated) => {
            assert('openapiObject' in generated, 'the document is OpenAPI 3, not Swagger 2');
            return completeDocument(generated.openapiObject, components);
        },
    });
    const served = (request) => publish(config, app.swagger(), {
        serviceUrl: serviceUrl(config, app, request),
        examples: buildExamples({ now: clock.now(), uuid: randomUUID }),
    });
    await app.register(swaggerUi, { routePrefix: '/docs', transformSpecification: (_document, request) => served(request), transformSpecificationClone: false });
    app.get('/openapi.json', { schema: { hide: true } }, (request) => served(request));
}, { name: 'regpay-openapi' });
//# sourceMappingURL=plugin.js.map