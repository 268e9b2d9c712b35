import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import type { ConfigMap } from 'kubernetes-types/core/v1';
import { configFileName } from '../spec/flinkVersions';
import type { ClusterSpec } from '../spec';
import { flinkConfiguration, formatFlinkConfig } from './flinkConfig';
import { clusterLabels } from './labels';
import { LOG4J_CONSOLE_PROPERTIES } from './log4j';
import { clusterObjectNames } from './names';

export const LOG4J_FILE = 'log4j-console.properties';

export function renderConfigMap(spec: ClusterSpec): ConfigMap {
  const configFile = configFileName(spec.flinkVersion);
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name: clusterObjectNames(spec.name).configMap,
      namespace: spec.namespace,
      labels: clusterLabels(spec),
    },
    data: {
      [configFile]: formatFlinkConfig(
        spec.flinkVersion,
        flinkConfiguration(spec),
      ),
      [LOG4J_FILE]: LOG4J_CONSOLE_PROPERTIES,
    },
  };
}

/** A short digest of the ConfigMap's data: put on pod templates, it rolls pods on a change. */
export function configHash(configMap: ConfigMap): string {
  const data = configMap.data ?? {};
  const canonical = JSON.stringify(
    Object.keys(data)
      .sort()
      .map(key => [key, data[key]]),
  );
  return bytesToHex(sha256(utf8ToBytes(canonical))).slice(0, 16);
}
