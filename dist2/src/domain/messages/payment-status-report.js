export function paymentStatusReportJson(input) {
    const { original, verdict } = input;
    const reasonInfo = verdict.reasonCode === undefined
        ? []
        : [
            {
                reason: { schema: 'CODE', value: verdict.reasonCode },
                ...(verdict.reasonText === undefined ? {} : { additionalInformation: [verdict.reasonText] }),
            },
        ];
    return JSON.stringify({
        schema: 'PaymentStatusReport',
        messageIdentifiers: { messageIdentification: input.messageIdentification, creationDateTime: new Date(input.createdAt).toISOString() },
        originalMessageIdentifiers: original.messageIdentifiers,
        transactionIdentifiers: original.transactionIdentifiers,
        paymentScheme: { schema: original.paymentScheme.schema },
        status: { outcome: verdict.outcome, reasonInfo },
    });
}
//# sourceMappingURL=payment-status-report.js.map