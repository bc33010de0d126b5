import { hashSecret } from '../lib/password-hash.js';

/**
 * Operator tool: prints the scrypt hash of a secret for `passwordHash` / `clientSecretHash`.
 * The secret is read from standard input, never from the command line, so it stays out of shell
 * history and the process list:
 *
 *     printf '%s' "$SECRET" | node dist/src/config/hash-secret.js
 *
 * One trailing newline is removed (what `echo` or an interactive terminal adds).
 */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

const secret = await readStdin();
if (secret.length === 0) {
  process.stderr.write('hash-secret: no secret on standard input\n');
  process.exitCode = 2;
} else {
  process.stdout.write(`${hashSecret(secret)}\n`);
}
