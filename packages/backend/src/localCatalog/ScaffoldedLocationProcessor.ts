import {
  CatalogProcessor,
  CatalogProcessorEmit,
  CatalogProcessorParser,
  LocationSpec,
  processingResult,
} from '@backstage/plugin-catalog-node';
import {
  SCAFFOLDED_LOCATION_TYPE,
  ScaffoldedCatalog,
} from './scaffoldedCatalog';

/** Reads `scaffolded` locations: a component name, resolved inside the scaffolded catalog folder. */
export class ScaffoldedLocationProcessor implements CatalogProcessor {
  constructor(private readonly catalog: ScaffoldedCatalog) {}

  getProcessorName(): string {
    return 'ScaffoldedLocationProcessor';
  }

  async readLocation(
    location: LocationSpec,
    optional: boolean,
    emit: CatalogProcessorEmit,
    parser: CatalogProcessorParser,
  ): Promise<boolean> {
    if (location.type !== SCAFFOLDED_LOCATION_TYPE) return false;
    let data: Buffer | undefined;
    try {
      data = await this.catalog.read(location.target);
    } catch (error) {
      emit(processingResult.generalError(location, String(error)));
      return true;
    }
    if (data) {
      for await (const result of parser({ data, location })) emit(result);
    } else if (!optional) {
      emit(
        processingResult.notFoundError(
          location,
          `No scaffolded component ${location.target} in ${this.catalog.directory}`,
        ),
      );
    }
    return true;
  }
}
