// A self-signed certificate for 127.0.0.1, made with openssl, for tests of TLS handling.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

/** Writes key.pem and cert.pem (valid one day, SAN IP:127.0.0.1) into `dir`; throws when openssl fails. */
export function selfSignedCert(dir: string): { keyFile: string; certFile: string } {
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=127.0.0.1',
    '-addext',
    'subjectAltName=IP:127.0.0.1',
    '-keyout',
    keyFile,
    '-out',
    certFile,
  ]);
  if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr.toString()}`);
  return { keyFile, certFile };
}
