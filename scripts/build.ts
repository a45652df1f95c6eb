/** `npm run build`: writes spec/ and generated/ from the Zod schemas. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderArtifacts } from './artifacts.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
for (const [path, content] of Object.entries(await renderArtifacts())) {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
  console.log(`wrote ${path} (${content.length} bytes)`);
}
