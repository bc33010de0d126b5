import { randomBytes } from 'node:crypto';
import { hashSecretAsync } from '../lib/password-hash.js';
import { WEBHOOK_SECRET_PREFIX } from '../lib/webhook-signature.js';
/**
 * The operator's secret tool (`npm run --silent secret -- <command>`, docs/configuration.md):
 * makes the secrets a configuration file needs, so nobody invents one by hand.
 *
 * Invariants: a secret to be hashed is read from standard input only, never from the command
 * line (which shell history and the process list keep); what a command prints on stdout is
 * exactly the value and one newline, so `$(…)` captures it; everything else goes to stderr.
 */
/** Key bytes of a new webhook secret: within Standard Webhooks' 24–64, and HMAC-SHA256's block-sized 32 is plenty. */
export const WEBHOOK_SECRET_KEY_BYTES = 32;
/** Random bytes of a new password or client secret: 192 bits, 32 base64url characters. */
export const PASSWORD_BYTES = 24;
/** The longest password or client secret the configuration takes (config/schema.ts): a longer input is refused, not hashed. */
const HASH_INPUT_CHARACTERS_MAX = 1_024;
export const USAGE = `regpay secret tool

usage: npm run --silent secret -- <command>      (or: node dist/src/cli/secret.js <command>)

commands:
  webhook    print a new Standard Webhooks signing secret (whsec_ and 32 random bytes, base64),
             for integrators[].webhookSecret; give the same value to the integrator's receiver
  password   print a new random password or client secret (24 random bytes, base64url),
             for credentials.password / clientSecret or admin.password
  hash       read one secret from standard input and print its scrypt hash, for
             credentials.passwordHash / clientSecretHash or admin.passwordHash
             (one trailing newline is removed; the secret never goes on the command line)
  help       print this text
`;
/** The process's own standard streams. */
export function processIo() {
    return {
        readInput: async () => {
            const chunks = [];
            for await (const chunk of process.stdin)
                chunks.push(chunk);
            return Buffer.concat(chunks).toString('utf8');
        },
        inputIsTerminal: process.stdin.isTTY === true,
        out: (text) => process.stdout.write(text),
        err: (text) => process.stderr.write(text),
    };
}
/** Runs one command; resolves with the process exit code (0 done, 2 usage or input error). */
export async function runSecretCommand(args, io) {
    const [command, ...rest] = args;
    if (rest.length > 0) {
        io.err(`secret: ${command ?? ''} takes no arguments (a secret to hash is read from standard input)\n\n${USAGE}`);
        return 2;
    }
    switch (command) {
        case 'webhook':
            io.out(`${newWebhookSecret()}\n`);
            return 0;
        case 'password':
            io.out(`${newPassword()}\n`);
            return 0;
        case 'hash':
            return hashFromInput(io);
        case 'help':
        case '--help':
        case '-h':
            io.out(USAGE);
            return 0;
        default:
            io.err(`${command === undefined ? 'secret: no command given' : `secret: unknown command "${command}"`}\n\n${USAGE}`);
            return 2;
    }
}
export function newWebhookSecret() {
    return `${WEBHOOK_SECRET_PREFIX}${randomBytes(WEBHOOK_SECRET_KEY_BYTES).toString('base64')}`;
}
export function newPassword() {
    return randomBytes(PASSWORD_BYTES).toString('base64url');
}
/** One trailing newline (what `echo`, or Enter before Ctrl-D, adds) is not part of the secret. */
export function secretFromInput(text) {
    return text.replace(/\r?\n$/, '');
}
async function hashFromInput(io) {
    if (io.inputIsTerminal)
        io.err('secret: type the secret, then Enter and Ctrl-D (it is shown as you type; prefer a pipe)\n');
    const secret = secretFromInput(await io.readInput());
    if (secret.length === 0) {
        io.err('secret: no secret on standard input (e.g. printf \'%s\' "$SECRET" | npm run --silent secret -- hash)\n');
        return 2;
    }
    if ([...secret].length > HASH_INPUT_CHARACTERS_MAX) {
        io.err(`secret: the input is over ${HASH_INPUT_CHARACTERS_MAX} characters, longer than any secret the configuration takes\n`);
        return 2;
    }
    io.out(`${await hashSecretAsync(secret)}\n`);
    return 0;
}
//# sourceMappingURL=secret-commands.js.map