const BINARY: Record<string, number> = {
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
};
const DECIMAL: Record<string, number> = {
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
};

/** Bytes of a Kubernetes storage quantity such as "10Gi" or "500M". */
export function parseQuantity(quantity: string): number {
  const match = /^([0-9.]+)([A-Za-z]*)$/.exec(quantity.trim());
  if (!match) throw new Error(`not a quantity: ${quantity}`);
  const [, number, suffix] = match;
  const factor =
    BINARY[suffix] ?? DECIMAL[suffix] ?? (suffix === '' ? 1 : undefined);
  if (factor === undefined)
    throw new Error(`unknown quantity suffix in ${quantity}`);
  return Number(number) * factor;
}
