/** Name and reference formats the Kubernetes API server and container runtimes enforce. */

/** RFC 1035 label: what Service names must be (lowercase, starts with a letter). */
export const DNS_1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** RFC 1123 label: what namespaces and volume names must be. */
export const DNS_1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** RFC 1123 subdomain: what most object names (StorageClass, ServiceAccount, Secret) must be. */
export const DNS_1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** A label value: at most 63 characters, alphanumeric at both ends. */
export const LABEL_VALUE = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** A label or annotation key: an optional DNS subdomain prefix, then a name. */
const QUALIFIED_NAME = /^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$/;

export function isQualifiedKey(key: string): boolean {
  const slash = key.lastIndexOf('/');
  const prefix = slash >= 0 ? key.slice(0, slash) : undefined;
  const name = slash >= 0 ? key.slice(slash + 1) : key;
  if (
    prefix !== undefined &&
    (prefix.length > 253 || !DNS_1123_SUBDOMAIN.test(prefix))
  ) {
    return false;
  }
  return name.length <= 63 && QUALIFIED_NAME.test(name);
}

/** An environment variable name as Kubernetes accepts it (C identifier, dots and dashes allowed). */
export const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/**
 * A container image reference: `[registry[:port]/]path[:tag][@digest]`, the grammar of the
 * distribution reference library that container runtimes use.
 */
const IMAGE_REFERENCE = new RegExp(
  [
    '^',
    '(?:(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)(?:\\.(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?))*(?::[0-9]+)?/)?',
    '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*',
    '(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*',
    '(?::[\\w][\\w.-]{0,127})?',
    '(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?',
    '$',
  ].join(''),
);

export function isImageReference(image: string): boolean {
  return image.length <= 255 && IMAGE_REFERENCE.test(image);
}
