import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import { stringify } from 'yaml';

const step = (input: Record<string, unknown>) =>
  stringify({
    steps: [
      {
        id: 'apply',
        name: 'Create the Flink cluster',
        action: 'flink:standalone:apply',
        input,
      },
    ],
  });

export const applyExamples: TemplateExample[] = [
  {
    description:
      'Apply the manifests the render step wrote and wait up to 10 minutes until the cluster is READY',
    example: step({
      manifestsPath: '${{ steps.render.output.manifestsPath }}',
      cluster: '${{ parameters.kubernetesCluster }}',
      entityRef: 'component:default/${{ parameters.name }}',
      waitForReady: true,
      timeoutSeconds: 600,
    }),
  },
  {
    description:
      'Apply a spec file directly without waiting (a dry-run template run only validates it on the API server)',
    example: step({
      specFile: 'flink-cluster.yaml',
      cluster: 'production',
      entityRef: 'component:streaming/orders',
      waitForReady: false,
    }),
  },
];
