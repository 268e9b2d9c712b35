import type { z as zod } from 'zod/v3';

/** The inputs every action reads its spec from; exactly one of them is given. */
export const specInputs = {
  // Values typed `any`, not `unknown`: an action's input type must satisfy JsonObject, and
  // Record<string, unknown> does not (TS2344 in the published declarations). parseClusterSpec
  // validates the spec's content either way.
  spec: (z: typeof zod) =>
    z
      .record(z.string(), z.any())
      .optional()
      .describe(
        'The Flink cluster spec (name, namespace, flinkVersion, jobManager, taskManager, …). A claim template entry may name a platform template: { name: flink-data, claimTemplate: fast-ssd-50g }. Give spec or specFile.',
      ),
  specFile: (z: typeof zod) =>
    z
      .string()
      .optional()
      .describe(
        'Path of a YAML spec file in the workspace, e.g. flink-cluster.yaml written by fetch:template. Give spec or specFile.',
      ),
};
