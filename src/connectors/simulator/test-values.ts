/**
 * The simulator's test values: what `creditorAccount.identification.value` makes the simulated
 * scheme do. docs/simulator.md is this table for integrators, and a test keeps the two in step.
 * Every value has a numeric form (for banking apps that accept digits only) and a mnemonic one.
 * Any other account number, and a proxy payment without one, is approved.
 */
export type SimulatedBehaviour =
  | { readonly kind: 'approve' }
  | { readonly kind: 'reject'; readonly reasonCode: string }
  /** Approves, but only after the scheme's time budget has run out. */
  | { readonly kind: 'late' }
  /** Takes the transfer and never answers it, nor any enquiry about it. */
  | { readonly kind: 'silent' }
  /** Approves, and delivers that same status report a second time. */
  | { readonly kind: 'twice' }
  /** Answers PDNG first, then ACSC. */
  | { readonly kind: 'pending_then_accept' }
  /** Answers a TxSts outside the ISO 20022 code list. */
  | { readonly kind: 'unknown_status' }
  /** The first submission fails at the transport (retryable); the next one is taken and approved. */
  | { readonly kind: 'transient_failure' }
  /** Every submission fails at the transport, not retryable. */
  | { readonly kind: 'permanent_failure' };

export interface TestValue {
  /** Numeric account number. */
  readonly value: string;
  /** The same behaviour, by name. */
  readonly alias: string;
  readonly behaviour: SimulatedBehaviour;
}

/** The TxSts the simulator answers for `unknown_status`: four characters, as the XSD allows, but no ISO 20022 status code. */
export const UNKNOWN_STATUS_CODE = 'UNKN';

/** Reason codes the simulator rejects with, in table order: the interface's account and agent codes. */
export const REJECTION_CODES = ['AC01', 'AC04', 'AC06', 'AC16', 'AC17', 'AG01', 'AG03', 'AG10', 'AM02', 'MD07', 'NOCM', 'BE01', 'RR12', 'NAUT', 'AB10'] as const;

const REJECTIONS: readonly TestValue[] = REJECTION_CODES.map((reasonCode, index) => ({
  value: `99900001${String(index + 1).padStart(2, '0')}`,
  alias: `REJECT-${reasonCode}`,
  behaviour: { kind: 'reject', reasonCode },
}));

export const TEST_VALUES: readonly TestValue[] = [
  ...REJECTIONS,
  { value: '9990000201', alias: 'ANSWER-LATE', behaviour: { kind: 'late' } },
  { value: '9990000202', alias: 'NEVER-ANSWER', behaviour: { kind: 'silent' } },
  { value: '9990000203', alias: 'ANSWER-TWICE', behaviour: { kind: 'twice' } },
  { value: '9990000204', alias: 'PENDING-THEN-ACCEPT', behaviour: { kind: 'pending_then_accept' } },
  { value: '9990000205', alias: 'UNKNOWN-STATUS', behaviour: { kind: 'unknown_status' } },
  { value: '9990000206', alias: 'TRANSIENT-FAILURE', behaviour: { kind: 'transient_failure' } },
  { value: '9990000207', alias: 'PERMANENT-FAILURE', behaviour: { kind: 'permanent_failure' } },
];

const BY_VALUE: ReadonlyMap<string, SimulatedBehaviour> = new Map(TEST_VALUES.flatMap((entry) => [[entry.value, entry.behaviour] as const, [entry.alias, entry.behaviour] as const]));

const APPROVE: SimulatedBehaviour = { kind: 'approve' };

/** The behaviour for a creditor account number (as read from CdtrAcct of the pacs.008); approve for anything not in the table. */
export function behaviourFor(account: string | undefined): SimulatedBehaviour {
  return account === undefined ? APPROVE : (BY_VALUE.get(account.trim().toUpperCase()) ?? APPROVE);
}

/**
 * One answer of the simulated scheme to a transfer: how long after the previous one it comes (the
 * scheme's latency, or just past its time budget), and what it is: a status, or the last status
 * report once more.
 */
export type TransferStep =
  | { readonly after: 'latency' | 'late'; readonly status: string; readonly reasonCode?: string }
  | { readonly after: 'latency'; readonly repeat: true };

/** The answers a behaviour calls for, in order (none for a transfer never answered or never taken). */
export function behaviourSteps(behaviour: SimulatedBehaviour): readonly TransferStep[] {
  switch (behaviour.kind) {
    case 'approve':
    case 'transient_failure':
      return [{ after: 'latency', status: 'ACSC' }];
    case 'reject':
      return [{ after: 'latency', status: 'RJCT', reasonCode: behaviour.reasonCode }];
    case 'late':
      return [{ after: 'late', status: 'ACSC' }];
    case 'silent':
    case 'permanent_failure':
      return [];
    case 'twice':
      return [{ after: 'latency', status: 'ACSC' }, { after: 'latency', repeat: true }];
    case 'pending_then_accept':
      return [{ after: 'latency', status: 'PDNG' }, { after: 'latency', status: 'ACSC' }];
    case 'unknown_status':
      return [{ after: 'latency', status: UNKNOWN_STATUS_CODE }];
  }
}

/** The test value for a behaviour kind (and reason code), for tests and tools. */
export function testValue(kind: SimulatedBehaviour['kind'], reasonCode?: string): TestValue {
  const found = TEST_VALUES.find((entry) => entry.behaviour.kind === kind && (entry.behaviour.kind !== 'reject' || entry.behaviour.reasonCode === reasonCode));
  if (found === undefined) throw new RangeError(`no simulator test value for ${kind}${reasonCode === undefined ? '' : ` ${reasonCode}`}`);
  return found;
}
