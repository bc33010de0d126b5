import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { normaliseIdentifier } from '../../domain/messages/identifier-determination.js';
import { formatAmount, parseAmount } from '../../lib/money.js';
import { KNOWN_AS_NAME_CHARS_MAX } from '../iso20022/acmt024.js';
/** Reason codes of queries nothing in the directory matches. */
const UNKNOWN_PROXY_REASON_CODE = 'PX03';
const INVALID_PROXY_REASON_CODE = 'PX04';
const UNKNOWN_ACCOUNT_REASON_CODE = 'AC01';
/** A normalised MOBILE value: anything else is no South African mobile number. */
const NORMALISED_MOBILE = /^\+27-[1-9]\d{8}$/;
/** An account number found at every bank (FAILED and NEVER entries). */
const EVERY_BANK = '*';
const BIC = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/;
export class Directory {
    entries;
    /** `<schema>|<normalised value>` -> the entries listing that proxy, each in its namespace or in none. */
    #proxies = new Map();
    /** `<bank BIC's first 8 characters or *>|<account number>` -> entry. */
    #accounts = new Map();
    /** Entries whose keys collide are refused by parseDirectory; built directly, the later entry wins. */
    constructor(entries) {
        this.entries = entries;
        for (const entry of entries) {
            for (const proxy of entry.proxies) {
                const key = `${proxy.schema}|${proxy.value}`;
                const listed = this.#proxies.get(key) ?? [];
                listed.push({ namespace: proxy.namespace, proxy, entry });
                this.#proxies.set(key, listed);
            }
            const account = accountKeyOf(entry);
            if (account !== undefined)
                this.#accounts.set(account, entry);
        }
    }
    lookup(query) {
        if (query.schema === 'GENERIC')
            return this.#account(query);
        if (query.schema !== 'MOBILE' && query.schema !== 'CUSTOM')
            return { kind: 'failed', reasonCode: INVALID_PROXY_REASON_CODE };
        const value = normalisedProxy(query.schema, query.value);
        if (value === undefined)
            return { kind: 'failed', reasonCode: INVALID_PROXY_REASON_CODE };
        const listed = this.#proxies.get(`${query.schema}|${value}`) ?? [];
        const found = listed.find((item) => item.namespace === query.namespace) ?? listed.find((item) => item.namespace === undefined);
        if (found === undefined)
            return { kind: 'failed', reasonCode: UNKNOWN_PROXY_REASON_CODE };
        return answerOf(found.entry, { value: found.proxy.value, schema: found.proxy.schema });
    }
    #account(query) {
        const number = accountNumberOf(query.value);
        const bank = query.accountAgentBicfi === undefined ? undefined : bankOf(query.accountAgentBicfi);
        const entry = (bank === undefined ? undefined : this.#accounts.get(`${bank}|${number}`)) ?? this.#accounts.get(`${EVERY_BANK}|${number}`);
        return entry === undefined ? { kind: 'failed', reasonCode: UNKNOWN_ACCOUNT_REASON_CODE } : answerOf(entry, undefined);
    }
}
function answerOf(entry, proxy) {
    switch (entry.answer) {
        case 'SUCCESSFUL':
            return { kind: 'resolved', account: proxy === undefined ? entry.account : { ...entry.account, proxy } };
        case 'LATE':
            return { kind: 'late', account: proxy === undefined ? entry.account : { ...entry.account, proxy } };
        case 'FAILED':
            return { kind: 'failed', reasonCode: entry.reasonCode };
        case 'NEVER':
            return { kind: 'silent' };
    }
}
/** A proxy value as the service normalises it; undefined for a MOBILE value that is no South African mobile number. */
function normalisedProxy(schema, value) {
    const normalised = normaliseIdentifier({ schema, value }).value;
    return schema === 'MOBILE' && !NORMALISED_MOBILE.test(normalised) ? undefined : normalised;
}
function accountNumberOf(value) {
    return normaliseIdentifier({ schema: 'GENERIC', value }).value;
}
function accountKeyOf(entry) {
    if (entry.answer === 'FAILED' || entry.answer === 'NEVER')
        return entry.accountNumber === undefined ? undefined : `${EVERY_BANK}|${accountNumberOf(entry.accountNumber)}`;
    return `${bankOf(entry.account.accountAgentBicfi)}|${accountNumberOf(entry.account.traditionalIdentifier)}`;
}
/** The bank of a BIC: its first eight characters (a branch code does not make another bank). */
function bankOf(bicfi) {
    return bicfi.trim().toUpperCase().slice(0, 8);
}
/** The directory shipped with the service (src/connectors/simulator/directory.json), found from the compiled module in dist/. */
export function defaultDirectoryPath() {
    return fileURLToPath(new URL('../../../../src/connectors/simulator/directory.json', import.meta.url));
}
/** Reads and checks a directory file: JSON, or YAML when its name ends in .yaml or .yml. */
export function loadDirectory(path) {
    let text;
    try {
        text = readFileSync(path, 'utf8');
    }
    catch (error) {
        return { ok: false, error: `simulator directory ${path} cannot be read: ${error instanceof Error ? error.message : String(error)}` };
    }
    const extension = extname(path).toLowerCase();
    return parseDirectory(text, path, extension === '.yaml' || extension === '.yml' ? 'yaml' : 'json');
}
/** Checks a directory's text; the error names the source, and each bad entry by its index and name, one line each. */
export function parseDirectory(text, source, format) {
    let raw;
    try {
        raw = format === 'yaml' ? parseYaml(text) : JSON.parse(text);
    }
    catch (error) {
        return { ok: false, error: `simulator directory ${source} is not valid ${format.toUpperCase()}: ${error instanceof Error ? error.message : String(error)}` };
    }
    const problems = [];
    const entries = entriesOf(raw, problems);
    checkUnique(entries, problems);
    if (problems.length > 0)
        return { ok: false, error: `simulator directory ${source} is invalid:\n${problems.map((problem) => `  - ${problem}`).join('\n')}` };
    return { ok: true, directory: new Directory(entries) };
}
function isRecord(value) {
    return typeof value === 'object' && value !== null && !Array.isArray(value);
}
function entriesOf(raw, problems) {
    if (!isRecord(raw)) {
        problems.push('the file must hold an object with an "entries" list');
        return [];
    }
    unknownKeys(raw, ['description', 'entries'], 'the file', problems);
    if (!Array.isArray(raw.entries) || raw.entries.length === 0) {
        problems.push('"entries" must be a non-empty list');
        return [];
    }
    const entries = [];
    raw.entries.forEach((item, index) => {
        const entry = entryOf(item, `entries[${index}]${isRecord(item) && typeof item.name === 'string' ? ` (${item.name})` : ''}`, problems);
        if (entry !== undefined)
            entries.push(entry);
    });
    return entries;
}
const ENTRY_KEYS = {
    SUCCESSFUL: ['name', 'description', 'answer', 'proxies', 'account'],
    LATE: ['name', 'description', 'answer', 'proxies', 'account'],
    FAILED: ['name', 'description', 'answer', 'proxies', 'reasonCode', 'accountNumber'],
    NEVER: ['name', 'description', 'answer', 'proxies', 'accountNumber'],
};
function entryOf(item, where, problems) {
    if (!isRecord(item)) {
        problems.push(`${where}: must be an object`);
        return undefined;
    }
    const count = problems.length;
    const name = text(item, 'name', where, problems, { required: true, max: 70 });
    const answer = item.answer;
    if (answer !== 'SUCCESSFUL' && answer !== 'LATE' && answer !== 'FAILED' && answer !== 'NEVER') {
        problems.push(`${where}: answer must be SUCCESSFUL, LATE, FAILED or NEVER, got ${JSON.stringify(answer)}`);
        return undefined;
    }
    unknownKeys(item, ENTRY_KEYS[answer], where, problems);
    text(item, 'description', where, problems, { max: 500 });
    const proxies = proxiesOf(item.proxies, where, problems);
    const base = { name: name ?? '', proxies };
    let entry;
    if (answer === 'SUCCESSFUL' || answer === 'LATE') {
        const account = accountOf(item.account, `${where}: account`, problems);
        entry = account === undefined ? undefined : { ...base, answer, account };
    }
    else {
        const accountNumber = text(item, 'accountNumber', where, problems, { max: 34 });
        if (proxies.length === 0 && accountNumber === undefined)
            problems.push(`${where}: lists neither proxies nor an accountNumber, so nothing finds it`);
        const number = accountNumber === undefined ? {} : { accountNumber };
        if (answer === 'NEVER') {
            entry = { ...base, answer, ...number };
        }
        else {
            const reasonCode = text(item, 'reasonCode', where, problems, { required: true, pattern: /^[A-Z0-9]{4}$/, patternName: 'a four-character reason code such as AC04' });
            entry = reasonCode === undefined ? undefined : { ...base, answer, reasonCode, ...number };
        }
    }
    return problems.length === count ? entry : undefined;
}
function proxiesOf(raw, where, problems) {
    if (raw === undefined)
        return [];
    if (!Array.isArray(raw)) {
        problems.push(`${where}: proxies must be a list`);
        return [];
    }
    const proxies = [];
    raw.forEach((item, index) => {
        const at = `${where}: proxies[${index}]`;
        if (!isRecord(item)) {
            problems.push(`${at}: must be an object`);
            return;
        }
        unknownKeys(item, ['schema', 'namespace', 'value'], at, problems);
        const schema = item.schema;
        if (schema !== 'MOBILE' && schema !== 'CUSTOM') {
            problems.push(`${at}: schema must be MOBILE or CUSTOM, got ${JSON.stringify(schema)}`);
            return;
        }
        const namespace = text(item, 'namespace', at, problems, { max: 35 });
        const value = text(item, 'value', at, problems, { required: true, max: 2048 });
        if (value === undefined)
            return;
        const normalised = normalisedProxy(schema, value);
        if (normalised === undefined) {
            problems.push(`${at}: value ${JSON.stringify(value)} is not a South African mobile number (e.g. 0831234567 or +27-831234567)`);
            return;
        }
        proxies.push({ schema, ...(namespace === undefined ? {} : { namespace }), value: normalised });
    });
    return proxies;
}
function accountOf(raw, where, problems) {
    if (!isRecord(raw)) {
        problems.push(`${where}: must be an object (a SUCCESSFUL or LATE entry resolves to an account)`);
        return undefined;
    }
    unknownKeys(raw, ['traditionalIdentifier', 'accountAgentBicfi', 'knownAsName', 'legalName', 'creationDate', 'transactionLimit'], where, problems);
    const traditionalIdentifier = text(raw, 'traditionalIdentifier', where, problems, { required: true, max: 34 });
    const accountAgentBicfi = text(raw, 'accountAgentBicfi', where, problems, { required: true, pattern: BIC, patternName: 'a BIC' });
    const knownAsName = text(raw, 'knownAsName', where, problems, { max: KNOWN_AS_NAME_CHARS_MAX });
    const legalName = text(raw, 'legalName', where, problems, { max: 140 });
    const creationDate = text(raw, 'creationDate', where, problems, { pattern: /^\d{4}-\d{2}-\d{2}$/, patternName: 'a date YYYY-MM-DD' });
    if (creationDate !== undefined && !isCalendarDate(creationDate))
        problems.push(`${where}: creationDate ${creationDate} is not a calendar date`);
    const transactionLimit = limitOf(raw.transactionLimit, `${where}: transactionLimit`, problems);
    if (traditionalIdentifier === undefined || accountAgentBicfi === undefined)
        return undefined;
    return {
        traditionalIdentifier,
        accountAgentBicfi,
        ...(knownAsName === undefined ? {} : { knownAsName }),
        ...(legalName === undefined ? {} : { legalName }),
        ...(creationDate === undefined ? {} : { creationDate }),
        ...(transactionLimit === undefined ? {} : { transactionLimit }),
    };
}
/** A money amount as decimal text (never a JSON or YAML number, which would pass through a float), written back with the currency's decimals. */
function limitOf(raw, where, problems) {
    if (raw === undefined)
        return undefined;
    if (!isRecord(raw) || typeof raw.value !== 'string' || typeof raw.currency !== 'string') {
        problems.push(`${where}: must be {"value": "<decimal text>", "currency": "<ISO 4217 code>"}, the amount quoted`);
        return undefined;
    }
    unknownKeys(raw, ['value', 'currency'], where, problems);
    if (!/^\d+(\.\d+)?$/.test(raw.value)) {
        problems.push(`${where}: value ${JSON.stringify(raw.value)} is not a plain decimal amount`);
        return undefined;
    }
    const parsed = parseAmount(raw.value, raw.currency);
    if (!parsed.ok) {
        problems.push(`${where}: ${raw.value} ${raw.currency}: ${parsed.reason}`);
        return undefined;
    }
    return { value: formatAmount(parsed.money), currency: raw.currency };
}
function isCalendarDate(date) {
    const parsed = new Date(`${date}T00:00:00Z`);
    return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}
/** A non-empty string property within its rules; undefined (with the problem recorded) otherwise. */
function text(raw, key, where, problems, rule) {
    const value = raw[key];
    if (value === undefined) {
        if (rule.required === true)
            problems.push(`${where}: ${key} is required`);
        return undefined;
    }
    if (typeof value !== 'string' || value.trim() === '') {
        problems.push(`${where}: ${key} must be a non-empty string`);
        return undefined;
    }
    const trimmed = value.trim();
    if (rule.max !== undefined && [...trimmed].length > rule.max) {
        problems.push(`${where}: ${key} is longer than ${rule.max} characters`);
        return undefined;
    }
    if (rule.pattern !== undefined && !rule.pattern.test(trimmed)) {
        problems.push(`${where}: ${key} ${JSON.stringify(trimmed)} is not ${rule.patternName ?? 'valid'}`);
        return undefined;
    }
    return trimmed;
}
function unknownKeys(raw, known, where, problems) {
    for (const key of Object.keys(raw))
        if (!known.includes(key))
            problems.push(`${where}: unknown key ${JSON.stringify(key)} (known: ${known.join(', ')})`);
}
/** Names, proxies (in one namespace) and accounts must each find one entry only. */
function checkUnique(entries, problems) {
    const owners = new Map();
    const claim = (key, what, entry) => {
        const owner = owners.get(key);
        if (owner === undefined)
            owners.set(key, entry.name);
        else
            problems.push(`entries ${owner} and ${entry.name}: both list ${what}`);
    };
    for (const entry of entries) {
        claim(`name|${entry.name}`, `the name ${entry.name}`, entry);
        for (const proxy of entry.proxies) {
            const namespace = proxy.namespace === undefined ? 'without namespace' : `in namespace ${proxy.namespace}`;
            claim(`proxy|${proxy.schema}|${proxy.value}|${proxy.namespace ?? ''}`, `${proxy.schema} ${proxy.value} ${namespace}`, entry);
        }
        const account = accountKeyOf(entry);
        if (account !== undefined)
            claim(`account|${account}`, `account ${account.replace('|', ' ')}`, entry);
    }
}
//# sourceMappingURL=directory.js.map