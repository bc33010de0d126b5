import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { configFromObject } from '../../src/config/load.js';
import { verifySecret } from '../../src/lib/password-hash.js';
import { webhookKey } from '../../src/lib/webhook-signature.js';
/** The secret tool as operators run it: the compiled entry point, and `npm run --silent secret`. */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const TOOL = fileURLToPath(new URL('../../src/cli/secret.js', import.meta.url));
function secretTool(args, input = '') {
    const run = spawnSync(process.execPath, [TOOL, ...args], { input, encoding: 'utf8' });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}
/** A configuration that takes the given secrets, so a value the tool prints is proved usable as it is. */
function integratorWith(credentials, webhookSecret) {
    return {
        integrators: [
            {
                id: 'bank-a',
                institution: { bicfi: 'BANKZAJJ' },
                allowlist: ['10.0.0.0/8'],
                credentials: { username: 'alice', clientId: 'a-client', ...credentials },
                partnerApiUrl: 'https://bank-a.test/partner-api/v1',
                eventsApiUrl: 'https://bank-a.test/events-api/v1',
                schemes: ['ZA_RPP'],
                ...(webhookSecret === undefined ? {} : { webhookSecret }),
            },
        ],
    };
}
void describe('the secret tool (npm run --silent secret)', () => {
    void it('prints a new Standard Webhooks secret of 32 random bytes that the configuration accepts as webhookSecret', async () => {
        const first = secretTool(['webhook']);
        const second = secretTool(['webhook']);
        assert.equal(first.status, 0, first.stderr);
        assert.match(first.stdout, /^whsec_[A-Za-z0-9+/]+={0,2}\n$/, 'the secret and one newline, nothing else on stdout');
        const secret = first.stdout.trim();
        assert.equal(webhookKey(secret).length, 32);
        assert.notEqual(secret, second.stdout.trim(), 'a new secret every time');
        const config = await configFromObject(integratorWith({ password: 'a-password', clientSecret: 'a-secret' }, secret));
        assert.equal(config.integrators[0]?.webhookSecret?.reveal(), secret);
    });
    void it('prints a new random password of 24 bytes, base64url', () => {
        const run = secretTool(['password']);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /^[A-Za-z0-9_-]{32}\n$/);
        assert.notEqual(run.stdout, secretTool(['password']).stdout);
    });
    void it('hashes a secret read from standard input into a scrypt hash the configuration takes as passwordHash', async () => {
        const run = secretTool(['hash'], 'operator-secret\n');
        assert.equal(run.status, 0, run.stderr);
        const hash = run.stdout.trim();
        assert.match(hash, /^scrypt\$32768\$8\$1\$/);
        assert.equal(verifySecret('operator-secret', hash), true, 'one trailing newline is not part of the secret');
        assert.equal(verifySecret('operator-secret\n', hash), false);
        assert.ok(!run.stdout.includes('operator-secret') && !run.stderr.includes('operator-secret'), 'the secret itself is never printed');
        const config = await configFromObject(integratorWith({ passwordHash: hash, clientSecretHash: hash }));
        assert.equal(config.integrators[0]?.credentials.passwordHash?.reveal(), hash);
    });
    void it('refuses an empty input, a secret given on the command line, and an unknown command, with exit code 2 and the usage', () => {
        const empty = secretTool(['hash'], '');
        assert.equal(empty.status, 2);
        assert.match(empty.stderr, /no secret on standard input/);
        assert.equal(empty.stdout, '');
        const onCommandLine = secretTool(['hash', 'my-secret']);
        assert.equal(onCommandLine.status, 2);
        assert.match(onCommandLine.stderr, /takes no arguments/);
        assert.ok(!onCommandLine.stderr.includes('my-secret'), 'an argument given by mistake is not echoed');
        const unknown = secretTool(['rotate']);
        assert.equal(unknown.status, 2);
        assert.match(unknown.stderr, /unknown command "rotate"/);
        assert.match(unknown.stderr, /usage: npm run --silent secret -- <command>/);
        const none = secretTool([]);
        assert.equal(none.status, 2);
        assert.match(none.stderr, /no command given/);
        const help = secretTool(['help']);
        assert.equal(help.status, 0);
        assert.match(help.stdout, /webhook .*\n.*\n.*password .*\n.*\n.*hash /s);
    });
    void it('refuses a secret longer than the configuration takes instead of hashing it', () => {
        const run = secretTool(['hash'], 'x'.repeat(1_025));
        assert.equal(run.status, 2);
        assert.match(run.stderr, /over 1024 characters/);
    });
    void it('runs as the npm script, its output capturable as it is with --silent', () => {
        const run = spawnSync('npm', ['run', '--silent', 'secret', '--', 'webhook'], { cwd: REPO, encoding: 'utf8' });
        assert.equal(run.error, undefined, `npm could not be run: ${String(run.error)}`);
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stdout, /^whsec_[A-Za-z0-9+/]+={0,2}\n$/);
        const hashed = spawnSync('npm', ['run', '--silent', 'secret', '--', 'hash'], { cwd: REPO, input: 'piped-secret', encoding: 'utf8' });
        assert.equal(hashed.status, 0, hashed.stderr);
        assert.equal(verifySecret('piped-secret', hashed.stdout.trim()), true);
    });
});
//# sourceMappingURL=secret-cli.test.js.map