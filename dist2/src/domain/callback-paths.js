/** The callbacks the service makes, by path under the integrator's partnerApiUrl (CONTRACT §3). */
export const CALLBACK_PATHS = {
    creditTransferResponse: '/transactions/outbound/credit-transfer-response',
    identifierDeterminationReport: '/identifiers/outbound/identifier-determination-report',
    requestToPayResponse: '/transactions/outbound/request-to-pay-response',
    requestToPayCancellationResponse: '/transactions/outbound/request-to-pay/cancellation-response',
};
/** The calls the service makes to the integrator as the receiving bank, under its partnerApiUrl (CONTRACT §11). */
export const INBOUND_PATHS = {
    identifierDeterminationSync: '/identifiers/inbound/identifier-determination-sync',
    identifierDetermination: '/identifiers/inbound/identifier-determination',
    creditTransferAuthorisationSync: '/transactions/inbound/credit-transfer-authorisation-sync',
    creditTransferAuthorisation: '/transactions/inbound/credit-transfer-authorisation',
    creditTransferCompletion: '/transactions/inbound/credit-transfer-completion',
    requestToPay: '/transactions/inbound/request-to-pay',
    requestToPayCancellation: '/transactions/inbound/request-to-pay/cancellation-request',
};
//# sourceMappingURL=callback-paths.js.map