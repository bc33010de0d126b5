import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { Type } from '@sinclair/typebox';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { readLinkFiles } from '../config/link-files.js';
import { DEFAULTS, TIME_BUDGET_MS_DEFAULTS } from '../config/schema.js';
import { loadDirectory } from '../connectors/simulator/directory.js';
import { SCHEMES, supports } from '../domain/schemes.js';
/**
 * The operator simulator's configuration (docs/operator-link.md): one YAML or JSON file, given with
 * `--config <path>`, validated in one pass at start so every bad key is named at once. Its files
 * (certificates, keys, directories) are read and checked here too.
 */
const NonEmpty = (options = {}) => Type.String({ minLength: 1, ...options });
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
};
const SchemeSchema = Type.Object({
    latencyMs: Type.Integer({ minimum: 0, maximum: 600_000, default: DEFAULTS.simulatorLatencyMs }),
    lateAnswerMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 604_800_000 })),
    directory: Type.Optional(FilePath),
}, { additionalProperties: false });
const OperatorFileSchema = Type.Object({
    listen: Type.Object({
        host: NonEmpty({ default: OPERATOR_DEFAULTS.host }),
        port: Type.Integer({ minimum: 0, maximum: 65_535, default: OPERATOR_DEFAULTS.port }),
    }, { additionalProperties: false, default: {} }),
    store: NonEmpty({ default: OPERATOR_DEFAULTS.store }),
    /** The control listener (control.ts): plain HTTP, for originating inbound traffic; off when absent. */
    control: Type.Optional(Type.Object({ host: NonEmpty({ default: OPERATOR_DEFAULTS.host }), port: Type.Integer({ minimum: 0, maximum: 65_535 }) }, { additionalProperties: false })),
    link: Type.Object({
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
    }, { additionalProperties: false }),
    schemes: Type.Optional(Type.Object(Object.fromEntries(SCHEMES.map((scheme) => [scheme, Type.Optional(SchemeSchema)])), { additionalProperties: false, minProperties: 1 })),
    delivery: Type.Object({
        inFlightMax: Type.Integer({ minimum: 1, maximum: 10_000, default: OPERATOR_DEFAULTS.deliveryInFlightMax }),
        retryDelayMs: Type.Integer({ minimum: 1, maximum: 600_000, default: OPERATOR_DEFAULTS.deliveryRetryDelayMs }),
        retryDelayMaxMs: Type.Integer({ minimum: 1, maximum: 3_600_000, default: OPERATOR_DEFAULTS.deliveryRetryDelayMaxMs }),
        retryWindowMs: Type.Integer({ minimum: 1_000, maximum: 2_592_000_000, default: OPERATOR_DEFAULTS.deliveryRetryWindowMs }),
    }, { additionalProperties: false, default: {} }),
    logLevel: Type.Unsafe({
        type: 'string',
        enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
        default: OPERATOR_DEFAULTS.logLevel,
    }),
}, { additionalProperties: false });
export class OperatorConfigError extends Error {
    source;
    problems;
    name = 'OperatorConfigError';
    constructor(source, problems) {
        super(`Invalid operator simulator configuration (${source}):\n${problems.map((problem) => `  - ${problem}`).join('\n')}`);
        this.source = source;
        this.problems = problems;
    }
}
const ajv = new Ajv({ allErrors: true, useDefaults: true, coerceTypes: true, strict: true });
const validate = ajv.compile(OperatorFileSchema);
/** The path after `--config` (or `--config=`). */
export function configArgument(argv) {
    for (let i = 0; i < argv.length; i += 1) {
        const arg = argv[i] ?? '';
        if (arg === '--config')
            return argv[i + 1];
        if (arg.startsWith('--config='))
            return arg.slice('--config='.length);
    }
    return undefined;
}
export function loadOperatorConfig(path) {
    let raw;
    try {
        const text = readFileSync(path, 'utf8');
        raw = extname(path).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { uniqueKeys: true, maxAliasCount: 100 });
    }
    catch (error) {
        throw new OperatorConfigError(path, [`cannot read or parse the file: ${error.message.split('\n')[0] ?? ''}`]);
    }
    return operatorConfigFrom(raw, path);
}
/** Validate an already parsed file; same rules as loadOperatorConfig. */
export function operatorConfigFrom(raw, source = 'operator configuration') {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
        throw new OperatorConfigError(source, ['(root): must be a mapping of keys']);
    if (!validate(raw))
        throw new OperatorConfigError(source, [...new Set((validate.errors ?? []).map(problemOf))]);
    const file = raw;
    const problems = [];
    const { link } = file;
    const files = readLinkFiles({ ...link, peerKeyFiles: link.bankKeyFiles, peerFingerprints: link.bankCertificateSha256 }, 'link', { peerKeysKey: 'bankKeyFiles', pinsKey: 'bankCertificateSha256' }, problems);
    const schemes = new Map();
    // Without a `schemes` key, every scheme whose messages a connector sends is simulated with the defaults.
    const given = file.schemes ?? Object.fromEntries(SCHEMES.filter((scheme) => supports(scheme, 'creditTransfer')).map((scheme) => [scheme, { latencyMs: DEFAULTS.simulatorLatencyMs }]));
    for (const scheme of SCHEMES) {
        const settings = given[scheme];
        if (settings === undefined)
            continue;
        if (!supports(scheme, 'creditTransfer')) {
            problems.push(`schemes.${scheme}: carries no scheme messages to simulate`);
            continue;
        }
        if (settings.directory !== undefined) {
            const loaded = loadDirectory(settings.directory);
            if (!loaded.ok)
                problems.push(`schemes.${scheme}.directory: ${loaded.error}`);
        }
        schemes.set(scheme, {
            latencyMs: settings.latencyMs,
            lateAnswerMs: settings.lateAnswerMs ?? TIME_BUDGET_MS_DEFAULTS[scheme] + 1_000,
            ...(settings.directory === undefined ? {} : { directoryPath: settings.directory }),
        });
    }
    if (problems.length > 0 || files === undefined)
        throw new OperatorConfigError(source, problems);
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
function problemOf(error) {
    const path = error.instancePath === '' ? '(root)' : error.instancePath.slice(1).replaceAll('/', '.');
    const params = error.params;
    if (error.keyword === 'required')
        return `${path === '(root)' ? '' : `${path}.`}${String(params['missingProperty'])}: is required`;
    if (error.keyword === 'additionalProperties')
        return `${path === '(root)' ? '' : `${path}.`}${String(params['additionalProperty'])}: is not a known key`;
    return `${path}: ${error.message ?? 'is invalid'}`;
}
//# sourceMappingURL=config.js.map