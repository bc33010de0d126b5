import { numberText } from '../../lib/json.js';
import { formatAmount, parseAmount } from '../../lib/money.js';
import { MAX35, schemeMessageId } from './ids.js';
import { clip, codeOrProprietary, COUNTRY_CODE, PartyMapper, Problems, record, scalar } from './parties.js';
import { child, readDocument, text, writeDocument } from './xml.js';
/**
 * Our CreditTransfer as an ISO 20022 FIToFICustomerCreditTransfer (pacs.008). Versions .08 and
 * .10 share the element order used here; they differ in one point that matters to us: .10's
 * CashAccount40 may omit the account number (a proxy-only creditor account), .08's may not.
 *
 * Mapping is pure and separate from writing: `mapCreditTransfer` yields the transaction element
 * or the reason it cannot be written, so a connector's `check()` refuses such a transfer with a
 * reason code before anything is sent; `pacs008Document` then only adds the group header.
 */
export const PACS008_VERSIONS = ['pacs.008.001.08', 'pacs.008.001.10'];
export const CHARGE_BEARER_CODES = ['DEBT', 'CRED', 'SHAR', 'SLEV'];
/** ActiveCurrencyAndAmount allows 18 digits in all (xs:totalDigits), decimals included. */
export const ISO_AMOUNT_DIGITS_MAX = 18;
const INSTRUCTION_CODES = new Set(['CHQB', 'HOLD', 'PHOB', 'TELB']);
/** The CdtTrfTxInf element of the transfer, or why the scheme message cannot carry it. */
export function mapCreditTransfer(transfer, settings) {
    const problems = new Problems();
    const transaction = new TransactionMapper(transfer, settings, problems).map();
    return problems.first === undefined ? { ok: true, transaction } : { ok: false, ...problems.first };
}
/** The whole pacs.008 document: group header plus the one transaction. */
export function pacs008Document(header, transaction, settings) {
    return writeDocument(settings.version, 'FIToFICstmrCdtTrf', {
        GrpHdr: {
            MsgId: header.messageId,
            CreDtTm: header.createdAt,
            NbOfTxs: '1',
            SttlmInf: {
                SttlmMtd: settings.settlementMethod,
                ClrSys: settings.clearingSystem === undefined ? undefined : { Prtry: settings.clearingSystem },
            },
        },
        CdtTrfTxInf: transaction,
    });
}
/** The date-time form written in group headers: UTC with an explicit offset (CBPR+ requires the offset). */
export function isoDateTime(epochMs) {
    return new Date(epochMs).toISOString().replace('Z', '+00:00');
}
class TransactionMapper {
    transfer;
    settings;
    problems;
    #message;
    #parts;
    constructor(transfer, settings, problems) {
        this.transfer = transfer;
        this.settings = settings;
        this.problems = problems;
        this.#message = transfer.message;
        this.#parts = new PartyMapper({ ...(settings.memberIdSystem === undefined ? {} : { memberIdSystem: settings.memberIdSystem }), accountWithoutNumber: settings.version !== 'pacs.008.001.08' }, problems);
    }
    map() {
        const m = this.#message;
        const ids = m.transactionIdentifiers;
        const messageId = schemeMessageId(this.transfer.idempotencyKey);
        const schemeData = record(m.paymentScheme.schemeData);
        const previous = m.previousInstructingAgents ?? [];
        const intermediaries = m.intermediaryAgents ?? [];
        return {
            PmtId: {
                // Point-to-point references of this hop are ours to assign: the integrator's when given, else the derived MsgId.
                InstrId: ids.instructionIdentification ?? messageId,
                EndToEndId: ids.endToEndIdentification,
                TxId: ids.transactionIdentification ?? messageId,
                UETR: this.transfer.uetr.toLowerCase(),
            },
            PmtTpInf: this.#paymentType(),
            IntrBkSttlmAmt: amountElement(this.transfer.amount),
            IntrBkSttlmDt: m.settlementDate,
            InstdAmt: m.amounts.instructedAmount === undefined ? undefined : this.#amount(m.amounts.instructedAmount, 'instructedAmount'),
            XchgRate: this.#exchangeRate(schemeData),
            ChrgBr: this.#chargeBearer(schemeData),
            ChrgsInf: this.#charges(schemeData),
            PrvsInstgAgt1: this.#parts.agent(previous[0]),
            PrvsInstgAgt2: this.#parts.agent(previous[1]),
            PrvsInstgAgt3: this.#parts.agent(previous[2]),
            InstgAgt: this.#parts.agent(m.instructingAgent),
            InstdAgt: this.#parts.agent(m.instructedAgent),
            IntrmyAgt1: this.#parts.agent(intermediaries[0]),
            IntrmyAgt2: this.#parts.agent(intermediaries[1]),
            IntrmyAgt3: this.#parts.agent(intermediaries[2]),
            InitgPty: m.initiatingParty === undefined ? undefined : this.#parts.party(m.initiatingParty),
            Dbtr: this.#parts.requiredParty(m.debtor, 'debtor'),
            DbtrAcct: this.#parts.account(m.debtorAccount, 'debtorAccount'),
            DbtrAgt: this.#parts.requiredAgent(m.debtorAgent, 'debtorAgent'),
            DbtrAgtAcct: this.#parts.account(m.debtorAgentAccount, 'debtorAgentAccount'),
            CdtrAgt: this.#parts.requiredAgent(m.creditorAgent, 'creditorAgent'),
            CdtrAgtAcct: this.#parts.account(m.creditorAgentAccount, 'creditorAgentAccount'),
            Cdtr: this.#parts.requiredParty(m.creditor, 'creditor'),
            CdtrAcct: this.#parts.account(withResolvedAccount(m.creditorAccount, this.transfer.resolvedAccount), 'creditorAccount'),
            InstrForCdtrAgt: (m.instructionForCreditorAgent ?? []).map((instruction) => {
                const code = instruction.code !== undefined && INSTRUCTION_CODES.has(instruction.code) ? instruction.code : undefined;
                const information = [code === undefined ? instruction.code : undefined, instruction.information].filter((part) => part !== undefined).join(' ');
                return { Cd: code, InstrInf: information === '' ? undefined : clip(information, 140) };
            }),
            Purp: codeOrProprietary(m.purpose, 4),
            RgltryRptg: (m.regulatoryReporting ?? []).map((entry) => this.#regulatoryReporting(entry)),
            RmtInf: this.#parts.remittance(m.remittanceInformation),
        };
    }
    #paymentType() {
        const instrument = this.#message.paymentTypeInformation?.localInstrument;
        const mapped = codeOrProprietary(instrument, 35);
        return mapped === undefined ? undefined : { LclInstrm: mapped };
    }
    #amount(amount, field) {
        const money = moneyOf(amount);
        if (money === undefined)
            return this.problems.add('FF02', `${field} is not an amount`);
        if (!isoAmountFits(money))
            return this.problems.add('AM02', `${field} has more than the 18 digits an ISO 20022 amount carries`);
        return amountElement(money);
    }
    #exchangeRate(schemeData) {
        const rate = schemeData?.exchangeRate;
        if (typeof rate !== 'number')
            return undefined;
        const literal = numberText(schemeData, 'exchangeRate') ?? String(rate);
        // BaseOneRate: a plain decimal with at most 11 digits, 10 of them decimals.
        const match = /^(\d+)(?:\.(\d+))?$/.exec(literal);
        if (match === null || (match[1] ?? '').replace(/^0+/, '').length + (match[2] ?? '').length > 11 || (match[2] ?? '').length > 10) {
            return this.problems.add('FF02', `exchangeRate ${literal} cannot be written as an ISO 20022 rate (at most 11 digits, 10 decimals)`);
        }
        return literal;
    }
    #chargeBearer(schemeData) {
        if (this.settings.chargeBearer !== 'schemeData')
            return this.settings.chargeBearer;
        const bearer = schemeData?.chargeBearer;
        if (typeof bearer === 'string' && CHARGE_BEARER_CODES.includes(bearer))
            return bearer;
        return this.problems.add('CH21', `paymentScheme.schemeData.chargeBearer (DEBT, CRED, SHAR or SLEV) is required on ${this.transfer.scheme}`);
    }
    /** Charges given as {amount, agent}; other shapes are not shown by the spec and are left out of the scheme message. */
    #charges(schemeData) {
        const charges = Array.isArray(schemeData?.charges) ? schemeData.charges : [];
        const out = [];
        for (const charge of charges) {
            const item = record(charge);
            const money = moneyOf(item?.amount);
            const agent = this.#parts.agent(record(item?.agent));
            if (money !== undefined && isoAmountFits(money) && agent !== undefined)
                out.push({ Amt: amountElement(money), Agt: agent });
        }
        return out;
    }
    /** Regulatory reporting given as {debitCreditReportingIndicator?, authority{name,country}, details[{type,date,country,code,amount,information}]}. */
    #regulatoryReporting(entry) {
        const item = record(entry);
        if (item === undefined)
            return undefined;
        const authority = record(item.authority);
        const indicator = typeof item.debitCreditReportingIndicator === 'string' && ['CRED', 'DEBT', 'BOTH'].includes(item.debitCreditReportingIndicator) ? item.debitCreditReportingIndicator : undefined;
        const details = (Array.isArray(item.details) ? item.details : []).map((detail) => {
            const d = record(detail);
            if (d === undefined)
                return undefined;
            const information = Array.isArray(d.information) ? d.information : d.information === undefined ? [] : [d.information];
            const money = moneyOf(d.amount);
            return {
                Tp: scalar(d.type, MAX35),
                Dt: typeof d.date === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(d.date) ? d.date : undefined,
                Ctry: typeof d.country === 'string' && COUNTRY_CODE.test(d.country) ? d.country : undefined,
                Cd: scalar(d.code, 10),
                Amt: money === undefined ? undefined : amountElement(money),
                Inf: information.map((line) => scalar(line, MAX35)),
            };
        });
        return {
            DbtCdtRptgInd: indicator,
            Authrty: authority === undefined ? undefined : { Nm: scalar(authority.name, 140), Ctry: typeof authority.country === 'string' && COUNTRY_CODE.test(authority.country) ? authority.country : undefined },
            Dtls: details,
        };
    }
}
/** The amount as ISO 20022 writes it: exact decimal text from bigint minor units, never through a float. */
export function amountElement(money) {
    return { '#text': formatAmount(money), '@_Ccy': money.currency };
}
/** Whether an amount fits ActiveCurrencyAndAmount (18 digits in all). */
export function isoAmountFits(money) {
    return formatAmount(money).replace('.', '').replace(/^0+(?=\d)/, '').length <= ISO_AMOUNT_DIGITS_MAX;
}
/** An Amount object of the interface as Money, judged from the number's literal text when known; undefined when it is not a valid amount. */
function moneyOf(amount) {
    const item = record(amount);
    if (item === undefined || typeof item.currency !== 'string' || typeof item.value !== 'number')
        return undefined;
    const parsed = parseAmount(numberText(item, 'value') ?? String(item.value), item.currency);
    return parsed.ok ? parsed.money : undefined;
}
/** A proxy-only creditor account with the account number its identifier determination resolved it to. */
function withResolvedAccount(account, resolved) {
    if (resolved === undefined || account.identification?.value !== undefined)
        return account;
    return { ...account, identification: { schema: 'GENERIC', value: resolved } };
}
export function readPacs008(xml) {
    const document = readDocument(xml);
    return document.ok ? pacs008From(document) : document;
}
/** readPacs008 of a document already parsed (a reader that parsed it to learn which message it is). */
export function pacs008From(document) {
    if (!document.messageName.startsWith('pacs.008.') || document.root !== 'FIToFICstmrCdtTrf')
        return { ok: false, error: `not a pacs.008: ${document.messageName}` };
    const body = document.body;
    const transaction = child(body, 'CdtTrfTxInf');
    const messageId = text(body, 'GrpHdr', 'MsgId');
    const createdAt = text(body, 'GrpHdr', 'CreDtTm');
    const endToEndId = text(transaction, 'PmtId', 'EndToEndId');
    const amount = text(transaction, 'IntrBkSttlmAmt');
    const currency = child(transaction, 'IntrBkSttlmAmt')?.['@_Ccy'];
    if (messageId === undefined || createdAt === undefined || endToEndId === undefined || amount === undefined || typeof currency !== 'string') {
        return { ok: false, error: 'pacs.008 lacks MsgId, CreDtTm, EndToEndId or IntrBkSttlmAmt' };
    }
    const account = child(transaction, 'CdtrAcct', 'Id');
    return {
        ok: true,
        value: {
            messageName: document.messageName,
            messageId,
            createdAt,
            instructionId: text(transaction, 'PmtId', 'InstrId'),
            endToEndId,
            transactionId: text(transaction, 'PmtId', 'TxId'),
            uetr: text(transaction, 'PmtId', 'UETR'),
            amount,
            currency,
            creditorAccount: text(account, 'IBAN') ?? text(account, 'Othr', 'Id'),
            creditorProxy: text(transaction, 'CdtrAcct', 'Prxy', 'Id'),
        },
    };
}
//# sourceMappingURL=pacs008.js.map