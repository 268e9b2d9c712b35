import { posix } from 'node:path';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import {
  renderCluster,
  toYaml,
} from '@flink-standalone/plugin-flink-standalone-common';
import type { ClaimTemplates } from '../claimTemplates/ClaimTemplates';
import { manifestFiles, writeWorkspaceFiles } from './manifestFiles';
import { renderExamples } from './render.examples';
import { loadSpec } from './specSource';
import { specInputs } from './specInputs';

/** @public */
export const RENDER_ACTION_ID = 'flink:standalone:render';
const DEFAULT_TARGET_PATH = 'manifests';
const DEFAULT_SPEC_OUTPUT_PATH = 'flink-cluster.yaml';

const SPEC_HEADER =
  '# Flink cluster spec, claim templates resolved by flink:standalone:render.\n# Re-render with: npm run render -- <this file>\n';

/**
 * Spec in, manifests and the resolved spec out, into the workspace: for `publish:*` or apply.
 *
 * @public
 */
export function createRenderAction(options: {
  claimTemplates: ClaimTemplates;
}) {
  return createTemplateAction({
    id: RENDER_ACTION_ID,
    description:
      'Validates a Flink cluster spec, resolves platform claim templates and writes the Kubernetes manifests and the resolved spec into the workspace.',
    examples: renderExamples,
    // Only the workspace changes, so a dry run shows the real files.
    supportsDryRun: true,
    schema: {
      input: {
        ...specInputs,
        targetPath: z =>
          z
            .string()
            .optional()
            .describe(
              `Workspace folder for the manifests (default ${DEFAULT_TARGET_PATH}); it holds Kubernetes objects only, so kubectl apply -f works on it`,
            ),
        layout: z =>
          z
            .enum(['files', 'stream'])
            .optional()
            .describe(
              'files (default): one file per object, numbered in apply order; stream: one multi-document <name>.yaml',
            ),
        specOutputPath: z =>
          z
            .string()
            .optional()
            .describe(
              `Where the resolved spec is written in the workspace (default ${DEFAULT_SPEC_OUTPUT_PATH})`,
            ),
      },
      output: {
        name: z => z.string().describe('The Flink cluster name'),
        namespace: z => z.string().describe('The Kubernetes namespace'),
        manifestsPath: z =>
          z.string().describe('The workspace folder of the manifests'),
        files: z =>
          z
            .array(z.string())
            .describe('Manifest files written, in apply order'),
        specPath: z => z.string().describe('The resolved spec file written'),
        objects: z =>
          z.array(z.string()).describe('Kind/name of each rendered object'),
      },
    },
    async handler(ctx) {
      const { resolved, spec } = await loadSpec(
        ctx.workspacePath,
        ctx.input,
        options.claimTemplates,
      );
      const objects = renderCluster(spec);
      const manifestsPath = posix.normalize(
        ctx.input.targetPath ?? DEFAULT_TARGET_PATH,
      );
      const files = manifestFiles(objects, {
        targetPath: manifestsPath,
        layout: ctx.input.layout ?? 'files',
        clusterName: spec.name,
      });
      const specPath = posix.normalize(
        ctx.input.specOutputPath ?? DEFAULT_SPEC_OUTPUT_PATH,
      );
      await writeWorkspaceFiles(ctx.workspacePath, [
        ...files,
        { path: specPath, content: SPEC_HEADER + toYaml([resolved as object]) },
      ]);
      ctx.logger.info(
        `Rendered ${objects.length} objects of Flink cluster ${spec.namespace}/${spec.name} into ${manifestsPath}`,
      );
      ctx.output('name', spec.name);
      ctx.output('namespace', spec.namespace);
      ctx.output('manifestsPath', manifestsPath);
      ctx.output(
        'files',
        files.map(f => f.path),
      );
      ctx.output('specPath', specPath);
      ctx.output(
        'objects',
        objects.map(o => `${o.kind}/${o.metadata!.name}`),
      );
    },
  });
}
