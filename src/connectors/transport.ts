import type { SchemeConfig } from '../config/types.js';
import type { SchemeName } from '../domain/schemes.js';
import type { Clock } from '../ports/clock.js';
import type { SubmitOutcome } from '../ports/scheme.js';

/**
 * How a connector's scheme messages reach the scheme operator and how the operator's messages
 * come back. Families build and read the ISO 20022 documents; a transport only moves them, so an
 * operator's real channel (HTTPS gateway, MQ, SWIFT Alliance...) is added as one more transport
 * without touching any family. The built-in simulator is the transport named `simulator`; the
 * operator link (HTTPS, mutual TLS, signed messages: operator-link/) is the one named `operator-link`.
 */

export interface SchemeMessage {
  readonly scheme: SchemeName;
  /** ISO 20022 message name, e.g. `pacs.008.001.08`. */
  readonly messageName: string;
  /** GrpHdr/MsgId of the document. */
  readonly messageId: string;
  /**
   * The port's idempotency key of the transaction. Shared by all its messages (a pacs.008 and its
   * pacs.028 enquiries): an HTTP transport's `Idempotency-Key` is the `messageId`, one per message.
   */
  readonly idempotencyKey: string;
  /** The XML document. */
  readonly document: string;
  readonly traceparent: string | null;
}

export interface InboundSchemeMessage {
  /** The XML document as the operator sent it. */
  readonly document: string;
}

/** Resolves once the message has been handed on (durably recorded by the engine); a rejection asks the transport to deliver it again. */
export type InboundHandler = (message: InboundSchemeMessage) => Promise<void>;

export interface SchemeTransport {
  /** Hand one message to the operator. `delivered` means the operator took it; its answer comes through the handler. */
  send(message: SchemeMessage): Promise<SubmitOutcome>;
  /** Begin passing the operator's messages to `handler`. */
  start(handler: InboundHandler): Promise<void>;
  /** Stop; nothing reaches the handler afterwards. */
  stop(): Promise<void>;
}

/** Where a transport reports what it refused or could not do (pino's shape). */
export interface TransportLog {
  warn(details: Record<string, unknown>, message: string): void;
}

/** What a transport is built from: the scheme it serves and that scheme's configuration. */
export interface TransportContext {
  readonly scheme: SchemeName;
  /** The scheme's time budget (configuration `schemes.<SCHEME>.timeBudgetMs`). */
  readonly timeBudgetMs: number;
  /** The scheme's configuration entry, when the file has one (transport-specific keys such as `simulatorLatencyMs`). */
  readonly config: SchemeConfig | undefined;
  readonly clock: Clock;
  readonly log?: TransportLog;
}

export type TransportFactory = (context: TransportContext) => SchemeTransport;
