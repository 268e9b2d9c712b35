import type { Entity } from '@backstage/catalog-model';
import {
  ANNOTATION_FLINK_CLUSTER,
  ANNOTATION_FLINK_NAMESPACE,
  ANNOTATION_KUBERNETES_CLUSTER,
  getFlinkClusterLocation,
  isFlinkStandaloneAvailable,
} from './annotations';

const entity = (annotations: Record<string, string>): Entity => ({
  apiVersion: 'backstage.io/v1alpha1',
  kind: 'Component',
  metadata: { name: 'orders', annotations },
  spec: {},
});

const complete = {
  [ANNOTATION_FLINK_CLUSTER]: 'orders-session',
  [ANNOTATION_FLINK_NAMESPACE]: 'streaming',
  [ANNOTATION_KUBERNETES_CLUSTER]: 'local',
};

describe('entity annotations', () => {
  it('reads the location of the Flink cluster', () => {
    expect(isFlinkStandaloneAvailable(entity(complete))).toBe(true);
    expect(getFlinkClusterLocation(entity(complete))).toEqual({
      kubernetesCluster: 'local',
      namespace: 'streaming',
      name: 'orders-session',
    });
  });

  it('is unavailable without every annotation', () => {
    const { [ANNOTATION_FLINK_NAMESPACE]: _omitted, ...partial } = complete;
    expect(isFlinkStandaloneAvailable(entity(partial))).toBe(false);
    expect(() => getFlinkClusterLocation(entity(partial))).toThrow(
      /flink-standalone.backstage.io\/namespace is missing/,
    );
  });

  it('names every malformed annotation in one InputError', () => {
    let error: any;
    try {
      getFlinkClusterLocation(
        entity({
          ...complete,
          [ANNOTATION_FLINK_CLUSTER]: 'Orders!',
          [ANNOTATION_FLINK_NAMESPACE]: 'a_b',
        }),
      );
    } catch (e) {
      error = e;
    }
    expect(error.name).toBe('InputError');
    expect(error.message).toMatch(
      /cluster "Orders!" is not a Flink cluster name/,
    );
    expect(error.message).toMatch(/namespace "a_b" is not a namespace/);
  });
});
