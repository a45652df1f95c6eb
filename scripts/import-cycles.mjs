// The import cycles among the repository's own files, by dpdm: every import counts, static, dynamic and type-only
// (`transform: false` keeps the type imports; a type-only cycle still ties two modules together). `npm run lint:code`
// runs it over the files ESLint lints (eslint.config.js's ignores, the same folders), in about 2 s; ESLint's
// import-x/no-cycle took about 7 s of the same run for a check that skipped `import type`. Plain JavaScript on
// purpose, like the other scripts npm runs.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';

/** The files whose imports are checked: what ESLint lints (eslint.config.js), TypeScript and JavaScript. */
export const CYCLE_GLOBS = ['*.{ts,js,mjs}', '{mock,schemas,client,verify,scripts,test,bin,packages}/**/*.{ts,tsx,js,mjs}'];

/**
 * The files left out under `root`, as eslint.config.js ignores them (built, generated, or type fixtures with their own
 * tsconfig), and any package. dpdm tests absolute paths, so the folders are anchored at `root`: a checkout that
 * itself lives under a folder named `lib` or `dist` is still read.
 */
function excluded(root) {
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const base = escape(resolve(root)).replaceAll('\\\\', '[\\\\/]');
  return new RegExp(
    `^${base}[\\\\/](?:(?:dist|lib|generated|spec|coverage)[\\\\/]|test[\\\\/](?:types|frontend-app|type-fixtures[\\\\/]\\.gen)[\\\\/]|packages[\\\\/]contract[\\\\/](?:client|types)[\\\\/])|[\\\\/]node_modules[\\\\/]`,
  );
}

/**
 * The import cycles among the files of `root` matching `globs` (relative to `root`): `cycles`, each the list of its
 * files (paths relative to `root`, the first not repeated at the end; none: []), and `files`, the files read (the
 * matches and what they import, packages left out), relative to `root`. `root`'s tsconfig.json, if any, resolves the imports.
 */
export async function importCycles(root, globs = CYCLE_GLOBS) {
  const tree = await parseDependencyTree(globs, {
    cwd: root,
    context: root,
    ...(existsSync(join(root, 'tsconfig.json')) ? { tsconfig: join(root, 'tsconfig.json') } : {}),
    transform: false,
    skipDynamicImports: false,
    exclude: excluded(root),
  });
  // a file left out (excluded) or not code (a JSON document) is a leaf of the tree: not read
  const read = Object.keys(tree).filter((f) => tree[f] !== null && /\.(ts|tsx|js|mjs)$/.test(f));
  return { files: read, cycles: parseCircular(tree) };
}
