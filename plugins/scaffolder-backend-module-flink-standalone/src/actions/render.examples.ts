import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import { stringify } from 'yaml';

const step = (input: Record<string, unknown>) =>
  stringify({
    steps: [
      {
        id: 'render',
        name: 'Render the Flink cluster manifests',
        action: 'flink:standalone:render',
        input,
      },
    ],
  });

export const renderExamples: TemplateExample[] = [
  {
    description:
      'Render the spec file that fetch:template wrote into one manifest file per object, for a GitOps pull request',
    example: step({ specFile: 'flink-cluster.yaml', targetPath: 'manifests' }),
  },
  {
    description:
      'Render an inline spec whose TaskManager volume is a platform claim template, as one YAML stream',
    example: step({
      spec: {
        name: 'orders',
        namespace: 'streaming',
        flinkVersion: '2.1',
        taskManager: {
          replicas: 2,
          slots: 4,
          volumeClaimTemplates: [
            { name: 'flink-data', claimTemplate: 'fast-ssd-50g' },
          ],
        },
      },
      layout: 'stream',
      targetPath: 'deploy/flink',
    }),
  },
];
