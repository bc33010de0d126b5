import { Type } from '@sinclair/typebox';
import { TOKEN_SCOPE } from '../../app/issue-token.js';
import { StringEnum } from '../../domain/messages/common.js';
import { SCHEME_NAMES, schemaRef } from './document.js';

/**
 * The embedded identity provider's routes in the document (src/http/routes/oauth.ts; CONTRACT §7):
 * `POST /oauth/token`, `GET /oauth/jwks` and the RFC 8414 metadata at
 * `GET /.well-known/oauth-authorization-server` and `GET /.well-known/openid-configuration`.
 *
 * Their description lives here rather than in the routes' `schema:` because a declared body is
 * validated by Fastify: the token endpoint reads its form itself and answers every fault in the
 * RFC 6749 §5.2 form its clients parse, which a schema validation error would replace. The OpenAPI
 * plugin applies these descriptions to the routes of the same method and path, so they are
 * published exactly when the routes exist (auth mode oauth2 without an external issuer). Being for
 * the document only, they refer to its components directly (schemaRef).
 */

const FormText = (description: string) => Type.String({ minLength: 1, description });

const clientFields = {
  client_id: Type.Optional(FormText("The integrator's client id; with client_secret, unless the client authenticates with the Basic header")),
  client_secret: Type.Optional(FormText("The integrator's client secret; not together with the Basic header")),
};

/**
 * The grants the token endpoint takes, one schema each. A new grant adds its form here and its
 * flow to the `oauth2` security scheme (document.ts).
 */
const TOKEN_GRANTS = [
  Type.Object(
    {
      grant_type: Type.Literal('client_credentials', { description: 'Client credentials (RFC 6749 §4.4): an access token, no refresh token' }),
      ...clientFields,
      scope: Type.Optional(Type.String({ description: `Ignored: every token grants ${TOKEN_SCOPE}` })),
    },
    { title: 'ClientCredentialsGrant', description: "An access token for the integrator's client id and secret" },
  ),
  Type.Object(
    {
      grant_type: Type.Literal('password', { description: 'Resource owner password credentials (RFC 6749 §4.3)' }),
      username: FormText("The integrator's username"),
      password: FormText("The integrator's password"),
      ...clientFields,
      scope: Type.Optional(Type.String({ description: `Ignored: every token grants ${TOKEN_SCOPE}` })),
    },
    { title: 'PasswordGrant', description: 'A first token pair from the password' },
  ),
  Type.Object(
    {
      grant_type: Type.Literal('refresh_token', {
        description:
          'Refresh (RFC 6749 §6): the refresh token rotates. A spent one presented again within auth.refreshTokenReuseIntervalS gets the same new pair; later, it is refused and ends its session',
      }),
      refresh_token: FormText('The refresh token of the last answer'),
      ...clientFields,
    },
    { title: 'RefreshTokenGrant', description: 'A new token pair from the refresh token, which is then spent' },
  ),
];

export const TokenRequestSchema = Type.Union(TOKEN_GRANTS, {
  $id: 'TokenRequest',
  description: 'Token request form (application/x-www-form-urlencoded); each field at most once',
});

export const TokenResponseSchema = Type.Object(
  {
    access_token: Type.String({ description: 'Signed JWT (keys at /oauth/jwks), sent as Authorization: Bearer' }),
    expires_in: Type.Integer({ minimum: 0, description: 'Lifetime of the access token in seconds (what is left of it, when a reuse gets a pair again)' }),
    refresh_expires_in: Type.Integer({ minimum: 0, description: 'Lifetime of the refresh token in seconds (what is left of it, when a reuse gets a pair again)' }),
    refresh_token: Type.String({ description: 'Opaque; spent by the refresh that uses it (a reuse within the reuse interval gets the same pair)' }),
    token_type: Type.Literal('bearer'),
    'not-before-policy': Type.Integer({ minimum: 0, description: 'Always 0' }),
    session_state: Type.String({ description: 'Identifies the chain of tokens issued from one password grant' }),
    scope: Type.Literal(TOKEN_SCOPE, { description: 'Granted scope' }),
  },
  { $id: 'TokenResponse', description: 'A token pair (RFC 6749 §5.1)' },
);

export const OAuthErrorSchema = Type.Object(
  {
    error: StringEnum(['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'temporarily_unavailable', 'server_error'], {
      description: 'RFC 6749 §5.2 error code',
    }),
    error_description: Type.String({ description: 'What went wrong, in words' }),
  },
  { $id: 'OAuthError', description: 'Token endpoint error (RFC 6749 §5.2)' },
);

export const JsonWebKeySetSchema = Type.Object(
  { keys: Type.Array(Type.Object({ kty: Type.String(), kid: Type.Optional(Type.String()) }, { additionalProperties: true, description: 'A public JWK (RFC 7517)' })) },
  { $id: 'JsonWebKeySet', description: 'Public keys that verify access tokens (RFC 7517 §5)' },
);

export const AuthorizationServerMetadataSchema = Type.Object(
  {
    issuer: Type.String({ format: 'uri', description: 'The `iss` of access tokens: auth.publicUrl, or the URL the request was made to' }),
    token_endpoint: Type.String({ format: 'uri' }),
    jwks_uri: Type.String({ format: 'uri' }),
    response_types_supported: Type.Array(Type.String(), { maxItems: 0, description: 'None: there is no authorization endpoint' }),
    grant_types_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    scopes_supported: Type.Array(Type.String()),
  },
  { $id: 'AuthorizationServerMetadata', additionalProperties: true, description: 'OAuth 2.0 authorization server metadata (RFC 8414); no ID tokens are issued' },
);

export const PROVIDER_SCHEMAS = [TokenRequestSchema, TokenResponseSchema, OAuthErrorSchema, JsonWebKeySetSchema, AuthorizationServerMetadataSchema];

const json = (id: string) => ({ 'application/json': { schema: schemaRef(id) } });
const NO_STORE = { 'Cache-Control': { type: 'string', description: 'no-store: token answers are never cached' } };
const oauthError = (description: string, headers: Record<string, { type: string; description: string }> = NO_STORE) => ({ description, headers, content: json('OAuthError') });
const TAGS = ['token'];

/** Route schemas by `METHOD path`, as @fastify/swagger reads them. */
export const PROVIDER_OPERATIONS: Readonly<Record<string, Record<string, unknown>>> = {
  'POST /oauth/token': {
    operationId: 'token',
    summary: 'Token endpoint (OAuth2 client_credentials, password and refresh_token grants)',
    description:
      'Issues a signed JWT access token and a rotating refresh token. The client authenticates with client_id and client_secret in the ' +
      'form, or with an Authorization: Basic header of the form-encoded client_id:client_secret (RFC 6749 §2.3.1), never both. ' +
      "The caller's address must be in the integrator's allowlist; repeated wrong secrets from one address are answered 429.",
    tags: TAGS,
    security: [{}, { [SCHEME_NAMES.tokenClient]: [] }],
    body: { content: { 'application/x-www-form-urlencoded': { schema: schemaRef('TokenRequest') } } },
    response: {
      200: { description: 'The token pair', headers: NO_STORE, content: json('TokenResponse') },
      400: oauthError('invalid_request (missing or repeated field, wrong Content-Type), invalid_grant (wrong password, unknown or spent refresh token) or unsupported_grant_type'),
      401: oauthError('invalid_client: unknown client or wrong client secret', {
        ...NO_STORE,
        'WWW-Authenticate': { type: 'string', description: 'Basic realm="regpay"' },
      }),
      429: oauthError('temporarily_unavailable: too many failed authentications from this address', {
        ...NO_STORE,
        'Retry-After': { type: 'string', description: 'Seconds to wait' },
      }),
      500: oauthError('server_error: the token could not be issued; retry later'),
    },
  },
  'GET /oauth/jwks': {
    operationId: 'jwks',
    summary: 'Public keys of the access tokens (JWKS)',
    description: 'The keys that verify access tokens: the signing key and any configured verification keys (during a key rotation).',
    tags: TAGS,
    security: [],
    response: { 200: { description: 'The key set', content: json('JsonWebKeySet') } },
  },
  ...Object.fromEntries(
    ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'].map((path, index) => [
      `GET ${path}`,
      {
        operationId: index === 0 ? 'authorizationServerMetadata' : 'openidConfiguration',
        summary: index === 0 ? 'Authorization server metadata (RFC 8414)' : 'The same metadata, at the path OpenID client libraries try first',
        description: 'Token endpoint, JWKS URL, grants, client authentication methods and scopes, at auth.publicUrl (or the origin the request used).',
        tags: TAGS,
        security: [],
        response: {
          200: { description: 'The metadata document', content: json('AuthorizationServerMetadata') },
          400: oauthError('invalid_request: without auth.publicUrl, the request named no host to be the issuer'),
        },
      },
    ]),
  ),
};
