import type { SchemeName } from './schemes.js';

/**
 * The Event envelope posted to the integrator's events API (spec "Event"; CONTRACT §4).
 * `payload` is the message that caused the transition, spliced in as JSON text so the event
 * carries it exactly as stored.
 */
export const EVENTS_API_VERSION = '1.0.0';
export const EVENT_CLASS = 'TRANSACTION_STATE';

export type Direction = 'OUTBOUND' | 'INBOUND';

export interface EventInput {
  readonly type: string;
  readonly stageVersion?: number;
  readonly uetr: string;
  readonly direction: Direction;
  readonly scheme: SchemeName;
  /** Event's own message id (max 35 characters). */
  readonly messageIdentification: string;
  readonly createdAt: number;
  /** JSON text of the message that caused the transition. */
  readonly payloadJson: string;
}

/** `service` names the scheme family and direction, as in the seed system's sample (`RTC_INBOUND`). */
export function serviceName(scheme: SchemeName, direction: Direction): string {
  return `${scheme.replace(/^ZA_/, '')}_${direction}`;
}

export function eventJson(input: EventInput): string {
  const envelope = {
    name: `${EVENT_CLASS}_${input.type}`,
    apiVersion: EVENTS_API_VERSION,
    class: EVENT_CLASS,
    type: input.type,
    stageVersion: input.stageVersion ?? 1,
    tranInfo: {
      tranUetr: input.uetr,
      direction: input.direction,
      paymentScheme: input.scheme,
      service: serviceName(input.scheme, input.direction),
    },
    messageInfo: {
      messageIdentification: input.messageIdentification,
      creationDateTime: new Date(input.createdAt).toISOString(),
    },
  };
  const head = JSON.stringify(envelope);
  return `${head.slice(0, -1)},"payload":${input.payloadJson}}`;
}
