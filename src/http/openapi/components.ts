import { Type, type TSchema } from '@sinclair/typebox';
import { EVENT_CLASS, EVENTS_API_VERSION } from '../../domain/events.js';
import type { Outcome } from '../../domain/machines/credit-transfer.js';
import { MACHINES } from '../../domain/machines/registry.js';
import {
  AccountTypeSchema,
  AmountSchema,
  BankingIdentifierSchema,
  BranchIdentificationSchema,
  ClearingSystemMemberIdentificationSchema,
  ContactDetailsSchema,
  InstitutionIdentificationSchema,
  LIST_ITEMS_MAX,
  MessageIdentifiersSchema,
  NonBankingIdentifierSchema,
  OpenObject,
  PartyIdentificationSchema,
  PartySchema,
  PaymentAccountSchema,
  PostalAddressSchema,
  StringEnum,
  SupplementaryDataSchema,
  TransactionIdentifiersSchema,
  Uuid,
} from '../../domain/messages/common.js';
import {
  CbprPlusSchemeDataSchema,
  ChargeSchema,
  CreditorAgentInstructionSchema,
  CreditTransferPaymentSchemeSchema,
  CreditTransferSchema,
  RegulatoryReportingSchema,
  RemittanceInformationSchema,
  StructuredRemittanceSchema,
  TaxInformationSchema,
} from '../../domain/messages/credit-transfer.js';
import { IdentifierDeterminationRequestSchema, IdentifierDeterminationResponseSchema } from '../../domain/messages/identifier-determination.js';
import { AuthorisationReportSchema } from '../../domain/messages/inbound-answers.js';
import { PaymentStatusRequestSchema } from '../../domain/messages/payment-status-request.js';
import {
  ReasonInfoSchema,
  RequestToPayCancellationResponseSchema,
  RequestToPayCancellationSchema,
  RequestToPayConditionsSchema,
  RequestToPayResponseSchema,
  RequestToPaySchema,
  RequestToPayStatusRequestSchema,
} from '../../domain/messages/request-to-pay.js';
import { SCHEMES } from '../../domain/schemes.js';
import { assert } from '../../lib/assert.js';
import { REFERENCED_SCHEMAS } from '../schemas.js';
import { PROVIDER_SCHEMAS } from './provider.js';

/**
 * The named schemas of the OpenAPI document (`components.schemas`).
 *
 * The messages' TypeBox schemas (src/domain/messages) are what validation runs; the document
 * publishes copies of them in which every building block (Amount, Party, PaymentAccount…) is a
 * reference to its own component instead of being repeated inline. The copies change nothing a
 * message may contain: validation never sees them, and neither does Fastify (the schemas it is
 * given with addSchema are only those routes reference, src/http/schemas.ts: each one it holds
 * is compiled into every route's answer serializers).
 */

// ---------------------------------------------------------------------------------------------
// Messages the service sends that have no TypeBox schema of their own in the domain (it writes
// them as JSON text): their published shape, checked against what the service writes by
// test/unit/openapi-document.test.ts.

const OUTCOME_MEANINGS: Readonly<Record<Outcome, string>> = {
  APPROVED: 'the scheme accepted the payment',
  REJECTED: "declined: by the scheme, by a scheme rule checked before sending (e.g. AM02 over the scheme's limit), or because the scheme can never take it (AB10)",
  CANCELLED: 'cancelled before settlement',
  PENDING: 'no verdict yet: the answer to a status request made before the scheme decided',
};

export const PaymentStatusReportSchema = OpenObject(
  {
    schema: Type.Literal('PaymentStatusReport', { description: 'Message type: PaymentStatusReport' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: MessageIdentifiersSchema,
    transactionIdentifiers: TransactionIdentifiersSchema,
    paymentScheme: OpenObject({ schema: StringEnum(SCHEMES, { description: 'The scheme of the credit transfer' }) }, { description: 'Scheme of the payment' }),
    status: OpenObject(
      {
        outcome: StringEnum(Object.keys(OUTCOME_MEANINGS) as Outcome[], {
          description: Object.entries(OUTCOME_MEANINGS)
            .map(([outcome, meaning]) => `${outcome}: ${meaning}`)
            .join('; '),
        }),
        reasonInfo: Type.Array(ReasonInfoSchema, { maxItems: LIST_ITEMS_MAX, description: 'ISO 20022 reason codes of a REJECTED outcome (e.g. AC04, AM02); empty when there are none' }),
      },
      { description: 'The outcome of the credit transfer' },
    ),
  },
  {
    $id: 'PaymentStatusReport',
    description:
      'Outcome of an outbound credit transfer, POSTed to {partnerApiUrl}/transactions/outbound/credit-transfer-response once the scheme decided, ' +
      "and again for every status request. originalMessageIdentifiers and transactionIdentifiers are the CreditTransfer's",
  },
);

/** Every event type: each state of each transaction kind's machine is entered with the event of its name (CONTRACT §4). */
export const EVENT_TYPES: readonly string[] = [...new Set([...MACHINES.values()].flatMap((machine) => Object.keys(machine.transitions)))];

const EventPayloadSchema = OpenObject(
  {
    schema: Type.String({
      description:
        'What the payload is (docs/api.md, Event payloads, has it per event type): the message of the operation that caused the state. ' +
        'A message from outside: the request that started the transaction (CreditTransfer, IdentifierDeterminationRequest, RequestToPay), ' +
        "the integrator's answer (PaymentStatusReport, IdentifierDeterminationResponse, RequestToPayResponse), or the scheme message as JSON, " +
        'named by its ISO 20022 message name (e.g. pacs.002.001.12, acmt.024.001.03, pain.014.001.09, camt.056.001.10), its elements as keys; ' +
        'the message the service sends in that state (a callback: PaymentStatusReport, IdentifierDeterminationResponse, RequestToPayResponse, ' +
        'RequestToPayCancellation; its answer to the scheme, written as the integrator API message); or a record of the service: ' +
        'SchemeRuleViolation {reasonCode, reasonText}, SchemeCapability {error}, SchemeTransportFailure {error}, SchemeTimeout {timeBudgetMs}, ' +
        'IntegratorCallFailure {error}, IntegratorTimeout {deadline}, IntegratorAnswerText {text}, IntegratorAnswerProblem {problem}, ' +
        'RequestToPayPayment {transactionId}, RequestToPayExpiry {expiryDateTime}',
    }),
  },
  { description: 'The message of the operation that caused the transition, exactly as stored, with its own `schema`' },
);

export const EventSchema = OpenObject(
  {
    name: Type.String({ pattern: `^${EVENT_CLASS}_[A-Z_]+$`, description: `${EVENT_CLASS}_ followed by the type` }),
    apiVersion: Type.String({ pattern: '^\\d+\\.\\d+\\.\\d+$', description: `Version of the events API (semver), ${EVENTS_API_VERSION}` }),
    class: Type.Literal(EVENT_CLASS, { description: `Event class: ${EVENT_CLASS}` }),
    type: StringEnum(EVENT_TYPES, { description: 'The state the transaction entered (docs/state-machine.md)' }),
    stageVersion: Type.Integer({ minimum: 1, description: "Version of the stage's shape: 1 unless it changes" }),
    tranInfo: OpenObject(
      {
        tranUetr: Uuid('uetr of the transaction'),
        direction: StringEnum(['OUTBOUND', 'INBOUND'], { description: 'OUTBOUND: started by the integrator (INBOUND is reserved)' }),
        paymentScheme: StringEnum(SCHEMES, { description: 'Scheme of the transaction' }),
        service: Type.String({ description: 'Scheme family and direction, e.g. RPP_OUTBOUND' }),
      },
      { description: 'The transaction the event is about' },
    ),
    messageInfo: MessageIdentifiersSchema,
    payload: EventPayloadSchema,
  },
  {
    $id: 'Event',
    description:
      'One state a transaction entered, POSTed to {eventsApiUrl}/events: one event per state entered, in order per transaction, ' +
      'each with a stable webhook-id for de-duplication. messageInfo identifies the event itself',
  },
);

// ---------------------------------------------------------------------------------------------
// Building blocks: each occurrence inside a published message becomes a reference.

const BUILDING_BLOCKS: ReadonlyArray<readonly [string, TSchema]> = [
  ['MessageIdentifiers', MessageIdentifiersSchema],
  ['TransactionIdentifiers', TransactionIdentifiersSchema],
  ['Amount', AmountSchema],
  ['PostalAddress', PostalAddressSchema],
  ['ContactDetails', ContactDetailsSchema],
  ['PartyIdentification', PartyIdentificationSchema],
  ['Party', PartySchema],
  ['BankingIdentifier', BankingIdentifierSchema],
  ['NonBankingIdentifier', NonBankingIdentifierSchema],
  ['AccountType', AccountTypeSchema],
  ['PaymentAccount', PaymentAccountSchema],
  ['ClearingSystemMemberIdentification', ClearingSystemMemberIdentificationSchema],
  ['BranchIdentification', BranchIdentificationSchema],
  ['InstitutionIdentification', InstitutionIdentificationSchema],
  ['SupplementaryData', SupplementaryDataSchema],
  ['PaymentScheme', CreditTransferPaymentSchemeSchema],
  ['CbprPlusSchemeData', CbprPlusSchemeDataSchema],
  ['Charge', ChargeSchema],
  ['CreditorAgentInstruction', CreditorAgentInstructionSchema],
  ['RemittanceInformation', RemittanceInformationSchema],
  ['StructuredRemittance', StructuredRemittanceSchema],
  ['RegulatoryReporting', RegulatoryReportingSchema],
  ['TaxInformation', TaxInformationSchema],
  ['RequestToPayConditions', RequestToPayConditionsSchema],
  ['ReasonInfo', ReasonInfoSchema],
  ['EventPayload', EventPayloadSchema],
];

/** The messages, each published under its `$id`. */
const MESSAGES: readonly TSchema[] = [
  CreditTransferSchema,
  PaymentStatusRequestSchema,
  PaymentStatusReportSchema,
  IdentifierDeterminationRequestSchema,
  IdentifierDeterminationResponseSchema,
  AuthorisationReportSchema,
  RequestToPaySchema,
  RequestToPayStatusRequestSchema,
  RequestToPayCancellationSchema,
  RequestToPayResponseSchema,
  RequestToPayCancellationResponseSchema,
  EventSchema,
];

/**
 * The rule validate.ts checks by hand for CBPR_PLUS (schemeData with chargeBearer), said in JSON
 * Schema on the published PaymentScheme so that the document gives CBPR_PLUS's schemeData its type.
 * The subschemas say `additionalProperties: true` (JSON Schema's default) because tools that close
 * objects which do not say it (Redocly's example check) would refuse PaymentScheme's other
 * properties inside them.
 */
const CBPR_PLUS_SCHEME_DATA = {
  if: { properties: { schema: { const: 'CBPR_PLUS' } }, required: ['schema'], additionalProperties: true },
  then: { properties: { schemeData: { $ref: 'CbprPlusSchemeData' } }, required: ['schemeData'], additionalProperties: true },
};

const SCHEMAS_PATH = '#/components/schemas/';

/** A block is recognised by its JSON text: TypeBox copies a schema it marks optional, so identity would miss it. */
function blockNames(): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  for (const [name, schema] of BUILDING_BLOCKS) {
    const text = JSON.stringify(schema);
    assert(!names.has(text), `building blocks ${names.get(text)} and ${name} are the same schema: one of them would never be referenced`);
    names.set(text, name);
  }
  return names;
}

/**
 * `node` as a Schema Object of the document: plain JSON (TypeBox's symbol keys dropped) without
 * `$id`, every building block below the root a reference to its component, references by `$id`
 * (`Amount`, `Amount#`) written as references into the document, and `const` written as a
 * one-value `enum`, as @fastify/swagger writes the routes' own schemas.
 */
function published(node: unknown, names: ReadonlyMap<string, string>, isRoot: boolean): unknown {
  if (Array.isArray(node)) return node.map((item) => published(item, names, false));
  if (typeof node !== 'object' || node === null) return node;
  const name = isRoot ? undefined : names.get(JSON.stringify(node));
  if (name !== undefined) return { $ref: `${SCHEMAS_PATH}${name}` };
  return Object.fromEntries(
    Object.entries(node).flatMap(([key, value]): Array<[string, unknown]> => {
      if (key === '$id') return [];
      if (key === '$ref') return [[key, `${SCHEMAS_PATH}${String(value).replace(/#$/, '')}`]];
      if (key === 'const') return [['enum', [value]]];
      return [[key, published(value, names, false)]];
    }),
  );
}

/**
 * Every named schema of the document, by name: the building blocks, the messages, and the
 * schemas of the routes' other requests and answers, each as it is published.
 */
export function componentSchemas(): Readonly<Record<string, unknown>> {
  const names = blockNames();
  const components: Record<string, unknown> = {};
  for (const [name, schema] of BUILDING_BLOCKS) {
    components[name] = published(name === 'PaymentScheme' ? { ...schema, ...CBPR_PLUS_SCHEME_DATA } : schema, names, true);
  }
  for (const schema of [...MESSAGES, ...REFERENCED_SCHEMAS, ...PROVIDER_SCHEMAS]) {
    assert(typeof schema.$id === 'string', 'a published schema has an $id');
    components[schema.$id] ??= published(schema, names, true);
  }
  return components;
}
