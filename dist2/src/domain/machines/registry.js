import { CREDIT_TRANSFER_MACHINE } from './credit-transfer.js';
import { IDENTIFIER_DETERMINATION_MACHINE } from './identifier-determination.js';
import { INBOUND_REQUEST_TO_PAY_MACHINE } from './inbound-request-to-pay.js';
import { INBOUND_CREDIT_TRANSFER_MACHINE, INBOUND_IDENTIFIER_DETERMINATION_MACHINE } from './inbound.js';
import { REQUEST_TO_PAY_MACHINE } from './request-to-pay.js';
/** Every transaction kind's state machine, one line each (docs/state-machine.md draws them). */
export const MACHINES = new Map([CREDIT_TRANSFER_MACHINE, IDENTIFIER_DETERMINATION_MACHINE, REQUEST_TO_PAY_MACHINE, INBOUND_CREDIT_TRANSFER_MACHINE, INBOUND_IDENTIFIER_DETERMINATION_MACHINE, INBOUND_REQUEST_TO_PAY_MACHINE].map((machine) => [machine.kind, machine]));
export function machineOf(kind) {
    return MACHINES.get(kind);
}
//# sourceMappingURL=registry.js.map