import { CREDIT_TRANSFER_DRIVER } from './credit-transfer.js';
import { IDENTIFIER_DETERMINATION_DRIVER } from './identifier-determination.js';
import { INBOUND_CREDIT_TRANSFER_DRIVER, INBOUND_IDENTIFIER_DETERMINATION_DRIVER } from './inbound.js';
import { INBOUND_REQUEST_TO_PAY_DRIVER } from './inbound-request-to-pay.js';
import { REQUEST_TO_PAY_DRIVER } from './request-to-pay.js';
/** The engine's driver of every transaction kind it carries, one line each. */
export const DRIVERS = new Map([CREDIT_TRANSFER_DRIVER, IDENTIFIER_DETERMINATION_DRIVER, REQUEST_TO_PAY_DRIVER, INBOUND_CREDIT_TRANSFER_DRIVER, INBOUND_IDENTIFIER_DETERMINATION_DRIVER, INBOUND_REQUEST_TO_PAY_DRIVER].map((driver) => [driver.machine.kind, driver]));
//# sourceMappingURL=registry.js.map