/** `npm run check:generated`: fails when spec/ or generated/ differ from what the schemas emit. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderArtifacts } from './artifacts.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const stale: string[] = [];
for (const [path, content] of Object.entries(await renderArtifacts())) {
  const file = join(root, path);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== content) stale.push(path);
}
if (stale.length > 0) {
  console.error(`stale generated files: ${stale.join(', ')}\nrun \`npm run build\` and commit the result`);
  process.exit(1);
}
console.log('generated files are up to date');
