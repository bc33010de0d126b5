import type { TransactionKind } from '../../domain/kinds.js';
import { CREDIT_TRANSFER_DRIVER } from './credit-transfer.js';
import { IDENTIFIER_DETERMINATION_DRIVER } from './identifier-determination.js';
import { INBOUND_CREDIT_TRANSFER_DRIVER, INBOUND_IDENTIFIER_DETERMINATION_DRIVER } from './inbound.js';
import { INBOUND_REQUEST_TO_PAY_DRIVER } from './inbound-request-to-pay.js';
import { REQUEST_TO_PAY_DRIVER } from './request-to-pay.js';
import type { KindDriver } from './kind.js';

/** The engine's driver of every transaction kind it carries, one line each. */
export const DRIVERS: ReadonlyMap<TransactionKind, KindDriver> = new Map<TransactionKind, KindDriver>(
  [CREDIT_TRANSFER_DRIVER, IDENTIFIER_DETERMINATION_DRIVER, REQUEST_TO_PAY_DRIVER, INBOUND_CREDIT_TRANSFER_DRIVER, INBOUND_IDENTIFIER_DETERMINATION_DRIVER, INBOUND_REQUEST_TO_PAY_DRIVER].map((driver) => [driver.machine.kind, driver]),
);
