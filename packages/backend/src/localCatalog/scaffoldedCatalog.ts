import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InputError } from '@backstage/errors';

/**
 * Where the example app keeps the catalog-info.yaml of components its template created without
 * a repository: one file per component, read by the `scaffolded` location type.
 */
export const SCAFFOLDED_LOCATION_TYPE = 'scaffolded';

/** A location target is a component name: never a path, so a location reads only this folder. */
const COMPONENT_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

export class ScaffoldedCatalog {
  constructor(readonly directory: string) {}

  /** The same folder across restarts, so a catalog in a file database keeps finding its files. */
  static default(): ScaffoldedCatalog {
    return new ScaffoldedCatalog(
      process.env.FLINK_STANDALONE_SCAFFOLDED_CATALOG_DIR ??
        join(tmpdir(), 'flink-standalone-backstage', 'scaffolded-catalog'),
    );
  }

  fileOf(componentName: string): string {
    if (!COMPONENT_NAME.test(componentName)) {
      throw new InputError(
        `A scaffolded location's target must be a component name (lowercase letters, digits and "-"), got "${componentName}"`,
      );
    }
    return join(this.directory, `${componentName}.yaml`);
  }

  async write(componentName: string, yaml: string): Promise<void> {
    const file = this.fileOf(componentName);
    await mkdir(this.directory, { recursive: true });
    await writeFile(file, yaml);
  }

  /** undefined when there is no such file. */
  async read(componentName: string): Promise<Buffer | undefined> {
    try {
      return await readFile(this.fileOf(componentName));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }
}
