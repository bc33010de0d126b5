import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { Ajv, type ErrorObject } from 'ajv';
import ipaddr from 'ipaddr.js';
import { parse as parseYaml } from 'yaml';
import { SCHEMES, type SchemeName } from '../domain/schemes.js';
import { hashSecretAsync, parseHash } from '../lib/password-hash.js';
import { Secret } from '../lib/secret.js';
import { parseSigningKey, parseVerificationKey } from '../lib/signing-key.js';
import { demoSource } from './demo.js';
import { readLinkFiles } from './link-files.js';
import { ConfigFileSchema, INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT, TIME_BUDGET_MS_DEFAULTS, type CallbackAuthFile, type ConfigFile, type IntegratorFile } from './schema.js';
import type { AdminConfig, CallbackAuth, Config, IntegratorConfig, OperatorLinkConfig, SchemeConfig } from './types.js';

/**
 * Loads the configuration once at start (CONTRACT §8): finds the file, parses YAML or JSON,
 * resolves `${ENV_VAR}` references, applies the PORT/HOST overrides, validates everything in one
 * pass so the operator sees every bad key at once, hashes plain secrets and freezes the result.
 * This module is the only reader of process.env in the service: callers hand it the environment.
 */
export interface LoadOptions {
  /** Command-line arguments after the script name (`--config <path>` or `--config=<path>`). */
  readonly argv?: readonly string[];
  /** The environment; defaults to process.env. */
  readonly env?: NodeJS.ProcessEnv;
}

/** The configuration is unusable; `problems` names each bad key, one line each. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';

  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid configuration (${source}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

/** Keys whose values are secret (or, like a database URL, usually carry one): never echoed in errors. */
const SECRET_KEYS = new Set(['password', 'passwordHash', 'clientSecret', 'clientSecretHash', 'webhookSecret', 'signingKey', 'database']);

export async function loadConfig(options: LoadOptions = {}): Promise<Config> {
  const env = options.env ?? process.env;
  const path = configPath(options.argv ?? [], env);
  if (path === undefined) {
    const receiver = demoReceiver(env);
    const demo = demoSource(demoAddress(env), receiver);
    const config = await buildConfig(demo.source, 'demo configuration', env, true);
    return deepFreeze({ ...config, demoCredentials: demo.credentials, ...(receiver === undefined ? {} : { demoReceiver: receiver }) });
  }
  const raw = await readSource(path);
  return deepFreeze(await buildConfig(raw, path, env, false));
}

/** Where the demo listens: PORT and HOST when given and valid (buildConfig reports them otherwise), else the demo's own. */
function demoAddress(env: NodeJS.ProcessEnv): { host: string; port: number } {
  const port = env['PORT'];
  const host = env['HOST'];
  return {
    host: host !== undefined && host.length > 0 ? host : '127.0.0.1',
    port: port !== undefined && /^[0-9]{1,5}$/.test(port) && Number(port) <= 65_535 ? Number(port) : 8080,
  };
}

/** REGPAY_DEMO_RECEIVER without a trailing slash: where the demo sends what its integrator is sent; undefined (its own inbox) when unset or empty. */
function demoReceiver(env: NodeJS.ProcessEnv): string | undefined {
  const value = env['REGPAY_DEMO_RECEIVER']?.trim();
  if (value === undefined || value === '') return undefined;
  if (!isHttpUrl(value)) throw new ConfigError('environment', [`REGPAY_DEMO_RECEIVER: "${value}" is not an http(s) URL (the base of a receiver, e.g. http://127.0.0.1:9090)`]);
  return value.replace(/\/+$/, '');
}

/** Validate an already parsed file (tests, tools); same rules as loadConfig. */
export async function configFromObject(raw: unknown, env: NodeJS.ProcessEnv = {}, source = 'configuration'): Promise<Config> {
  return deepFreeze(await buildConfig(raw, source, env, false));
}

function configPath(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--config') {
      const next = argv[i + 1];
      if (next === undefined || next === '') throw new ConfigError('command line', ['--config: needs a file path']);
      return next;
    }
    if (arg.startsWith('--config=')) {
      const value = arg.slice('--config='.length);
      if (value === '') throw new ConfigError('command line', ['--config: needs a file path']);
      return value;
    }
  }
  const fromEnv = env['REGPAY_CONFIG'];
  return fromEnv === undefined || fromEnv === '' ? undefined : fromEnv;
}

async function readSource(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new ConfigError(path, [`cannot read the file: ${(error as NodeJS.ErrnoException).code ?? String(error)}`]);
  }
  try {
    if (extname(path).toLowerCase() === '.json') return JSON.parse(text) as unknown;
    // YAML 1.2 is a superset of JSON, so any other extension is read as YAML.
    return parseYaml(text, { uniqueKeys: true, maxAliasCount: 100, prettyErrors: true }) as unknown;
  } catch (error) {
    throw new ConfigError(path, [`cannot parse the file: ${(error as Error).message.split('\n')[0] ?? ''}`]);
  }
}

// ---------------------------------------------------------------------------------------------
// Paths and the pre-validation passes

type PathSegment = string | number;

export function formatPath(path: readonly PathSegment[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text === '' ? '(root)' : text;
}

function pointerToPath(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9][0-9]*)$/.test(part) ? Number(part) : part));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `${NAME}` is replaced by the variable's value, anywhere in any string; `$${` stands for a
 * literal `${`. A reference to an unset variable is an error (an empty value is a value).
 */
const REFERENCE = /\$\$\{|\$\{([^}]*)\}/g;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function resolveString(value: string, path: readonly PathSegment[], env: NodeJS.ProcessEnv, problems: string[]): string {
  return value.replace(REFERENCE, (match: string, name: string | undefined) => {
    if (match === '$${') return '${';
    if (name === undefined || !ENV_NAME.test(name)) {
      problems.push(`${formatPath(path)}: "\${${name ?? ''}}" is not a valid environment variable reference`);
      return match;
    }
    const resolved = env[name];
    if (resolved === undefined) {
      problems.push(`${formatPath(path)}: environment variable ${name} is not set`);
      return match;
    }
    return resolved;
  });
}

/** Resolve references and reject empty values (`key:` with nothing after it) in one walk. */
function resolveTree(value: unknown, path: PathSegment[], env: NodeJS.ProcessEnv, problems: string[]): unknown {
  if (value === null || value === undefined) {
    problems.push(`${formatPath(path)}: has no value`);
    return value;
  }
  if (typeof value === 'string') return resolveString(value, path, env, problems);
  if (Array.isArray(value)) return value.map((item, index) => resolveTree(item, [...path, index], env, problems));
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = resolveTree(item, [...path, key], env, problems);
    return out;
  }
  return value;
}

function applyEnvOverrides(raw: Record<string, unknown>, env: NodeJS.ProcessEnv, problems: string[]): void {
  // Read only when the file names no endpoint (buildConfig), so only then can it be wrong.
  const otlp = env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim();
  const fileOtlp = isRecord(raw['telemetry']) ? raw['telemetry']['otlpEndpoint'] : undefined;
  if (fileOtlp === undefined && otlp !== undefined && otlp !== '' && !isHttpUrl(otlp)) problems.push(`OTEL_EXPORTER_OTLP_ENDPOINT: "${otlp}" is not an http(s) URL`);
  const port = env['PORT'];
  const host = env['HOST'];
  if (port === undefined && host === undefined) return;
  const server = isRecord(raw['server']) ? raw['server'] : {};
  raw['server'] = server;
  if (port !== undefined) {
    if (/^[0-9]{1,5}$/.test(port) && Number(port) <= 65_535) server['port'] = Number(port);
    else problems.push(`PORT: "${port}" is not a port number`);
  }
  if (host !== undefined) {
    if (host.length > 0) server['host'] = host;
    else problems.push('HOST: is empty');
  }
}

// ---------------------------------------------------------------------------------------------
// Schema validation

/** A single address is accepted as a one-address block; anything else must be address/prefix. */
export function isCidr(value: string): boolean {
  return ipaddr.isValidCIDR(value) || ipaddr.isValid(value);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true, verbose: true, strict: true });
ajv.addFormat('cidr', { type: 'string', validate: isCidr });
ajv.addFormat('http-url', { type: 'string', validate: isHttpUrl });
const validateFile = ajv.compile(ConfigFileSchema);

const PATTERN_MEANINGS: Readonly<Record<string, string>> = {
  bicfi: 'a BIC of 8 or 11 letters and digits',
  id: 'letters, digits, ".", "_" or "-" (at most 64, starting with a letter or digit)',
  username: 'text without ":"',
  webhookSecret: 'a Standard Webhooks secret "whsec_<base64>"',
  database: '"sqlite:<path>" or "postgres://..."',
};

function describeValue(key: PathSegment | undefined, value: unknown): string {
  if (typeof key === 'string' && SECRET_KEYS.has(key)) return 'the value';
  return JSON.stringify(value) ?? String(value);
}

function schemaProblem(error: ErrorObject): string {
  const path = pointerToPath(error.instancePath);
  const key = path[path.length - 1];
  const here = formatPath(path);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return `${formatPath([...path, String(params['missingProperty'])])}: is required`;
    case 'additionalProperties':
      return `${formatPath([...path, String(params['additionalProperty'])])}: is not a known key`;
    case 'format':
      if (params['format'] === 'cidr') return `${here}: ${describeValue(key, error.data)} is not a CIDR block`;
      return `${here}: ${describeValue(key, error.data)} is not an http(s) URL`;
    case 'enum':
      return `${here}: ${describeValue(key, error.data)} is not one of ${(params['allowedValues'] as unknown[]).join(', ')}`;
    case 'type':
      return `${here}: must be ${String(params['type'])}`;
    case 'pattern': {
      const meaning = typeof key === 'string' ? PATTERN_MEANINGS[key] : undefined;
      return `${here}: ${describeValue(key, error.data)} is not ${meaning ?? `of the form ${String(params['pattern'])}`}`;
    }
    case 'minProperties':
      return `${here}: needs at least one key`;
    case 'uniqueItems':
      return `${here}: lists the same value twice`;
    default:
      return `${here}: ${error.message ?? 'is invalid'}`;
  }
}

// ---------------------------------------------------------------------------------------------
// Rules across keys

type Mode = { readonly kind: 'basic' } | { readonly kind: 'embedded' } | { readonly kind: 'external' };

function authMode(file: ConfigFile): Mode {
  if (file.auth.mode === 'basic') return { kind: 'basic' };
  return file.auth.issuer === undefined && file.auth.jwksUrl === undefined ? { kind: 'embedded' } : { kind: 'external' };
}

function checkSecretPair(
  credentials: Record<string, string | undefined>,
  path: readonly PathSegment[],
  plainKey: string,
  hashKey: string,
  needed: boolean,
  problems: string[],
): void {
  const plain = credentials[plainKey];
  const hash = credentials[hashKey];
  if (plain !== undefined && hash !== undefined) {
    problems.push(`${formatPath([...path, hashKey])}: give ${plainKey} or ${hashKey}, not both`);
  } else if (needed && plain === undefined && hash === undefined) {
    problems.push(`${formatPath([...path, plainKey])}: is required (or ${hashKey})`);
  }
  if (hash !== undefined) {
    const parsed = parseHash(hash);
    if (!parsed.ok) problems.push(`${formatPath([...path, hashKey])}: ${parsed.reason}`);
  }
}

function checkIntegrators(file: ConfigFile, mode: Mode, problems: string[]): void {
  const seen = { id: new Map<string, number>(), username: new Map<string, number>(), clientId: new Map<string, number>() };
  file.integrators.forEach((integrator, index) => {
    const base: PathSegment[] = ['integrators', index];
    const unique = (kind: keyof typeof seen, value: string | undefined, path: PathSegment[]): void => {
      if (value === undefined) return;
      const first = seen[kind].get(value);
      if (first === undefined) seen[kind].set(value, index);
      else problems.push(`${formatPath(path)}: "${value}" is already used by integrators[${first}]`);
    };
    unique('id', integrator.id, [...base, 'id']);
    unique('username', integrator.credentials.username, [...base, 'credentials', 'username']);
    unique('clientId', integrator.credentials.clientId, [...base, 'credentials', 'clientId']);

    const credentials = integrator.credentials as unknown as Record<string, string | undefined>;
    const credentialsPath = [...base, 'credentials'];
    checkSecretPair(credentials, credentialsPath, 'password', 'passwordHash', mode.kind !== 'external', problems);
    checkSecretPair(credentials, credentialsPath, 'clientSecret', 'clientSecretHash', mode.kind === 'embedded', problems);
    if (mode.kind !== 'basic' && integrator.credentials.clientId === undefined) {
      problems.push(`${formatPath([...credentialsPath, 'clientId'])}: is required with auth.mode oauth2`);
    }
    checkCallbackAuth(integrator.callbackAuth, [...base, 'callbackAuth'], problems);
  });
}

function checkCallbackAuth(auth: CallbackAuthFile, path: readonly PathSegment[], problems: string[]): void {
  const needs: Record<CallbackAuthFile['type'], readonly (keyof CallbackAuthFile)[]> = {
    none: [],
    basic: ['username', 'password'],
    oauth2: ['tokenUrl', 'clientId', 'clientSecret'],
  };
  const allowed = new Set<string>(['type', ...needs[auth.type], ...(auth.type === 'oauth2' ? ['scope', 'tokenAuthMethod'] : [])]);
  for (const key of needs[auth.type]) {
    if (auth[key] === undefined) problems.push(`${formatPath([...path, key])}: is required when type is ${auth.type}`);
  }
  for (const key of Object.keys(auth)) {
    if (!allowed.has(key)) problems.push(`${formatPath([...path, key])}: does not apply when type is ${auth.type}`);
  }
}

/** The schedule's entries are delays before each attempt; the first attempt is immediate. */
function checkDelivery(file: ConfigFile, problems: string[]): void {
  const { delivery } = file;
  for (const channel of ['callback', 'event'] as const) {
    if (delivery.retryScheduleMs[channel][0] !== 0) {
      problems.push(`delivery.retryScheduleMs.${channel}[0]: must be 0 (the first attempt is immediate; list the delays of the retries after it)`);
    }
  }
  // An attempt may take a token fetch, the request, a second token fetch and a repeat (after a 401).
  if (delivery.leaseMs < 4 * delivery.timeoutMs) {
    problems.push(`delivery.leaseMs: must be at least 4 × delivery.timeoutMs (${4 * delivery.timeoutMs}), so a claim outlives the longest attempt`);
  }
}

/** Node refuses a headers timeout longer than the request timeout it is part of. */
function checkServer(file: ConfigFile, problems: string[]): void {
  const { headersTimeoutMs, requestTimeoutMs } = file.server;
  if (headersTimeoutMs > requestTimeoutMs) problems.push(`server.headersTimeoutMs: must be at most server.requestTimeoutMs (${requestTimeoutMs}): the headers are part of the request`);
}

/** A steady rate needs someone to address: an integrator with ZA_RPP on the built-in simulator. */
function checkSimulator(file: ConfigFile, problems: string[]): void {
  const { inbound } = file.simulator;
  if (/^0+(\.0+)?$/.test(inbound.amount)) problems.push('simulator.inbound.amount: must be above zero');
  if (inbound.ratePerSecond === 0) return;
  const simulated = (file.schemes.ZA_RPP?.connector ?? 'simulator') === 'simulator';
  if (!simulated || !file.integrators.some((integrator) => integrator.schemes.includes('ZA_RPP'))) {
    problems.push('simulator.inbound.ratePerSecond: the simulator originates on ZA_RPP, and no integrator has ZA_RPP on the built-in simulator');
  }
}

function checkAdmin(file: ConfigFile, problems: string[]): void {
  if (file.admin === undefined) return;
  checkSecretPair(file.admin as unknown as Record<string, string | undefined>, ['admin'], 'password', 'passwordHash', true, problems);
}

function checkAuth(file: ConfigFile, mode: Mode, problems: string[]): void {
  const { auth } = file;
  if (mode.kind === 'basic') {
    for (const key of ['issuer', 'jwksUrl', 'audience', 'publicUrl', 'signingKey', 'verificationKeys'] as const) {
      if (auth[key] !== undefined) problems.push(`auth.${key}: applies only with auth.mode oauth2`);
    }
    return;
  }
  if (auth.issuer !== undefined && auth.jwksUrl === undefined) problems.push('auth.jwksUrl: is required when auth.issuer is set');
  if (auth.jwksUrl !== undefined && auth.issuer === undefined) problems.push('auth.issuer: is required when auth.jwksUrl is set');
  if (mode.kind === 'external') {
    for (const key of ['signingKey', 'verificationKeys'] as const) {
      if (auth[key] !== undefined) problems.push(`auth.${key}: applies only to the embedded provider (no auth.issuer)`);
    }
  }
  if (auth.signingKey !== undefined) {
    const parsed = parseSigningKey(auth.signingKey);
    if (!parsed.ok) problems.push(`auth.signingKey: ${parsed.reason}`);
  }
  auth.verificationKeys?.forEach((text, index) => {
    const parsed = parseVerificationKey(text);
    if (!parsed.ok) problems.push(`auth.verificationKeys[${index}]: ${parsed.reason}`);
  });
}

/** The connector of the operator link (docs/operator-link.md); its settings are `schemes.<SCHEME>.operatorLink`. */
const OPERATOR_LINK = 'operator-link';

/**
 * `operatorLink` goes with `connector: operator-link` and only with it; its URL is https; its files
 * are read and checked (link-files.ts). Schemes whose operator messages arrive on one host and port
 * share one listener, so they must name the same TLS files and pins.
 */
function operatorLinks(file: ConfigFile, problems: string[]): Map<SchemeName, OperatorLinkConfig> {
  const links = new Map<SchemeName, OperatorLinkConfig>();
  const listeners = new Map<string, { scheme: SchemeName; link: OperatorLinkConfig }>();
  for (const scheme of SCHEMES) {
    const given = file.schemes[scheme];
    const at = `schemes.${scheme}.operatorLink`;
    if (given?.connector === OPERATOR_LINK && given.operatorLink === undefined) problems.push(`${at}: is required with connector ${OPERATOR_LINK}`);
    if (given?.operatorLink === undefined) continue;
    const settings = given.operatorLink;
    if (given.connector !== OPERATOR_LINK) {
      problems.push(`${at}: applies only with connector ${OPERATOR_LINK}`);
      continue;
    }
    if (!settings.url.toLowerCase().startsWith('https:')) problems.push(`${at}.url: must be an https URL (the link is mutual TLS)`);
    const names = { ...settings, peerKeyFiles: settings.operatorKeyFiles, peerFingerprints: settings.operatorCertificateSha256 };
    const files = readLinkFiles(names, at, { peerKeysKey: 'operatorKeyFiles', pinsKey: 'operatorCertificateSha256' }, problems);
    if (files === undefined) continue;
    const link: OperatorLinkConfig = {
      url: withoutTrailingSlash(settings.url),
      ca: files.ca,
      cert: files.cert,
      key: files.key,
      signingKey: files.signingKey,
      operatorKeys: files.peerKeys,
      operatorCertificateSha256: files.peerFingerprints,
      inbound: { ...settings.inbound },
      requestTimeoutMs: settings.requestTimeoutMs,
      connectionsMax: settings.connectionsMax,
      signatureMaxAgeS: settings.signatureMaxAgeS,
    };
    links.set(scheme, link);
    const where = `${link.inbound.host}:${link.inbound.port}`;
    const sharing = link.inbound.port === 0 ? undefined : listeners.get(where);
    if (sharing === undefined) listeners.set(where, { scheme, link });
    else if (!sameListener(sharing.link, link)) {
      problems.push(`${at}.inbound: listens where schemes.${sharing.scheme}.operatorLink.inbound does (${where}), so caFile, certFile, keyFile and operatorCertificateSha256 must be the same as there`);
    }
  }
  return links;
}

function sameListener(a: OperatorLinkConfig, b: OperatorLinkConfig): boolean {
  return a.ca === b.ca && a.cert === b.cert && a.key.reveal() === b.key.reveal() && a.operatorCertificateSha256.join() === b.operatorCertificateSha256.join();
}

// ---------------------------------------------------------------------------------------------
// Building the frozen Config

async function hashed(plain: string | undefined, hash: string | undefined): Promise<Secret<string> | undefined> {
  if (hash !== undefined) return new Secret(hash);
  if (plain !== undefined) return new Secret(await hashSecretAsync(plain));
  return undefined;
}

/** `10.0.0.5` becomes `10.0.0.5/32`, so every consumer sees blocks only. */
function asCidr(value: string): string {
  if (ipaddr.isValidCIDR(value)) return value;
  const address = ipaddr.parse(value);
  return `${value}/${address.kind() === 'ipv4' ? 32 : 128}`;
}

function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function callbackAuth(file: CallbackAuthFile): CallbackAuth {
  switch (file.type) {
    case 'none':
      return { type: 'none' };
    case 'basic':
      return { type: 'basic', username: file.username ?? '', password: new Secret(file.password ?? '') };
    case 'oauth2':
      return {
        type: 'oauth2',
        tokenUrl: file.tokenUrl ?? '',
        clientId: file.clientId ?? '',
        clientSecret: new Secret(file.clientSecret ?? ''),
        ...(file.scope === undefined ? {} : { scope: file.scope }),
        tokenAuthMethod: file.tokenAuthMethod ?? 'client_secret_basic',
      };
  }
}

async function integratorConfig(file: IntegratorFile): Promise<IntegratorConfig> {
  const { credentials } = file;
  const [passwordHash, clientSecretHash] = await Promise.all([
    hashed(credentials.password, credentials.passwordHash),
    hashed(credentials.clientSecret, credentials.clientSecretHash),
  ]);
  return {
    id: file.id,
    institution: { ...file.institution },
    allowlist: file.allowlist.map(asCidr),
    credentials: {
      username: credentials.username,
      ...(passwordHash === undefined ? {} : { passwordHash }),
      ...(credentials.clientId === undefined ? {} : { clientId: credentials.clientId }),
      ...(clientSecretHash === undefined ? {} : { clientSecretHash }),
    },
    partnerApiUrl: withoutTrailingSlash(file.partnerApiUrl),
    eventsApiUrl: withoutTrailingSlash(file.eventsApiUrl),
    events: file.events !== false,
    eventTypeNames: typeof file.events === 'object' ? (file.events.typeNames ?? 'current') : 'current',
    identifierDetermination: file.identifierDetermination,
    schemes: [...file.schemes],
    callbackAuth: callbackAuth(file.callbackAuth),
    ...(file.webhookSecret === undefined ? {} : { webhookSecret: new Secret(file.webhookSecret) }),
    limits: {
      requestsPerSecond: file.limits.requestsPerSecond,
      burst: file.limits.burst,
      amountMax: { ...file.limits.amountMax },
    },
    inbound: {
      authorisation: file.inbound.authorisation,
      identifierDetermination: file.inbound.identifierDetermination,
      ...(file.inbound.answerTimeoutMs === undefined ? {} : { answerTimeoutMs: file.inbound.answerTimeoutMs }),
    },
  };
}

/**
 * Every scheme named in the file or enabled for an integrator gets an entry; one the file does
 * not configure runs on the simulator with its default time budget (so the CONTRACT §8 example,
 * which enables ZA_EFT without configuring it, works as written).
 */
function schemeConfigs(file: ConfigFile, links: ReadonlyMap<SchemeName, OperatorLinkConfig>): Partial<Record<SchemeName, SchemeConfig>> {
  const used = new Set<SchemeName>([...(Object.keys(file.schemes) as SchemeName[]), ...file.integrators.flatMap((i) => i.schemes)]);
  const out: Partial<Record<SchemeName, SchemeConfig>> = {};
  for (const scheme of SCHEMES) {
    if (!used.has(scheme)) continue;
    const given = file.schemes[scheme];
    const link = links.get(scheme);
    const timeBudgetMs = given?.timeBudgetMs ?? TIME_BUDGET_MS_DEFAULTS[scheme];
    out[scheme] = {
      connector: given?.connector ?? 'simulator',
      timeBudgetMs,
      // Half the scheme's budget, at most 5 s: the rest is the scheme's own way back to the payer's bank.
      inbound: { answerTimeoutMs: given?.inbound?.answerTimeoutMs ?? Math.min(INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT, Math.floor(timeBudgetMs / 2)) },
      ...(given?.simulatorLatencyMs === undefined ? {} : { simulatorLatencyMs: given.simulatorLatencyMs }),
      ...(given?.simulatorDirectory === undefined ? {} : { simulatorDirectory: given.simulatorDirectory }),
      ...(link === undefined ? {} : { operatorLink: link }),
    };
  }
  return out;
}

async function buildConfig(input: unknown, source: string, env: NodeJS.ProcessEnv, demo: boolean): Promise<Config> {
  const problems: string[] = [];
  if (!isRecord(input)) throw new ConfigError(source, ['(root): must be a mapping of keys']);
  const resolved = resolveTree(input, [], env, problems) as Record<string, unknown>;
  applyEnvOverrides(resolved, env, problems);
  if (!validateFile(resolved)) {
    problems.push(...(validateFile.errors ?? []).map(schemaProblem));
    throw new ConfigError(source, distinct(problems));
  }
  const file = resolved as unknown as ConfigFile;
  const mode = authMode(file);
  checkIntegrators(file, mode, problems);
  checkAuth(file, mode, problems);
  checkDelivery(file, problems);
  checkServer(file, problems);
  checkAdmin(file, problems);
  checkSimulator(file, problems);
  const links = operatorLinks(file, problems);
  if (problems.length > 0) throw new ConfigError(source, distinct(problems));

  const [integrators, admin] = await Promise.all([Promise.all(file.integrators.map(integratorConfig)), adminConfig(file)]);
  const { auth, delivery } = file;
  return {
    server: { ...file.server, trustedProxies: file.server.trustedProxies.map(asCidr), operationsAllowlist: file.server.operationsAllowlist.map(asCidr) },
    database: file.database,
    store: { ...file.store },
    auth: {
      mode: auth.mode,
      ...(auth.issuer === undefined ? {} : { issuer: auth.issuer }),
      ...(auth.jwksUrl === undefined ? {} : { jwksUrl: auth.jwksUrl }),
      ...(auth.audience === undefined ? {} : { audience: auth.audience }),
      ...(auth.publicUrl === undefined ? {} : { publicUrl: withoutTrailingSlash(auth.publicUrl) }),
      ...(auth.signingKey === undefined ? {} : { signingKey: new Secret(auth.signingKey) }),
      verificationKeys: auth.verificationKeys ?? [],
      accessTokenTtlS: auth.accessTokenTtlS,
      refreshTokenTtlS: auth.refreshTokenTtlS,
      refreshTokenReuseIntervalS: auth.refreshTokenReuseIntervalS,
      clockToleranceS: auth.clockToleranceS,
      revocationPollMs: auth.revocationPollMs,
      failedAuthentications: { ...auth.failedAuthentications },
    },
    integrators,
    schemes: schemeConfigs(file, links),
    delivery: {
      ...delivery,
      retryScheduleMs: { callback: [...delivery.retryScheduleMs.callback], event: [...delivery.retryScheduleMs.event] },
    },
    processing: { ...file.processing },
    proxyPayments: { ...file.proxyPayments },
    requestToPay: { expiryHorizonMs: file.requestToPay.expiryHorizonMs },
    ...(admin === undefined ? {} : { admin }),
    metrics: { ...file.metrics },
    telemetry: {
      serviceName: file.telemetry.serviceName,
      ...otlpEndpoint(file.telemetry.otlpEndpoint ?? env['OTEL_EXPORTER_OTLP_ENDPOINT']),
    },
    schemeMessages: { ...file.schemeMessages },
    simulator: { inbound: { ...file.simulator.inbound } },
    demo,
  };
}

/** The OTLP endpoint from the file, else the standard OTEL_EXPORTER_OTLP_ENDPOINT variable (an empty one: none). */
function otlpEndpoint(value: string | undefined): { otlpEndpoint?: string } {
  return value === undefined || value.trim() === '' ? {} : { otlpEndpoint: withoutTrailingSlash(value.trim()) };
}

async function adminConfig(file: ConfigFile): Promise<AdminConfig | undefined> {
  if (file.admin === undefined) return undefined;
  const passwordHash = await hashed(file.admin.password, file.admin.passwordHash);
  // checkAdmin made sure one of the two is given.
  if (passwordHash === undefined) return undefined;
  return { username: file.admin.username, passwordHash, allowlist: file.admin.allowlist.map(asCidr) };
}

/** The same problem found twice (e.g. by two coercion attempts) is reported once. */
function distinct(problems: readonly string[]): string[] {
  return [...new Set(problems)];
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
