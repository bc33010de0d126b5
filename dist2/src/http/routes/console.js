import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import { AddressSet, holdRequest } from '../plugins/allowlist.js';
/**
 * The operator's web console (docs/console.md): the single-page application built from
 * `console/` into `dist/console/`, served at `/console/` (`/console` redirects there) when the
 * configuration has an `admin` section. Only the addresses of `admin.allowlist` are answered; the
 * files carry no secret, so they ask for no credentials: the page signs in to the admin API itself.
 *
 * Every answer forbids what the page never does (inline scripts and styles, other origins, being
 * framed, submitting forms), so text that reaches the page from a transaction cannot run as code
 * even if a rendering bug let it in. The entry page is never cached (it names the current
 * build's assets); the assets have content hashes in their names, so they may be cached for good.
 */
const CONSOLE_PATH = '/console';
/** Where `npm run build` puts the console (vite.config.js), beside the compiled service. */
const CONSOLE_ROOT = fileURLToPath(new URL('../../../console/', import.meta.url));
const ASSETS_PREFIX = `${CONSOLE_PATH}/assets/`;
const CONSOLE_HEADERS = {
    'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
};
const CACHE_FOREVER = 'public, max-age=31536000, immutable';
export async function consoleRoutes(scope, admin) {
    if (!existsSync(CONSOLE_ROOT)) {
        scope.log.warn({ root: CONSOLE_ROOT }, 'console: not built (npm run build builds it); /console is not served');
        return;
    }
    const allowed = new AddressSet(admin.allowlist);
    scope.addHook('onRequest', async (request, reply) => {
        if (!allowed.contains(request.clientAddress))
            holdRequest(request, reply);
    });
    scope.addHook('onSend', async (request, reply) => {
        void reply.headers(CONSOLE_HEADERS);
        void reply.header('cache-control', request.url.startsWith(ASSETS_PREFIX) ? CACHE_FOREVER : 'no-store');
    });
    await scope.register(fastifyStatic, {
        root: CONSOLE_ROOT,
        // Without the trailing slash, so that `/console` is redirected to `/console/`.
        prefix: CONSOLE_PATH,
        redirect: true,
        decorateReply: false,
        cacheControl: false,
        schemaHide: true,
    });
}
//# sourceMappingURL=console.js.map