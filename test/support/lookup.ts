import { randomUUID } from 'node:crypto';
import type { IdentifierDeterminationRequest, IdentifierSchema } from '../../src/domain/messages/identifier-determination.js';
import type { SchemeName } from '../../src/domain/schemes.js';
import type { IdentificationReport, InboundReport, OutboundLookup, SchemeInbound } from '../../src/ports/scheme.js';
import { identifierDetermination } from '../fixtures/identifier-determination.js';
import { ReportRecorder } from './inbound.js';

/** Test helpers for identifier determination: lookups as the engine hands them over, and an inbound side that records identification reports. */

export interface LookupIdentifier {
  readonly schema: IdentifierSchema;
  readonly value: string;
  readonly namespace?: string;
  /** accountAgent.bicfi (GENERIC). */
  readonly accountAgentBicfi?: string;
}

/**
 * The fixture request of the identifier's schema (test/fixtures/identifier-determination.ts) with
 * the identifier replaced, as the engine hands it to a connector; `change` edits the request.
 */
export function outboundLookup(identifier: LookupIdentifier, change: (request: IdentifierDeterminationRequest['request']) => void = () => undefined): OutboundLookup {
  const message = identifierDetermination(identifier.schema);
  const { request } = message;
  request.identifier = { schema: identifier.schema, value: identifier.value, ...(identifier.namespace === undefined ? {} : { namespace: identifier.namespace }) };
  if (identifier.accountAgentBicfi !== undefined) request.accountAgent = { bicfi: identifier.accountAgentBicfi };
  change(request);
  const scheme: SchemeName = 'ZA_RPP';
  return { transactionId: randomUUID(), integratorId: 'demo-bank', scheme, uetr: request.uetr.toLowerCase(), idempotencyKey: randomUUID(), message, traceparent: null };
}

export const mobile = (value: string, namespace = 'ZA_MOBILE'): LookupIdentifier => ({ schema: 'MOBILE', namespace, value });
export const shapId = (value: string, namespace = 'ZA_CUSTOM'): LookupIdentifier => ({ schema: 'CUSTOM', namespace, value });
export const account = (value: string, accountAgentBicfi = 'FIRNZAJJ'): LookupIdentifier => ({ schema: 'GENERIC', value, accountAgentBicfi });

/** Records every report; identification reports are found by their lookup's idempotency key. */
export class IdentificationInbound extends ReportRecorder<InboundReport> implements SchemeInbound {
  about(lookup: OutboundLookup): IdentificationReport[] {
    return this.reports.filter((report): report is IdentificationReport => report.kind === 'identification' && report.idempotencyKey === lookup.idempotencyKey);
  }

  /** Resolves once `count` reports about `lookup` have arrived; rejects after `timeoutMs`. */
  async waitFor(lookup: OutboundLookup, count = 1, timeoutMs = 2_000): Promise<IdentificationReport[]> {
    await this.until(
      () => this.about(lookup).length >= count,
      () => `expected ${count} identification report(s) about ${lookup.message.request.identifier.value} within ${timeoutMs} ms, got ${this.about(lookup).length}`,
      timeoutMs,
    );
    return this.about(lookup).slice(0, count);
  }
}
