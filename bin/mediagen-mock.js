#!/usr/bin/env node
// The mediagen-mock command (and `npm start`). Runs the precompiled
// dist/cli.js (built by `npm run bundle`, which `npm start`, `npm test` and
// `npm pack` run first) when it is newer than every source file of mock/ and
// schemas/; otherwise runs the TypeScript sources through tsx, so an edited
// checkout never runs stale code. An installed package has no sources: it
// always runs dist/cli.js.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = new URL('../', import.meta.url);
const compiled = new URL('dist/cli.js', root);

function newestSource(dir) {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = `${dir}/${e.name}`;
    newest = Math.max(newest, e.isDirectory() ? newestSource(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function compiledIsFresh() {
  if (!existsSync(compiled)) return false;
  if (!existsSync(new URL('mock', root))) return true;
  const built = statSync(compiled).mtimeMs;
  return ['mock', 'schemas'].every((d) => newestSource(fileURLToPath(new URL(d, root))) <= built);
}

if (compiledIsFresh()) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../mock/cli.ts');
}
