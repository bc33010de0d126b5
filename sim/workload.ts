import type { CreditTransfer } from '../src/domain/messages/credit-transfer.js';
import type { IdentifierDeterminationRequest } from '../src/domain/messages/identifier-determination.js';
import type { RequestToPay } from '../src/domain/messages/request-to-pay.js';
import { creditTransfer } from '../test/fixtures/credit-transfer.js';
import { identifierDetermination } from '../test/fixtures/identifier-determination.js';
import { requestToPay } from '../test/fixtures/request-to-pay.js';
import type { Random } from './random.js';

/**
 * The integrators of a simulation: each its own institution, answer mode and event names, and as
 * the receiving bank its own modes (between them every mode the configuration allows: sync, async
 * and auto authorisation, sync and async lookups, the scheme's answer budget and its own).
 */
export const SIM_INTEGRATORS = [
  { id: 'bank-a', bicfi: 'DEMOZAJJ', memberId: '210001', events: true, identifierDetermination: 'sync', eventTypeNames: 'current', inbound: { authorisation: 'sync', identifierDetermination: 'sync' } },
  { id: 'bank-b', bicfi: 'SIMBZAJJ', memberId: '210002', events: false, identifierDetermination: 'async', eventTypeNames: 'current', inbound: { authorisation: 'async', identifierDetermination: 'async', answerTimeoutMs: 3_000 } },
  { id: 'bank-c', bicfi: 'SIMCZAJJ', memberId: '210003', events: true, identifierDetermination: 'sync', eventTypeNames: 'legacy', inbound: { authorisation: 'auto', identifierDetermination: 'sync' } },
] as const;

export type SimIntegrator = (typeof SIM_INTEGRATORS)[number];

function agent(integrator: SimIntegrator): { bicfi: string; clearingSystemMemberId: { memberId: string } } {
  return { bicfi: integrator.bicfi, clearingSystemMemberId: { memberId: integrator.memberId } };
}

/** Decimal text of an amount in cents, as a JSON number literal is written. */
export function amountValue(minor: number): number {
  return minor / 100;
}

/** A credit transfer of `integrator` (ZA_RTC, or ZA_RPP to an account), its ids drawn from `random`. */
export function simCreditTransfer(random: Random, integrator: SimIntegrator, now: number, minor: number): CreditTransfer {
  const scheme = random.chance(0.5) ? 'ZA_RTC' : 'ZA_RPP';
  const message = creditTransfer(scheme);
  message.messageIdentifiers.messageIdentification = `MSG${random.uuid4().replaceAll('-', '')}`;
  message.messageIdentifiers.creationDateTime = new Date(now).toISOString();
  message.transactionIdentifiers.uetr = random.uuid4();
  message.amounts.bankSettlementAmount.value = amountValue(minor);
  message.debtorAgent = agent(integrator);
  if (scheme === 'ZA_RPP') message.creditorAccount = { identification: { schema: 'GENERIC', value: String(random.between(1_000_000_000, 9_999_999_999)) } };
  return message;
}

export function simLookup(random: Random, integrator: SimIntegrator): IdentifierDeterminationRequest {
  const message = identifierDetermination(random.chance(0.7) ? 'MOBILE' : 'GENERIC');
  message.messageIdentifiers.messageIdentification = `MSG${random.uuid4().replaceAll('-', '')}`;
  message.request.uetr = random.uuid4();
  message.request.verificationIdentification = `VRF${random.uuid4().replaceAll('-', '')}`;
  message.request.requestor = { ...message.request.requestor, bicfi: integrator.bicfi, memberId: integrator.memberId };
  if (message.request.instructingAgent !== undefined) message.request.instructingAgent = agent(integrator);
  return message;
}

export function simRequestToPay(random: Random, integrator: SimIntegrator, now: number, minor: number, expiresInMs: number): RequestToPay {
  const message = requestToPay('MOBILE', now);
  message.messageIdentifiers.messageIdentification = `RTP${random.uuid4().replaceAll('-', '')}`;
  message.transactionIdentifiers.uetr = random.uuid4();
  message.expiryDateTime = new Date(now + expiresInMs).toISOString();
  message.amounts.bankSettlementAmount.value = amountValue(minor);
  if (message.requestToPayConditions !== undefined) delete (message as { requestToPayConditions?: unknown }).requestToPayConditions;
  message.creditorAgent = agent(integrator);
  return message;
}

/** A message about an earlier one (status request, cancellation): its own message id, the original's identifiers. */
export function about(random: Random, original: { messageIdentifiers: { messageIdentification: string; creationDateTime: string }; transactionIdentifiers: { endToEndIdentification: string; transactionIdentification?: string; uetr: string } }, now: number, prefix: string) {
  const { endToEndIdentification, transactionIdentification, uetr } = original.transactionIdentifiers;
  return {
    messageIdentifiers: { messageIdentification: `${prefix}${random.uuid4().replaceAll('-', '')}`, creationDateTime: new Date(now).toISOString() },
    originalMessageIdentifiers: structuredClone(original.messageIdentifiers),
    originalTransactionIdentifiers: { endToEndIdentification, ...(transactionIdentification === undefined ? {} : { transactionIdentification }), uetr },
  };
}
