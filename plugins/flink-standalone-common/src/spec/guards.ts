/** Guards for reading input that may not have passed its own checks yet. */

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const asRecord = (value: unknown): Record<string, unknown> =>
  isRecord(value) ? value : {};
export const asArray = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : [];
