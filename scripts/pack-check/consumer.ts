/** Pure helpers of the packed-declarations check (packCheck.ts): what to install and check. */
import { builtinModules } from 'node:module';

export interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  main?: string;
  exports?: Record<string, unknown>;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  backstage?: { role?: string };
}

/**
 * Type packages a Backstage app has anyway and that the consumer adds beside the peers: the
 * declarations use Node's and React's types, which a library leaves to the app.
 */
const APP_TYPES: Record<string, string> = {
  '@types/node': '^24.0.0',
  '@types/react': '^18.3.0',
  '@types/react-dom': '^18.3.0',
};

/** The registry dependencies (and peers) the packages declare, without their own packages. */
export function externalDependencies(
  manifests: PackageJson[],
  own: Set<string>,
): Record<string, string> {
  const deps: Record<string, string> = {};
  for (const m of manifests) {
    for (const [name, range] of Object.entries({
      ...m.dependencies,
      ...m.peerDependencies,
    })) {
      if (own.has(name)) continue;
      if (deps[name] && deps[name] !== range) {
        throw new Error(
          `${name} is declared as ${deps[name]} and as ${range} (in ${m.name}); declare one range`,
        );
      }
      deps[name] = range;
    }
  }
  return deps;
}

/** The consumer's package.json dependencies: the declared ones plus the app's type packages. */
export function consumerDependencies(
  external: Record<string, string>,
): Record<string, string> {
  const all = { ...APP_TYPES, ...external };
  return Object.fromEntries(
    Object.keys(all)
      .sort()
      .map(name => [name, all[name]]),
  );
}

/** The import specifiers of a package: its name, and `name/sub` for each `./sub` export. */
export function entryPoints(manifest: PackageJson): string[] {
  const subpaths = manifest.exports
    ? Object.keys(manifest.exports).filter(key => !key.endsWith('package.json'))
    : ['.'];
  return subpaths.map(sub =>
    sub === '.'
      ? manifest.name
      : `${manifest.name}/${sub.replace(/^\.\//, '')}`,
  );
}

// Module syntax only: statements start a line (bundled output), calls take a literal; text
// that merely contains "from '…'" (messages, templates) does not match.
const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g,
];

/** The package a bare specifier names (`@scope/pkg/sub` -> `@scope/pkg`); null for relative and builtins. */
export function packageOf(specifier: string): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return null;
  if (specifier.startsWith('node:')) return null;
  const parts = specifier.split('/');
  const name = specifier.startsWith('@')
    ? parts.slice(0, 2).join('/')
    : parts[0];
  return builtinModules.includes(name) ? null : name;
}

/** The packages that built code (JavaScript and declarations) imports. */
export function importedPackages(sources: string[]): Set<string> {
  const names = new Set<string>();
  for (const source of sources) {
    for (const pattern of SPECIFIERS) {
      for (const match of source.matchAll(pattern)) {
        const name = packageOf(match[1]);
        if (name) names.add(name);
      }
    }
  }
  return names;
}

/**
 * Type packages a library declares for a dependency whose own declarations need them but
 * which does not declare them: with `skipLibCheck: false` the consumer checks those too.
 */
const TYPES_FOR_DEPENDENCIES: Record<string, string> = {
  // client-node's declarations import ws (through isomorphic-ws) without declaring @types/ws.
  '@types/ws': '@kubernetes/client-node',
};

/**
 * Differences between what a package's dist imports and what it declares, as messages.
 * `@types/*` packages count for the package they type. A peer that no dist file imports is
 * fine when a dependency has it as a peer too: the package passes the app's copy through.
 */
export function dependencyProblems(
  manifest: PackageJson,
  imported: Set<string>,
  peersOfDependencies: Set<string>,
): string[] {
  const declared = new Set(
    Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }),
  );
  const typed = (name: string) =>
    `@types/${name.startsWith('@') ? name.slice(1).replace('/', '__') : name}`;
  const problems: string[] = [];
  for (const name of [...imported].sort()) {
    if (name === manifest.name) continue;
    if (!declared.has(name) && !declared.has(typed(name))) {
      problems.push(
        `${manifest.name}: dist imports ${name}, which it does not declare`,
      );
    }
  }
  for (const name of [...declared].sort()) {
    const typesOf = name.startsWith('@types/')
      ? [...imported].some(i => typed(i) === name)
      : false;
    const passedThrough =
      name in (manifest.peerDependencies ?? {}) &&
      peersOfDependencies.has(name);
    const typesForDependency =
      TYPES_FOR_DEPENDENCIES[name] !== undefined &&
      declared.has(TYPES_FOR_DEPENDENCIES[name]);
    if (
      !imported.has(name) &&
      !typesOf &&
      !passedThrough &&
      !typesForDependency
    ) {
      problems.push(
        `${manifest.name}: declares ${name}, which its dist does not import`,
      );
    }
  }
  return problems;
}
