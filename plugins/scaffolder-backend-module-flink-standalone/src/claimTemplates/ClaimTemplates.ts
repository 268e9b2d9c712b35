import type { Config } from '@backstage/config';
import {
  ANNOTATION_PREFIX,
  ClusterSpecError,
  SpecProblem,
  isQuantity,
} from '@flink-standalone/plugin-flink-standalone-common';

/** @public */
export type FlinkComponentKey = 'jobManager' | 'taskManager';

const COMPONENT_KEYS: readonly FlinkComponentKey[] = [
  'jobManager',
  'taskManager',
];

/**
 * Records on each claim which platform template it came from, for whoever reads the PVC.
 *
 * @public
 */
export const CLAIM_TEMPLATE_ANNOTATION = `${ANNOTATION_PREFIX}/claim-template`;

/**
 * A PersistentVolumeClaim spec the platform team defines once and templates refer to by name.
 *
 * @public
 */
export interface ClaimTemplate {
  name: string;
  description?: string;
  storage: string;
  storageClassName?: string;
  accessModes?: string[];
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  allowedFor: FlinkComponentKey[];
}

/** What a spec's claim entry may say besides the template's name: where it sits in the pod. */
const ENTRY_KEYS = ['name', 'mountPath', 'claimTemplate'];

function readTemplate(config: Config): ClaimTemplate {
  const name = config.getString('name');
  const storage = config.getString('storage');
  if (!isQuantity(storage)) {
    throw new Error(
      `flinkStandalone.claimTemplates "${name}": storage "${storage}" is not a Kubernetes quantity such as 50Gi`,
    );
  }
  const allowedFor = config.getStringArray('allowedFor');
  const unknown = allowedFor.filter(
    k => !COMPONENT_KEYS.includes(k as FlinkComponentKey),
  );
  if (allowedFor.length === 0 || unknown.length > 0) {
    throw new Error(
      `flinkStandalone.claimTemplates "${name}": allowedFor must list jobManager and/or taskManager${unknown.length ? `, not ${unknown.join(', ')}` : ''}`,
    );
  }
  return {
    name,
    description: config.getOptionalString('description'),
    storage,
    storageClassName: config.getOptionalString('storageClassName'),
    accessModes: config.getOptionalStringArray('accessModes'),
    labels: config.getOptional<Record<string, string>>('labels'),
    annotations: config.getOptional<Record<string, string>>('annotations'),
    allowedFor: allowedFor as FlinkComponentKey[],
  };
}

type ClaimEntry = Record<string, unknown>;
type SpecObject = Record<string, unknown>;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The platform's named claim templates (`flinkStandalone.claimTemplates`), and their
 * resolution in a spec: an entry `{ name, claimTemplate }` becomes a plain claim template.
 *
 * @public
 */
export class ClaimTemplates {
  private constructor(private readonly templates: Map<string, ClaimTemplate>) {}

  static fromConfig(config: Config): ClaimTemplates {
    const list = (
      config.getOptionalConfigArray('flinkStandalone.claimTemplates') ?? []
    ).map(readTemplate);
    return ClaimTemplates.of(list);
  }

  static of(list: ClaimTemplate[]): ClaimTemplates {
    const templates = new Map<string, ClaimTemplate>();
    for (const template of list) {
      if (templates.has(template.name)) {
        throw new Error(
          `flinkStandalone.claimTemplates: "${template.name}" is defined twice`,
        );
      }
      templates.set(template.name, template);
    }
    return new ClaimTemplates(templates);
  }

  list(): ClaimTemplate[] {
    return [...this.templates.values()];
  }

  /**
   * The spec with every claim-template reference replaced by the template's fields, or a
   * `ClusterSpecError` naming each unknown or not-allowed reference. Other input is left for
   * `parseClusterSpec` to judge.
   */
  resolve<T>(spec: T): T {
    const { resolved, problems } = this.resolveReporting(spec);
    if (problems.length > 0) throw new ClusterSpecError(problems);
    return resolved;
  }

  /**
   * The spec with every reference it could resolve replaced, and the problems of the others (an
   * unresolved entry is left as written), so a validator can report them with the spec's own.
   */
  resolveReporting<T>(spec: T): { resolved: T; problems: SpecProblem[] } {
    const problems: SpecProblem[] = [];
    if (!isObject(spec)) return { resolved: spec, problems };
    const resolved: SpecObject = { ...spec };
    for (const component of COMPONENT_KEYS) {
      const section = spec[component];
      if (!isObject(section) || !Array.isArray(section.volumeClaimTemplates)) {
        continue;
      }
      resolved[component] = {
        ...section,
        volumeClaimTemplates: section.volumeClaimTemplates.map(
          (entry: unknown, index) =>
            this.resolveEntry(
              entry,
              component,
              `${component}.volumeClaimTemplates[${index}]`,
              problems,
            ),
        ),
      };
    }
    return { resolved: resolved as T, problems };
  }

  private resolveEntry(
    entry: unknown,
    component: FlinkComponentKey,
    path: string,
    problems: SpecProblem[],
  ): unknown {
    if (!isObject(entry) || entry.claimTemplate === undefined) return entry;
    const reference = entry.claimTemplate;
    const template =
      typeof reference === 'string' ? this.templates.get(reference) : undefined;
    const overridden = Object.keys(entry).filter(k => !ENTRY_KEYS.includes(k));
    if (overridden.length > 0) {
      problems.push(
        ...overridden.map(key => ({
          path: `${path}.${key}`,
          message: `cannot be set together with claimTemplate: the platform's template "${String(reference)}" defines it`,
        })),
      );
    }
    if (!template) {
      problems.push({
        path: `${path}.claimTemplate`,
        message: this.unknownMessage(reference),
      });
      return entry;
    }
    if (!template.allowedFor.includes(component)) {
      problems.push({
        path: `${path}.claimTemplate`,
        message: `"${template.name}" is not allowed for the ${component} (allowed for: ${template.allowedFor.join(', ')})`,
      });
      return entry;
    }
    return toClaimEntry(entry, template);
  }

  private unknownMessage(reference: unknown): string {
    const known = this.list().map(t => t.name);
    return `"${String(reference)}" is not a claim template defined by the platform (${
      known.length > 0
        ? `defined: ${known.join(', ')}`
        : 'none is defined in flinkStandalone.claimTemplates'
    })`;
  }
}

function toClaimEntry(entry: ClaimEntry, template: ClaimTemplate): ClaimEntry {
  return {
    name: entry.name,
    ...(entry.mountPath !== undefined && { mountPath: entry.mountPath }),
    storage: template.storage,
    ...(template.storageClassName && {
      storageClassName: template.storageClassName,
    }),
    ...(template.accessModes && { accessModes: template.accessModes }),
    labels: { ...template.labels },
    annotations: {
      ...template.annotations,
      [CLAIM_TEMPLATE_ANNOTATION]: template.name,
    },
  };
}
