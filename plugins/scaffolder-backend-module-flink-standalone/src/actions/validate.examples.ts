import type { TemplateExample } from '@backstage/plugin-scaffolder-node';
import { stringify } from 'yaml';

export const validateExamples: TemplateExample[] = [
  {
    description:
      'Check the spec file before any other step, failing with every problem listed',
    example: stringify({
      steps: [
        {
          id: 'validate',
          name: 'Validate the Flink cluster spec',
          action: 'flink:standalone:validate',
          input: { specFile: 'flink-cluster.yaml' },
        },
      ],
    }),
  },
  {
    description:
      'Report the problems of an inline spec as outputs instead of failing the step',
    example: stringify({
      steps: [
        {
          id: 'validate',
          name: 'Validate the Flink cluster spec',
          action: 'flink:standalone:validate',
          input: {
            spec: {
              name: '${{ parameters.name }}',
              namespace: '${{ parameters.namespace }}',
              flinkVersion: '${{ parameters.flinkVersion }}',
            },
            failOnInvalid: false,
          },
        },
      ],
    }),
  },
];
