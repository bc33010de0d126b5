import { Secret } from '../../lib/secret.js';
import { HttpCallError, httpCall } from './http-call.js';
/** The token endpoint failed; `message` is safe to record. */
export class TokenError extends Error {
    aborted;
    name = 'TokenError';
    constructor(message, aborted = false) {
        super(message);
        this.aborted = aborted;
    }
}
const TOKEN_RESPONSE_BYTES_MAX = 65_536;
const ACCESS_TOKEN_CHARS_MAX = 16_384;
export class ClientCredentialsTokens {
    #options;
    /** Per integrator: the fetch in progress or done, and its token once it resolved. */
    #cache = new Map();
    constructor(options) {
        this.#options = options;
    }
    /** A valid token for this integrator, fetched only when the cached one is missing or due for renewal. */
    async token(key, auth, signal) {
        let entry = this.#cache.get(key);
        while (entry !== undefined) {
            const token = entry.token ?? (await entry.fetching.catch(() => undefined));
            if (token !== undefined && this.#options.clock.now() < token.renewAt)
                return token;
            const current = this.#cache.get(key);
            if (current === entry) {
                this.#cache.delete(key);
                break;
            }
            // Another caller replaced the entry while this one waited: use theirs.
            entry = current;
        }
        const fetching = this.#fetch(auth, signal);
        const fresh = { fetching };
        this.#cache.set(key, fresh);
        fetching.then((token) => {
            fresh.token = token;
        }, () => {
            if (this.#cache.get(key) === fresh)
                this.#cache.delete(key);
        });
        return fetching;
    }
    /** Forget a token the integrator refused, unless it was already replaced by a newer one. */
    invalidate(key, token) {
        if (this.#cache.get(key)?.token === token)
            this.#cache.delete(key);
    }
    async #fetch(auth, signal) {
        const { clock, dispatcher, timeoutMs, userAgent } = this.#options;
        const form = new URLSearchParams({ grant_type: 'client_credentials' });
        if (auth.scope !== undefined)
            form.set('scope', auth.scope);
        const headers = {
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
            'user-agent': userAgent,
        };
        if (auth.tokenAuthMethod === 'client_secret_post') {
            form.set('client_id', auth.clientId);
            form.set('client_secret', auth.clientSecret.reveal());
        }
        else {
            // RFC 6749 §2.3.1: both parts form-urlencoded before the Basic encoding.
            const user = `${formEncode(auth.clientId)}:${formEncode(auth.clientSecret.reveal())}`;
            headers.authorization = `Basic ${Buffer.from(user, 'utf8').toString('base64')}`;
        }
        const requestedAt = clock.now();
        let answer;
        try {
            answer = await httpCall(dispatcher, {
                url: auth.tokenUrl,
                method: 'POST',
                headers,
                body: form.toString(),
                timeoutMs,
                responseBytesMax: TOKEN_RESPONSE_BYTES_MAX,
                ...(signal === undefined ? {} : { signal }),
            });
        }
        catch (error) {
            if (error instanceof HttpCallError)
                throw new TokenError(`token endpoint: ${error.message}`, error.aborted);
            throw error;
        }
        const json = parseJsonObject(answer.body);
        if (answer.status !== 200) {
            const code = typeof json?.['error'] === 'string' && /^[\x21\x23-\x5B\x5D-\x7E]{1,64}$/.test(json['error']) ? ` (${json['error']})` : '';
            throw new TokenError(`token endpoint answered HTTP ${answer.status}${code}`);
        }
        const accessToken = json?.['access_token'];
        if (typeof accessToken !== 'string' || accessToken === '' || accessToken.length > ACCESS_TOKEN_CHARS_MAX || /[\s]/.test(accessToken)) {
            throw new TokenError('token endpoint answered without a usable access_token');
        }
        const tokenType = json?.['token_type'];
        // RFC 6749 makes token_type required and case-insensitive; a missing one is taken as bearer.
        if (tokenType !== undefined && (typeof tokenType !== 'string' || tokenType.toLowerCase() !== 'bearer')) {
            throw new TokenError('token endpoint answered a token_type other than bearer');
        }
        return { accessToken: new Secret(accessToken), renewAt: requestedAt + this.#usableMs(json?.['expires_in']) };
    }
    /** How long to use a token: its lifetime less a margin, measured from when it was requested. */
    #usableMs(expiresIn) {
        const seconds = typeof expiresIn === 'number' ? expiresIn : typeof expiresIn === 'string' && /^[0-9]{1,9}$/.test(expiresIn) ? Number(expiresIn) : undefined;
        const lifetimeMs = seconds !== undefined && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : this.#options.defaultLifetimeMs;
        return lifetimeMs - Math.min(this.#options.refreshMarginMs, lifetimeMs / 10);
    }
}
function formEncode(value) {
    return new URLSearchParams({ v: value }).toString().slice(2);
}
function parseJsonObject(body) {
    try {
        const value = JSON.parse(body.toString('utf8'));
        return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
    }
    catch {
        return undefined;
    }
}
//# sourceMappingURL=client-credentials.js.map