import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Type, type Static } from '@sinclair/typebox';
import { Ajv, type ErrorObject } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { readLinkFiles, type LinkFiles } from '../config/link-files.js';
import { DEFAULTS, TIME_BUDGET_MS_DEFAULTS } from '../config/schema.js';
import { loadDirectory } from '../connectors/simulator/directory.js';
import { SCHEMES, supports, type SchemeName } from '../domain/schemes.js';

/**
 * The operator simulator's configuration (docs/operator-link.md): one YAML or JSON file, given with
 * `--config <path>`, validated in one pass at start so every bad key is named at once. Its files
 * (certificates, keys, directories) are read and checked here too.
 */

const NonEmpty = (options: Record<string, unknown> = {}) => Type.String({ minLength: 1, ...options });
const FilePath = NonEmpty({ maxLength: 4_096 });
const Fingerprint = Type.String({ pattern: '^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$' });

export const OPERATOR_DEFAULTS = {
  host: '127.0.0.1',
  port: 9443,
  store: './data/operator.db',
  requestTimeoutMs: 10_000,
  connectionsMax: 32,
  signatureMaxAgeS: 300,
  deliveryInFlightMax: 64,
  deliveryRetryDelayMs: 100,
  deliveryRetryDelayMaxMs: 5_000,
  deliveryRetryWindowMs: 86_400_000,
  logLevel: 'info',
} as const;

const SchemeSchema = Type.Object(
  {
    latencyMs: Type.Integer({ minimum: 0, maximum: 600_000, default: DEFAULTS.simulatorLatencyMs }),
    lateAnswerMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800_000 })),
    directory: Type.Optional(FilePath),
  },
  { additionalProperties: false },
);

const OperatorFileSchema = Type.Object(
  {
    listen: Type.Object(
      {
        host: NonEmpty({ default: OPERATOR_DEFAULTS.host }),
        port: Type.Integer({ minimum: 0, maximum: 65_535, default: OPERATOR_DEFAULTS.port }),
      },
      { additionalProperties: false, default: {} },
    ),
    store: NonEmpty({ default: OPERATOR_DEFAULTS.store }),
    /** The control listener (control.ts): plain HTTP, for originating inbound traffic; off when absent. */
    control: Type.Optional(
      Type.Object(
        { host: NonEmpty({ default: OPERATOR_DEFAULTS.host }), port: Type.Integer({ minimum: 0, maximum: 65_535 }) },
        { additionalProperties: false },
      ),
    ),
    link: Type.Object(
      {
        caFile: FilePath,
        certFile: FilePath,
        keyFile: FilePath,
        signingKeyFile: FilePath,
        bankKeyFiles: Type.Array(FilePath, { minItems: 1, maxItems: 8 }),
        bankCertificateSha256: Type.Array(Fingerprint, { maxItems: 16, default: [] }),
        bankUrls: Type.Array(Type.String({ pattern: '^https://.+' }), { minItems: 1, maxItems: 64 }),
        requestTimeoutMs: Type.Integer({ minimum: 100, maximum: 120_000, default: OPERATOR_DEFAULTS.requestTimeoutMs }),
        connectionsMax: Type.Integer({ minimum: 1, maximum: 1_000, default: OPERATOR_DEFAULTS.connectionsMax }),
        signatureMaxAgeS: Type.Integer({ minimum: 1, maximum: 3_600, default: OPERATOR_DEFAULTS.signatureMaxAgeS }),
      },
      { additionalProperties: false },
    ),
    schemes: Type.Optional(Type.Object(Object.fromEntries(SCHEMES.map((scheme) => [scheme, Type.Optional(SchemeSchema)])), { additionalProperties: false, minProperties: 1 })),
    delivery: Type.Object(
      {
        inFlightMax: Type.Integer({ minimum: 1, maximum: 10_000, default: OPERATOR_DEFAULTS.deliveryInFlightMax }),
        retryDelayMs: Type.Integer({ minimum: 1, maximum: 600_000, default: OPERATOR_DEFAULTS.deliveryRetryDelayMs }),
        retryDelayMaxMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: OPERATOR_DEFAULTS.deliveryRetryDelayMaxMs }),
        retryWindowMs: Type.Integer({ minimum: 1_000, maximum: 2_592_000_000, default: OPERATOR_DEFAULTS.deliveryRetryWindowMs }),
      },
      { additionalProperties: false, default: {} },
    ),
    logLevel: Type.Unsafe<'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'>({
      type: 'string',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      default: OPERATOR_DEFAULTS.logLevel,
    }),
  },
  { additionalProperties: false },
);

type OperatorFile = Static<typeof OperatorFileSchema> & { schemes?: Partial<Record<SchemeName, Static<typeof SchemeSchema>>> };

export interface OperatorSchemeConfig {
  readonly latencyMs: number;
  /** When a late answer comes: by default just past the scheme's default time budget. */
  readonly lateAnswerMs: number;
  readonly directoryPath?: string;
}

export interface OperatorConfig {
  readonly listen: { readonly host: string; readonly port: number };
  /** The control listener (plain HTTP: originate inbound traffic), when configured. */
  readonly control?: { readonly host: string; readonly port: number };
  /** The SQLite file of the operator's state. */
  readonly store: string;
  /** The operator's end of the link, its files read; `peerKeys` are the bank's public keys, `peerFingerprints` its pinned client certificates. */
  readonly link: LinkFiles & {
    /** Base URLs of the service instances' inbound listeners: a message goes to one, the next on failure. */
    readonly bankUrls: readonly string[];
    readonly requestTimeoutMs: number;
    readonly connectionsMax: number;
    readonly signatureMaxAgeS: number;
  };
  /** The schemes simulated. */
  readonly schemes: ReadonlyMap<SchemeName, OperatorSchemeConfig>;
  readonly delivery: { readonly inFlightMax: number; readonly retryDelayMs: number; readonly retryDelayMaxMs: number; readonly retryWindowMs: number };
  readonly logLevel: OperatorFile['logLevel'];
}

export class OperatorConfigError extends Error {
  override readonly name = 'OperatorConfigError';

  constructor(
    readonly source: string,
    readonly problems: readonly string[],
  ) {
    super(`Invalid operator simulator configuration (${source}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
  }
}

const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true, strict: true });
const validate = ajv.compile(OperatorFileSchema);

/** The path after `--config` (or `--config=`). */
export function configArgument(argv: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    if (arg === '--config') return argv[i + 1];
    if (arg.startsWith('--config=')) return arg.slice('--config='.length);
  }
  return undefined;
}

export function loadOperatorConfig(path: string): OperatorConfig {
  let raw: unknown;
  try {
    const text = readFileSync(path, 'utf8');
    raw = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
  } catch (error) {
    throw new OperatorConfigError(path, [`cannot read or parse the file: ${(error as Error).message.split('\n')[0] ?? ''}`]);
  }
  return operatorConfigFrom(raw, path);
}

/** Validate an already parsed file; same rules as loadOperatorConfig. */
export function operatorConfigFrom(raw: unknown, source = 'operator configuration'): OperatorConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new OperatorConfigError(source, ['(root): must be a mapping of keys']);
  if (!validate(raw)) throw new OperatorConfigError(source, [...new Set((validate.errors ?? []).map(problemOf))]);
  const file = raw as OperatorFile;
  const problems: string[] = [];
  const { link } = file;
  const files = readLinkFiles(
    { ...link, peerKeyFiles: link.bankKeyFiles, peerFingerprints: link.bankCertificateSha256 },
    'link',
    { peerKeysKey: 'bankKeyFiles', pinsKey: 'bankCertificateSha256' },
    problems,
  );
  const schemes = new Map<SchemeName, OperatorSchemeConfig>();
  // Without a `schemes` key, every scheme whose messages a connector sends is simulated with the defaults.
  const given: Partial<Record<SchemeName, Static<typeof SchemeSchema>>> =
    file.schemes ?? Object.fromEntries(SCHEMES.filter((scheme) => supports(scheme, 'creditTransfer')).map((scheme) => [scheme, { latencyMs: DEFAULTS.simulatorLatencyMs }]));
  for (const scheme of SCHEMES) {
    const settings = given[scheme];
    if (settings === undefined) continue;
    if (!supports(scheme, 'creditTransfer')) {
      problems.push(`schemes.${scheme}: carries no scheme messages to simulate`);
      continue;
    }
    if (settings.directory !== undefined) {
      const loaded = loadDirectory(settings.directory);
      if (!loaded.ok) problems.push(`schemes.${scheme}.directory: ${loaded.error}`);
    }
    schemes.set(scheme, {
      latencyMs: settings.latencyMs,
      lateAnswerMs: settings.lateAnswerMs ?? TIME_BUDGET_MS_DEFAULTS[scheme] + 1_000,
      ...(settings.directory === undefined ? {} : { directoryPath: settings.directory }),
    });
  }
  if (problems.length > 0 || files === undefined) throw new OperatorConfigError(source, problems);
  return {
    listen: { ...file.listen },
    ...(file.control === undefined ? {} : { control: { ...file.control } }),
    store: file.store,
    link: {
      ...files,
      bankUrls: link.bankUrls.map((url) => url.replace(/\/+$/, '')),
      requestTimeoutMs: link.requestTimeoutMs,
      connectionsMax: link.connectionsMax,
      signatureMaxAgeS: link.signatureMaxAgeS,
    },
    schemes,
    delivery: { ...file.delivery },
    logLevel: file.logLevel,
  };
}

function problemOf(error: ErrorObject): string {
  const path = error.instancePath === '' ? '(root)' : error.instancePath.slice(1).replaceAll('/', '.');
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'required') return `${path === '(root)' ? '' : `${path}.`}${String(params['missingProperty'])}: is required`;
  if (error.keyword === 'additionalProperties') return `${path === '(root)' ? '' : `${path}.`}${String(params['additionalProperty'])}: is not a known key`;
  return `${path}: ${error.message ?? 'is invalid'}`;
}
