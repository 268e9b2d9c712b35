import { isRecord } from './guards';
import { FLINK_KEY_RULE, QUALIFIED_KEY_RULE } from './schema';

/** A key JSON.parse and the YAML parser keep, but no map built with `obj[key] = …` can hold. */
const PROTO = '__proto__';

type Path = (string | number)[];

/** The rule a key breaks, by the map it sits in. */
function ruleFor(path: Path): string {
  const map = path[path.length - 1];
  if (path.length === 1 && map === 'flinkConfiguration') {
    return `${FLINK_KEY_RULE}; no Flink option is named "${PROTO}"`;
  }
  if (map === 'labels' || map === 'annotations' || map === 'nodeSelector') {
    return QUALIFIED_KEY_RULE;
  }
  return `is not a field Kubernetes knows ("${PROTO}" names no field)`;
}

/**
 * Every `__proto__` key in the raw input, with the rule it breaks. zod's records skip such a key
 * without a word (assigning it would replace the prototype of the map they build), so without
 * this a `flinkConfiguration` or `labels` entry named `__proto__` would vanish from the spec.
 */
export function unholdableKeys(
  input: unknown,
  path: Path = [],
): { path: Path; message: string }[] {
  if (Array.isArray(input)) {
    return input.flatMap((item, index) =>
      unholdableKeys(item, [...path, index]),
    );
  }
  if (!isRecord(input)) return [];
  return Object.keys(input).flatMap(key =>
    key === PROTO
      ? [{ path: [...path, key], message: ruleFor(path) }]
      : unholdableKeys(input[key], [...path, key]),
  );
}
