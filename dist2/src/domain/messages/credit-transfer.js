import { Type } from '@sinclair/typebox';
import { SCHEMES } from '../schemes.js';
import { AmountSchema, InstitutionIdentificationSchema, IsoDate, LIST_ITEMS_MAX, MessageIdentifiersSchema, Opaque, OpenObject, PartlyShownObject, PartySchema, PaymentAccountSchema, Scalars, StringEnum, SupplementaryDataSchema, Text, TransactionIdentifiersSchema, } from './common.js';
/** The CreditTransfer message (spec: Resources, CreditTransfer) sent to POST /transactions/outbound/credit-transfer. */
export const CHARGE_BEARERS = ['DEBT', 'CRED', 'SHAR', 'SLEV'];
// Bounds of lists ISO 20022 leaves unbounded in a pacs.008 (docs/validation.md, "Bounds"): with
// them, and every text bounded, the largest credit transfer intake accepts makes a pacs.008 of at
// most half of XML_DOCUMENT_BYTES_MAX (test/unit/message-bounds.test.ts).
/** ChrgsInf: one per agent that deducts a charge on the way (debtor agent, up to three intermediaries, creditor agent). */
export const CHARGES_MAX = 5;
/** RgltryRptg/Dtls of one entry. */
export const REPORTING_DETAILS_MAX = 3;
/** RgltryRptg/Dtls/Inf (Max35Text): three lines, what SWIFT MT field 77B (an MT103's regulatory reporting) carries. */
export const REPORTING_INFORMATION_LINES_MAX = 3;
/** RmtInf/Ustrd is Max140Text: a longer line of ours travels in several such pieces. */
export const REMITTANCE_PIECE_CHARS = 140;
/** The unstructured lines of a payment take at most this many Ustrd pieces (1,400 characters), in at most this many lines. */
export const REMITTANCE_PIECES_MAX = 10;
export const ChargeSchema = PartlyShownObject({
    amount: Type.Optional(Opaque('The amount charged, as an Amount')),
    agent: Type.Optional(InstitutionIdentificationSchema),
}, { description: 'A charge taken on the payment: its amount and the agent that took it, checked like any agent (other content not shown by the spec)' });
/** Charges of a payment: ChrgsInf of the pacs.008, of any scheme. */
const ChargesSchema = Type.Array(ChargeSchema, { maxItems: CHARGES_MAX, description: `Charges taken on the payment, at most ${CHARGES_MAX}` });
/** schemeData of a CBPR_PLUS credit transfer; required for that scheme (checked by a rule, see validate.ts). */
export const CbprPlusSchemeDataSchema = OpenObject({
    chargeBearer: StringEnum(CHARGE_BEARERS, {
        description: 'Who bears the charges: DEBT (the debtor), CRED (the creditor), SHAR (sender side by the debtor, receiver side by the creditor), ' +
            'SLEV (as the service level or scheme rules say)',
    }),
    charges: Type.Optional(ChargesSchema),
    exchangeRate: Type.Optional(Type.Number({ format: 'double', description: 'Factor converting one currency into another' })),
}, { description: 'Scheme data of a CBPR_PLUS credit transfer' });
export const CreditTransferPaymentSchemeSchema = OpenObject({
    schema: StringEnum(SCHEMES, { description: 'The payment scheme (discriminator of schemeData)' }),
    schemeData: Type.Optional(PartlyShownObject({ charges: Type.Optional(ChargesSchema) }, {
        description: 'Scheme-specific data. Required for CBPR_PLUS (chargeBearer, charges, exchangeRate); not shown for other schemes, ' +
            'whose charges, when given, are carried as in CBPR_PLUS',
    })),
}, { description: 'Scheme the payment is made in, with its scheme-specific data' });
const CodeAndValue = (description) => OpenObject({ schema: Type.Optional(Text('Kind of code, e.g. CODE or PROPRIETARY')), value: Type.Optional(Text('The code')) }, { description });
export const CreditorAgentInstructionSchema = OpenObject({ code: Type.Optional(Text('Instruction code')), information: Type.Optional(Text('Further information')) }, { description: 'Further processing information for the creditor agent' });
export const StructuredRemittanceSchema = OpenObject({
    referredDocuments: Type.Optional(Opaque('Documents the payment settles')),
    referredDocumentAmount: Type.Optional(Opaque('Amounts of the referred documents')),
    creditorReference: Type.Optional(Opaque("Creditor's reference")),
    originatorReference: Type.Optional(Opaque("Originator's reference")),
    additionalRemittanceInformation: Type.Optional(Opaque('Additional remittance information')),
}, { description: 'Structured remittance information' });
export const RemittanceInformationSchema = OpenObject({
    unstructured: Type.Optional(Type.Array(Type.String({
        maxLength: REMITTANCE_PIECES_MAX * REMITTANCE_PIECE_CHARS,
        description: `Free-text remittance line, carried in pieces of ${REMITTANCE_PIECE_CHARS} characters`,
    }), {
        maxItems: REMITTANCE_PIECES_MAX,
        description: `Unstructured remittance information: lines that fit in ${REMITTANCE_PIECES_MAX} pieces of ${REMITTANCE_PIECE_CHARS} characters in all`,
    })),
    structured: Type.Optional(Type.Array(StructuredRemittanceSchema, { maxItems: LIST_ITEMS_MAX, description: `Structured remittance information, at most ${LIST_ITEMS_MAX} items` })),
}, { description: 'Information that lets the creditor match the payment to what it settles' });
export const RegulatoryReportingDetailSchema = PartlyShownObject({
    information: Type.Optional(Scalars(`Information in words: one line, or at most ${REPORTING_INFORMATION_LINES_MAX}`, REPORTING_INFORMATION_LINES_MAX)),
}, { description: 'One detail of a regulatory reporting entry (type, date, country, code, amount, information; content otherwise not shown by the spec)' });
export const RegulatoryReportingSchema = PartlyShownObject({
    details: Type.Optional(Type.Array(RegulatoryReportingDetailSchema, { maxItems: REPORTING_DETAILS_MAX, description: `Details of the entry, at most ${REPORTING_DETAILS_MAX}` })),
}, { description: 'Regulatory reporting entry: authority and details (content otherwise not shown by the spec)' });
export const TaxInformationSchema = OpenObject({ totalAmount: Type.Optional(AmountSchema) }, { description: 'Tax information; other fields are taken as sent' });
export const CreditTransferSchema = Type.Object({
    schema: Type.Literal('CreditTransfer', { description: 'Message type: CreditTransfer' }),
    messageIdentifiers: MessageIdentifiersSchema,
    transactionIdentifiers: TransactionIdentifiersSchema,
    amounts: OpenObject({
        bankSettlementAmount: AmountSchema,
        instructedAmount: Type.Optional(AmountSchema),
    }, { description: 'Amounts of the transaction (TransactionAmounts)' }),
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
    instructionForCreditorAgent: Type.Optional(Type.Array(CreditorAgentInstructionSchema, {
        maxItems: LIST_ITEMS_MAX,
        description: `Further processing information for the creditor agent (0 or more, at most ${LIST_ITEMS_MAX})`,
    })),
    intermediaryAgents: Type.Optional(Type.Array(InstitutionIdentificationSchema, { maxItems: 3, description: "Up to 3 intermediary agents; the first is next to the debtor's agent" })),
    previousInstructingAgents: Type.Optional(Type.Array(InstitutionIdentificationSchema, {
        maxItems: 3,
        description: "Up to 3 agents between the debtor's agent and the instructing agent",
    })),
    paymentScheme: CreditTransferPaymentSchemeSchema,
    paymentTypeInformation: Type.Optional(OpenObject({ localInstrument: Type.Optional(CodeAndValue('Local instrument')) }, { description: 'Payment type information' })),
    purpose: Type.Optional(CodeAndValue('Underlying reason for the payment (PurposeType)')),
    regulatoryReporting: Type.Optional(Type.Array(RegulatoryReportingSchema, { maxItems: 10, description: 'Up to 10 regulatory reporting entries' })),
    remittanceInformation: Type.Optional(RemittanceInformationSchema),
    settlementDate: Type.Optional(IsoDate('Date the amount stops being available to the paying agent and becomes available to the receiving agent')),
    supplementaryData: Type.Optional(SupplementaryDataSchema),
    tax: Type.Optional(TaxInformationSchema),
}, {
    $id: 'CreditTransfer',
    additionalProperties: true,
    description: 'Outbound credit transfer. creditorAccount must carry identification or proxy (or both); CBPR_PLUS requires paymentScheme.schemeData ' +
        'with chargeBearer; every Amount takes an active ISO 4217 currency and at most its decimals.',
});
//# sourceMappingURL=credit-transfer.js.map