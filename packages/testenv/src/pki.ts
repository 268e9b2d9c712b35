import { execFile } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface CertificatePair {
  certFile: string;
  keyFile: string;
}

/** Every key and certificate a control plane needs, as files in one folder. */
export interface Pki {
  dir: string;
  caFile: string;
  caKeyFile: string;
  apiServer: CertificatePair;
  admin: CertificatePair;
  controllerManager: CertificatePair;
  scheduler: CertificatePair;
  kwok: CertificatePair;
  /** The API server's client certificate towards kubelets (logs, exec, port-forward). */
  kubeletClient: CertificatePair;
  serviceAccountKeyFile: string;
  serviceAccountPublicKeyFile: string;
  /** A static admin bearer token (group system:masters), for clients that take a token. */
  adminToken: string;
  tokenAuthFile: string;
}

const API_SERVER_NAMES = [
  'DNS:localhost',
  'DNS:kubernetes',
  'DNS:kubernetes.default',
  'DNS:kubernetes.default.svc',
  'DNS:kubernetes.default.svc.cluster.local',
  'IP:127.0.0.1',
  'IP:10.0.0.1',
];

/** The user the API server is towards kubelets. */
export const KUBELET_API_CLIENT = 'kube-apiserver-kubelet-client';

/** The address a real node and its pods reach the plane on (TEST-NET-1, added to `lo`). */
export const NODE_ADDRESS = '192.0.2.2';

async function openssl(args: string[]): Promise<void> {
  await run('openssl', args);
}

/** EC P-256 keys: fast to make, accepted by every component. */
export const EC_KEY = [
  '-newkey',
  'ec',
  '-pkeyopt',
  'ec_paramgen_curve:prime256v1',
  '-nodes',
];

async function makeCa(
  dir: string,
): Promise<{ caFile: string; caKeyFile: string }> {
  const caFile = path.join(dir, 'ca.crt');
  const caKeyFile = path.join(dir, 'ca.key');
  await openssl([
    'req',
    '-x509',
    '-new',
    ...EC_KEY,
    '-keyout',
    caKeyFile,
    '-out',
    caFile,
    '-days',
    '3650',
    '-subj',
    '/CN=flink-standalone-testenv-ca',
  ]);
  return { caFile, caKeyFile };
}

async function signedPair(
  dir: string,
  name: string,
  subject: string,
  usage: 'serverAuth' | 'clientAuth',
  ca: { caFile: string; caKeyFile: string },
  altNames: string[] = [],
): Promise<CertificatePair> {
  const keyFile = path.join(dir, `${name}.key`);
  const certFile = path.join(dir, `${name}.crt`);
  const csr = path.join(dir, `${name}.csr`);
  const ext = path.join(dir, `${name}.ext`);
  const extensions = [
    'basicConstraints=critical,CA:FALSE',
    'keyUsage=critical,digitalSignature,keyEncipherment',
    `extendedKeyUsage=${usage}`,
    ...(altNames.length ? [`subjectAltName=${altNames.join(',')}`] : []),
  ];
  fs.writeFileSync(ext, `${extensions.join('\n')}\n`);
  await openssl([
    'req',
    '-new',
    ...EC_KEY,
    '-keyout',
    keyFile,
    '-out',
    csr,
    '-subj',
    subject,
  ]);
  await openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.caFile,
    '-CAkey',
    ca.caKeyFile,
    // A random serial per certificate: -CAcreateserial races when certificates are signed in parallel.
    '-set_serial',
    `0x${randomBytes(16).toString('hex')}`,
    '-out',
    certFile,
    '-days',
    '365',
    '-extfile',
    ext,
  ]);
  return { certFile, keyFile };
}

function serviceAccountKeys(dir: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
  });
  const serviceAccountKeyFile = path.join(dir, 'sa.key');
  const serviceAccountPublicKeyFile = path.join(dir, 'sa.pub');
  fs.writeFileSync(
    serviceAccountKeyFile,
    privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  fs.writeFileSync(
    serviceAccountPublicKeyFile,
    publicKey.export({ type: 'spki', format: 'pem' }),
  );
  return { serviceAccountKeyFile, serviceAccountPublicKeyFile };
}

/** A client certificate for a real node's kubelet: the `system:node:<name>` identity. */
export function kubeletCertificate(
  pki: Pki,
  nodeName: string,
): Promise<CertificatePair> {
  return signedPair(
    pki.dir,
    `kubelet-${nodeName}`,
    `/O=system:nodes/CN=system:node:${nodeName}`,
    'clientAuth',
    pki,
  );
}

/** Creates the CA, serving and client certificates, service-account keys and a token file. */
export async function createPki(dir: string): Promise<Pki> {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = await makeCa(dir);
  const client = (name: string, subject: string) =>
    signedPair(dir, name, subject, 'clientAuth', ca);
  const [apiServer, admin, controllerManager, scheduler, kwok, kubeletClient] =
    await Promise.all([
      signedPair(dir, 'apiserver', '/CN=kube-apiserver', 'serverAuth', ca, [
        ...API_SERVER_NAMES,
        `IP:${NODE_ADDRESS}`,
      ]),
      client('admin', '/O=system:masters/CN=testenv-admin'),
      client('controller-manager', '/CN=system:kube-controller-manager'),
      client('scheduler', '/CN=system:kube-scheduler'),
      // kwok plays every kubelet: it writes node and pod status for all fake nodes.
      client('kwok', '/O=system:masters/CN=kwok'),
      // Kubelets authorize it by SubjectAccessReview: bound to system:kubelet-api-admin only.
      client('apiserver-kubelet-client', `/CN=${KUBELET_API_CLIENT}`),
    ]);
  const adminToken = randomBytes(24).toString('hex');
  const tokenAuthFile = path.join(dir, 'tokens.csv');
  fs.writeFileSync(
    tokenAuthFile,
    `${adminToken},testenv-admin-token,testenv-admin-token,"system:masters"\n`,
  );
  return {
    dir,
    ...ca,
    apiServer,
    admin,
    controllerManager,
    scheduler,
    kwok,
    kubeletClient,
    ...serviceAccountKeys(dir),
    adminToken,
    tokenAuthFile,
  };
}
