/**
 * Messages between the scheme simulator thread (simulator-thread.ts) and the service
 * (threaded-simulator.ts). Plain data only: they cross a thread boundary by structured clone.
 */
import type { SchemeName } from '../../domain/schemes.js';
import type { SubmitOutcome } from '../../ports/scheme.js';
import type { SchemeMessage } from '../transport.js';
import type { InboundOrder } from './inbound-values.js';
import type { InboundView, OriginateResult } from './simulated-operator.js';
import type { SimulatorOptions } from './simulator.js';

/** A simulator's settings as sent to the thread: the thread keeps its own (system) clock. */
export type SimulatorSettings = Omit<SimulatorOptions, 'clock'>;

export type ToSimulator =
  /** Simulate this scheme (again, after stop) with these settings. */
  | { readonly type: 'open'; readonly settings: SimulatorSettings }
  /** Pass the scheme's answers on (as `inbound` messages) from now on. */
  | { readonly type: 'start'; readonly scheme: SchemeName }
  /** Hand one message to the simulated operator; answered by `sent` with the same `call`. */
  | { readonly type: 'send'; readonly call: number; readonly message: SchemeMessage }
  /** Have the scheme's operator originate this order; answered by `originated` with the same `call`. */
  | { readonly type: 'originate'; readonly call: number; readonly scheme: SchemeName; readonly order: InboundOrder }
  /** What the scheme's operator has seen of an originated transaction; answered by `inbound_view` with the same `call`. */
  | { readonly type: 'inbound_of'; readonly call: number; readonly scheme: SchemeName; readonly uetr: string }
  /** How the service took `inbound` message `delivery`: a refusal makes the simulator deliver it again. */
  | { readonly type: 'handled'; readonly delivery: number; readonly ok: boolean }
  /** Forget the scheme: its timers stop and nothing more of it comes back. */
  | { readonly type: 'stop'; readonly scheme: SchemeName };

export type FromSimulator =
  | { readonly type: 'sent'; readonly call: number; readonly outcome: SubmitOutcome }
  | { readonly type: 'originated'; readonly call: number; readonly result: OriginateResult }
  | { readonly type: 'inbound_view'; readonly call: number; readonly view: InboundView | undefined }
  /** An answer of the simulated operator, for the scheme's inbound handler. */
  | { readonly type: 'inbound'; readonly delivery: number; readonly scheme: SchemeName; readonly document: string };
