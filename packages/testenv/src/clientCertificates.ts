import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { KubeClient } from './kubeClient';
import { EC_KEY } from './pki';
import { waitFor } from './processes';

const run = promisify(execFile);

/**
 * A client certificate for `user`, issued as a cluster issues one: a CertificateSigningRequest
 * for the API server's client signer, approved by the admin, signed by the controller manager.
 * The key is made here (EC P-256, by openssl, as the plane's own keys are) and never leaves.
 */
export async function issueClientCertificate(
  admin: KubeClient,
  user: string,
): Promise<{ cert: string; key: string }> {
  const { key, request } = await keyAndRequest(user);
  const name = `testenv-${user}-${randomBytes(4).toString('hex')}`;
  const csrPath = `/apis/certificates.k8s.io/v1/certificatesigningrequests/${name}`;
  const csr = await admin.create(
    '/apis/certificates.k8s.io/v1/certificatesigningrequests',
    {
      apiVersion: 'certificates.k8s.io/v1',
      kind: 'CertificateSigningRequest',
      metadata: { name },
      spec: {
        request: Buffer.from(request).toString('base64'),
        signerName: 'kubernetes.io/kube-apiserver-client',
        usages: ['client auth'],
      },
    },
  );
  await admin.request('PUT', `${csrPath}/approval`, {
    ...csr,
    status: {
      conditions: [
        {
          type: 'Approved',
          status: 'True',
          reason: 'TestenvApproved',
          message: `a test's client certificate for ${user}`,
        },
      ],
    },
  });
  const cert = await waitFor(`the signed certificate of ${name}`, async () => {
    const signed = await admin.get<{ status?: { certificate?: string } }>(
      csrPath,
    );
    return signed.status?.certificate;
  });
  await admin.delete(csrPath);
  return { cert: Buffer.from(cert, 'base64').toString('utf8'), key };
}

/** A new key (EC P-256, as the plane's own) and a PEM certificate request for `user` by it. */
async function keyAndRequest(
  user: string,
): Promise<{ key: string; request: string }> {
  const { key, out } = await opensslKeyAnd([
    'req',
    '-new',
    '-subj',
    `/CN=${user}`,
  ]);
  return { key, request: out };
}

/**
 * A self-signed serving certificate for an IP address, with its key: for a test's own TLS server
 * (its clients trust the certificate itself).
 */
export async function selfSignedCertificate(
  address: string,
): Promise<{ cert: string; key: string }> {
  const { key, out } = await opensslKeyAnd([
    'req',
    '-x509',
    '-subj',
    `/CN=${address}`,
    '-addext',
    `subjectAltName=IP:${address}`,
    '-days',
    '1',
  ]);
  return { cert: out, key };
}

/** Runs `openssl <command>` with a new EC key, in a folder removed after: the key and the output. */
async function opensslKeyAnd(
  command: string[],
): Promise<{ key: string; out: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'testenv-openssl-'));
  try {
    const keyFile = path.join(dir, 'key.pem');
    const outFile = path.join(dir, 'out.pem');
    await run('openssl', [
      ...command,
      ...EC_KEY,
      '-keyout',
      keyFile,
      '-out',
      outFile,
    ]);
    return {
      key: fs.readFileSync(keyFile, 'utf8'),
      out: fs.readFileSync(outFile, 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
