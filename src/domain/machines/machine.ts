import { AssertionError } from '../../lib/assert.js';
import type { TransactionKind } from '../kinds.js';

/**
 * What every transaction kind's state machine declares (STYLE.md rule 14): its states with their
 * legal transitions and the state a transaction starts in. Each state is named after the event
 * type emitted when it is entered (CONTRACT §4), so "one event per state entered" holds by
 * construction. A machine's pure `decide()` lives beside its definition; the engine commits what
 * it returns and asserts every transition against `transitions` first.
 */
export interface MachineDefinition<State extends string = string> {
  readonly kind: TransactionKind;
  /** In words, for messages: e.g. `credit-transfer`. */
  readonly name: string;
  readonly initialState: State;
  /** Every legal transition; a state with none is final. */
  readonly transitions: Readonly<Record<State, readonly State[]>>;
}

/**
 * One state entered by a decision, with the message of the operation that caused it (the event's
 * payload; docs/api.md, Event payloads). A machine writes no messages: where a state is the sending
 * of one (a callback, an answer), the kind's driver fills in the message it rendered
 * (engine/kinds/kind.ts `carrying`).
 */
export interface Step<State extends string = string> {
  readonly state: State;
  /** JSON text of the message that caused entering this state; null: the original request. */
  readonly payloadJson: string | null;
}

export function isStateOf<State extends string>(machine: MachineDefinition<State>, value: string): value is State {
  return Object.prototype.hasOwnProperty.call(machine.transitions, value);
}

/** An illegal transition is a bug: it crashes the unit of work and is never committed. */
export function assertLegalTransition(machine: MachineDefinition, from: string, to: string): void {
  if (!isStateOf(machine, from) || !isStateOf(machine, to) || !machine.transitions[from]!.includes(to)) {
    throw new AssertionError(`illegal ${machine.name} transition ${from} -> ${to}`);
  }
}
