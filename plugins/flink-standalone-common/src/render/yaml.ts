import { parseAllDocuments, stringify } from 'yaml';

/**
 * A multi-document YAML stream, one document per object, as `kubectl apply -f` reads it.
 *
 * @public
 */
export function toYaml(objects: readonly object[]): string {
  return objects
    .map(object => `---\n${stringify(object, { lineWidth: 0 })}`)
    .join('');
}

/**
 * Reads a YAML stream (a spec file, rendered manifests) into plain objects.
 *
 * @public
 */
export function fromYaml(text: string): unknown[] {
  return parseAllDocuments(text).flatMap(document => {
    if (document.errors.length > 0) {
      throw new Error(`Invalid YAML: ${document.errors[0].message}`);
    }
    const value = document.toJS();
    return value === null || value === undefined ? [] : [value];
  });
}
