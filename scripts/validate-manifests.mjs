// Validates Kubernetes manifests (YAML streams) against the Kubernetes OpenAPI schema, using the
// kubernetes-models validators. Plain ESM, because those packages are ESM-only.
// Usage: node scripts/validate-manifests.mjs <file.yaml>... ; prints one JSON report on stdout.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import {
  Role,
  RoleBinding,
} from 'kubernetes-models/rbac.authorization.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';

const MODELS = {
  ConfigMap,
  Service,
  ServiceAccount,
  Deployment,
  StatefulSet,
  Role,
  RoleBinding,
  PodDisruptionBudget,
};

const report = process.argv.slice(2).map(file => {
  const objects = parseAllDocuments(readFileSync(file, 'utf8'))
    .map(d => d.toJS())
    .filter(Boolean);
  const errors = [];
  for (const object of objects) {
    const id = `${object.kind}/${object.metadata?.name}`;
    const Model = MODELS[object.kind];
    if (!Model) {
      errors.push(`${id}: no schema for kind ${object.kind}`);
      continue;
    }
    try {
      new Model(object).validate();
    } catch (error) {
      errors.push(`${id}: ${error.message}`);
    }
  }
  return { file, objects: objects.length, errors };
});
process.stdout.write(JSON.stringify(report));
process.exitCode = report.some(r => r.errors.length > 0) ? 1 : 0;
