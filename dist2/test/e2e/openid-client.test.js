import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import * as client from 'openid-client';
import { creditTransfer } from '../fixtures/credit-transfer.js';
import { DEMO_USER, startServer, writeTestConfig } from '../support/server.js';
/**
 * A standard OAuth client library against the service as it starts with `auth.mode: oauth2` and
 * nothing else about OAuth configured (no auth.publicUrl): openid-client discovers the embedded
 * provider from the URL the service is reached at, gets tokens by both grants, and each token is
 * accepted by the API. Plain http is allowed for the test only (allowInsecureRequests).
 */
void describe('openid-client against the embedded provider, with no OAuth configuration', () => {
    let server;
    before(async () => {
        const database = `sqlite:${join(mkdtempSync(join(tmpdir(), 'regpay-openid-client-')), 'regpay.db')}`;
        server = await startServer({ configPath: writeTestConfig({ database, auth: 'oauth2' }) });
    });
    after(async () => {
        const code = await server?.stop();
        assert.equal(code, 0, 'the service shuts down cleanly on SIGTERM');
    });
    const discover = (algorithm, authentication) => client.discovery(new URL(server.url), DEMO_USER.clientId, undefined, authentication, { algorithm, execute: [client.allowInsecureRequests] });
    /** Answers the status of a fresh credit transfer sent with this access token. */
    const transferWith = async (accessToken) => {
        const response = await fetch(`${server.url}/api/v1/transactions/outbound/credit-transfer`, {
            method: 'POST',
            headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
            body: JSON.stringify(creditTransfer('ZA_RTC')),
        });
        await response.arrayBuffer();
        return response.status;
    };
    void it('discovers the provider at the service URL and gets a client-credentials token the API accepts', async () => {
        const config = await discover('oidc', client.ClientSecretBasic(DEMO_USER.clientSecret));
        assert.equal(config.serverMetadata().issuer, server.url);
        assert.equal(config.serverMetadata().token_endpoint, `${server.url}/oauth/token`);
        const tokens = await client.clientCredentialsGrant(config);
        assert.equal(tokens.token_type, 'bearer');
        assert.equal(tokens.refresh_token, undefined, 'no refresh token for client credentials');
        assert.equal(decodeJwt(tokens.access_token).iss, server.url, "the token's iss is the discovered issuer");
        assert.equal(await transferWith(tokens.access_token), 202);
    });
    void it('discovers the provider by RFC 8414 metadata and gets password-grant tokens, refreshed, that the API accepts', async () => {
        const config = await discover('oauth2', client.ClientSecretPost(DEMO_USER.clientSecret));
        const tokens = await client.genericGrantRequest(config, 'password', { username: DEMO_USER.username, password: DEMO_USER.password });
        assert.equal(await transferWith(tokens.access_token), 202);
        assert.ok(tokens.refresh_token !== undefined, 'the password grant gives a refresh token');
        const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token);
        assert.notEqual(refreshed.refresh_token, tokens.refresh_token, 'the refresh token rotates');
        assert.equal(await transferWith(refreshed.access_token), 202);
    });
    void it("describes both grants as the API's oauth2 security scheme, which the /docs page's Authorize button uses", async () => {
        const document = (await (await fetch(`${server.url}/openapi.json`)).json());
        const oauth2 = document.components.securitySchemes['oauth2'];
        assert.equal(oauth2?.type, 'oauth2');
        assert.deepEqual(Object.keys(oauth2.flows ?? {}).sort(), ['clientCredentials', 'password']);
        for (const flow of Object.values(oauth2.flows ?? {})) {
            assert.equal(flow.tokenUrl, `${server.url}/oauth/token`, 'the token endpoint of the service the document was served by');
            assert.deepEqual(Object.keys(flow.scopes), ['api']);
        }
        assert.deepEqual(document.security, [{ oauth2: [] }]);
        assert.equal(document.components.securitySchemes['basic'], undefined, 'no scheme this deployment does not take');
    });
});
//# sourceMappingURL=openid-client.test.js.map