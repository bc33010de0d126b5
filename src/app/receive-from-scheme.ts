import type { IntegratorConfig, SchemeConfig } from '../config/types.js';
import type { TransactionKind } from '../domain/kinds.js';
import { INBOUND_CREDIT_TRANSFER_MACHINE, INBOUND_IDENTIFIER_DETERMINATION_MACHINE, type InboundData, type InboundMode } from '../domain/machines/inbound.js';
import type { MachineDefinition } from '../domain/machines/machine.js';
import { INBOUND_REQUEST_TO_PAY_MACHINE, type IrtpData } from '../domain/machines/inbound-request-to-pay.js';
import { validateRequestToPay } from '../domain/messages/request-to-pay.js';
import { validateIdentifierDeterminationRequest } from '../domain/messages/identifier-determination.js';
import type { FieldError } from '../domain/errors.js';
import { validateCreditTransfer } from '../domain/messages/validate.js';
import type { SchemeName } from '../domain/schemes.js';
import { inboundTransactionId } from '../lib/inbound-id.js';
import { parseJson } from '../lib/json.js';
import type { Money } from '../lib/money.js';
import { traceparentFromUuid } from '../lib/trace.js';
import { INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT } from '../config/schema.js';
import type { AddressedInstitution, OriginateOutcome, SchemeRequest } from '../ports/scheme.js';
import { admit, type AdmitDeps } from './admit.js';

/**
 * The receiving direction's intake (CONTRACT §11): a lookup (acmt.023), a credit (pacs.008) or a
 * request-to-pay (pain.013) the scheme originates for an integrator's institution becomes that
 * integrator's transaction, or is refused to the scheme.
 * - Routed by the institution the message addresses (BIC on its first 8 characters, or member
 *   id) among the integrators that have the scheme: none → refused AGNT, and it never reaches
 *   another integrator.
 * - The message rendered in the integrator API's shape must pass the same rules as the
 *   integrator's own messages (refused FF02 otherwise, with the fields in words), so the
 *   integrator is only ever asked about a message it could have sent itself.
 * - Stored under the id derived from the scheme's MsgId (lib/inbound-id.ts): a resend of the
 *   message is the same transaction, answered again as it was answered, and the integrator is
 *   asked once. Its message id is that id too: 36 characters, so it never meets an integrator's own
 *   message ids (at most 35).
 * - A credit that follows a lookup of the same UETR records the lookup (`lookupId`), never
 *   requires it: RTC credits come without one.
 */
export interface ReceiveDeps extends AdmitDeps {
  readonly integrators: ReadonlyMap<string, IntegratorConfig>;
  readonly schemes: Readonly<Partial<Record<SchemeName, SchemeConfig>>>;
  readonly log: { warn(details: Record<string, unknown>, message: string): void };
}

/** What differs between the kinds the scheme starts. */
interface Receivable {
  readonly kind: TransactionKind;
  readonly machine: MachineDefinition;
  /** The rendered message checked by the integrator API's own rules: its UETR and amount, or the faults. */
  readonly check: (message: unknown) => Checked | { ok: false; errors: readonly FieldError[] };
  /** The machine's first working data (the scheme message's identity is added to it). */
  readonly data: (deps: ReceiveDeps, integrator: IntegratorConfig, request: SchemeRequest, checked: Checked) => Record<string, unknown>;
}

interface Checked {
  readonly ok: true;
  readonly uetr: string | undefined;
  readonly amount?: Money;
  /** What the machine keeps of the message (a request-to-pay's expiry and conditions). */
  readonly keep?: Readonly<Record<string, unknown>>;
}

/** The working data of a message the integrator is asked to answer within a budget (lookups, credits). */
function answered(mode: (integrator: IntegratorConfig) => InboundMode) {
  return (deps: ReceiveDeps, integrator: IntegratorConfig, request: SchemeRequest): InboundData & Record<string, unknown> => ({
    mode: mode(integrator),
    deadlineAt: request.receivedAt + answerTimeoutMs(deps, integrator, request.scheme),
  });
}

const RECEIVABLE: Readonly<Record<SchemeRequest['kind'], Receivable>> = {
  credit: {
    kind: 'INBOUND_CREDIT_TRANSFER',
    machine: INBOUND_CREDIT_TRANSFER_MACHINE,
    data: answered((integrator) => integrator.inbound.authorisation),
    check: (message) => {
      const checked = validateCreditTransfer(message);
      return checked.ok ? { ok: true, uetr: checked.value.uetr, amount: checked.value.settlementAmount } : checked;
    },
  },
  lookup: {
    kind: 'INBOUND_IDENTIFIER_DETERMINATION',
    machine: INBOUND_IDENTIFIER_DETERMINATION_MACHINE,
    data: answered((integrator) => integrator.inbound.identifierDetermination),
    check: (message) => {
      const checked = validateIdentifierDeterminationRequest(message);
      return checked.ok ? { ok: true, uetr: checked.value.message.request.uetr } : checked;
    },
  },
  // The integrator's own expiry rules (in the future, within requestToPay.expiryHorizonMs) are not
  // asked: the scheme and the creditor's bank set the expiry. A request that arrives already
  // expired is taken, and its machine ends it EXPIRED at once without handing it over.
  request_to_pay: {
    kind: 'INBOUND_REQUEST_TO_PAY',
    machine: INBOUND_REQUEST_TO_PAY_MACHINE,
    data: (_deps, _integrator, _request, checked) => ({ ...checked.keep }),
    check: (message) => {
      const checked = validateRequestToPay(message);
      if (!checked.ok) return checked;
      const { value } = checked;
      const keep: IrtpData & Record<string, unknown> = {
        expiresAt: value.expiresAt,
        endToEndId: value.message.transactionIdentifiers.endToEndIdentification,
        ...(value.minAmount === undefined ? {} : { minMinor: value.minAmount.minor.toString() }),
        ...(value.maxAmount === undefined ? {} : { maxMinor: value.maxAmount.minor.toString() }),
      };
      return { ok: true as const, uetr: value.uetr, amount: value.amount, keep };
    },
  },
};

export async function receiveFromScheme(deps: ReceiveDeps, request: SchemeRequest): Promise<OriginateOutcome> {
  const receivable = RECEIVABLE[request.kind];
  const integrator = integratorOf(deps.integrators, request.scheme, request.institution);
  if (integrator === undefined) {
    deps.log.warn({ scheme: request.scheme, institution: request.institution, messageId: request.original.messageId }, 'scheme message for an institution no integrator holds refused (AGNT)');
    return refused('AGNT', 'no participant here for that agent');
  }
  const parsed = parseJson(request.bodyJson);
  const checked = parsed.ok ? receivable.check(parsed.value) : { ok: false as const, errors: [{ field: '', message: parsed.message }] };
  if (!parsed.ok || !checked.ok) {
    const errors = checked.ok ? [] : checked.errors;
    deps.log.warn({ scheme: request.scheme, messageId: request.original.messageId, errors }, 'scheme message that breaks the message rules refused (FF02)');
    return refused('FF02', errors.map((error) => error.field).join(' ') || 'syntax');
  }
  const id = inboundTransactionId(request.scheme, request.original.messageName, request.original.messageId);
  const uetr = (checked.uetr ?? request.original.uetr ?? id).toLowerCase();
  const lookup = receivable.kind === 'INBOUND_CREDIT_TRANSFER' ? await deps.store.findTransaction(integrator.id, uetr, 'INBOUND_IDENTIFIER_DETERMINATION') : undefined;
  const data: Record<string, unknown> = {
    ...receivable.data(deps, integrator, request, checked),
    origin: request.original,
    ...(lookup === undefined ? {} : { lookupId: lookup.id }),
  };
  const outcome = await admit(deps, {
    id,
    integrator,
    kind: receivable.kind,
    state: receivable.machine.initialState,
    scheme: request.scheme,
    uetr,
    messageId: id,
    rawBody: request.bodyJson,
    received: request.received,
    message: parsed.value,
    ...(checked.amount === undefined ? {} : { amount: checked.amount }),
    // A scheme message starts a trace of its own (the link carries none to continue).
    trace: { traceparent: traceparentFromUuid(deps.ids.uuid()), tracestate: null },
    data,
  });
  if (outcome.kind === 'accepted') return { kind: 'accepted' };
  // The scheme sent the message again (same MsgId, or the same UETR under a new MsgId): answered again, never asked twice.
  const existing = outcome.kind === 'uetr_conflict' ? (await deps.store.findTransaction(integrator.id, uetr, receivable.kind))?.id : outcome.transactionId;
  if (existing !== undefined) await deps.processing?.request(existing, { type: 'resend', trace: { traceparent: traceparentFromUuid(deps.ids.uuid()), tracestate: null } });
  return { kind: 'accepted' };
}

/** The integrator whose institution the message addresses, among those that have the scheme. */
export function integratorOf(integrators: ReadonlyMap<string, IntegratorConfig>, scheme: SchemeName, institution: AddressedInstitution): IntegratorConfig | undefined {
  const bic = institution.bicfi?.slice(0, 8);
  for (const integrator of integrators.values()) {
    if (!integrator.schemes.includes(scheme)) continue;
    const own = integrator.institution;
    if (bic !== undefined && own.bicfi !== undefined && own.bicfi.slice(0, 8) === bic) return integrator;
    if (institution.memberId !== undefined && own.memberId === institution.memberId) return integrator;
  }
  return undefined;
}

function answerTimeoutMs(deps: ReceiveDeps, integrator: IntegratorConfig, scheme: SchemeName): number {
  return integrator.inbound.answerTimeoutMs ?? deps.schemes[scheme]?.inbound.answerTimeoutMs ?? INBOUND_ANSWER_TIMEOUT_MS_MAX_DEFAULT;
}

function refused(reasonCode: string, reasonText: string): OriginateOutcome {
  return { kind: 'refused', reasonCode, reasonText };
}
