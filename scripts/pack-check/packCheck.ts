/**
 * The packed-declarations check: what an adopter installs from npm must type-check.
 *
 * Builds and `npm pack`s every publishable workspace package, installs the tarballs into a
 * consumer project outside the repository (so nothing hoists from the monorepo's node_modules)
 * with only the dependencies the packages declare, and runs `tsc` with `skipLibCheck: false`
 * and `strict` on files that re-export every entry point of every package. Then it loads each
 * backend-side entry point with Node to catch runtime imports that are not declared.
 *
 * Publishing needs the same order: `tsc` (declarations into dist-types) before
 * `backstage-cli package build`, which bundles those declarations into dist/*.d.ts.
 *
 * Usage: tsx scripts/pack-check/packCheck.ts [--skip-tsc]
 *   --skip-tsc  dist-types is already up to date (scripts/test.sh ran `tsc` just before)
 * The consumer's npm install is cached under ~/.cache/flink-standalone/pack-check, keyed by
 * the declared dependencies, and redone only when they change.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import {
  consumerDependencies,
  dependencyProblems,
  entryPoints,
  importedPackages,
  externalDependencies,
  PackageJson,
} from './consumer';

const repoRoot = resolve(__dirname, '../..');
const cacheRoot = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  'flink-standalone',
  'pack-check',
);

function log(message: string) {
  console.log(`[pack-check] ${message}`);
}

function run(cmd: string, args: string[], cwd: string): string {
  try {
    return execFileSync(cmd, args, {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    throw new Error(
      `${cmd} ${args.join(' ')} failed in ${cwd}\n${e.stdout ?? ''}${e.stderr ?? ''}`,
    );
  }
}

interface Workspace {
  dir: string;
  pkg: PackageJson;
}

/** Every workspace package that is published (not `private`). */
function publishableWorkspaces(): Workspace[] {
  return ['plugins', 'packages'].flatMap(group =>
    readdirSync(join(repoRoot, group))
      .map(name => join(repoRoot, group, name))
      .filter(dir => existsSync(join(dir, 'package.json')))
      .map(dir => ({
        dir,
        pkg: JSON.parse(
          readFileSync(join(dir, 'package.json'), 'utf8'),
        ) as PackageJson,
      }))
      .filter(w => !w.pkg.private),
  );
}

function pack(workspaces: Workspace[], tarballDir: string): string[] {
  return workspaces.map(w => {
    const started = Date.now();
    run('backstage-cli', ['package', 'build'], w.dir);
    // prepack swaps in publishConfig (dist entry points); postpack restores package.json.
    const out = run(
      'npm',
      ['pack', '--json', '--pack-destination', tarballDir],
      w.dir,
    );
    const jsonStart = out.indexOf('[');
    const [{ filename }] = JSON.parse(out.slice(jsonStart)) as {
      filename: string;
    }[];
    log(`packed ${w.pkg.name} (${Date.now() - started} ms)`);
    return join(tarballDir, filename);
  });
}

/** The packed package.json files, read from the tarballs (publishConfig applied). */
function packedManifests(tarballs: string[]): PackageJson[] {
  return tarballs.map(
    tarball =>
      JSON.parse(
        run('tar', ['-xzOf', tarball, 'package/package.json'], repoRoot),
      ) as PackageJson,
  );
}

/**
 * The consumer project: the declared registry dependencies, installed once per set of them
 * (the cache key), then the tarballs unpacked into node_modules as npm would place them.
 */
function prepareConsumer(manifests: PackageJson[], tarballs: string[]) {
  const own = new Set(manifests.map(m => m.name));
  const deps = consumerDependencies(externalDependencies(manifests, own));
  const key = createHash('sha256')
    .update(JSON.stringify({ deps, node: process.versions.modules }))
    .digest('hex')
    .slice(0, 16);
  const dir = join(cacheRoot, `consumer-${key}`);
  const stamp = join(dir, 'node_modules', '.installed');
  if (!existsSync(stamp)) {
    log(`installing the consumer's dependencies into ${dir} (once per key)`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify(
        { name: 'pack-check-consumer', private: true, dependencies: deps },
        null,
        2,
      ),
    );
    // Backstage's packages declare peer ranges that npm's strict peer resolution rejects
    // (the repo's .npmrc says the same); the consumer lists the peers itself, as an app does.
    writeFileSync(
      join(dir, '.npmrc'),
      'legacy-peer-deps=true\nfund=false\naudit=false\n',
    );
    run('npm', ['install', '--prefer-offline'], dir);
    writeFileSync(stamp, key);
  }
  // Every dependency of the tarballs is at the top level already, so npm would unpack each
  // tarball into node_modules/<name> and nothing more: do that, without a registry round trip.
  manifests.forEach((manifest, i) => {
    const target = join(dir, 'node_modules', manifest.name);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(target, { recursive: true });
    run(
      'tar',
      ['-xzf', tarballs[i], '-C', target, '--strip-components=1'],
      dir,
    );
  });
  return dir;
}

/** The peer dependencies of a package's (installed) dependencies. */
function peersOfDependencies(dir: string, manifest: PackageJson): Set<string> {
  return new Set(
    Object.keys(manifest.dependencies ?? {}).flatMap(name => {
      const file = join(dir, 'node_modules', name, 'package.json');
      const dependency = JSON.parse(readFileSync(file, 'utf8')) as PackageJson;
      return Object.keys(dependency.peerDependencies ?? {});
    }),
  );
}

/** Each package's dist imports exactly the packages it declares. */
function checkDeclaredDependencies(
  dir: string,
  manifests: PackageJson[],
): string[] {
  const problems = manifests.flatMap(manifest => {
    const root = join(dir, 'node_modules', manifest.name, 'dist');
    const sources = readdirSync(root, { recursive: true, encoding: 'utf8' })
      .filter(file => /\.(c?js|mjs|d\.ts)$/.test(file))
      .map(file => readFileSync(join(root, file), 'utf8'));
    return dependencyProblems(
      manifest,
      importedPackages(sources),
      peersOfDependencies(dir, manifest),
    );
  });
  log(
    problems.length
      ? `declared dependencies differ from dist imports:\n  ${problems.join('\n  ')}`
      : `declared dependencies match the dist imports of ${manifests.length} packages`,
  );
  return problems;
}

function writeConsumerSources(dir: string, manifests: PackageJson[]) {
  const src = join(dir, 'src');
  rmSync(src, { recursive: true, force: true });
  mkdirSync(src);
  const files: string[] = [];
  for (const manifest of manifests) {
    for (const entry of entryPoints(manifest)) {
      const file = `${entry.replace(/[@/]/g, '_')}.ts`;
      // `export *` makes tsc load and check every declaration the entry point exposes.
      writeFileSync(
        join(src, file),
        `export * from '${entry}';\nimport * as api from '${entry}';\nexport const exported = Object.keys(api);\n`,
      );
      files.push(file);
    }
  }
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify(
      {
        include: ['src'],
        compilerOptions: {
          // What a stock Backstage app's `tsc:full` uses, with the library checks on.
          module: 'ES2020',
          moduleResolution: 'bundler',
          target: 'ES2022',
          lib: ['DOM', 'DOM.Iterable', 'ES2023'],
          jsx: 'react-jsx',
          strict: true,
          skipLibCheck: false,
          noEmit: true,
          esModuleInterop: true,
          isolatedModules: true,
          types: ['node'],
        },
      },
      null,
      2,
    ),
  );
  return files;
}

/** Node entry points (backend roles and the common library) must load with declared deps only. */
function loadRuntimeEntryPoints(dir: string, manifests: PackageJson[]) {
  const nodeRoles = [
    'common-library',
    'node-library',
    'backend-plugin',
    'backend-plugin-module',
  ];
  for (const manifest of manifests) {
    if (!nodeRoles.includes(manifest.backstage?.role ?? '')) continue;
    for (const entry of entryPoints(manifest)) {
      run(
        'node',
        [
          '-e',
          `const m = require(${JSON.stringify(entry)}); if (!Object.keys(m).length) throw new Error('no exports');`,
        ],
        dir,
      );
      log(`loaded ${entry} with Node`);
    }
  }
}

function main() {
  const started = Date.now();
  const skipTsc = process.argv.includes('--skip-tsc');
  if (!skipTsc) {
    log('tsc: declarations into dist-types');
    run('tsc', [], repoRoot);
  }
  const workspaces = publishableWorkspaces();
  const tarballDir = mkdtempSync(join(tmpdir(), 'pack-check-'));
  try {
    const tarballs = pack(workspaces, tarballDir);
    const manifests = packedManifests(tarballs);
    const dir = prepareConsumer(manifests, tarballs);
    // Every check runs, so one run shows all that is wrong.
    const failures: string[] = [];
    if (checkDeclaredDependencies(dir, manifests).length) {
      failures.push('declared dependencies differ from what dist imports');
    }
    const files = writeConsumerSources(dir, manifests);
    log(
      `tsc --noEmit (strict, skipLibCheck false) on ${files.length} entry points in ${relative(homedir(), dir)}`,
    );
    try {
      run(join(repoRoot, 'node_modules', '.bin', 'tsc'), ['-p', dir], dir);
    } catch (error) {
      console.error(String((error as Error).message));
      failures.push(
        'the packed declarations do not type-check in a consumer project',
      );
    }
    try {
      loadRuntimeEntryPoints(dir, manifests);
    } catch (error) {
      console.error(String((error as Error).message));
      failures.push(
        'an entry point does not load with its declared dependencies',
      );
    }
    if (failures.length) throw new Error(failures.join('; '));
    log(`passed in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    rmSync(tarballDir, { recursive: true, force: true });
  }
}

try {
  main();
} catch (error) {
  console.error(`[pack-check] FAILED: ${(error as Error).message}`);
  process.exit(1);
}
