import assert from 'node:assert/strict';
import { createPrivateKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, type JWK } from 'jose';
import { openStore } from '../../src/adapters/store.js';
import { DEFAULT_AUDIENCE, SIGNING_KEY_SETTING, accessTokenVerifier, embeddedProvider, externalVerifier } from '../../src/adapters/tokens/jose-tokens.js';
import type { AuthConfig } from '../../src/config/types.js';
import { Secret } from '../../src/lib/secret.js';
import type { Store } from '../../src/ports/store.js';
import type { AccessTokenClaims, VerifyOutcome } from '../../src/ports/tokens.js';
import { withStoreMethods } from '../support/delivery.js';

/**
 * Token verification, both sources, without HTTP in between: the external issuer's tokens
 * against its JWKS (served by a real HTTP server in this process), the embedded provider's
 * against its own keys. Every claim the verifier checks is shown refused when wrong.
 */
const NOW_MS = Date.UTC(2026, 2, 2, 9, 0, 0);
const NOW_S = NOW_MS / 1000;
const ISSUER = 'https://idp.regpay.test/realms/banks';
const ORIGIN = 'https://regpay.test';

function auth(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return {
    mode: 'oauth2',
    verificationKeys: [],
    accessTokenTtlS: 300,
    refreshTokenTtlS: 3_600,
    refreshTokenReuseIntervalS: 5,
    clockToleranceS: 30,
    revocationPollMs: 1_000,
    failedAuthentications: { burst: 10, perMinute: 10 },
    ...overrides,
  };
}

function refusedBecause(outcome: VerifyOutcome, reason: string | RegExp): void {
  assert.equal(outcome.ok, false, 'refused');
  if (outcome.ok) return;
  if (typeof reason === 'string') assert.equal(outcome.reason, reason);
  else assert.match(outcome.reason, reason);
}

/** A JWKS endpoint: the public keys given, or whatever `answer` says. */
async function jwksServer(keys: JWK[]): Promise<{ url: string; answer: { body: string | undefined }; server: Server }> {
  const answer: { body: string | undefined } = { body: JSON.stringify({ keys }) };
  const server = createServer((_request, response) => {
    // No body: the issuer never answers (the verifier gives up at its timeout).
    if (answer.body !== undefined) response.writeHead(200, { 'content-type': 'application/json' }).end(answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/protocol/openid-connect/certs`, answer, server };
}

void describe("an external issuer's access tokens", { concurrency: true }, () => {
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const p256 = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const p384 = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const ed25519 = generateKeyPairSync('ed25519');
  let jwks: Awaited<ReturnType<typeof jwksServer>>;
  let silent: Awaited<ReturnType<typeof jwksServer>>;
  let garbled: Awaited<ReturnType<typeof jwksServer>>;

  before(async () => {
    // Keys without `alg`, as Keycloak may publish them: the token's header names the algorithm.
    const publicJwk = async (key: KeyObject, kid: string): Promise<JWK> => ({ ...(await exportJWK(key)), kid, use: 'sig' });
    jwks = await jwksServer([await publicJwk(rsa.publicKey, 'rsa'), await publicJwk(p256.publicKey, 'p256'), await publicJwk(p384.publicKey, 'p384'), await publicJwk(ed25519.publicKey, 'ed')]);
    silent = await jwksServer([]);
    silent.answer.body = undefined;
    garbled = await jwksServer([]);
    garbled.answer.body = '{"keys": "none"}';
  });
  after(async () => {
    for (const { server } of [jwks, silent, garbled]) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  const verifier = (overrides: Partial<AuthConfig> = {}, url = jwks.url) => externalVerifier({ ...auth({ audience: 'regpay', ...overrides }), issuer: ISSUER, jwksUrl: url });

  interface Signing {
    readonly alg?: string;
    readonly kid?: string;
    readonly key?: KeyObject | Uint8Array;
    readonly issuer?: string;
    readonly audience?: string | string[] | null;
    readonly expiresAtS?: number | null;
  }

  function sign(claims: Record<string, unknown>, how: Signing = {}): Promise<string> {
    let jwt = new SignJWT({ azp: 'bank-a-client', sub: 'f3a1', ...claims })
      .setProtectedHeader({ alg: how.alg ?? 'RS256', kid: how.kid ?? 'rsa' })
      .setIssuer(how.issuer ?? ISSUER)
      .setIssuedAt(NOW_S - 10);
    if (how.audience !== null) jwt = jwt.setAudience(how.audience ?? 'regpay');
    if (how.expiresAtS !== null) jwt = jwt.setExpirationTime(how.expiresAtS ?? NOW_S + 300);
    return jwt.sign(how.key ?? rsa.privateKey);
  }

  void it('accepts a token of the issuer for the configured audience, and finds the client by azp, else client_id', async () => {
    const outcome = await verifier().verify(await sign({ preferred_username: 'alice', sid: 's-1' }), NOW_MS, ORIGIN);
    assert.deepEqual(outcome, { ok: true, token: { clientId: 'bank-a-client', username: 'alice', subject: 'f3a1', sessionId: 's-1' } });
    const byClientId = await verifier().verify(await sign({ azp: undefined, client_id: 'bank-b-client', preferred_username: 7 }), NOW_MS, undefined);
    assert.deepEqual(byClientId, { ok: true, token: { clientId: 'bank-b-client', username: undefined, subject: 'f3a1', sessionId: undefined } }, 'a claim that is no string is absent');
  });

  void it('refuses a token for another audience, or for none, when an audience is configured', async () => {
    refusedBecause(await verifier().verify(await sign({}, { audience: 'another-service' }), NOW_MS, ORIGIN), "the access token's aud claim is not acceptable");
    refusedBecause(await verifier().verify(await sign({}, { audience: null }), NOW_MS, ORIGIN), "the access token's aud claim is not acceptable");
    assert.equal((await verifier().verify(await sign({}, { audience: ['account', 'regpay'] }), NOW_MS, ORIGIN)).ok, true, 'one of several audiences');
  });

  void it('takes any audience when none is configured', async () => {
    assert.equal((await verifier({ audience: undefined }).verify(await sign({}, { audience: 'another-service' }), NOW_MS, ORIGIN)).ok, true);
  });

  void it('refuses a token of another issuer, or signed by another key', async () => {
    refusedBecause(await verifier().verify(await sign({}, { issuer: 'https://evil.test' }), NOW_MS, ORIGIN), "the access token's iss claim is not acceptable");
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    refusedBecause(await verifier().verify(await sign({}, { alg: 'ES256', kid: 'p256', key: other.privateKey }), NOW_MS, ORIGIN), 'the access token signature is invalid');
    refusedBecause(await verifier().verify(await sign({}, { kid: 'unknown' }), NOW_MS, ORIGIN), 'the access token was signed by an unknown key');
  });

  void it('refuses a token without exp, and one expired beyond the clock tolerance', async () => {
    refusedBecause(await verifier().verify(await sign({}, { expiresAtS: null }), NOW_MS, ORIGIN), "the access token's exp claim is not acceptable");
    const expiredAt = NOW_S - 20;
    assert.equal((await verifier({ clockToleranceS: 30 }).verify(await sign({}, { expiresAtS: expiredAt }), NOW_MS, ORIGIN)).ok, true, 'within the tolerance');
    refusedBecause(await verifier({ clockToleranceS: 10 }).verify(await sign({}, { expiresAtS: expiredAt }), NOW_MS, ORIGIN), 'the access token has expired');
    refusedBecause(await verifier().verify(await sign({}), NOW_MS + 3_600_000, ORIGIN), 'the access token has expired');
  });

  void it('accepts every asymmetric algorithm the issuer may use', async () => {
    for (const alg of ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512']) {
      assert.equal((await verifier().verify(await sign({}, { alg }), NOW_MS, ORIGIN)).ok, true, alg);
    }
    assert.equal((await verifier().verify(await sign({}, { alg: 'ES256', kid: 'p256', key: p256.privateKey }), NOW_MS, ORIGIN)).ok, true, 'ES256');
    assert.equal((await verifier().verify(await sign({}, { alg: 'ES384', kid: 'p384', key: p384.privateKey }), NOW_MS, ORIGIN)).ok, true, 'ES384');
    assert.equal((await verifier().verify(await sign({}, { alg: 'EdDSA', kid: 'ed', key: ed25519.privateKey }), NOW_MS, ORIGIN)).ok, true, 'EdDSA');
  });

  void it('refuses an HMAC-signed token, whatever key it names', async () => {
    const secret = new TextEncoder().encode('a shared secret that nobody may use here');
    refusedBecause(await verifier().verify(await sign({}, { alg: 'HS256', key: secret }), NOW_MS, ORIGIN), 'the access token is malformed or not acceptable');
    refusedBecause(await verifier().verify('not.a.token', NOW_MS, ORIGIN), 'the access token is malformed or not acceptable');
  });

  void it('says so when the issuer keys cannot be had: an unreadable key set, or no answer in time', async () => {
    refusedBecause(await verifier({}, garbled.url).verify(await sign({}), NOW_MS, ORIGIN), 'the token issuer keys could not be fetched');
    // The JWKS request gives up at its timeout (5 s in service; 200 ms here, so the test need not wait).
    const impatient = externalVerifier({ ...auth({ audience: 'regpay' }), issuer: ISSUER, jwksUrl: silent.url }, 200);
    const started = Date.now();
    refusedBecause(await impatient.verify(await sign({}), NOW_MS, ORIGIN), 'the token issuer keys could not be fetched');
    assert.ok(Date.now() - started < 3_000, 'at the timeout given, not a default of 5 s');
  });

  void it('is the verifier chosen when an issuer and its JWKS are configured', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      const chosen = await accessTokenVerifier({ ...auth({ audience: 'regpay' }), issuer: ISSUER, jwksUrl: jwks.url }, store);
      assert.equal((await chosen.verify(await sign({}), NOW_MS, ORIGIN)).ok, true);
      refusedBecause(await chosen.verify(await sign({}, { audience: 'another-service' }), NOW_MS, ORIGIN), "the access token's aud claim is not acceptable");
      let generated = false;
      await store.getOrCreateSetting(SIGNING_KEY_SETTING, () => {
        generated = true;
        return 'x';
      });
      assert.equal(generated, true, 'no embedded key was made for it');
    } finally {
      await store.close();
    }
  });

  void it('is not chosen without both an issuer and its JWKS: the embedded provider is', async () => {
    const store = await openStore('sqlite::memory:');
    try {
      for (const settings of [auth(), auth({ issuer: ISSUER }), auth({ jwksUrl: jwks.url })]) {
        assert.equal(await accessTokenVerifier(settings, store), await embeddedProvider(settings, store));
      }
    } finally {
      await store.close();
    }
  });
});

void describe("the embedded provider's access tokens", () => {
  let store: Store;
  before(async () => {
    store = await openStore('sqlite::memory:');
  });
  after(async () => store.close());

  const claims = (overrides: Partial<AccessTokenClaims> = {}): AccessTokenClaims => ({ issuer: ORIGIN, integratorId: 'bank-a', username: 'alice', clientId: 'bank-a-client', sessionId: 's-1', scope: 'payments', ...overrides });

  void it('verifies its own token where it was issued, with the claims it was given', async () => {
    const provider = await embeddedProvider(auth(), store);
    assert.equal(provider.algorithm, 'ES256');
    assert.equal(provider.audience, DEFAULT_AUDIENCE);
    const token = await provider.sign(claims(), NOW_MS, 300);
    assert.equal(decodeJwt(token).aud, 'regpay-api', 'the audience documented (docs/configuration.md, auth.audience)');
    assert.deepEqual(decodeProtectedHeader(token), { alg: 'ES256', kid: provider.jwks().keys[0]?.kid, typ: 'at+jwt' });
    assert.deepEqual(await provider.verify(token, NOW_MS, ORIGIN), { ok: true, token: { clientId: 'bank-a-client', username: 'alice', subject: 'bank-a', sessionId: 's-1' } });
    const bare = await provider.sign(claims({ username: undefined, sessionId: undefined }), NOW_MS, 300);
    assert.deepEqual(await provider.verify(bare, NOW_MS, ORIGIN), { ok: true, token: { clientId: 'bank-a-client', username: undefined, subject: 'bank-a', sessionId: undefined } });
  });

  void it('is one provider per store and auth settings, keeping its generated key in the store', async () => {
    const settings = auth();
    const first = await embeddedProvider(settings, store);
    assert.equal(await embeddedProvider(settings, store), first);
    const again = await embeddedProvider(auth(), store);
    assert.notEqual(again, first, 'other settings, another provider');
    assert.deepEqual(again.jwks(), first.jwks(), 'but the same key, read from the store');
    // The setting's name is what every instance, and every later version, reads the key by.
    const stored = JSON.parse(await store.getOrCreateSetting('oauth.signingKey', () => assert.fail('no key stored as oauth.signingKey'))) as JWK;
    assert.deepEqual([stored.x, stored.y], [first.jwks().keys[0]?.x, first.jwks().keys[0]?.y]);
  });

  void it('refuses its token at another origin, or past its lifetime and the tolerance, or before it was issued', async () => {
    const provider = await embeddedProvider(auth(), store);
    const token = await provider.sign(claims(), NOW_MS, 300);
    refusedBecause(await provider.verify(token, NOW_MS, 'https://elsewhere.test'), "the access token's iss claim is not acceptable");
    refusedBecause(await provider.verify(token, NOW_MS, undefined), "the access token's issuer cannot be checked: the request's Host names no host");
    assert.equal((await provider.verify(token, NOW_MS + 320_000, ORIGIN)).ok, true, 'within the tolerance of 30 s');
    refusedBecause(await provider.verify(token, NOW_MS + 340_000, ORIGIN), 'the access token has expired');
    refusedBecause(await provider.verify(token, NOW_MS - 60_000, ORIGIN), "the access token's nbf claim is not acceptable");
  });

  void it('names auth.publicUrl as the one issuer, and its configured audience', async () => {
    const provider = await embeddedProvider(auth({ publicUrl: 'https://pay.bank.test', audience: 'bank-api' }), store);
    assert.equal(provider.issuerFor('https://other.test'), 'https://pay.bank.test');
    assert.equal(provider.issuerFor(undefined), 'https://pay.bank.test');
    const token = await provider.sign(claims({ issuer: 'https://pay.bank.test' }), NOW_MS, 300);
    assert.equal((await provider.verify(token, NOW_MS, 'https://whatever.test')).ok, true);
    assert.equal((await provider.verify(token, NOW_MS, undefined)).ok, true);
    const withoutUrl = await embeddedProvider(auth(), store);
    assert.equal(withoutUrl.issuerFor(ORIGIN), ORIGIN);
    const otherAudience = await embeddedProvider(auth({ publicUrl: 'https://pay.bank.test' }), store);
    refusedBecause(await otherAudience.verify(token, NOW_MS, undefined), "the access token's aud claim is not acceptable");
  });

  void it('refuses a token of its key that is no access token, has no subject, or names another key or algorithm', async () => {
    const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const provider = await embeddedProvider(auth({ signingKey: new Secret(pem) }), store);
    const kid = provider.jwks().keys[0]?.kid;
    /** A token of the right shape signed by a key the provider does not have. */
    const forged = () =>
      new SignJWT({ azp: 'bank-a-client' })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt' })
        .setIssuer(ORIGIN)
        .setAudience(DEFAULT_AUDIENCE)
        .setSubject('bank-a')
        .setIssuedAt(NOW_S)
        .setExpirationTime(NOW_S + 300)
        .sign(generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey);
    const own = async (header: Record<string, unknown>, subject: string | null = 'bank-a') => {
      const jwt = new SignJWT({ azp: 'bank-a-client' })
        .setProtectedHeader({ alg: 'ES256', kid, typ: 'at+jwt', ...header })
        .setIssuer(ORIGIN)
        .setAudience(DEFAULT_AUDIENCE)
        .setIssuedAt(NOW_S)
        .setExpirationTime(NOW_S + 300);
      return (subject === null ? jwt : jwt.setSubject(subject)).sign(createPrivateKey(pem));
    };
    assert.equal((await provider.verify(await own({}), NOW_MS, ORIGIN)).ok, true, 'the same token made by hand is accepted');
    refusedBecause(await provider.verify(await own({ typ: 'JWT' }), NOW_MS, ORIGIN), "the access token's typ claim is not acceptable");
    refusedBecause(await provider.verify(await own({}, null), NOW_MS, ORIGIN), "the access token's sub claim is not acceptable");
    refusedBecause(await provider.verify(await own({ kid: 'another' }), NOW_MS, ORIGIN), 'the access token was signed by an unknown key');
    refusedBecause(await provider.verify(await own({ kid: undefined }), NOW_MS, ORIGIN), 'the access token was signed by an unknown key');
    refusedBecause(await provider.verify(await forged(), NOW_MS, ORIGIN), 'the access token signature is invalid');
    const hmac = await new SignJWT({}).setProtectedHeader({ alg: 'HS256', kid, typ: 'at+jwt' }).setIssuer(ORIGIN).setAudience(DEFAULT_AUDIENCE).setSubject('bank-a').setExpirationTime(NOW_S + 300).sign(new TextEncoder().encode('secret'));
    refusedBecause(await provider.verify(hmac, NOW_MS, ORIGIN), /unknown key|not acceptable/);
  });

  void it('signs with RS256 under an RSA key, and accepts the tokens of its verification keys by their kid', async () => {
    const rsaPem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const old = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const oldPublic = old.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const oldPem = old.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const previous = await embeddedProvider(auth({ signingKey: new Secret(oldPem) }), store);
    const issuedBefore = await previous.sign(claims(), NOW_MS, 300);
    const rotated = await embeddedProvider(auth({ signingKey: new Secret(rsaPem), verificationKeys: [oldPublic] }), store);
    assert.equal(rotated.algorithm, 'RS256');
    const published = rotated.jwks().keys;
    assert.deepEqual(
      published.map((key) => [key.kty, key.alg, key.use, key.d]),
      [
        ['RSA', 'RS256', 'sig', undefined],
        ['EC', 'ES256', 'sig', undefined],
      ],
    );
    assert.equal(published[1]?.kid, previous.jwks().keys[0]?.kid, 'a key has one kid, its thumbprint');
    assert.equal(decodeProtectedHeader(await rotated.sign(claims(), NOW_MS, 300)).kid, published[0]?.kid, 'signs with the signing key');
    assert.equal((await rotated.verify(await rotated.sign(claims(), NOW_MS, 300), NOW_MS, ORIGIN)).ok, true);
    assert.equal((await rotated.verify(issuedBefore, NOW_MS, ORIGIN)).ok, true, 'a token of the previous key');
    // A token whose header names the RSA key with the EC algorithm is tried against no key.
    const [, body, signature] = issuedBefore.split('.');
    const relabelled = `${Buffer.from(JSON.stringify({ alg: 'ES256', kid: published[0]?.kid, typ: 'at+jwt' })).toString('base64url')}.${body}.${signature}`;
    refusedBecause(await rotated.verify(relabelled, NOW_MS, ORIGIN), 'the access token was signed by an unknown key');
  });

  void it('fails to start on an unusable key, and tries again on the next request', async () => {
    await assert.rejects(embeddedProvider(auth({ signingKey: new Secret('not a key') }), store), /the embedded token signing key is not a PEM or JWK private key/);
    await assert.rejects(embeddedProvider(auth({ verificationKeys: ['{"kty":"EC"'] }), store), /auth\.verificationKeys\[0\] is not a PEM or JWK public key/);
    let reads = 0;
    const flaky = withStoreMethods(store, {
      getOrCreateSetting: (target) => async (name, create) => {
        reads += 1;
        if (reads === 1) throw new Error('store unavailable');
        return target.getOrCreateSetting(name, create);
      },
    });
    const settings = auth();
    await assert.rejects(embeddedProvider(settings, flaky), /store unavailable/);
    const provider = await embeddedProvider(settings, flaky);
    assert.equal(provider.algorithm, 'ES256', 'a failed start is not kept');
    assert.equal(reads, 2);
  });
});
