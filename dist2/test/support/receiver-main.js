/**
 * A stand-in integrator, run as its own process: it answers every POST (callbacks and events)
 * and appends each one, as a JSON line with its path, headers and body, to the file named by
 * RECEIVER_FILE before acknowledging it, so what it acknowledged survives its own restarts.
 * RECEIVER_FAIL_FIRST=N answers the first N requests of each path 503 (a flaky integrator).
 * As the receiving bank it answers the sync calls (inboundAnswer): a credit is APPROVED unless the
 * creditor account ends in 04 (REJECTED AC04); a lookup is SUCCESSFUL with both names.
 * RECEIVER_ANSWER_DELAY_MS holds those answers that long (an integrator slower than its budget).
 */
import { appendFileSync } from 'node:fs';
import { createServer } from 'node:http';
const file = process.env.RECEIVER_FILE;
const port = Number(process.env.PORT);
if (file === undefined || !Number.isInteger(port))
    throw new Error('RECEIVER_FILE and PORT are required');
const failFirst = Number(process.env.RECEIVER_FAIL_FIRST ?? 0);
const failures = new Map();
const answerDelayMs = Number(process.env.RECEIVER_ANSWER_DELAY_MS ?? 0);
let answers = 0;
/** The receiving bank's answer to a sync call, or undefined for anything else. */
function inboundAnswer(path, body) {
    const now = new Date().toISOString();
    answers += 1;
    const messageIdentifiers = { messageIdentification: `RCV${process.pid}x${answers}`, creationDateTime: now };
    if (path.endsWith('/transactions/inbound/credit-transfer-authorisation-sync')) {
        const transfer = JSON.parse(body);
        const rejected = transfer.creditorAccount?.identification?.value?.endsWith('04') === true;
        return JSON.stringify({
            schema: 'PaymentStatusReport',
            messageIdentifiers,
            originalMessageIdentifiers: transfer.messageIdentifiers,
            transactionIdentifiers: transfer.transactionIdentifiers,
            status: rejected ? { outcome: 'REJECTED', reasonInfo: [{ reason: { schema: 'CODE', value: 'AC04' } }] } : { outcome: 'APPROVED' },
        });
    }
    if (path.endsWith('/identifiers/inbound/identifier-determination-sync')) {
        const lookup = JSON.parse(body);
        const { identifier } = lookup.request;
        return JSON.stringify({
            schema: 'IdentifierDeterminationResponse',
            messageIdentifiers,
            originalMessageIdentifiers: lookup.messageIdentifiers,
            scheme: 'ZA_RPP',
            uetr: lookup.request.uetr,
            verificationIdentification: lookup.request.verificationIdentification,
            report: {
                reportInformation: {
                    outcome: 'SUCCESSFUL',
                    accountInformation: {
                        traditionalIdentifier: identifier.schema === 'GENERIC' ? identifier.value : '4071000001',
                        ...(identifier.schema === 'GENERIC' ? {} : { proxy: { value: identifier.value, schema: identifier.schema } }),
                    },
                    accountOwner: { knownAsName: 'Thandi', legalName: 'Thandi Nkosi' },
                },
            },
        });
    }
    return undefined;
}
const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
        // A sender killed mid-request leaves a truncated body behind: an integrator would refuse it too.
        if (!request.complete)
            return;
        const path = request.url ?? '';
        const failed = failures.get(path) ?? 0;
        if (failed < failFirst) {
            failures.set(path, failed + 1);
            response.writeHead(503).end();
            return;
        }
        const body = Buffer.concat(chunks).toString('utf8');
        appendFileSync(file, `${JSON.stringify({ at: Date.now(), path, headers: request.headers, body })}\n`);
        const answer = inboundAnswer(path, body);
        if (answer !== undefined) {
            setTimeout(() => response.writeHead(200, { 'content-type': 'application/json' }).end(answer), answerDelayMs);
            return;
        }
        response.writeHead(path.endsWith('/events') ? 200 : 202).end();
    });
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`receiver listening on ${port}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
//# sourceMappingURL=receiver-main.js.map