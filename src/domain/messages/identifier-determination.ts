import { Type, type Static } from '@sinclair/typebox';
import { assert } from '../../lib/assert.js';
import { cutAtWord, REASON_TEXT_CHARS_MAX } from '../../lib/text.js';
import { SCHEMES, type SchemeName } from '../schemes.js';
import {
  AmountSchema,
  Bic,
  InstitutionIdentificationSchema,
  IsoDate,
  Max35Identifier,
  MessageIdentifiersSchema,
  Name140,
  OpenObject,
  StringEnum,
  SupplementaryDataSchema,
  Text,
  TEXT_CHARS_MAX,
  Uuid,
  type InstitutionIdentification,
} from './common.js';
import { isRecord, makeValidator, withUetrV4, type Rule, type Validation } from './validate.js';

/**
 * PayShap identifier determination (spec: IdentifierDeterminationRequest and
 * IdentifierDeterminationResponse; CONTRACT §2): the integrator asks the scheme who is behind a
 * proxy (MOBILE or CUSTOM: proxy resolution) or an account number (GENERIC: account
 * resolution), and gets the account and its owner's names back.
 */

// ---------------------------------------------------------------------------------------------
// The request

export const IDENTIFIER_SCHEMAS = ['MOBILE', 'CUSTOM', 'GENERIC'] as const;
export type IdentifierSchema = (typeof IDENTIFIER_SCHEMAS)[number];

/** The older name of ZA_RPP in request.schema, still sent by integrators (CONTRACT §9); read as ZA_RPP. */
export const LEGACY_RPP_REQUEST_SCHEMA = 'ZA_RPP_PROXY_IDENTIFIER_DETERMINATION';

/** Longest proxy value (spec: Limits). */
export const PROXY_VALUE_LENGTH_MAX = 2048;

export const IdentifierDeterminationRequestSchema = OpenObject(
  {
    schema: Type.Literal('IdentifierDeterminationRequest', { description: 'Message type: IdentifierDeterminationRequest' }),
    messageIdentifiers: MessageIdentifiersSchema,
    supplementaryData: Type.Optional(SupplementaryDataSchema),
    request: OpenObject(
      {
        schema: StringEnum([...SCHEMES, LEGACY_RPP_REQUEST_SCHEMA], {
          description: `Scheme of the lookup: ZA_RPP (the only scheme that performs it; another scheme is answered 422). ${LEGACY_RPP_REQUEST_SCHEMA} is the older name of ZA_RPP`,
        }),
        instructedAgent: Type.Optional(InstitutionIdentificationSchema),
        instructingAgent: Type.Optional(InstitutionIdentificationSchema),
        requestor: OpenObject(
          {
            schema: Type.Optional(Type.Literal('INSTITUTION_IDENTIFICATION', { description: 'Kind of requestor: INSTITUTION_IDENTIFICATION' })),
            bicfi: Type.Optional(Bic('BIC of the requesting institution (ISO 9362)')),
            memberId: Type.Optional(Max35Identifier('Clearing system member identifier of the requesting institution')),
            domain: Type.Optional(Text("The requesting institution's PayShap domain")),
            name: Type.Optional(Type.String({ maxLength: 140, description: 'Name of the requesting institution' })),
          },
          { description: 'The institution asking (the assigner of the ISO 20022 acmt.023); carries bicfi or memberId, or both' },
        ),
        identifier: OpenObject(
          {
            namespace: Type.Optional(
              Type.String({
                minLength: 1,
                maxLength: TEXT_CHARS_MAX,
                description: 'Context that tells apart equal values meant for different accounts, e.g. ZA_MOBILE; required for MOBILE and CUSTOM',
              }),
            ),
            schema: StringEnum(IDENTIFIER_SCHEMAS, {
              description: 'MOBILE or CUSTOM: proxy resolution (namespace required); GENERIC: account resolution (accountAgent.bicfi required)',
            }),
            value: Type.String({
              minLength: 1,
              maxLength: PROXY_VALUE_LENGTH_MAX,
              description:
                'MOBILE: a South African number as 0831234567, +27831234567, +27-831234567, +27-0831234567 or 27831234567; ' +
                'CUSTOM: any text such as value@domain; GENERIC: the account number (spaces and dashes ignored)',
            }),
          },
          { description: 'What is looked up: a proxy (MOBILE, CUSTOM) or an account number (GENERIC)' },
        ),
        accountAgent: Type.Optional(
          OpenObject(
            { bicfi: Type.Optional(Bic("BIC of the account's institution; required for GENERIC")) },
            { description: 'The institution holding the account' },
          ),
        ),
        uetr: Uuid('End-to-end reference; unchanged across all messages of the transaction'),
        verificationIdentification: Max35Identifier('Unique identifier of this verification request (ISO 20022 Vrfctn/Id, mandatory Max35Text)'),
      },
      { description: 'Lookup of a proxy or an account' },
    ),
  },
  {
    $id: 'IdentifierDeterminationRequest',
    description:
      'Outbound identifier determination (ZA_RPP). MOBILE and CUSTOM require request.identifier.namespace, GENERIC requires ' +
      'request.accountAgent.bicfi; a MOBILE value must be a South African number in a published form; the requestor carries bicfi or memberId.',
  },
);

/** The IdentifierDeterminationRequest as received (unknown fields kept). */
export type IdentifierDeterminationRequest = Static<typeof IdentifierDeterminationRequestSchema>;

/** What is looked up: a proxy (MOBILE, CUSTOM, with its namespace) or an account number (GENERIC). */
export interface Identifier {
  readonly schema: IdentifierSchema;
  readonly namespace?: string;
  readonly value: string;
}

/**
 * A South African number in one of the published forms 0831234567, +27831234567, +27-831234567
 * and +27-0831234567, or as 27831234567. The 9-digit national number may start with any
 * digit but 0: the spec's own sample proxy +27-0214620000 is a Cape Town number.
 */
const ZA_PHONE = /^(?:0|\+27|\+27-|\+27-0|27)([1-9]\d{8})$/;

/**
 * The identifier in one spelling per proxy or account; idempotent, and total (a value that is not
 * of its schema's form comes back trimmed, for validation has refused it already):
 * - MOBILE: `+27-` and the 9-digit national number, e.g. +27-831234567;
 * - CUSTOM: trimmed and lowercased;
 * - GENERIC: the account number without spaces or dashes.
 * The namespace is kept exactly as sent: the spec does not say which spellings of it are equal.
 */
export function normaliseIdentifier(identifier: Identifier): Identifier {
  const { schema, namespace, value } = identifier;
  // Built field by field: the request's identifier is an open object, and its extra fields name nothing looked up.
  return { schema, ...(namespace === undefined ? {} : { namespace }), value: normaliseValue(schema, value) };
}

function normaliseValue(schema: IdentifierSchema, value: string): string {
  switch (schema) {
    case 'MOBILE': {
      const trimmed = value.trim();
      const nationalNumber = ZA_PHONE.exec(trimmed)?.[1];
      return nationalNumber === undefined ? trimmed : `+27-${nationalNumber}`;
    }
    case 'CUSTOM':
      return value.trim().toLowerCase();
    case 'GENERIC':
      return value.replace(/[\s-]/g, '');
  }
}

/**
 * One string naming what is looked up, equal for every spelling of one proxy or account and
 * different for different ones, e.g. `ZA_RPP|MOBILE|ZA_MOBILE|+27-831234567` or
 * `ZA_RPP|GENERIC|FIRNZAJJ|62001234567`. An account is named with its institution's 8-character
 * BIC (a branch code does not change the institution). Parts are escaped so that no `|` inside a
 * namespace or a custom proxy can make two different lookups share a key.
 */
export function lookupKey(scheme: SchemeName, identifier: Identifier, accountAgentBicfi?: string): string {
  const { schema, namespace, value } = normaliseIdentifier(identifier);
  if (schema === 'GENERIC') {
    assert(accountAgentBicfi !== undefined, 'an account lookup names the account agent (validation requires it)');
    return keyOf([scheme, schema, accountAgentBicfi.slice(0, 8), value]);
  }
  assert(namespace !== undefined, 'a proxy lookup names its namespace (validation requires it)');
  return keyOf([scheme, schema, namespace, value]);
}

function keyOf(parts: readonly string[]): string {
  return parts.map((part) => part.replaceAll('%', '%25').replaceAll('|', '%7C')).join('|');
}

// ---------------------------------------------------------------------------------------------
// Validation

export interface ValidIdentifierDetermination {
  readonly message: IdentifierDeterminationRequest;
  /** request.schema with the legacy name ZA_RPP_PROXY_IDENTIFIER_DETERMINATION read as ZA_RPP. */
  readonly scheme: SchemeName;
  /** request.uetr, lowercased: UUIDs compare case-insensitively (RFC 9562). */
  readonly uetr: string;
  readonly messageId: string;
  /** The identifier, its value normalised (see normaliseIdentifier). */
  readonly identifier: Identifier;
  /** One string naming what is looked up, equal for every spelling of the same proxy or account. */
  readonly lookupKey: string;
}

/** request.identifier of a body, when it is an object with one of the three schemas; the schema reports anything else. */
function identifierOf(body: unknown): { schema: IdentifierSchema; value: unknown; namespace: unknown } | undefined {
  if (!isRecord(body) || !isRecord(body.request) || !isRecord(body.request.identifier)) return undefined;
  const { schema, value, namespace } = body.request.identifier;
  if (!(IDENTIFIER_SCHEMAS as readonly unknown[]).includes(schema)) return undefined;
  return { schema: schema as IdentifierSchema, value, namespace };
}

/** Rule 1 of the spec: proxy resolution needs the namespace. */
const proxyNamespace: Rule = (body, report) => {
  const identifier = identifierOf(body);
  if (identifier === undefined || identifier.schema === 'GENERIC' || identifier.namespace !== undefined) return;
  report('/request/identifier/namespace', `is required when identifier.schema is ${identifier.schema} (proxy resolution)`);
};

/** Rule 2 of the spec: account resolution needs the account's institution. */
const accountAgentBic: Rule = (body, report) => {
  if (identifierOf(body)?.schema !== 'GENERIC' || !isRecord(body) || !isRecord(body.request)) return;
  const { accountAgent } = body.request;
  // An accountAgent that is not an object is already reported by the schema.
  if (accountAgent !== undefined && !isRecord(accountAgent)) return;
  if (accountAgent?.bicfi !== undefined) return;
  report('/request/accountAgent/bicfi', 'is required when identifier.schema is GENERIC (account resolution)');
};

/** The value has the form its schema asks for. Empty and over-long values are the schema's to report. */
const identifierValueForm: Rule = (body, report) => {
  const identifier = identifierOf(body);
  if (identifier === undefined || typeof identifier.value !== 'string') return;
  const { schema, value } = identifier;
  if (value === '' || [...value].length > PROXY_VALUE_LENGTH_MAX) return;
  const problem = valueProblem(schema, value);
  if (problem !== undefined) report('/request/identifier/value', problem);
};

function valueProblem(schema: IdentifierSchema, value: string): string | undefined {
  switch (schema) {
    case 'MOBILE':
      return ZA_PHONE.test(value.trim())
        ? undefined
        : 'must be a South African mobile number in one of the forms 0831234567, +27831234567, +27-831234567, +27-0831234567 or 27831234567';
    case 'CUSTOM':
      return value.trim() === '' ? 'must not be blank' : undefined;
    case 'GENERIC':
      return normaliseValue('GENERIC', value) === '' ? 'must contain an account number, not only spaces and dashes' : undefined;
  }
}

/** The requestor must be identifiable: acmt.023 names the assigner agent by BIC or clearing member id. */
const requestorIdentified: Rule = (body, report) => {
  if (!isRecord(body) || !isRecord(body.request) || !isRecord(body.request.requestor)) return;
  const { bicfi, memberId } = body.request.requestor;
  if (bicfi !== undefined || memberId !== undefined) return;
  report('/request/requestor', 'must carry bicfi or memberId, or both');
};

const check = makeValidator(IdentifierDeterminationRequestSchema, [requestorIdentified, proxyNamespace, accountAgentBic, identifierValueForm]);

/** Validates an IdentifierDeterminationRequest body (as produced by parseJson) against every rule of the interface. */
export function validateIdentifierDeterminationRequest(body: unknown): Validation<ValidIdentifierDetermination> {
  const result = check(body);
  if (!result.ok) return result;
  const message = result.value;
  const { request } = message;
  const scheme = request.schema === LEGACY_RPP_REQUEST_SCHEMA ? 'ZA_RPP' : request.schema;
  const identifier = normaliseIdentifier(request.identifier);
  const valid: ValidIdentifierDetermination = {
    message,
    scheme,
    uetr: request.uetr.toLowerCase(),
    messageId: message.messageIdentifiers.messageIdentification,
    identifier,
    lookupKey: lookupKey(scheme, identifier, request.accountAgent?.bicfi),
  };
  return { ok: true, value: valid };
}

// ---------------------------------------------------------------------------------------------
// The response

/** Reason codes of a failed identifier determination (spec: Errors, item 4), with their meaning. */
export const IDENTIFIER_REASON_CODES = Object.freeze({
  AB06: 'Transaction stopped, timeout at the instructed agent',
  AB07: 'Agent of message not online',
  AB10: 'Error at the instructed agent',
  AC06: 'Account blocked for posting',
  AG01: 'Transaction forbidden on this account type',
  AG03: 'Transaction type not supported or authorised on this account',
  AG10: 'Agent suspended from the real-time payment system',
  AGNT: 'Agent in the payment workflow incorrect',
  AM02: 'Amount above allowed maximum (for example payee proxy participant service limit exceeded)',
  CH21: 'Mandatory element missing',
  DT02: 'Invalid creation date and time in group header',
  DU03: 'Transaction not unique',
  DUPL: 'Request duplicates another request',
  FF02: 'Syntax error; reason in additional information',
  FF08: 'End-to-end identification missing or invalid',
  NAUT: 'Permission to process not granted',
  NOOR: 'Original credit transfer never received',
  PD01: 'Domain not found or invalid',
  PD02: 'Domain suspended pending investigation',
  BE23: 'Proxy used as account proxy unknown or invalid',
  PX03: 'Proxy not found in central repository',
  PX04: 'Proxy format invalid',
  RC05: 'BIC invalid or missing',
  RC08: 'Clearing system member identifier invalid or missing',
  RR10: 'Character set not valid for the country and payment type',
  RR12: 'Invalid or missing identification required for the country or payment type',
  RF01: 'Transaction reference not unique within the message',
  AC16: 'Account in sequestration',
  AC17: 'Account in liquidation',
  AC04: 'Account closed',
  AC01: 'Format of the account number incorrect',
  MD07: 'Account holder deceased',
  NOCM: 'Account not compliant with regulatory requirements',
  BE01: 'Identification of end customer inconsistent with the account number',
});

/** Longest reason description: the scheme cuts longer ones (spec: Limits), at a word boundary. */
export const REASON_DESCRIPTION_LENGTH_MAX = REASON_TEXT_CHARS_MAX;

export const IDENTIFIER_OUTCOMES = ['SUCCESSFUL', 'FAILED'] as const;
export type IdentifierOutcome = (typeof IDENTIFIER_OUTCOMES)[number];

const reasonCodeList = Object.entries(IDENTIFIER_REASON_CODES)
  .map(([code, meaning]) => `${code} (${meaning})`)
  .join(', ');

export const IdentifierDeterminationResponseSchema = OpenObject(
  {
    schema: Type.Literal('IdentifierDeterminationResponse', { description: 'Message type: IdentifierDeterminationResponse' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: MessageIdentifiersSchema,
    supplementaryData: Type.Optional(SupplementaryDataSchema),
    scheme: StringEnum(SCHEMES, { description: 'Scheme that performed the lookup (ZA_RPP)' }),
    operator: Type.Optional(InstitutionIdentificationSchema),
    uetr: Uuid('As in the request'),
    verificationIdentification: Max35Identifier('As in the request'),
    report: OpenObject(
      {
        reportInformation: OpenObject(
          {
            outcome: StringEnum(IDENTIFIER_OUTCOMES, { description: 'SUCCESSFUL when the resolution passed, FAILED when it failed' }),
            reasonCode: Type.Optional(
              Type.String({ pattern: '^[A-Z0-9]{4}$', description: `Present on failure only; one of ${reasonCodeList}` }),
            ),
            reasonDescription: Type.Optional(
              Type.String({
                maxLength: REASON_DESCRIPTION_LENGTH_MAX,
                description: `On failure, the reason in words, cut to ${REASON_DESCRIPTION_LENGTH_MAX} characters as the scheme does`,
              }),
            ),
            accountInformation: OpenObject(
              {
                creationDate: Type.Optional(IsoDate('Date on which the account behind the proxy or number was created')),
                proxy: Type.Optional(
                  OpenObject(
                    {
                      value: Type.String({ maxLength: PROXY_VALUE_LENGTH_MAX, description: 'The proxy' }),
                      schema: StringEnum(['MOBILE', 'CUSTOM'], { description: 'Schema of the identifier in the request' }),
                    },
                    { description: 'The proxy resolved (proxy resolution only)' },
                  ),
                ),
                traditionalIdentifier: Type.Optional(Text('Number of the account the proxy or account number resolved to')),
              },
              { description: 'The account found, and for proxy resolution the proxy (also on failure, so the answer names what it is about)' },
            ),
            accountOwner: OpenObject(
              {
                knownAsName: Type.Optional(Name140('Name for the end user to verify in the banking app (mandatory in ZA_RPP when found)')),
                legalName: Type.Optional(Name140('Legal name of the account holder (mandatory in ZA_RPP when found)')),
              },
              { description: "The account holder's names; empty when the scheme named none" },
            ),
            accountAgent: Type.Optional(
              OpenObject(
                { bicfi: Bic("BIC of the account's institution") },
                { description: 'The institution holding the account, which a credit transfer to it names as creditorAgent (not in the spec table; added)' },
              ),
            ),
            transactionLimit: Type.Optional(AmountSchema),
          },
          { description: 'Outcome of the lookup and what it found' },
        ),
      },
      { description: 'The report' },
    ),
  },
  {
    $id: 'IdentifierDeterminationResponse',
    description: 'Outcome of an identifier determination: the account and owner behind a proxy or account number, or the reason it failed',
  },
);

export type IdentifierDeterminationResponse = Static<typeof IdentifierDeterminationResponseSchema>;

/** What an identifier resolved to, as the scheme reported it (every value as written: text, never a float). */
export interface ResolvedAccount {
  /** The account number the proxy or account number resolved to. */
  readonly traditionalIdentifier?: string;
  /** The proxy, for proxy resolution. */
  readonly proxy?: { readonly value: string; readonly schema?: string };
  /** Date the account was created (YYYY-MM-DD). */
  readonly creationDate?: string;
  readonly knownAsName?: string;
  readonly legalName?: string;
  /** BIC of the institution holding the account. */
  readonly accountAgentBicfi?: string;
  /**
   * Most the account may receive in one payment, when the scheme says: decimal text in major
   * units (xs:decimal, e.g. "50000.00"), written into the response as it is, never through a float.
   */
  readonly transactionLimit?: { readonly value: string; readonly currency: string };
}

export interface IdentifierDeterminationResponseInput {
  readonly request: IdentifierDeterminationRequest;
  readonly scheme: SchemeName;
  /** This response's own message id (max 35 characters). */
  readonly messageIdentification: string;
  readonly createdAt: number;
  readonly outcome: IdentifierOutcome;
  /** Written on FAILED only: one of IDENTIFIER_REASON_CODES. */
  readonly reasonCode?: string;
  /** Written on FAILED only, cut to 35 characters. */
  readonly reasonText?: string;
  readonly account?: ResolvedAccount;
  /** The scheme operator that created the report, when the scheme names it. */
  readonly operator?: InstitutionIdentification;
}

/** The JSON text of the IdentifierDeterminationResponse for a request and the scheme's answer. */
export function identifierDeterminationResponseJson(input: IdentifierDeterminationResponseInput): string {
  const { request } = input;
  const head = {
    schema: 'IdentifierDeterminationResponse',
    messageIdentifiers: { messageIdentification: input.messageIdentification, creationDateTime: new Date(input.createdAt).toISOString() },
    originalMessageIdentifiers: request.messageIdentifiers,
    scheme: input.scheme,
    ...(input.operator === undefined ? {} : { operator: input.operator }),
    uetr: request.request.uetr,
    verificationIdentification: request.request.verificationIdentification,
  };
  return withMember(JSON.stringify(head), 'report', withMember('{}', 'reportInformation', reportInformationJson(input)));
}

function reportInformationJson(input: IdentifierDeterminationResponseInput): string {
  const { account, outcome } = input;
  const failed = outcome === 'FAILED';
  const information = {
    outcome,
    ...(failed && input.reasonCode !== undefined ? { reasonCode: input.reasonCode } : {}),
    ...(failed && input.reasonText !== undefined ? { reasonDescription: cutAtWord(input.reasonText, REASON_DESCRIPTION_LENGTH_MAX) } : {}),
    accountInformation: accountInformation(input.request, account),
    accountOwner: {
      ...(account?.knownAsName === undefined ? {} : { knownAsName: account.knownAsName }),
      ...(account?.legalName === undefined ? {} : { legalName: account.legalName }),
    },
    ...(account?.accountAgentBicfi === undefined ? {} : { accountAgent: { bicfi: account.accountAgentBicfi } }),
  };
  const limit = account?.transactionLimit;
  const text = JSON.stringify(information);
  return limit === undefined ? text : withMember(text, 'transactionLimit', amountJson(limit));
}

/**
 * The proxy (value as the scheme reported it, else as asked; schema as asked) is written for
 * proxy resolution only, also on failure, so the integrator sees which proxy the answer is about.
 */
function accountInformation(request: IdentifierDeterminationRequest, account: ResolvedAccount | undefined) {
  const { identifier } = request.request;
  const proxy = identifier.schema === 'GENERIC' ? undefined : { value: account?.proxy?.value ?? identifier.value, schema: identifier.schema };
  return {
    ...(account?.creationDate === undefined ? {} : { creationDate: account.creationDate }),
    ...(proxy === undefined ? {} : { proxy }),
    ...(account?.traditionalIdentifier === undefined ? {} : { traditionalIdentifier: account.traditionalIdentifier }),
  };
}

/** At most `length` characters (code points, so no surrogate pair is split). */

/** An Amount whose value is the decimal text written as a JSON number literal, digit for digit. */
function amountJson(amount: { readonly value: string; readonly currency: string }): string {
  return `{"currency":${JSON.stringify(amount.currency)},"value":${jsonNumberText(amount.value)}}`;
}

/** xs:decimal text of a non-negative amount: an optional +, digits, an optional fraction; `5.` and `.5` are xs:decimal too. */
const DECIMAL = /^\+?(\d*)(?:\.(\d*))?$/;

/**
 * The JSON number literal of a non-negative xs:decimal, keeping every written digit (50000.00
 * stays 50000.00): a leading + and leading zeros go, `.5` gets its 0, `5.` loses its point.
 */
function jsonNumberText(decimal: string): string {
  const match = DECIMAL.exec(decimal);
  assert(match !== null && /\d/.test(decimal), `transaction limit ${JSON.stringify(decimal)} is not non-negative decimal text`);
  const integer = (match[1] ?? '').replace(/^0+(?=\d)/, '') || '0';
  const fraction = match[2] ?? '';
  return fraction === '' ? integer : `${integer}.${fraction}`;
}

/** The JSON text of an object with one more member, whose value is the JSON text `valueJson` written as it is. */
function withMember(objectJson: string, key: string, valueJson: string): string {
  assert(objectJson.startsWith('{') && objectJson.endsWith('}'), 'members are added to the JSON text of an object');
  const separator = objectJson === '{}' ? '' : ',';
  return `${objectJson.slice(0, -1)}${separator}${JSON.stringify(key)}:${valueJson}}`;
}

/** An integrator's IdentifierDeterminationRequest: its request.uetr a version-4 UUID. */
export const validateOutboundIdentifierDeterminationRequest = withUetrV4(validateIdentifierDeterminationRequest, '/request/uetr');
