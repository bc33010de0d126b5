import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Certificates and keys for the operator link, made at test time with the `openssl` command (on
 * every Debian machine and CI runner here): one link CA issuing the bank's (the service's) and the
 * operator's TLS certificates, each good for 127.0.0.1 as server and as client; message signing
 * keys for both ends (EC P-256 for the bank, Ed25519 for the operator, so both algorithms are
 * used); and, to be refused, a certificate another CA issued, a certificate of the link CA that
 * is neither end's, and a signing key nobody configured. Made once per test process.
 */
export interface TlsIdentity {
  readonly certFile: string;
  readonly keyFile: string;
}

export interface SigningPair {
  readonly privateFile: string;
  readonly publicFile: string;
}

export interface LinkPki {
  readonly dir: string;
  /** The link CA's certificate: both ends trust it. */
  readonly caFile: string;
  readonly bank: TlsIdentity & { readonly signing: SigningPair };
  readonly operator: TlsIdentity & { readonly signing: SigningPair };
  /** Issued by the link CA, but to neither end (for certificate pins). */
  readonly stranger: TlsIdentity;
  /** Issued by another CA: refused during the TLS handshake. */
  readonly rogue: TlsIdentity & { readonly caFile: string };
  /** A signing key no end of the link knows. */
  readonly unknownSigning: SigningPair;
}

let made: LinkPki | undefined;

function openssl(dir: string, ...args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
}

function ca(dir: string, name: string): { caFile: string; keyFile: string } {
  openssl(dir, 'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', `/CN=${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-keyout', `${name}.key`, '-out', `${name}.pem`);
  return { caFile: join(dir, `${name}.pem`), keyFile: join(dir, `${name}.key`) };
}

function leaf(dir: string, name: string, issuer: { caFile: string; keyFile: string }): TlsIdentity {
  const extensions = join(dir, `${name}.ext`);
  writeFileSync(extensions, 'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(dir, 'req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', `/CN=${name}`, '-keyout', `${name}.key`, '-out', `${name}.csr`);
  openssl(dir, 'x509', '-req', '-in', `${name}.csr`, '-CA', issuer.caFile, '-CAkey', issuer.keyFile, '-CAcreateserial', '-days', '2', '-extfile', extensions, '-out', `${name}.pem`);
  return { certFile: join(dir, `${name}.pem`), keyFile: join(dir, `${name}.key`) };
}

function signing(dir: string, name: string, algorithm: 'EC' | 'ED25519'): SigningPair {
  const options = algorithm === 'EC' ? ['-pkeyopt', 'ec_paramgen_curve:P-256'] : [];
  openssl(dir, 'genpkey', '-algorithm', algorithm, ...options, '-out', `${name}.key`);
  openssl(dir, 'pkey', '-in', `${name}.key`, '-pubout', '-out', `${name}.pub`);
  return { privateFile: join(dir, `${name}.key`), publicFile: join(dir, `${name}.pub`) };
}

export function linkPki(): LinkPki {
  if (made !== undefined) return made;
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
