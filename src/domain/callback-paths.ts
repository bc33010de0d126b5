/** The callbacks the service makes, by path under the integrator's partnerApiUrl (CONTRACT §3). */
export const CALLBACK_PATHS = {
  creditTransferResponse: '/transactions/outbound/credit-transfer-response',
  identifierDeterminationReport: '/identifiers/outbound/identifier-determination-report',
  requestToPayResponse: '/transactions/outbound/request-to-pay-response',
  requestToPayCancellationResponse: '/transactions/outbound/request-to-pay/cancellation-response',
} as const;
