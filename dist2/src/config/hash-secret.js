import { processIo, runSecretCommand } from '../cli/secret-commands.js';
/**
 * The first form of the hash tool, kept so existing scripts go on working:
 *
 *     printf '%s' "$SECRET" | node dist/src/config/hash-secret.js
 *
 * is `npm run --silent secret -- hash` (src/cli/secret-commands.ts): the secret is read from
 * standard input, one trailing newline removed, and its scrypt hash printed.
 */
process.exitCode = await runSecretCommand(['hash'], processIo());
//# sourceMappingURL=hash-secret.js.map