/**
 * Kubernetes resource quantities (`500m`, `2Gi`, `1e3`), as the API server accepts them.
 * Parsed here so the spec can compare sizes and the renderer can hand Flink a memory size.
 */
const QUANTITY =
  /^\+?(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/;

const SUFFIX_FACTORS: Record<string, number> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

/** @public */
export function isQuantity(value: string): boolean {
  return QUANTITY.test(value);
}

/**
 * The quantity's value in base units (bytes for memory and storage, cores for cpu).
 *
 * @public
 */
export function quantityValue(value: string): number {
  const match = QUANTITY.exec(value);
  if (!match) {
    throw new Error(`"${value}" is not a Kubernetes quantity`);
  }
  const [, number, suffix = ''] = match;
  const factor = /^[eE]/.test(suffix)
    ? 10 ** Number(suffix.slice(1))
    : SUFFIX_FACTORS[suffix];
  return Number(number) * factor;
}

/**
 * A memory quantity as a Flink MemorySize string in whole mebibytes (`2Gi` → `2048m`).
 *
 * @public
 */
export function toFlinkMemorySize(memory: string): string {
  return `${Math.floor(quantityValue(memory) / 2 ** 20)}m`;
}
