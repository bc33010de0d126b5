import { Type } from '@sinclair/typebox';
import { MessageIdentifiersSchema, OpenObject, SupplementaryDataSchema, Uuid } from './common.js';
import { makeValidator } from './validate.js';
/**
 * PaymentStatusRequest (CONTRACT §2): the integrator asks for the current status of a credit
 * transfer, named by its uetr; the answer is a fresh credit-transfer-response callback.
 */
export const PaymentStatusRequestSchema = OpenObject({
    schema: Type.Literal('PaymentStatusRequest', { description: 'Value PaymentStatusRequest' }),
    messageIdentifiers: MessageIdentifiersSchema,
    originalMessageIdentifiers: Type.Optional(MessageIdentifiersSchema),
    originalTransactionIdentifiers: OpenObject({ uetr: Uuid('uetr of the credit transfer whose status is asked for') }, { description: 'Identifies the credit transfer' }),
    supplementaryData: Type.Optional(SupplementaryDataSchema),
}, { $id: 'PaymentStatusRequest', description: 'Request for the current status of an outbound credit transfer' });
const check = makeValidator(PaymentStatusRequestSchema);
export function validatePaymentStatusRequest(body) {
    const result = check(body);
    if (!result.ok)
        return result;
    const message = result.value;
    return {
        ok: true,
        value: { message, messageId: message.messageIdentifiers.messageIdentification, uetr: message.originalTransactionIdentifiers.uetr.toLowerCase() },
    };
}
//# sourceMappingURL=payment-status-request.js.map