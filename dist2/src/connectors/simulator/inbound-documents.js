import { parseJson } from '../../lib/json.js';
import { parseAmount } from '../../lib/money.js';
import { CBPR_PLUS } from '../cbpr-plus/family.js';
import { acmt023Document } from '../iso20022/acmt023.js';
import { cancellationReason } from '../iso20022/camt056.js';
import { isoDateTime, mapCreditTransfer, pacs008Document } from '../iso20022/pacs008.js';
import { pain013Document } from '../iso20022/pain013.js';
import { PartyMapper, Problems } from '../iso20022/parties.js';
import { writeDocument } from '../iso20022/xml.js';
import { TCIB } from '../tcib/family.js';
import { ZA_EFT } from '../za-eft/family.js';
import { ZA_RPP } from '../za-rpp/family.js';
import { ZA_RTC } from '../za-rtc/family.js';
import { INBOUND_CURRENCY, SIMULATED_BANK, SIMULATED_PAYEE, SIMULATED_PAYER } from './inbound-values.js';
/**
 * The documents the simulated operator originates for an integrator's institution (the receiving
 * direction), written by the same iso20022 writers regpay's connector uses for the sending
 * direction: the operator builds the port objects they take (an OutboundLookup, OutboundTransfer,
 * OutboundRequestToPay) as the other bank would have them. The camt.056 is written here, because
 * the connector's writer derives its ids from regpay's idempotency keys, which the operator's
 * messages do not have: its ids start with `S` (never regpay's reversible `U`/`K` forms).
 */
/** Every family (as the registry lists them; the registry itself is not imported: it imports the simulator). */
const FAMILIES = [ZA_RTC, ZA_RPP, ZA_EFT, CBPR_PLUS, TCIB];
export function inboundMessagesOf(scheme) {
    const family = FAMILIES.find((candidate) => candidate.schemes.includes(scheme));
    if (family === undefined)
        return undefined;
    return {
        family,
        lookup: family.messages.identifierDetermination?.request,
        requestToPay: family.messages.requestToPay?.request,
        withdrawal: family.messages.requestToPay?.cancellation,
    };
}
/** Who the operator is, in the port objects: no integrator of regpay's. */
const ORIGINATOR = 'scheme-simulator';
/** The acmt.023 asking the institution who is behind the order's proxy (or account). */
export function inboundLookupDocument(header, order, messages) {
    if (messages.lookup === undefined)
        return { ok: false, error: `${header.scheme} has no identifier determination` };
    const institution = institutionOf(order);
    const identifier = order.proxy === undefined
        ? { schema: 'GENERIC', value: order.accountNumber ?? '' }
        : { schema: order.proxy.schema, value: order.proxy.value, ...(order.proxy.namespace === undefined ? {} : { namespace: order.proxy.namespace }) };
    const message = {
        schema: 'IdentifierDeterminationRequest',
        messageIdentifiers: { messageIdentification: header.messageId, creationDateTime: isoDateTime(header.createdAt) },
        request: {
            schema: header.scheme,
            instructingAgent: simulatedBank(),
            instructedAgent: institution,
            requestor: { schema: 'INSTITUTION_IDENTIFICATION', bicfi: SIMULATED_BANK.bicfi, memberId: SIMULATED_BANK.memberId, name: SIMULATED_BANK.name },
            identifier,
            ...(order.proxy === undefined && order.institution.bicfi !== undefined ? { accountAgent: { bicfi: order.institution.bicfi } } : {}),
            uetr: header.uetr,
            verificationIdentification: header.messageId,
        },
    };
    const lookup = { ...portIds(header), message, traceparent: null };
    const { memberIdSystem, clearingSystem } = messages.family.messages.creditTransfer;
    const written = acmt023Document({ messageId: header.messageId, createdAt: isoDateTime(header.createdAt) }, lookup, {
        messageName: messages.lookup,
        ...(memberIdSystem === undefined ? {} : { memberIdSystem }),
        ...(clearingSystem === undefined ? {} : { clearingSystem }),
    });
    return written.ok ? written : { ok: false, error: `${written.reasonCode}: ${written.reasonText}` };
}
/** The pacs.008 paying the institution's customer. */
export function inboundCreditDocument(header, order, payee, messages) {
    const settings = messages.family.messages.creditTransfer;
    const amount = moneyOf(order.amount);
    const creditorAccount = {
        ...(payee.accountNumber === undefined ? {} : { identification: { schema: 'GENERIC', value: payee.accountNumber } }),
        ...(order.proxy === undefined ? {} : { proxy: { schema: order.proxy.schema, value: order.proxy.value, ...(order.proxy.namespace === undefined ? {} : { namespace: order.proxy.namespace }) } }),
    };
    const name = payee.legalName ?? payee.knownAsName ?? order.customerName ?? 'Customer';
    const message = {
        schema: 'CreditTransfer',
        messageIdentifiers: { messageIdentification: header.messageId, creationDateTime: isoDateTime(header.createdAt) },
        transactionIdentifiers: { endToEndIdentification: header.messageId, instructionIdentification: header.messageId, transactionIdentification: header.messageId, uetr: header.uetr },
        amounts: { bankSettlementAmount: amountJson(order.amount) },
        creditor: { legalName: name, ...(payee.knownAsName === undefined ? {} : { knownAsName: payee.knownAsName }) },
        creditorAccount,
        creditorAgent: institutionOf(order),
        debtor: { legalName: order.payerName },
        debtorAccount: { identification: { schema: 'GENERIC', value: SIMULATED_PAYER.account } },
        debtorAgent: simulatedBank(),
        instructingAgent: simulatedBank(),
        instructedAgent: institutionOf(order),
        // CBPR+ asks the charge bearer of the integrator's message; every other family fixes it.
        paymentScheme: { schema: header.scheme, ...(settings.chargeBearer === 'schemeData' ? { schemeData: { chargeBearer: 'SHAR' } } : {}) },
        ...(header.scheme === 'ZA_RPP' ? { paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: order.proxy === undefined ? 'PBA' : 'PBPX' } } } : {}),
        ...(order.remittance === undefined ? {} : { remittanceInformation: { unstructured: [order.remittance] } }),
    };
    const transfer = { ...portIds(header), message, amount, traceparent: null };
    const mapped = mapCreditTransfer(transfer, settings);
    if (!mapped.ok)
        return { ok: false, error: `${mapped.reasonCode}: ${mapped.reasonText}` };
    return { ok: true, document: pacs008Document({ messageId: header.messageId, createdAt: isoDateTime(header.createdAt) }, mapped.transaction, settings) };
}
/** The pain.013 a payee at the simulated bank sends the institution's customer. */
export function inboundRequestToPayDocument(header, order, messages) {
    if (messages.requestToPay === undefined)
        return { ok: false, error: `${header.scheme} has no request-to-pay` };
    const debtorAccount = {
        ...(order.accountNumber === undefined ? {} : { identification: { schema: 'GENERIC', value: order.accountNumber } }),
        ...(order.proxy === undefined ? {} : { proxy: { schema: order.proxy.schema, value: order.proxy.value, ...(order.proxy.namespace === undefined ? {} : { namespace: order.proxy.namespace }) } }),
    };
    const conditions = {
        ...(order.minAmount === undefined ? {} : { minAmount: amountJson(order.minAmount) }),
        ...(order.maxAmount === undefined ? {} : { maxAmount: amountJson(order.maxAmount) }),
    };
    const message = {
        schema: 'RequestToPay',
        messageIdentifiers: { messageIdentification: header.messageId, creationDateTime: isoDateTime(header.createdAt) },
        transactionIdentifiers: { endToEndIdentification: header.messageId, transactionIdentification: header.messageId, uetr: header.uetr },
        paymentScheme: { schema: header.scheme },
        amounts: { bankSettlementAmount: amountJson(order.amount) },
        paymentTypeInformation: { localInstrument: { schema: 'PROPRIETARY', value: order.proxy === undefined ? 'PBA' : 'PBPX' } },
        expiryDateTime: isoDateTime(header.expiresAt),
        ...(Object.keys(conditions).length === 0 ? {} : { requestToPayConditions: conditions }),
        creditor: { legalName: SIMULATED_PAYEE.name },
        creditorAccount: { identification: { schema: 'GENERIC', value: SIMULATED_PAYEE.account } },
        creditorAgent: simulatedBank(),
        debtor: { legalName: order.customerName ?? 'Customer' },
        debtorAccount,
        debtorAgent: institutionOf(order),
        ...(order.remittance === undefined ? {} : { remittanceInformation: { unstructured: [order.remittance] } }),
    };
    const request = { ...portIds(header), message, amount: moneyOf(order.amount), expiresAt: header.expiresAt, traceparent: null };
    const { memberIdSystem } = messages.family.messages.creditTransfer;
    const written = pain013Document({ messageId: header.messageId, createdAt: isoDateTime(header.createdAt) }, request, {
        messageName: messages.requestToPay,
        ...(memberIdSystem === undefined ? {} : { memberIdSystem }),
    });
    return written.ok ? written : { ok: false, error: `${written.reasonCode}: ${written.reasonText}` };
}
/**
 * The camt.056 withdrawing a request-to-pay: the payee's bank (the simulated bank) is the assigner
 * and the case's creator, the institution (the debtor's bank) the assignee. Case/Id, Assgnmt/Id and
 * CxlId are the operator's `caseId`; OrgnlGrpInf names the pain.013.
 */
export function inboundWithdrawalDocument(header, order, request, reasonCode, messages) {
    if (messages.withdrawal === undefined)
        return { ok: false, error: `${header.scheme} has no request-to-pay cancellation` };
    const { memberIdSystem } = messages.family.messages.creditTransfer;
    const problems = new Problems();
    const parts = new PartyMapper({ ...(memberIdSystem === undefined ? {} : { memberIdSystem }), accountWithoutNumber: true }, problems);
    const payeeBank = parts.requiredAgent(simulatedBank(), 'creditorAgent');
    const debtorBank = parts.requiredAgent(institutionOf(order), 'debtorAgent');
    if (problems.first !== undefined || payeeBank === undefined || debtorBank === undefined)
        return { ok: false, error: problems.first?.reasonText ?? 'no agent to address' };
    const document = writeDocument(messages.withdrawal, 'FIToFIPmtCxlReq', {
        Assgnmt: { Id: header.caseId, Assgnr: { Agt: payeeBank }, Assgne: { Agt: debtorBank }, CreDtTm: isoDateTime(header.createdAt) },
        Case: { Id: header.caseId, Cretr: { Agt: payeeBank } },
        Undrlyg: {
            TxInf: {
                CxlId: header.caseId,
                OrgnlGrpInf: { OrgnlMsgId: request.messageId, OrgnlMsgNmId: request.messageName },
                OrgnlInstrId: request.instructionId,
                OrgnlEndToEndId: request.endToEndId,
                OrgnlUETR: request.uetr,
                CxlRsnInf: { Rsn: cancellationReason(reasonCode) },
            },
        },
    });
    return { ok: true, document };
}
/** The institution as the integrator API names an agent. */
function institutionOf(order) {
    const { bicfi, memberId } = order.institution;
    return { ...(bicfi === undefined ? {} : { bicfi }), ...(memberId === undefined ? {} : { clearingSystemMemberId: { memberId } }) };
}
function simulatedBank() {
    return { bicfi: SIMULATED_BANK.bicfi, clearingSystemMemberId: { memberId: SIMULATED_BANK.memberId } };
}
/** The port objects' ids: the operator's message id stands for the key regpay would derive them from. */
function portIds(header) {
    return { transactionId: header.uetr, integratorId: ORIGINATOR, scheme: header.scheme, uetr: header.uetr, idempotencyKey: header.messageId };
}
/** An Amount of the integrator API from decimal text, its literal kept (numberText), so the writers judge the text, never a float. */
function amountJson(text) {
    const parsed = parseJson(`{"currency":"${INBOUND_CURRENCY}","value":${text}}`);
    if (!parsed.ok)
        throw new Error(`an order's amount ${text} was checked, yet is no JSON number`);
    return parsed.value;
}
function moneyOf(text) {
    const parsed = parseAmount(text, INBOUND_CURRENCY);
    if (!parsed.ok)
        throw new Error(`an order's amount ${text} was checked, yet does not parse: ${parsed.reason}`);
    return parsed.money;
}
//# sourceMappingURL=inbound-documents.js.map