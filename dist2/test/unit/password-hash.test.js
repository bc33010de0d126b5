import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { hashSecret, hashSecretAsync, parseHash, verifySecret, verifySecretAsync } from '../../src/lib/password-hash.js';
void describe('secret hashing', () => {
    void it('produces a self-describing scrypt string that verifies the secret and nothing else', () => {
        const hash = hashSecret('correct horse battery staple');
        assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
        assert.equal(verifySecret('correct horse battery staple', hash), true);
        assert.equal(verifySecret('correct horse battery stapl', hash), false);
        assert.equal(verifySecret('', hash), false);
    });
    void it('salts every hash, so the same secret never hashes the same twice', async () => {
        const [one, two] = await Promise.all([hashSecretAsync('same'), hashSecretAsync('same')]);
        assert.notEqual(one, two);
        assert.equal(await verifySecretAsync('same', one), true);
        assert.equal(await verifySecretAsync('same', two), true);
        assert.equal(await verifySecretAsync('other', two), false);
    });
    void it('verifies with the parameters written in the hash, so older cheaper hashes keep working', () => {
        // scrypt N=1024 r=8 p=1 of "legacy" with salt "0123456789abcdef" (16 bytes), 32-byte key.
        const hash = 'scrypt$1024$8$1$MDEyMzQ1Njc4OWFiY2RlZg$' + 'x'.repeat(43);
        assert.equal(parseHash(hash).ok, true);
        assert.equal(verifySecret('legacy', hash), false);
    });
    void it('treats Unicode secrets by their NFC form', () => {
        const hash = hashSecret('caf\u00e9');
        assert.equal(verifySecret('cafe\u0301', hash), true);
    });
    void it('explains what is wrong with a hash it cannot use', () => {
        const reasons = [
            '$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA',
            'bcrypt$10$abc',
            'scrypt$1000$8$1$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZg',
            'scrypt$4194304$8$1$MDEyMzQ1Njc4OWFiY2RlZg$MDEyMzQ1Njc4OWFiY2RlZg',
            'scrypt$1024$8$1$short$MDEyMzQ1Njc4OWFiY2RlZg',
            'scrypt$1024$8$1$MDEyMzQ1Njc4OWFiY2RlZg$not base64!',
        ].map((hash) => {
            const parsed = parseHash(hash);
            assert.equal(parsed.ok, false, hash);
            return parsed.ok ? '' : parsed.reason;
        });
        assert.match(reasons[0] ?? '', /argon2 hashes are not supported/);
        assert.match(reasons[1] ?? '', /scrypt\$N\$r\$p\$salt\$hash/);
        assert.match(reasons[2] ?? '', /power of two/);
        assert.match(reasons[3] ?? '', /power of two between/);
        assert.match(reasons[4] ?? '', /outside 16\.\.64 bytes/);
        assert.match(reasons[5] ?? '', /base64url/);
    });
    void it('gives operators a tool that hashes a secret read from standard input', () => {
        const tool = fileURLToPath(new URL('../../src/config/hash-secret.js', import.meta.url));
        const run = spawnSync(process.execPath, [tool], { input: 'operator-secret\n', encoding: 'utf8' });
        assert.equal(run.status, 0, run.stderr);
        const hash = run.stdout.trim();
        assert.equal(verifySecret('operator-secret', hash), true);
        const empty = spawnSync(process.execPath, [tool], { input: '', encoding: 'utf8' });
        assert.equal(empty.status, 2);
        assert.match(empty.stderr, /no secret on standard input/);
    });
});
//# sourceMappingURL=password-hash.test.js.map