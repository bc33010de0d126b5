import assert from 'node:assert/strict';
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair, decodeJwt, decodeProtectedHeader } from 'jose';
import { request } from 'undici';
import { openStore } from '../../src/adapters/store.js';
import type { Store } from '../../src/ports/store.js';
import { BANK_A, BANK_B, ManualClock, form, integrator, rawRequest, startTestApp, testConfig, type TestApp } from '../support/auth-app.js';
import { dropPostgresDatabase, freshPostgresUrl } from '../support/postgres.js';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

const REUSE_INTERVAL_MS = 5_000;
const TOKEN_FIELDS = ['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'token_type', 'not-before-policy', 'session_state', 'scope'];

function passwordGrant(user: typeof BANK_A, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    grant_type: 'password',
    username: user.username,
    password: user.password,
    client_id: user.clientId,
    client_secret: user.clientSecret,
    ...overrides,
  };
}

void describe('OAuth2 with the embedded provider, over real HTTP', () => {
  let server: TestApp;
  const clock = new ManualClock();

  before(async () => {
    const config = await testConfig({ auth: { mode: 'oauth2', accessTokenTtlS: 60, refreshTokenTtlS: 600, clockToleranceS: 5, refreshTokenReuseIntervalS: REUSE_INTERVAL_MS / 1000 } });
    server = await startTestApp(config, { clock });
  });
  after(async () => server.close());

  const token = (fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> => {
    const request = form(fields);
    return fetch(`${server.url}/oauth/token`, { ...request, headers: { ...request.headers, ...headers } });
  };
  const api = (accessToken: string): Promise<Response> => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${accessToken}` } });
  const clientBasic = (client: { clientId: string; clientSecret: string }): string =>
    `Basic ${Buffer.from(`${encodeURIComponent(client.clientId)}:${encodeURIComponent(client.clientSecret)}`).toString('base64')}`;

  void it('issues tokens for the password grant, serves the API with them, rotates refresh tokens and revokes a family on reuse', async () => {
    const issued = await token(passwordGrant(BANK_A));
    assert.equal(issued.status, 200);
    assert.equal(issued.headers.get('cache-control'), 'no-store');
    const first = (await issued.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(first).sort(), [...TOKEN_FIELDS].sort());
    assert.equal(first['token_type'], 'bearer');
    assert.equal(first['expires_in'], 60);
    assert.equal(first['refresh_expires_in'], 600);
    assert.equal(first['not-before-policy'], 0);
    assert.equal(first['scope'], 'api');
    assert.equal(typeof first['session_state'], 'string');

    const claims = decodeJwt(first['access_token'] as string);
    assert.equal(claims.sub, 'bank-a');
    assert.equal(claims['azp'], BANK_A.clientId);
    assert.equal(claims['preferred_username'], BANK_A.username);
    assert.equal(decodeProtectedHeader(first['access_token'] as string).alg, 'ES256');

    const called = await api(first['access_token'] as string);
    assert.equal(called.status, 200);
    assert.deepEqual(await called.json(), { integrator: 'bank-a', address: '127.0.0.1' });

    const refreshed = await token({ grant_type: 'refresh_token', refresh_token: first['refresh_token'] as string, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    assert.equal(refreshed.status, 200);
    const second = (await refreshed.json()) as Record<string, unknown>;
    assert.notEqual(second['refresh_token'], first['refresh_token']);
    assert.equal(second['session_state'], first['session_state'], 'one session across refreshes');
    assert.equal((await api(second['access_token'] as string)).status, 200);

    clock.advance(REUSE_INTERVAL_MS);
    const reused = await token({ grant_type: 'refresh_token', refresh_token: first['refresh_token'] as string, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    assert.equal(reused.status, 400);
    assert.equal(((await reused.json()) as Record<string, unknown>)['error'], 'invalid_grant');

    const revoked = await token({ grant_type: 'refresh_token', refresh_token: second['refresh_token'] as string, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    assert.equal(revoked.status, 400, 'the newest refresh token of the family is revoked too');
    assert.equal(((await revoked.json()) as Record<string, unknown>)['error'], 'invalid_grant');
  });

  void it('refuses at once every access token of a session whose refresh token was reused, and no other session\'s', async () => {
    const refresh = (refreshToken: string): Promise<Response> =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    const first = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, string>;
    const second = (await (await refresh(first['refresh_token'] ?? '')).json()) as Record<string, string>;
    const otherSession = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, string>;
    for (const issued of [first, second, otherSession]) assert.equal((await api(issued['access_token'] ?? '')).status, 200);

    clock.advance(REUSE_INTERVAL_MS);
    assert.equal((await refresh(first['refresh_token'] ?? '')).status, 400, 'the reuse is refused and revokes the session');
    for (const issued of [first, second]) {
      const refused = await api(issued['access_token'] ?? '');
      assert.equal(refused.status, 401, 'an access token of the revoked session, still within its lifetime');
      assert.equal(refused.headers.get('www-authenticate'), 'Bearer realm="regpay", error="invalid_token", error_description="the access token\'s session is revoked"');
    }
    assert.equal((await api(otherSession['access_token'] ?? '')).status, 200, 'another session of the same client is untouched');
  });

  void it('answers two concurrent refreshes with one refresh token the same new pair, within the reuse interval, and the session lives on', async () => {
    const refresh = (refreshToken: string): Promise<Response> =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    const first = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, unknown>;
    const answers = await Promise.all([refresh(first['refresh_token'] as string), refresh(first['refresh_token'] as string)]);
    assert.deepEqual(answers.map((answer) => answer.status), [200, 200], 'neither thread is logged out');
    const [one, other] = (await Promise.all(answers.map((answer) => answer.json()))) as [Record<string, unknown>, Record<string, unknown>];
    assert.deepEqual(other, one, 'the same access token, refresh token and lifetimes');
    assert.notEqual(one['refresh_token'], first['refresh_token']);
    assert.equal((await api(one['access_token'] as string)).status, 200, 'the session is not revoked');

    clock.advance(REUSE_INTERVAL_MS - 2_000);
    const late = (await (await refresh(first['refresh_token'] as string)).json()) as Record<string, unknown>;
    assert.deepEqual(late, { ...one, expires_in: 57, refresh_expires_in: 597 }, 'the same pair, its lifetimes counted from when it was issued');
    const next = await refresh(one['refresh_token'] as string);
    assert.equal(next.status, 200, 'the new refresh token works once more');
    const third = (await next.json()) as Record<string, unknown>;

    clock.advance(2_000);
    const reused = await refresh(first['refresh_token'] as string);
    assert.equal(reused.status, 400, 'presented again at the end of the interval');
    assert.equal(((await reused.json()) as Record<string, unknown>)['error_description'], 'the refresh token was already used; its session is revoked');
    assert.equal((await api(third['access_token'] as string)).status, 401, 'the session is revoked');
  });

  void it('keeps an expired refresh token for one more lifetime (its reuse still revokes its session), then forgets it when a token is issued', async () => {
    const refresh = (refreshToken: string): Promise<Response> =>
      token({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    const description = async (response: Response): Promise<unknown> => ((await response.json()) as Record<string, unknown>)['error_description'];
    const used = async (): Promise<string> => {
      const first = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, unknown>;
      assert.equal((await refresh(first['refresh_token'] as string)).status, 200);
      return first['refresh_token'] as string;
    };
    const kept = await used();
    clock.advance(700_000); // expired 100 s ago: within one more lifetime (600 s), long after the reuse interval
    assert.equal((await token(passwordGrant(BANK_A))).status, 200, 'a token is issued');
    assert.equal(await description(await refresh(kept)), 'the refresh token was already used; its session is revoked');

    const forgotten = await used();
    clock.advance(1_300_000); // expired 700 s ago
    assert.equal((await token(passwordGrant(BANK_A))).status, 200, 'a token is issued');
    assert.equal(await description(await refresh(forgotten)), 'the refresh token is not valid');
  });

  void it('answers 401 invalid_client for a wrong client secret', async () => {
    const response = await token(passwordGrant(BANK_A, { client_secret: 'wrong' }));
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('cache-control'), 'no-store');
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(body['error'], 'invalid_client');
    assert.equal(typeof body['error_description'], 'string');
  });

  void it('answers 400 invalid_grant for a wrong password, and for another integrator\'s user', async () => {
    for (const fields of [passwordGrant(BANK_A, { password: 'wrong' }), passwordGrant(BANK_A, { username: BANK_B.username, password: BANK_B.password })]) {
      const response = await token(fields);
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as Record<string, unknown>)['error'], 'invalid_grant');
    }
  });

  void it('answers 400 invalid_request naming a missing field', async () => {
    const { password: _omitted, ...fields } = passwordGrant(BANK_A);
    const response = await token(fields);
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: 'invalid_request', error_description: 'missing parameters: password' });
  });

  void it('answers 400 unsupported_grant_type for a grant it does not offer', async () => {
    const response = await token({ grant_type: 'authorization_code', code: 'x', client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    assert.equal(response.status, 400);
    assert.deepEqual(await response.json(), { error: 'unsupported_grant_type', error_description: 'grant_type must be one of client_credentials, password, refresh_token' });
  });

  void it('issues an access token without a refresh token for the client-credentials grant, by client_secret_basic or client_secret_post, and serves the API with it', async () => {
    const byBasic = await token({ grant_type: 'client_credentials' }, { authorization: clientBasic(BANK_A) });
    const byPost = await token({ grant_type: 'client_credentials', client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret });
    for (const response of [byBasic, byPost]) {
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('cache-control'), 'no-store');
      const body = (await response.json()) as Record<string, unknown>;
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'scope', 'token_type'], 'no refresh token, no session (RFC 6749 §4.4.3)');
      assert.equal(body['token_type'], 'bearer');
      assert.equal(body['expires_in'], 60);
      assert.equal(body['scope'], 'api');
      const claims = decodeJwt(body['access_token'] as string);
      assert.equal(claims.sub, 'bank-a');
      assert.equal(claims['azp'], BANK_A.clientId);
      assert.equal(claims['preferred_username'], undefined, 'the client acts for itself, not for a user');
      assert.equal(claims['sid'], undefined);
      assert.equal(claims.iss, server.url);
      const called = await api(body['access_token'] as string);
      assert.equal(called.status, 200);
      assert.deepEqual(await called.json(), { integrator: 'bank-a', address: '127.0.0.1' });
    }
  });

  void it('answers 401 invalid_client with a Basic challenge for a client-credentials grant with a wrong secret or an unknown client', async () => {
    for (const client of [{ ...BANK_A, clientSecret: 'wrong' }, { ...BANK_A, clientId: 'nobody' }]) {
      const response = await token({ grant_type: 'client_credentials' }, { authorization: clientBasic(client) });
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), 'Basic realm="regpay"');
      assert.deepEqual(await response.json(), { error: 'invalid_client', error_description: 'client authentication failed' });
    }
    const missing = await token({ grant_type: 'client_credentials' });
    assert.equal(missing.status, 400);
    assert.deepEqual(await missing.json(), { error: 'invalid_request', error_description: 'missing parameters: client_id, client_secret' });
  });

  void it('holds a client-credentials request of a client whose integrator does not allowlist the caller', async () => {
    // bank-b is allowlisted on ::1 only; this request comes from 127.0.0.1.
    const pending = token({ grant_type: 'client_credentials' }, { authorization: clientBasic(BANK_B) });
    const outcome = await Promise.race([pending.then(() => 'answered' as const, () => 'closed' as const), new Promise((resolve) => setTimeout(() => resolve('silent'), 300))]);
    assert.equal(outcome, 'silent');
  });

  void it('answers 400 invalid_request for a JSON body', async () => {
    const response = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(passwordGrant(BANK_A)) });
    assert.equal(response.status, 400);
    assert.equal(((await response.json()) as Record<string, unknown>)['error'], 'invalid_request');
  });

  void it('answers 400 invalid_request for an unparseable or oversized body, never 500', async () => {
    const broken = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"grant_type":' });
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as Record<string, unknown>)['error'], 'invalid_request');
    const huge = await token({ ...passwordGrant(BANK_A), padding: 'x'.repeat(20_000) });
    assert.equal(huge.status, 400);
    assert.equal(((await huge.json()) as Record<string, unknown>)['error'], 'invalid_request');
    const repeated = await fetch(`${server.url}/oauth/token`, { ...form(passwordGrant(BANK_A)), body: `${new URLSearchParams(passwordGrant(BANK_A)).toString()}&username=x` });
    assert.deepEqual(await repeated.json(), { error: 'invalid_request', error_description: 'parameters sent more than once: username' });
  });

  void it('accepts client credentials in a Basic header (client_secret_basic)', async () => {
    const { client_id: _id, client_secret: _secret, ...fields } = passwordGrant(BANK_A);
    const header = `Basic ${Buffer.from(`${BANK_A.clientId}:${BANK_A.clientSecret}`).toString('base64')}`;
    const response = await token(fields, { authorization: header });
    assert.equal(response.status, 200);
  });

  void it('holds a token request whose client belongs to an integrator not allowlisted here', async () => {
    // bank-b is allowlisted on ::1 only; this request comes from 127.0.0.1.
    const pending = token(passwordGrant(BANK_B));
    const outcome = await Promise.race([pending.then(() => 'answered' as const, () => 'closed' as const), new Promise((resolve) => setTimeout(() => resolve('silent'), 300))]);
    assert.equal(outcome, 'silent');
  });

  void it('refuses an expired access token with 401 invalid_token', async () => {
    const issued = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, unknown>;
    clock.advance((60 + 5 + 1) * 1000);
    const response = await api(issued['access_token'] as string);
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="regpay", error="invalid_token", error_description="the access token has expired"$/);
    assert.equal(((await response.json()) as Record<string, unknown>)['schema'], 'ErrorDetail');
  });

  void it('answers 401 with a bare Bearer challenge when no token is sent, and for a forged one', async () => {
    const missing = await fetch(`${server.url}/api/v1/whoami`);
    assert.equal(missing.status, 401);
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer realm="regpay"');
    const forged = await api('eyJhbGciOiJub25lIn0.eyJzdWIiOiJiYW5rLWEifQ.');
    assert.equal(forged.status, 401);
    assert.match(forged.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
  });

  void it('publishes the JWKS, and RFC 8414 metadata that claims no ID tokens at both well-known paths, with the URL asked as issuer', async () => {
    const jwks = (await (await fetch(`${server.url}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] };
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0]?.['kty'], 'EC');
    assert.equal(jwks.keys[0]?.['d'], undefined, 'no private part');
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const response = await fetch(`${server.url}${path}`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), {
        issuer: server.url,
        token_endpoint: `${server.url}/oauth/token`,
        jwks_uri: `${server.url}/oauth/jwks`,
        response_types_supported: [],
        grant_types_supported: ['client_credentials', 'password', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
        scopes_supported: ['api'],
      }, path);
    }
    const issued = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, string>;
    assert.equal(decodeJwt(issued['access_token'] ?? '').iss, server.url, "the tokens' iss is the metadata's issuer");
  });

  void it('names the origin a request was made to as issuer, written as a URL parser writes it, and refuses a token at another origin', async () => {
    const metadataAt = async (host: string): Promise<unknown> =>
      ((await (await request(`${server.url}/.well-known/oauth-authorization-server`, { headers: { host } })).body.json()) as Record<string, unknown>)['issuer'];
    assert.equal(await metadataAt('Regpay.Example:80'), 'http://regpay.example', 'lower-case host, no default port');
    assert.equal(await metadataAt('[::1]:8443'), 'http://[::1]:8443');

    const issued = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, string>;
    const elsewhere = await request(`${server.url}/api/v1/whoami`, { headers: { host: 'regpay.example', authorization: `Bearer ${issued['access_token'] ?? ''}` } });
    assert.equal(elsewhere.statusCode, 401, `a token issued as ${server.url} is not one of http://regpay.example`);
    assert.match(String(elsewhere.headers['www-authenticate']), /error_description="the access token's iss claim is not acceptable"/);
    await elsewhere.body.dump();
  });

  void it('answers 400 invalid_request at the token endpoint and the metadata when the Host names no host', async () => {
    for (const path of ['/oauth/token', '/.well-known/oauth-authorization-server']) {
      const answer = await rawRequest({
        host: '127.0.0.1',
        port: server.port,
        request: path === '/oauth/token'
          ? `POST ${path} HTTP/1.1\r\nHost: a/b\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 29\r\nConnection: close\r\n\r\ngrant_type=client_credentials`
          : `GET ${path} HTTP/1.1\r\nHost: a/b\r\nConnection: close\r\n\r\n`,
      });
      assert.match(answer.received, /^HTTP\/1\.1 400 /, path);
      assert.match(answer.received, /"error":"invalid_request"/, path);
    }
  });

  void it('keeps one signing key in the store, so a second instance behind the same URL verifies the first one\'s tokens', async () => {
    const config = await testConfig({ auth: { mode: 'oauth2' } });
    const twin = await startTestApp(config, { clock, store: server.store });
    try {
      const issued = (await (await token(passwordGrant(BANK_A))).json()) as Record<string, unknown>;
      // A load balancer in front of both passes on the Host the client used: the first instance's here.
      const response = await request(`${twin.url}/api/v1/whoami`, { headers: { host: new URL(server.url).host, authorization: `Bearer ${issued['access_token'] as string}` } });
      assert.equal(response.statusCode, 200);
      await response.body.dump();
    } finally {
      await twin.close();
    }
  });
});

void describe('A session revoked on one instance, on another instance sharing its PostgreSQL database', () => {
  const POLL_MS = 300;
  let database: string;
  const started: TestApp[] = [];
  const stores: Store[] = [];
  before(async () => {
    database = await freshPostgresUrl();
  });
  after(async () => {
    for (const app of started) await app.close();
    for (const store of stores) await store.close();
    await dropPostgresDatabase(database);
  });

  const start = async (options: { reuseIntervalS?: number; clock?: ManualClock } = {}): Promise<TestApp> => {
    // Each instance with its own pool on the shared database, as two processes would be.
    const store = await openStore(database);
    stores.push(store);
    // Instances behind one load balancer, named by auth.publicUrl as in production.
    const auth = { mode: 'oauth2', publicUrl: 'https://regpay.test', accessTokenTtlS: 60, refreshTokenTtlS: 600, revocationPollMs: POLL_MS, refreshTokenReuseIntervalS: options.reuseIntervalS ?? 0 };
    const app = await startTestApp(await testConfig({ auth }), { store, ...(options.clock === undefined ? {} : { clock: options.clock }) });
    started.push(app);
    return app;
  };

  void it('answers concurrent refreshes with one refresh token on two instances the same new pair within the reuse interval; after it, the reuse revokes the session', async () => {
    const clock = new ManualClock();
    const [first, second] = [await start({ reuseIntervalS: 5, clock }), await start({ reuseIntervalS: 5, clock })] as [TestApp, TestApp];
    const grant = (app: TestApp, fields: Record<string, string>): Promise<Response> => fetch(`${app.url}/oauth/token`, form(fields));
    const issued = (await (await grant(first, passwordGrant(BANK_A))).json()) as Record<string, string>;
    const refreshFields = { grant_type: 'refresh_token', refresh_token: issued['refresh_token'] ?? '', client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret };
    for (let round = 0; round < 3; round += 1) {
      const answers = await Promise.all([grant(first, refreshFields), grant(second, refreshFields)]);
      assert.deepEqual(answers.map((answer) => answer.status), [200, 200], 'neither is refused');
      const [one, other] = (await Promise.all(answers.map((answer) => answer.json()))) as [Record<string, unknown>, Record<string, unknown>];
      assert.deepEqual(other, one, 'one pair for both');
      refreshFields.refresh_token = String(one['refresh_token']);
    }
    const whoami = (app: TestApp): Promise<Response> => fetch(`${app.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${issued['access_token'] ?? ''}` } });
    assert.equal((await whoami(second)).status, 200, 'the session lives');
    const spent = { ...refreshFields, refresh_token: issued['refresh_token'] ?? '' };
    clock.advance(5_000);
    assert.equal((await grant(second, spent)).status, 400, 'the first token presented again after the interval');
    assert.equal((await whoami(second)).status, 401, 'the session is revoked');
  });

  void it('refuses the session\'s access tokens there within auth.revocationPollMs', async () => {
    const [first, second] = [await start(), await start()] as [TestApp, TestApp];
    const grant = (fields: Record<string, string>): Promise<Response> => fetch(`${first.url}/oauth/token`, form(fields));
    const issued = (await (await grant(passwordGrant(BANK_A))).json()) as Record<string, string>;
    const refreshFields = { grant_type: 'refresh_token', refresh_token: issued['refresh_token'] ?? '', client_id: BANK_A.clientId, client_secret: BANK_A.clientSecret };
    assert.equal((await grant(refreshFields)).status, 200);
    const whoami = (app: TestApp): Promise<Response> => fetch(`${app.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${issued['access_token'] ?? ''}` } });
    assert.equal((await whoami(second)).status, 200, 'the other instance accepts the first one\'s token');

    assert.equal((await grant(refreshFields)).status, 400, 'the reuse is refused and revokes the session');
    const revokedAt = Date.now();
    assert.equal((await whoami(first)).status, 401, 'at once on the instance that revoked it');
    let status = 200;
    // The bound is one poll interval (and one read of the store); the rest is room for a busy machine.
    while (status === 200 && Date.now() - revokedAt < POLL_MS + 5_000) {
      status = (await whoami(second)).status;
      if (status === 200) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(status, 401, `refused on the other instance within ${POLL_MS} ms and a store read`);
  });
});

void describe('Rotating the embedded signing key (auth.verificationKeys)', () => {
  const pem = (key: KeyObject): string => key.export({ format: 'pem', type: 'pkcs8' }).toString();
  const oldKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const newKey = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
  const started: TestApp[] = [];
  after(async () => {
    for (const app of started) await app.close();
  });

  // The instances of one deployment, before and after a rotation: one URL, as auth.publicUrl names it.
  const PUBLIC_URL = 'https://regpay.test';
  const start = async (auth: Record<string, unknown>, options: { store?: TestApp['store'] } = {}): Promise<TestApp> => {
    const app = await startTestApp(await testConfig({ auth: { mode: 'oauth2', publicUrl: PUBLIC_URL, ...auth } }), options);
    started.push(app);
    return app;
  };
  const accessToken = async (app: TestApp): Promise<string> => {
    const response = await fetch(`${app.url}/oauth/token`, form(passwordGrant(BANK_A)));
    assert.equal(response.status, 200);
    return ((await response.json()) as Record<string, string>)['access_token'] ?? '';
  };
  const whoami = (app: TestApp, token: string): Promise<Response> => fetch(`${app.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${token}` } });
  const jwks = async (app: TestApp): Promise<Record<string, unknown>[]> => ((await (await fetch(`${app.url}/oauth/jwks`)).json()) as { keys: Record<string, unknown>[] }).keys;
  const refusedForUnknownKey = (response: Response): void => {
    assert.equal(response.status, 401);
    assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token", error_description="the access token was signed by an unknown key"/);
  };

  void it('accepts tokens of the old key while its published JWK is listed, signs with the new key and publishes both', async () => {
    const before = await start({ signingKey: pem(oldKey) });
    const [oldJwk] = await jwks(before);
    assert.ok(oldJwk !== undefined);
    const rotated = await start({ signingKey: pem(newKey), verificationKeys: [JSON.stringify(oldJwk)] });
    const withoutOld = await start({ signingKey: pem(newKey) });

    const oldToken = await accessToken(before);
    assert.equal(decodeProtectedHeader(oldToken).kid, oldJwk['kid']);
    assert.equal((await whoami(rotated, oldToken)).status, 200);
    refusedForUnknownKey(await whoami(withoutOld, oldToken));

    const newToken = await accessToken(rotated);
    const published = await jwks(rotated);
    assert.deepEqual(
      published.map((key) => key['kid']),
      [decodeProtectedHeader(newToken).kid, oldJwk['kid']],
      'the signing key first, then the listed one',
    );
    assert.ok(published.every((key) => key['d'] === undefined), 'no private part');
    assert.equal((await whoami(rotated, newToken)).status, 200);
    assert.equal((await whoami(withoutOld, newToken)).status, 200);
    refusedForUnknownKey(await whoami(before, newToken));
  });

  void it('gives an instance with other keys on the same database its own keys', async () => {
    const before = await start({ signingKey: pem(oldKey) });
    const rotated = await start({ signingKey: pem(newKey) }, { store: before.store });
    const [oldJwk] = await jwks(before);
    const [newJwk] = await jwks(rotated);
    assert.notEqual(newJwk?.['kid'], oldJwk?.['kid']);
    assert.equal(decodeProtectedHeader(await accessToken(rotated)).kid, newJwk?.['kid']);
    refusedForUnknownKey(await whoami(rotated, await accessToken(before)));
  });

  void it('accepts listed keys given as PEM (EC and RSA), and refuses a token that names a listed key but another algorithm', async () => {
    const before = await start({ signingKey: pem(oldKey) });
    const spki = (key: KeyObject): string => createPublicKey(key).export({ format: 'pem', type: 'spki' }).toString();
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const rotated = await start({ signingKey: pem(newKey), verificationKeys: [spki(oldKey), spki(rsa)] });
    assert.equal((await whoami(rotated, await accessToken(before))).status, 200);

    const [, oldJwk, rsaJwk] = await jwks(rotated);
    assert.equal(oldJwk?.['alg'], 'ES256');
    assert.equal(rsaJwk?.['alg'], 'RS256');
    const signed = (kid: unknown): Promise<string> =>
      new SignJWT({ azp: BANK_A.clientId })
        .setProtectedHeader({ alg: 'RS256', kid: String(kid), typ: 'at+jwt' })
        .setIssuer(PUBLIC_URL)
        .setAudience('regpay-api')
        .setSubject('bank-a')
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(rsa);
    assert.equal((await whoami(rotated, await signed(rsaJwk?.['kid']))).status, 200, 'the RSA key verifies its own tokens');
    refusedForUnknownKey(await whoami(rotated, await signed(oldJwk?.['kid'])));
  });
});

void describe('OAuth2 with an external issuer', () => {
  const ISSUER = 'https://idp.regpay.test/realms/banks';
  let jwksServer: Server;
  let jwksUrl: string;
  let privateKey: PrivateKey;
  let server: TestApp;

  before(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: 'idp-key-1', alg: 'RS256', use: 'sig' };
    jwksServer = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
    const address = jwksServer.address();
    jwksUrl = `http://127.0.0.1:${typeof address === 'object' && address !== null ? address.port : 0}/protocol/openid-connect/certs`;
    const config = await testConfig({
      auth: { mode: 'oauth2', issuer: ISSUER, jwksUrl, audience: 'regpay' },
      integrators: [integrator('bank-a', ['127.0.0.1/32'], { username: BANK_A.username, clientId: BANK_A.clientId })],
    });
    server = await startTestApp(config);
  });
  after(async () => {
    await server.close();
    await new Promise((resolve) => jwksServer.close(resolve));
  });

  const sign = (claims: Record<string, unknown>, key: PrivateKey = privateKey, issuer = ISSUER, audience = 'regpay'): Promise<string> =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'idp-key-1' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);

  const api = (accessToken: string): Promise<Response> => fetch(`${server.url}/api/v1/whoami`, { headers: { authorization: `Bearer ${accessToken}` } });

  void it("accepts the issuer's token, verified through its JWKS, and finds the integrator by azp", async () => {
    const response = await api(await sign({ azp: BANK_A.clientId, preferred_username: BANK_A.username, sub: 'f3a1' }));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { integrator: 'bank-a', address: '127.0.0.1' });
  });

  void it('refuses a token signed by another key, from another issuer, for another audience, or for an unknown client', async () => {
    const other = await generateKeyPair('RS256');
    for (const accessToken of [
      await sign({ azp: BANK_A.clientId }, other.privateKey),
      await sign({ azp: BANK_A.clientId }, privateKey, 'https://evil.test'),
      await sign({ azp: BANK_A.clientId }, privateKey, ISSUER, 'another-service'),
      await sign({ azp: 'someone-else' }),
      await sign({ azp: BANK_A.clientId, preferred_username: 'mallory' }),
    ]) {
      const response = await api(accessToken);
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="invalid_token"/);
    }
  });

  void it('does not serve the embedded token endpoint', async () => {
    const response = await fetch(`${server.url}/oauth/token`, form(passwordGrant(BANK_A)));
    assert.equal(response.status, 404);
  });
});
