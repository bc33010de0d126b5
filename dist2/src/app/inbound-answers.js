import { askMachine } from './ask-machine.js';
export async function reportInboundAnswer(deps, input) {
    const named = namedBy(input);
    await askMachine(deps, {
        ...input,
        ...named,
        uetr: named.uetr.toLowerCase(),
        messageId: input.report.messageIdentifiers.messageIdentification,
        message: input.report,
        ask: { type: 'report', answerJson: input.rawBody, answer: input.report, trace: input.trace },
    });
}
/** The transaction an answer names, in the words its errors use. */
function namedBy(answer) {
    switch (answer.about) {
        case 'credit':
            return { kind: 'INBOUND_CREDIT_TRANSFER', what: 'inbound credit transfer', uetrField: '/transactionIdentifiers/uetr', uetr: answer.report.transactionIdentifiers.uetr };
        case 'lookup':
            return { kind: 'INBOUND_IDENTIFIER_DETERMINATION', what: 'inbound identifier determination', uetrField: '/uetr', uetr: answer.report.uetr };
        case 'request_to_pay':
            return { kind: 'INBOUND_REQUEST_TO_PAY', what: 'inbound request-to-pay', uetrField: '/transactionIdentifiers/uetr', uetr: answer.report.transactionIdentifiers.uetr };
    }
}
//# sourceMappingURL=inbound-answers.js.map