import { parseClusterSpec } from '../spec/parse';
import { renderCluster } from './cluster';
import { fromYaml, toYaml } from './yaml';

/**
 * Spec YAML in, manifest YAML out: what `npm run render` and the examples use.
 *
 * @public
 */
export function renderClusterYaml(specYaml: string): string {
  const documents = fromYaml(specYaml);
  if (documents.length !== 1) {
    throw new Error(
      `A spec file holds exactly one spec; found ${documents.length} YAML documents`,
    );
  }
  return toYaml(renderCluster(parseClusterSpec(documents[0])));
}
