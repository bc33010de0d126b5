import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
let made;
function openssl(dir, ...args) {
    execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}
function ca(dir, name) {
    openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', `/CN=${name}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-keyout', `${name}.key`, '-out', `${name}.pem`);
    return { caFile: join(dir, `${name}.pem`), keyFile: join(dir, `${name}.key`) };
}
function leaf(dir, name, issuer) {
    const extensions = join(dir, `${name}.ext`);
    writeFileSync(extensions, 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n');
    openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
    openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', issuer.caFile, '-CAkey', issuer.keyFile, '-CAcreateserial', '-days', '2', '-extfile', extensions, '-out', `${name}.pem`);
    return { certFile: join(dir, `${name}.pem`), keyFile: join(dir, `${name}.key`) };
}
function signing(dir, name, algorithm) {
    const options = algorithm === 'EC' ? ['-pkeyopt', 'ec_paramgen_curve:P-256'] : [];
    openssl(dir, 'genpkey', '-algorithm', algorithm, ...options, '-out', `${name}.key`);
    openssl(dir, 'pkey', '-in', `${name}.key`, '-pubout', '-out', `${name}.pub`);
    return { privateFile: join(dir, `${name}.key`), publicFile: join(dir, `${name}.pub`) };
}
export function linkPki() {
    if (made !== undefined)
        return made;
    const dir = mkdtempSync(join(tmpdir(), 'regpay-pki-'));
    const linkCa = ca(dir, 'link-ca');
    const rogueCa = ca(dir, 'rogue-ca');
    made = {
        dir,
        caFile: linkCa.caFile,
        bank: { ...leaf(dir, 'bank', linkCa), signing: signing(dir, 'bank-signing', 'EC') },
        operator: { ...leaf(dir, 'operator', linkCa), signing: signing(dir, 'operator-signing', 'ED25519') },
        stranger: leaf(dir, 'stranger', linkCa),
        rogue: { ...leaf(dir, 'rogue', rogueCa), caFile: rogueCa.caFile },
        unknownSigning: signing(dir, 'unknown-signing', 'ED25519'),
    };
    return made;
}
//# sourceMappingURL=pki.js.map