import fs from 'node:fs';

const b64 = (text: string) => Buffer.from(text).toString('base64');

export interface KubeconfigUser {
  name: string;
  cert?: string;
  key?: string;
  token?: string;
}

/** A one-cluster, one-user kubeconfig with the certificates inlined (JSON is valid YAML). */
export function renderKubeconfig(options: {
  clusterName: string;
  server: string;
  ca: string;
  user: KubeconfigUser;
}): string {
  const { clusterName, server, ca, user } = options;
  const credentials: Record<string, string> = {};
  if (user.cert) credentials['client-certificate-data'] = b64(user.cert);
  if (user.key) credentials['client-key-data'] = b64(user.key);
  if (user.token) credentials.token = user.token;
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: clusterName,
        cluster: { server, 'certificate-authority-data': b64(ca) },
      },
    ],
    users: [{ name: user.name, user: credentials }],
    contexts: [
      { name: clusterName, context: { cluster: clusterName, user: user.name } },
    ],
    'current-context': clusterName,
    preferences: {},
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Writes a kubeconfig readable only by its owner (it holds keys). */
export function writeKubeconfig(file: string, content: string): void {
  fs.writeFileSync(file, content, { mode: 0o600 });
}

/** Reads the server, CA and client credentials back from a kubeconfig written by renderKubeconfig. */
export function parseKubeconfig(content: string) {
  const config = JSON.parse(content);
  const cluster = config.clusters[0].cluster;
  const user = config.users[0].user;
  const decode = (value?: string) =>
    value === undefined
      ? undefined
      : Buffer.from(value, 'base64').toString('utf8');
  return {
    server: cluster.server as string,
    ca: decode(cluster['certificate-authority-data'])!,
    cert: decode(user['client-certificate-data']),
    key: decode(user['client-key-data']),
    token: user.token as string | undefined,
  };
}
