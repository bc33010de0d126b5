import { Type, type Static } from '@sinclair/typebox';
import { SCHEMES } from '../schemes.js';
import {
  AmountSchema,
  InstitutionIdentificationSchema,
  IsoDate,
  MessageIdentifiersSchema,
  Opaque,
  OpenObject,
  PartySchema,
  PaymentAccountSchema,
  StringEnum,
  SupplementaryDataSchema,
  Text,
  TransactionIdentifiersSchema,
} from './common.js';

/** The CreditTransfer message (spec: Resources, CreditTransfer) sent to POST /transactions/outbound/credit-transfer. */

export const CHARGE_BEARERS = ['DEBT', 'CRED', 'SHAR', 'SLEV'] as const;
export type ChargeBearer = (typeof CHARGE_BEARERS)[number];

export const ChargeSchema = OpenObject({}, { description: 'A charge taken on the payment (content not shown by the spec)' });

/** schemeData of a CBPR_PLUS credit transfer; required for that scheme (checked by a rule, see validate.ts). */
export const CbprPlusSchemeDataSchema = OpenObject(
  {
    chargeBearer: StringEnum(CHARGE_BEARERS, {
      description:
        'Who bears the charges: DEBT (the debtor), CRED (the creditor), SHAR (sender side by the debtor, receiver side by the creditor), ' +
        'SLEV (as the service level or scheme rules say)',
    }),
    charges: Type.Optional(Type.Array(ChargeSchema, { description: 'Charges taken on the payment' })),
    exchangeRate: Type.Optional(Type.Number({ format: 'double', description: 'Factor converting one currency into another' })),
  },
  { description: 'Scheme data of a CBPR_PLUS credit transfer' },
);

export const CreditTransferPaymentSchemeSchema = OpenObject(
  {
    schema: StringEnum(SCHEMES, { description: 'The payment scheme (discriminator of schemeData)' }),
    schemeData: Type.Optional(
      OpenObject({}, { description: 'Scheme-specific data. Required for CBPR_PLUS (chargeBearer, charges, exchangeRate); not shown for other schemes' }),
    ),
  },
  { description: 'Scheme the payment is made in, with its scheme-specific data' },
);

const CodeAndValue = (description: string) =>
  OpenObject({ schema: Type.Optional(Text('Kind of code, e.g. CODE or PROPRIETARY')), value: Type.Optional(Text('The code')) }, { description });

export const CreditorAgentInstructionSchema = OpenObject(
  { code: Type.Optional(Text('Instruction code')), information: Type.Optional(Text('Further information')) },
  { description: 'Further processing information for the creditor agent' },
);

export const StructuredRemittanceSchema = OpenObject(
  {
    referredDocuments: Type.Optional(Opaque('Documents the payment settles')),
    referredDocumentAmount: Type.Optional(Opaque('Amounts of the referred documents')),
    creditorReference: Type.Optional(Opaque("Creditor's reference")),
    originatorReference: Type.Optional(Opaque("Originator's reference")),
    additionalRemittanceInformation: Type.Optional(Opaque('Additional remittance information')),
  },
  { description: 'Structured remittance information' },
);

export const RemittanceInformationSchema = OpenObject(
  {
    unstructured: Type.Optional(Type.Array(Text('Free-text remittance line'), { description: 'Unstructured remittance information' })),
    structured: Type.Optional(Type.Array(StructuredRemittanceSchema, { description: 'Structured remittance information' })),
  },
  { description: 'Information that lets the creditor match the payment to what it settles' },
);

export const RegulatoryReportingSchema = OpenObject({}, { description: 'Regulatory reporting entry (content not shown by the spec)' });

export const TaxInformationSchema = OpenObject(
  { totalAmount: Type.Optional(AmountSchema) },
  { description: 'Tax information; other fields are taken as sent' },
);

export const CreditTransferSchema = Type.Object(
  {
    schema: Type.Literal('CreditTransfer', { description: 'Message type: CreditTransfer' }),
    messageIdentifiers: MessageIdentifiersSchema,
    transactionIdentifiers: TransactionIdentifiersSchema,
    amounts: OpenObject(
      {
        bankSettlementAmount: AmountSchema,
        instructedAmount: Type.Optional(AmountSchema),
      },
      { description: 'Amounts of the transaction (TransactionAmounts)' },
    ),
    creditor: PartySchema,
    creditorAccount: PaymentAccountSchema,
    creditorAgent: InstitutionIdentificationSchema,
    creditorAgentAccount: Type.Optional(PaymentAccountSchema),
    debtor: PartySchema,
    debtorAccount: Type.Optional(PaymentAccountSchema),
    debtorAgent: InstitutionIdentificationSchema,
    debtorAgentAccount: Type.Optional(PaymentAccountSchema),
    initiatingParty: Type.Optional(PartySchema),
    instructedAgent: Type.Optional(InstitutionIdentificationSchema),
    instructingAgent: Type.Optional(InstitutionIdentificationSchema),
    instructionForCreditorAgent: Type.Optional(
      Type.Array(CreditorAgentInstructionSchema, { description: 'Further processing information for the creditor agent (0 or more)' }),
    ),
    intermediaryAgents: Type.Optional(
      Type.Array(InstitutionIdentificationSchema, { maxItems: 3, description: "Up to 3 intermediary agents; the first is next to the debtor's agent" }),
    ),
    previousInstructingAgents: Type.Optional(
      Type.Array(InstitutionIdentificationSchema, {
        maxItems: 3,
        description: "Up to 3 agents between the debtor's agent and the instructing agent",
      }),
    ),
    paymentScheme: CreditTransferPaymentSchemeSchema,
    paymentTypeInformation: Type.Optional(
      OpenObject({ localInstrument: Type.Optional(CodeAndValue('Local instrument')) }, { description: 'Payment type information' }),
    ),
    purpose: Type.Optional(CodeAndValue('Underlying reason for the payment (PurposeType)')),
    regulatoryReporting: Type.Optional(Type.Array(RegulatoryReportingSchema, { maxItems: 10, description: 'Up to 10 regulatory reporting entries' })),
    remittanceInformation: Type.Optional(RemittanceInformationSchema),
    settlementDate: Type.Optional(
      IsoDate('Date the amount stops being available to the paying agent and becomes available to the receiving agent'),
    ),
    supplementaryData: Type.Optional(SupplementaryDataSchema),
    tax: Type.Optional(TaxInformationSchema),
  },
  {
    $id: 'CreditTransfer',
    additionalProperties: true,
    description:
      'Outbound credit transfer. creditorAccount must carry identification or proxy (or both); CBPR_PLUS requires paymentScheme.schemeData ' +
      'with chargeBearer; every Amount takes an active ISO 4217 currency and at most its decimals.',
  },
);

export type CreditTransfer = Static<typeof CreditTransferSchema>;
export type CbprPlusSchemeData = Static<typeof CbprPlusSchemeDataSchema>;

/** A transfer's request as received (stored verbatim) and as parsed losslessly. */
export interface OriginalMessage {
  readonly rawBody: string;
  readonly message: CreditTransfer;
}
