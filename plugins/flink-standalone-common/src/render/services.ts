import type { Service } from 'kubernetes-types/core/v1';
import type { ClusterSpec } from '../spec';
import { FlinkComponent, clusterLabels, selectorLabels } from './labels';
import { PORTS, clusterObjectNames } from './names';

function service(
  spec: ClusterSpec,
  name: string,
  component: FlinkComponent,
  body: NonNullable<Service['spec']>,
  annotations?: Record<string, string>,
): Service {
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name,
      namespace: spec.namespace,
      labels: clusterLabels(spec, component),
      ...(annotations &&
        Object.keys(annotations).length > 0 && { annotations }),
    },
    spec: { ...body, selector: selectorLabels(spec, component) },
  };
}

/**
 * The JobManager's headless Service (rpc, blob), the REST Service, and for a TaskManager
 * StatefulSet its headless governing Service. Headless Services publish not-ready pods: TMs
 * register with a JM that is still starting, and StatefulSet pod DNS names must resolve early.
 */
export function renderServices(spec: ClusterSpec): Service[] {
  const names = clusterObjectNames(spec.name);
  const { rest } = spec;
  const services = [
    service(spec, names.jobManagerService, 'jobmanager', {
      clusterIP: 'None',
      publishNotReadyAddresses: true,
      ports: [
        { name: 'rpc', port: PORTS.jobManagerRpc, targetPort: 'rpc' },
        {
          name: 'blob-server',
          port: PORTS.blobServer,
          targetPort: 'blob-server',
        },
      ],
    }),
    service(
      spec,
      names.restService,
      'jobmanager',
      {
        type: rest.serviceType,
        ports: [
          {
            name: 'rest',
            port: PORTS.rest,
            targetPort: 'rest',
            ...(rest.nodePort !== undefined && { nodePort: rest.nodePort }),
          },
        ],
      },
      rest.annotations,
    ),
  ];
  if (spec.taskManager.workload === 'StatefulSet') {
    services.push(
      service(spec, names.taskManagerService, 'taskmanager', {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        ports: [{ name: 'rpc', port: PORTS.taskManagerRpc, targetPort: 'rpc' }],
      }),
    );
  }
  return services;
}
