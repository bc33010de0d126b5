import { Type } from '@sinclair/typebox';
/**
 * The longest text the interface takes where neither the spec nor the ISO 20022 element it becomes
 * names a shorter length: Max2048Text, the longest text of the scheme messages (a proxy, an
 * e-mail address). What the scheme message carries shorter, the connector cuts or refuses with a
 * reason code (docs/connectors.md).
 */
export const TEXT_CHARS_MAX = 2048;
/**
 * The most items of a list ISO 20022 leaves unbounded, unless a closer bound is given where the
 * list is (credit-transfer.ts): as many as ISO 20022 allows of regulatory reporting entries
 * (RgltryRptg, 0..10). Party identifications, further identifications of an institution,
 * instructions for the creditor agent, structured remittance items, reasons of an answer.
 */
export const LIST_ITEMS_MAX = 10;
/** PostalAddress24/AdrLine: 0..7 lines. */
export const ADDRESS_LINES_MAX = 7;
/** An RFC 3339 date-time with nanoseconds and an offset has 35 characters; longer fractions are taken up to this. */
export const DATE_TIME_CHARS_MAX = 64;
/** An object of the interface: open to properties beyond those listed (integrators send richer messages). */
export function OpenObject(properties, options) {
    return Type.Object(properties, { additionalProperties: true, ...options });
}
/**
 * An object the spec shows only in part: besides `properties`, any member is taken, kept and typed
 * `unknown` (the connector reads the shown members; the others travel as sent).
 */
export function PartlyShownObject(properties, options) {
    return Type.Unsafe(OpenObject(properties, options));
}
/** One of a fixed list of strings: a single `enum`, so a wrong value yields one error listing the allowed ones. */
export function StringEnum(values, options) {
    return Type.Unsafe({ type: 'string', enum: [...values], ...options });
}
/** A scalar whose constraints the spec does not show: a string (of at most TEXT_CHARS_MAX characters) or a number, kept as sent (CONTRACT §9). */
export function Scalar(description) {
    return Type.Unsafe({ type: ['string', 'number'], maxLength: TEXT_CHARS_MAX, description });
}
/** A Scalar, or a list of at most `maxItems` of them (a field that takes one line or several). */
export function Scalars(description, maxItems) {
    return Type.Unsafe({
        type: ['string', 'number', 'array'],
        maxLength: TEXT_CHARS_MAX,
        maxItems,
        items: { type: ['string', 'number'], maxLength: TEXT_CHARS_MAX },
        description,
    });
}
/** A field whose content the spec does not show at all: anything is accepted and passed through. */
export function Opaque(description) {
    return Type.Unknown({ description });
}
/** A text field whose length neither the spec nor ISO 20022 states: at most TEXT_CHARS_MAX characters. */
export function Text(description) {
    return Type.String({ maxLength: TEXT_CHARS_MAX, description });
}
/** An identifier of at most 35 characters (ISO 20022 Max35Text); empty is not an identifier. */
export function Max35Identifier(description) {
    return Type.String({ minLength: 1, maxLength: 35, description });
}
/** A name of 1 to 140 characters (knownAsName, legalName). */
export function Name140(description) {
    return Type.String({ minLength: 1, maxLength: 140, description });
}
export function DateTime(description) {
    return Type.String({
        format: 'date-time',
        maxLength: DATE_TIME_CHARS_MAX,
        description,
        'x-message': 'must be an RFC 3339 date-time with a time zone, e.g. 2024-05-01T10:15:30Z or 2024-05-01T12:15:30.250+02:00',
    });
}
export function IsoDate(description) {
    return Type.String({ format: 'date', description, 'x-message': 'must be a date in the form YYYY-MM-DD, e.g. 2024-05-01' });
}
export function Uuid(description) {
    return Type.String({ format: 'uuid', description, 'x-message': 'must be a UUID, e.g. 7c1f3a52-5b9e-4d7a-9f0e-2b8c6d4e1a90' });
}
export function CurrencyCode(description) {
    return Type.String({ pattern: '^[A-Z]{3}$', description, 'x-message': 'must be a three-letter ISO 4217 currency code in capitals, e.g. ZAR' });
}
export function CountryCode(description) {
    return Type.String({
        pattern: '^[A-Z]{2}$',
        description,
        'x-country': true,
        'x-message': 'must be a two-letter ISO 3166-1 alpha-2 country code in capitals, e.g. ZA',
    });
}
export function Bic(description) {
    return Type.String({
        pattern: '^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$',
        description,
        'x-message': 'must be a BIC (ISO 9362): 4 letters or digits, a 2-letter country, 2 letters or digits, optionally a 3-character branch, e.g. DEMOZAJJ',
    });
}
export function Lei(description) {
    return Type.String({
        pattern: '^[A-Z0-9]{18}[0-9]{2}$',
        description,
        'x-message': 'must be an LEI (ISO 17442): 18 capital letters or digits followed by 2 check digits',
    });
}
export const MessageIdentifiersSchema = OpenObject({
    messageIdentification: Max35Identifier('Point-to-point unique reference of the message; identifies one message in a multi-message exchange'),
    creationDateTime: DateTime("Creation time of the message, in the sender's local time zone or UTC (RFC 3339)"),
}, { description: 'Identifies one message' });
export const TransactionIdentifiersSchema = OpenObject({
    endToEndIdentification: Max35Identifier('Assigned by the initiating party and passed unchanged through the whole chain; distinct from the UETR'),
    instructionIdentification: Type.Optional(Max35Identifier('Point-to-point instruction reference between instructing and instructed party')),
    transactionIdentification: Type.Optional(Max35Identifier('Assigned by the first instructing agent, unchanged through the interbank chain; unique for a pre-agreed period')),
    uetr: Uuid('Unique end-to-end transaction reference: the same for all messages of one transaction'),
}, { description: 'Identifies the transaction' });
export const AmountSchema = OpenObject({
    currency: CurrencyCode('Active ISO 4217 currency code'),
    value: Type.Number({
        minimum: 0,
        format: 'double',
        description: 'Amount in major units with the decimals ISO 4217 allows for the currency: a two-decimal currency takes 10, 10.0 or 10.00 ' +
            'but not 10.000; a zero-decimal currency takes no fraction except .0',
    }),
}, { description: 'An amount of money in a currency', 'x-amount': true });
export const PostalAddressSchema = OpenObject({
    addressType: Type.Optional(Scalar('Kind of address')),
    department: Type.Optional(Scalar('Department')),
    streetName: Type.Optional(Scalar('Street name')),
    buildingNumber: Type.Optional(Scalar('Building number, as a string or a number')),
    buildingName: Type.Optional(Scalar('Building name')),
    floor: Type.Optional(Scalar('Floor')),
    postBox: Type.Optional(Scalar('Post box')),
    postCode: Type.Optional(Scalar('Post code')),
    townName: Type.Optional(Scalar('Town name')),
    townLocationName: Type.Optional(Scalar('Location within the town')),
    districtName: Type.Optional(Scalar('District')),
    countrySubDivision: Type.Optional(Scalar('Province, state or other subdivision')),
    country: Type.Optional(Scalar('Country (constraints not shown by the spec; kept as sent)')),
    addressLine: Type.Optional(Type.Array(Scalar('One line of an unstructured address'), { maxItems: ADDRESS_LINES_MAX, description: `Unstructured address lines, at most ${ADDRESS_LINES_MAX} (ISO 20022 AdrLine)` })),
}, { description: 'Postal address; its field constraints are not shown by the spec, so scalars are taken as strings or numbers' });
export const ContactDetailsSchema = OpenObject({
    phoneNumber: Type.Optional(Scalar('Phone number')),
    mobileNumber: Type.Optional(Scalar('Mobile number')),
    emailAddress: Type.Optional(Scalar('E-mail address')),
}, { description: 'Contact details' });
export const PartyIdentificationSchema = OpenObject({
    schema: Type.Optional(Scalar('Kind of party, e.g. PERSON or an organisation')),
    identifiers: Type.Optional(Type.Array(OpenObject({
        identification: Type.Optional(Scalar('The identifier')),
        issuer: Type.Optional(Scalar('Issuer of the identifier')),
        scheme: Type.Optional(OpenObject({ schema: Type.Optional(Scalar('Scheme kind')), value: Type.Optional(Scalar('Scheme name or code')) }, { description: 'Scheme of the identifier' })),
    }, { description: 'One identifier of the party' }), { maxItems: LIST_ITEMS_MAX, description: `Identifiers of the party, at most ${LIST_ITEMS_MAX}` })),
}, { description: 'Identification of a person or organisation' });
export const PartySchema = OpenObject({
    address: Type.Optional(PostalAddressSchema),
    contactDetails: Type.Optional(ContactDetailsSchema),
    countryOfResidence: Type.Optional(CountryCode('Country of residence (ISO 3166-1 alpha-2)')),
    identification: Type.Optional(PartyIdentificationSchema),
    knownAsName: Type.Optional(Name140('Everyday name; may equal legalName')),
    legalName: Type.Optional(Name140('Name on official documents')),
}, { description: 'A person or organisation taking part in the payment' });
export const BankingIdentifierSchema = OpenObject({
    schema: Type.Optional(Text('Kind of identifier, e.g. GENERIC')),
    scheme: Type.Optional(OpenObject({ schema: Type.Optional(Text('Scheme kind, e.g. PROPRIETARY')), value: Type.Optional(Text('Scheme name or code')) }, { description: 'Scheme of the account identifier' })),
    issuer: Type.Optional(Text('Issuer of the identifier')),
    value: Type.Optional(Type.String({ minLength: 1, maxLength: TEXT_CHARS_MAX, description: 'The account number or other identifier' })),
}, { description: 'Account identification by a banking identifier (account number)' });
export const NonBankingIdentifierSchema = OpenObject({
    namespace: Type.Optional(Text('Context that tells apart equal values meant for different accounts')),
    schema: Type.Optional(Text('Kind of proxy, e.g. MOBILE or CUSTOM')),
    value: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: 'The proxy: a mobile number such as +27-0214620000, or a custom identifier such as value@domain' })),
}, { description: 'Account identification by a proxy (non-banking identifier)' });
export const AccountTypeSchema = OpenObject({ schema: Type.Optional(Text('Kind of type code, e.g. CODE')), value: Type.Optional(Text('Account type, e.g. CACC')) }, { description: 'Type of account' });
export const PaymentAccountSchema = OpenObject({
    currency: Type.Optional(CurrencyCode('Currency of the account')),
    identification: Type.Optional(BankingIdentifierSchema),
    name: Type.Optional(Type.String({ maxLength: 70, description: 'Name of the account' })),
    proxy: Type.Optional(NonBankingIdentifierSchema),
    type: Type.Optional(AccountTypeSchema),
}, { description: 'An account, identified by a banking identifier, a proxy, or both' });
export const ClearingSystemMemberIdentificationSchema = OpenObject({ memberId: Max35Identifier('Identifier of the institution in the clearing system') }, { description: 'Clearing system member identification (preferred over the deprecated memberId)' });
export const BranchIdentificationSchema = OpenObject({
    identification: Type.Optional(Scalar('Branch identifier')),
    name: Type.Optional(Scalar('Branch name')),
    address: Type.Optional(PostalAddressSchema),
}, { description: 'Branch of the institution' });
export const AccountIdentificationSchema = OpenObject({}, { description: 'A further identification of the institution (content not shown by the spec)' });
export const InstitutionIdentificationSchema = OpenObject({
    additionalIdentifications: Type.Optional(Type.Array(AccountIdentificationSchema, { maxItems: LIST_ITEMS_MAX, description: `Further identifications, at most ${LIST_ITEMS_MAX}` })),
    address: Type.Optional(PostalAddressSchema),
    bicfi: Type.Optional(Bic('BIC of the institution (ISO 9362)')),
    branch: Type.Optional(BranchIdentificationSchema),
    clearingSystemMemberId: Type.Optional(ClearingSystemMemberIdentificationSchema),
    lei: Type.Optional(Lei('Legal Entity Identifier (ISO 17442)')),
    name: Type.Optional(Type.String({ maxLength: 140, description: 'Name of the institution' })),
    companyRegistration: Type.Optional(Type.String({ maxLength: 35, deprecated: true, description: 'Company registration (deprecated)' })),
    memberId: Type.Optional(Type.String({ maxLength: 35, deprecated: true, description: 'Member identifier (deprecated: use clearingSystemMemberId.memberId)' })),
}, { description: 'A financial institution' });
export const SupplementaryDataSchema = OpenObject({}, { description: 'Free extra data attached to the message, as key-value pairs' });
//# sourceMappingURL=common.js.map