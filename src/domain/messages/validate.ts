import type { Static, TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { assert } from '../../lib/assert.js';
import { isCountryCode } from '../../lib/iso3166.js';
import { numberText } from '../../lib/json.js';
import { escapePointerToken } from '../../lib/json-pointer.js';
import { currencyProblem, parseAmount, type Money } from '../../lib/money.js';
import { counted } from '../../lib/text.js';
import type { FieldError } from '../errors.js';
import type { SchemeName } from '../schemes.js';
import {
  CbprPlusSchemeDataSchema,
  CreditTransferSchema,
  REMITTANCE_PIECE_CHARS,
  REMITTANCE_PIECES_MAX,
  type CreditTransfer,
} from './credit-transfer.js';
import { hasDateShape, hasDateTimeShape, isDate, isDateTime, isUuid, isUuidV4 } from './formats.js';
import { reportUnknownContent } from './unknown-content.js';

/**
 * Message validation: one mechanism for every message. makeValidator() compiles a TypeBox schema
 * with Ajv once, then each call runs the schema, the message's hand-written rules, the bound on
 * unknown content (unknown-content.ts) and the character rule (over every text of the body) and
 * merges everything into one list of FieldError, one entry per JSON pointer, so an integrator
 * sees the faults of a message in one answer (CONTRACT §5). Validation never mutates the body: no
 * coercion, no defaults, no removal of unknown properties.
 *
 * Its cost follows the bounded message, not the body: every list of a schema has a maxItems, and
 * a list over it is one fault whose items are not judged; the answer lists at most
 * FIELD_ERRORS_MAX fields, each pointer at most FIELD_CHARS_MAX characters, and counts the rest.
 */

/** An answer lists at most this many faulty fields; faults on further fields are only counted (`unlisted`). */
export const FIELD_ERRORS_MAX = 100;

/** A fault whose pointer is longer (a long member name the body made up) is reported at its nearest ancestor that fits. */
export const FIELD_CHARS_MAX = 256;

export type Validation<T> =
  | { readonly ok: true; readonly value: T }
  /** `unlisted`: faults found on fields beyond the FIELD_ERRORS_MAX listed ones (a field with several faults counts each). */
  | { readonly ok: false; readonly errors: FieldError[]; readonly unlisted: number };

/** Reports a fault: `field` is a JSON pointer into the body, `message` says what is wrong with it. */
export type Report = (field: string, message: string) => void;

/** A rule JSON Schema cannot say. It runs on every body, valid or not, so it must check shapes before it reads. */
export type Rule = (body: unknown, report: Report) => void;

const CURRENCY = /^[A-Z]{3}$/;
const COUNTRY = /^[A-Z]{2}$/;

const ajv = new Ajv({
  allErrors: true,
  // TypeBox emits plain draft-07 keywords; strict mode catches a typo in a schema at compile time.
  strict: true,
  // Scalar fields of the liberal sub-structures are `type: ["string", "number"]`: one error, no anyOf noise.
  allowUnionTypes: true,
  // Errors carry their schema and data, which the messages below quote.
  verbose: true,
  // Only the body's own properties count, never something inherited.
  ownProperties: true,
  // A part shared by reference is compiled once, as a function of its own (withSharedParts), never inlined again at each use.
  inlineRefs: false,
});

// Our own formats rather than ajv-formats: its date-time also takes "+0200" offsets and its uuid a "urn:uuid:" prefix.
ajv.addFormat('date-time', { type: 'string', validate: isDateTime });
ajv.addFormat('date', { type: 'string', validate: isDate });
ajv.addFormat('uuid', { type: 'string', validate: isUuid });
ajv.addFormat('double', { type: 'number', validate: (value: number) => Number.isFinite(value) });
ajv.addKeyword({ keyword: 'x-message', schemaType: 'string' });
ajv.addKeyword({
  keyword: 'x-country',
  type: 'string',
  schemaType: 'boolean',
  errors: false,
  // A string that is not two capitals already fails the pattern; only a well-formed unknown code is this keyword's fault.
  validate: (_enabled: boolean, code: string) => !COUNTRY.test(code) || isCountryCode(code),
});
ajv.addKeyword({
  keyword: 'x-amount',
  type: 'object',
  schemaType: 'boolean',
  errors: true,
  validate: checkAmountKeyword,
});

/** Ajv keyword function of `x-amount`: faults go on the Amount's own fields, so it sets its errors' pointers itself. */
function checkAmountKeyword(_enabled: boolean, amount: Record<string, unknown>, _parentSchema: unknown, context?: { instancePath: string }): boolean {
  const problem = amountProblem(amount);
  checkAmountKeyword.errors = undefined;
  if (problem === undefined) return true;
  // A fresh array each time: Ajv concatenates it into the validation's error list.
  checkAmountKeyword.errors = [
    { keyword: 'x-amount', instancePath: `${context?.instancePath ?? ''}/${problem.field}`, message: problem.message, params: {} },
  ];
  return false;
}
checkAmountKeyword.errors = undefined as Array<Partial<ErrorObject>> | undefined;

/**
 * The ISO 4217 rules of an Amount: an active currency with a minor unit, and a value with at most
 * the currency's decimals, judged from the number's literal text when the body came from
 * parseJson (10.000 is three decimals even though it equals 10), else from the number itself.
 * Faults of shape (pattern, type, sign) are left to the schema so each fault is told once.
 */
function amountProblem(amount: Record<string, unknown>): { field: 'currency' | 'value'; message: string } | undefined {
  const { currency, value } = amount;
  if (typeof currency !== 'string' || !CURRENCY.test(currency)) return undefined;
  const problem = currencyProblem(currency);
  if (problem !== undefined) return { field: 'currency', message: problem };
  if (typeof value !== 'number' || !(value >= 0)) return undefined;
  const parsed = parseAmount(numberText(amount, 'value') ?? String(value), currency);
  return parsed.ok ? undefined : { field: 'value', message: parsed.reason };
}

/** The Money of an Amount that passed validation. */
export function moneyOf(amount: { readonly currency: string; readonly value: number }): Money {
  const parsed = parseAmount(numberText(amount, 'value') ?? String(amount.value), amount.currency);
  assert(parsed.ok, `amount ${amount.value} ${amount.currency} passed validation but does not parse`);
  return parsed.money;
}

const compiled = new WeakMap<TSchema, ValidateFunction>();

function compile(schema: TSchema): ValidateFunction {
  let check = compiled.get(schema);
  if (check === undefined) {
    check = ajv.compile(withSharedParts(itemsJudgedWithinBounds(schema) as Record<string, unknown>));
    compiled.set(schema, check);
  }
  return check;
}

function isObjectSchema(node: unknown): node is Record<string, unknown> {
  return isRecord(node) && node.type === 'object' && isRecord(node.properties) && node.$id === undefined;
}

/**
 * The schema with every object schema it holds more than once (an institution, a postal address,
 * a party) moved to `definitions` and named by `$ref`, so Ajv compiles each once: a credit
 * transfer names fifteen institutions, each with two postal addresses, and inlined they made a
 * validator of 700 kB of code that took a second to compile in every process that validates.
 */
function withSharedParts(root: Record<string, unknown>): Record<string, unknown> {
  const uses = new Map<string, number>();
  const count = (node: unknown, isRoot: boolean): void => {
    if (Array.isArray(node)) for (const item of node) count(item, false);
    if (!isRecord(node)) return;
    if (!isRoot && isObjectSchema(node)) {
      const key = JSON.stringify(node);
      uses.set(key, (uses.get(key) ?? 0) + 1);
    }
    for (const value of Object.values(node)) count(value, false);
  };
  count(root, true);
  const definitions: Record<string, unknown> = {};
  const names = new Map<string, string>();
  const share = (node: unknown, isRoot: boolean): unknown => {
    if (Array.isArray(node)) return node.map((item) => share(item, false));
    if (!isRecord(node)) return node;
    const copy = (): Record<string, unknown> => Object.fromEntries(Object.entries(node).map(([key, value]) => [key, share(value, false)]));
    if (isRoot || !isObjectSchema(node)) return copy();
    const key = JSON.stringify(node);
    if ((uses.get(key) ?? 0) < 2) return copy();
    let name = names.get(key);
    if (name === undefined) {
      name = `shared${names.size}`;
      names.set(key, name);
      definitions[name] = copy();
    }
    return { $ref: `#/definitions/${name}` };
  };
  const shared = share(root, true) as Record<string, unknown>;
  return names.size === 0 ? shared : { ...shared, definitions };
}

function typesOf(schema: Record<string, unknown>): readonly unknown[] {
  const { type } = schema;
  return Array.isArray(type) ? type : [type];
}

/**
 * The schema as Ajv runs it: a list's `items` move under `if: {maxItems}` / `then`, so the items
 * of a list within its bound are judged one by one, and a list over it is one maxItems fault (Ajv
 * with allErrors would judge, and report, every item of it). The schema itself, which feeds the
 * OpenAPI document, is left as written.
 */
function itemsJudgedWithinBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(itemsJudgedWithinBounds);
  if (!isRecord(node)) return node;
  const copy = Object.fromEntries(Object.entries(node).map(([key, value]) => [key, itemsJudgedWithinBounds(value)]));
  if (!typesOf(copy).includes('array') || copy.items === undefined) return copy;
  assert(typeof copy.maxItems === 'number', 'every list of a message schema has a maxItems');
  const { items, ...rest } = copy;
  return { ...rest, if: { maxItems: copy.maxItems }, then: { items } };
}

/** A validator for one message: the schema (compiled once), its rules and the character rule, all faults merged into one list. */
export function makeValidator<T extends TSchema>(schema: T, rules: readonly Rule[] = []): (body: unknown) => Validation<Static<T>> {
  const check = compile(schema);
  return (body) => {
    const faults = new Faults();
    reportSchemaFaults(check, body, '', faults.report);
    for (const rule of rules) rule(body, faults.report);
    reportUnknownContent(schema, body, faults.report);
    reportUncarriedCharacters(body, '', faults.report);
    return faults.empty ? { ok: true, value: body as Static<T> } : { ok: false, errors: faults.list(), unlisted: faults.unlisted };
  };
}

/** Judges a part of a body by its own schema (compiled once), reporting the faults under `pointer`. */
export function checkPart(schema: TSchema, value: unknown, pointer: string, report: Report): void {
  reportSchemaFaults(compile(schema), value, pointer, report);
}

function reportSchemaFaults(check: ValidateFunction, value: unknown, pointer: string, report: Report): void {
  if (check(value)) return;
  for (const error of check.errors ?? []) {
    // The `if` that keeps a list's items from being judged over its bound says only that `then` failed, whose faults are reported themselves.
    if (error.keyword === 'if') continue;
    const field = pointer + fieldOf(error);
    // The empty pointer is the whole body; say so, since "" alone reads as nothing.
    report(field, field === '' ? `the message ${messageOf(error)}` : messageOf(error));
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Faults gathered so far, one entry per pointer for the first FIELD_ERRORS_MAX fields (several
 * faults of one field are joined); faults on further fields are counted, not kept, so a body with
 * a million faults costs a counter, never a million entries.
 */
class Faults {
  readonly #byField = new Map<string, string[]>();
  #unlisted = 0;

  readonly report: Report = (field, message) => this.add(field, message);

  add(field: string, message: string): void {
    const [listed, text] = field.length <= FIELD_CHARS_MAX ? [field, message] : [ancestorWithin(field), `holds a faulty member whose pointer is longer than ${FIELD_CHARS_MAX} characters`];
    const messages = this.#byField.get(listed);
    if (messages !== undefined) {
      if (!messages.includes(text)) messages.push(text);
    } else if (this.#byField.size < FIELD_ERRORS_MAX) {
      this.#byField.set(listed, [text]);
    } else {
      this.#unlisted += 1;
    }
  }

  get empty(): boolean {
    return this.#byField.size === 0;
  }

  get unlisted(): number {
    return this.#unlisted;
  }

  list(): FieldError[] {
    return [...this.#byField].map(([field, messages]) => ({ field, message: messages.join('; ') }));
  }
}

/** The pointer of the nearest ancestor of `field` whose pointer has at most FIELD_CHARS_MAX characters ("" at worst, the whole body). */
function ancestorWithin(field: string): string {
  return field.slice(0, Math.max(0, field.lastIndexOf('/', FIELD_CHARS_MAX)));
}

function param(error: ErrorObject, name: string): unknown {
  const params: Record<string, unknown> = error.params;
  return params[name];
}

function fieldOf(error: ErrorObject): string {
  if (error.keyword === 'required') return `${error.instancePath}/${escapePointerToken(String(param(error, 'missingProperty')))}`;
  return error.instancePath;
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

function messageOf(error: ErrorObject): string {
  const limit = Number(param(error, 'limit'));
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      const types = param(error, 'type');
      const list = (Array.isArray(types) ? types : String(types).split(',')).map((type) => TYPE_WORDS[String(type)] ?? String(type));
      return `must be ${list.join(' or ')}`;
    }
    case 'minLength':
      return limit === 1 ? 'must not be empty' : `must be at least ${counted(limit, 'character')} long`;
    case 'maxLength':
      return `must be at most ${counted(limit, 'character')} long`;
    case 'minItems':
      return `must have at least ${counted(limit, 'item')}`;
    case 'maxItems':
      return `must have at most ${counted(limit, 'item')}`;
    case 'minimum':
      return limit === 0 ? 'must not be negative' : `must be at least ${limit}`;
    case 'enum': {
      const allowed = param(error, 'allowedValues');
      return `must be one of ${Array.isArray(allowed) ? allowed.map(String).join(', ') : String(allowed)}`;
    }
    case 'const':
      return `must be ${String(param(error, 'allowedValue'))}`;
    case 'pattern':
      return vendorMessage(error) ?? `must match the pattern ${String(param(error, 'pattern'))}`;
    case 'format':
      return formatMessage(error);
    case 'x-country':
      return `${String(error.data)} is not an ISO 3166-1 alpha-2 country code`;
    default:
      return error.message ?? 'is invalid';
  }
}

function vendorMessage(error: ErrorObject): string | undefined {
  const parent: unknown = error.parentSchema;
  if (!isRecord(parent)) return undefined;
  const message = parent['x-message'];
  return typeof message === 'string' ? message : undefined;
}

/** A well-shaped date that does not exist (30 February, 24:00) gets its own message: the integrator's fix differs. */
function formatMessage(error: ErrorObject): string {
  const format = param(error, 'format');
  const data = typeof error.data === 'string' ? error.data : '';
  if (format === 'date-time' && hasDateTimeShape(data)) return 'is not a real date and time (check the day of the month, hour, minute, second and offset)';
  if (format === 'date' && hasDateShape(data)) return 'is not a real calendar date';
  return vendorMessage(error) ?? `must be a valid ${String(format)}`;
}

// ---------------------------------------------------------------------------------------------
// Characters

const TAB = 0x09;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const LINE_BREAK_NAMES: Readonly<Record<number, string>> = { [TAB]: 'a tab', [LINE_FEED]: 'a line feed', [CARRIAGE_RETURN]: 'a carriage return' };

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * Index of the first character no text of a message may hold, anywhere in the body
 * (docs/validation.md, "Characters"), else -1: C0 controls other than TAB, LF and CR, DEL and the
 * C1 controls (XML 1.0 cannot carry the C0 ones; no scheme's character set holds any of them),
 * U+FFFE and U+FFFF (not characters in XML 1.0), and a half of a surrogate pair without its other
 * half (no character at all; JSON lets `\uD800` through).
 */
function firstUncarried(text: string): number {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code < SPACE ? LINE_BREAK_NAMES[code] === undefined : code >= 0x7f && code <= 0x9f) return index;
    if (code === 0xfffe || code === 0xffff || isLowSurrogate(code)) return index;
    if (isHighSurrogate(code)) {
      if (!isLowSurrogate(text.charCodeAt(index + 1))) return index;
      index += 1;
    }
  }
  return -1;
}

function isSurrounding(code: number): boolean {
  return code === SPACE || LINE_BREAK_NAMES[code] !== undefined;
}

/** Index of the first TAB, LF or CR between the first and the last character that is not whitespace, else -1. */
function innerLineBreak(text: string): number {
  let start = 0;
  let end = text.length;
  while (start < end && isSurrounding(text.charCodeAt(start))) start += 1;
  while (end > start && isSurrounding(text.charCodeAt(end - 1))) end -= 1;
  for (let index = start; index < end; index += 1) {
    if (LINE_BREAK_NAMES[text.charCodeAt(index)] !== undefined) return index;
  }
  return -1;
}

/** Why `text` cannot travel in a scheme message, naming the first character at fault and its position (in characters), or undefined. */
export function characterProblem(text: string): string | undefined {
  const uncarried = firstUncarried(text);
  const index = uncarried >= 0 ? uncarried : innerLineBreak(text);
  if (index < 0) return undefined;
  const code = text.charCodeAt(index);
  const name = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const position = [...text.slice(0, index)].length + 1;
  if (uncarried < 0) {
    return `must not contain ${name}, ${LINE_BREAK_NAMES[code]}, inside the text (character ${position}): tab, line feed and carriage return are taken only around a text`;
  }
  const what = isHighSurrogate(code) || isLowSurrogate(code) ? 'half of a surrogate pair without its other half' : code >= 0xfffe ? 'not a character' : 'a control character';
  return `must not contain ${name}, ${what} (character ${position}): a scheme message cannot carry it`;
}

/** The character rule over every text of a body, at any depth, the parts the schema does not describe included. */
function reportUncarriedCharacters(value: unknown, pointer: string, report: Report): void {
  if (typeof value === 'string') {
    const problem = characterProblem(value);
    if (problem !== undefined) report(pointer, problem);
  } else if (Array.isArray(value)) {
    // Only texts and containers can hold a text: a list of a million numbers costs no pointer.
    value.forEach((item: unknown, index) => {
      if (typeof item === 'string' || (item !== null && typeof item === 'object')) reportUncarriedCharacters(item, `${pointer}/${index}`, report);
    });
  } else if (isRecord(value)) {
    for (const key of Object.keys(value)) reportUncarriedCharacters(value[key], `${pointer}/${escapePointerToken(key)}`, report);
  }
}

// ---------------------------------------------------------------------------------------------
// CreditTransfer

/** The validated credit transfer with the values the use case needs, already parsed. */
export interface ValidCreditTransfer {
  /** The message as received (unknown fields included). */
  readonly message: CreditTransfer;
  readonly settlementAmount: Money;
  readonly instructedAmount?: Money;
  readonly scheme: SchemeName;
  /** transactionIdentifiers.uetr, lowercased: UUIDs compare case-insensitively (RFC 9562). */
  readonly uetr: string;
  readonly messageId: string;
}

/** "At least one of identification or proxy is expected" for the creditor account; each must carry its value to identify anything. */
const creditorAccountIdentified: Rule = (body, report) => {
  if (!isRecord(body) || !isRecord(body.creditorAccount)) return;
  const { identification, proxy } = body.creditorAccount;
  const carriesValue = (part: unknown) => isRecord(part) && typeof part.value === 'string';
  if (carriesValue(identification) || carriesValue(proxy)) return;
  report('/creditorAccount', 'must carry identification (with its value) or proxy (with its value), or both');
};

/** CBPR_PLUS needs schemeData with chargeBearer (and optionally charges and exchangeRate). */
const cbprPlusSchemeData: Rule = (body, report) => {
  if (!isRecord(body) || !isRecord(body.paymentScheme) || body.paymentScheme.schema !== 'CBPR_PLUS') return;
  const { schemeData } = body.paymentScheme;
  if (schemeData === undefined) {
    report('/paymentScheme/schemeData', 'is required for CBPR_PLUS (with chargeBearer DEBT, CRED, SHAR or SLEV)');
    return;
  }
  // A schemeData that is not an object is already reported by the schema.
  if (isRecord(schemeData)) checkPart(CbprPlusSchemeDataSchema, schemeData, '/paymentScheme/schemeData', report);
};

/**
 * The unstructured remittance lines fit in REMITTANCE_PIECES_MAX Ustrd of the scheme message: a
 * line takes one per REMITTANCE_PIECE_CHARS characters begun. Shared by every message carrying
 * remittanceInformation.
 */
export const remittanceFits: Rule = (body, report) => {
  if (!isRecord(body) || !isRecord(body.remittanceInformation)) return;
  const lines = body.remittanceInformation.unstructured;
  // More lines than pieces, and lines that are not text, are the schema's to report.
  if (!Array.isArray(lines) || lines.length > REMITTANCE_PIECES_MAX) return;
  let pieces = 0;
  for (const line of lines) {
    const characters = typeof line === 'string' ? [...line].length : 0;
    // A line longer than all the pieces is the schema's to report (maxLength), once.
    if (characters <= REMITTANCE_PIECES_MAX * REMITTANCE_PIECE_CHARS) pieces += Math.ceil(characters / REMITTANCE_PIECE_CHARS);
  }
  if (pieces <= REMITTANCE_PIECES_MAX) return;
  report(
    '/remittanceInformation/unstructured',
    `must fit in ${REMITTANCE_PIECES_MAX} pieces of ${REMITTANCE_PIECE_CHARS} characters, as the scheme message carries remittance lines; these lines take ${pieces}`,
  );
};

const checkCreditTransfer = makeValidator(CreditTransferSchema, [creditorAccountIdentified, cbprPlusSchemeData, remittanceFits]);

/** Validates a CreditTransfer body (as produced by parseJson) against every rule of the interface. */
export function validateCreditTransfer(body: unknown): Validation<ValidCreditTransfer> {
  const result = checkCreditTransfer(body);
  if (!result.ok) return result;
  const message = result.value;
  const { bankSettlementAmount, instructedAmount } = message.amounts;
  const valid: ValidCreditTransfer = {
    message,
    settlementAmount: moneyOf(bankSettlementAmount),
    ...(instructedAmount === undefined ? {} : { instructedAmount: moneyOf(instructedAmount) }),
    scheme: message.paymentScheme.schema,
    uetr: message.transactionIdentifiers.uetr.toLowerCase(),
    messageId: message.messageIdentifiers.messageIdentification,
  };
  return { ok: true, value: valid };
}

/**
 * The validator of a message an integrator starts a transaction with: `validate`, and the uetr at
 * `pointer` a version-4 UUID. ISO 20022 (UUIDv4Identifier) and SWIFT define the UETR so, and every
 * scheme message carries it; the same messages the scheme originates are validated without this
 * rule (an RTC credit may carry no UETR and get a derived one). A uetr that is no UUID at all is
 * already the schema's fault, told once.
 */
export function withUetrV4<T>(validate: (body: unknown) => Validation<T>, pointer: string): (body: unknown) => Validation<T> {
  const path = pointer.split('/').slice(1);
  return (body) => {
    const result = validate(body);
    let uetr: unknown = body;
    for (const token of path) uetr = isRecord(uetr) ? uetr[token] : undefined;
    if (typeof uetr !== 'string' || !isUuid(uetr) || isUuidV4(uetr)) return result;
    const fault = { field: pointer, message: 'must be a version-4 UUID (ISO 20022 UUIDv4Identifier, as SWIFT defines the UETR), e.g. 7c1f3a52-5b9e-4d7a-9f0e-2b8c6d4e1a90' };
    if (result.ok) return { ok: false, errors: [fault], unlisted: 0 };
    if (result.errors.some((error) => error.field === pointer)) return result;
    return result.errors.length < FIELD_ERRORS_MAX ? { ...result, errors: [...result.errors, fault] } : { ...result, unlisted: result.unlisted + 1 };
  };
}

/** An integrator's CreditTransfer (POST /transactions/outbound/credit-transfer): its uetr a version-4 UUID. */
export const validateOutboundCreditTransfer = withUetrV4(validateCreditTransfer, '/transactionIdentifiers/uetr');
