/**
 * The TypeScript snippets of README.md and docs/guides/*.md, with where each
 * runs. Every ```ts / ```tsx block is preceded by a marker the snippet tests
 * read (test/snippets.test.ts checks that none lacks one; test/snippets.e2e.ts
 * runs them):
 *
 *   <!-- snippet: <where> <file> [msw=2|msw=3] [needs=mock] [partial: why] -->
 *
 * - where: `browser` (a file of a Vite + React app made from the create-vite
 *   react-ts template: `tsc -b && vite build`, then the page in Chromium),
 *   `vite` (the app's vite.config.ts), `node` (a module of a Node project,
 *   compiled by tsc and run with node), `vitest` (a test file of a Node
 *   project, run by Vitest);
 * - file: the file's name there (src/main.tsx, vite.config.ts, client.ts...);
 * - msw: the snippet uses options of that MSW major only (default: both);
 * - needs=mock: it calls a mock server at http://localhost:4010 (`npm start`);
 *   the test starts one on a free port and points the snippet's URL at it;
 * - needs=types: it imports `./api.js`, generated first by the guide's
 *   openapi-typescript command (the sh block after `<!-- openapi-typescript -->`);
 * - partial: a deliberately incomplete snippet, type-checked nowhere, with the reason.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type SnippetWhere = 'browser' | 'vite' | 'node' | 'vitest';

export interface Snippet {
  /** The document (relative to the repository) and the 1-based line of the block's opening fence. */
  doc: string;
  line: number;
  lang: 'ts' | 'tsx';
  code: string;
  /** undefined when the block has no marker (test/snippets.test.ts fails on it). */
  where?: SnippetWhere;
  file?: string;
  /** The MSW majors it runs with. */
  msw: (2 | 3)[];
  needsMock: boolean;
  /** needs=types: it imports ./api.js, the types the guide's openapi-typescript command (after `<!-- openapi-typescript -->`) generates. */
  needsTypes: boolean;
  partial?: string;
}

const MARKER = /^<!--\s*snippet:\s*(.*?)\s*-->$/;

/** The documents whose snippets run: README.md and every guide. */
export function snippetDocs(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs/guides'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/guides/${f}`),
  ];
}

/** Every ts/tsx block of `text` (a Markdown document named `doc`), with its marker's reading. */
export function snippetsOf(doc: string, text: string): Snippet[] {
  const lines = text.split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(ts|tsx|typescript)\s*$/.exec(lines[i]);
    if (!fence) continue;
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`${doc}:${i + 1}: an unclosed code block`);
    // the marker: the nearest non-blank line above the fence
    let j = i - 1;
    while (j >= 0 && lines[j].trim() === '') j--;
    const marker = j >= 0 ? MARKER.exec(lines[j].trim()) : null;
    const snippet: Snippet = {
      doc,
      line: i + 1,
      lang: fence[1] === 'tsx' ? 'tsx' : 'ts',
      code: lines.slice(i + 1, end).join('\n') + '\n',
      msw: [2, 3],
      needsMock: false,
      needsTypes: false,
    };
    if (marker) {
      const partial = /partial:\s*(.+)$/.exec(marker[1]);
      const words = (partial ? marker[1].slice(0, partial.index) : marker[1]).split(/\s+/).filter(Boolean);
      const [where, file, ...flags] = words;
      if (!['browser', 'vite', 'node', 'vitest'].includes(where)) throw new Error(`${doc}:${j + 1}: snippet marker: unknown place "${where}"`);
      snippet.where = where as SnippetWhere;
      snippet.file = file;
      for (const f of flags) {
        if (f === 'msw=2') snippet.msw = [2];
        else if (f === 'msw=3') snippet.msw = [3];
        else if (f === 'needs=mock') snippet.needsMock = true;
        else if (f === 'needs=types') snippet.needsTypes = true;
        else throw new Error(`${doc}:${j + 1}: snippet marker: unknown flag "${f}"`);
      }
      if (partial) snippet.partial = partial[1];
    }
    out.push(snippet);
    i = end;
  }
  return out;
}

/** The guide's openapi-typescript command line (docs/guides/frontend.md, the sh block after `<!-- openapi-typescript -->`), as its words. */
export function openapiTypescriptCommand(root: string): string[] {
  const guide = readFileSync(join(root, 'docs/guides/frontend.md'), 'utf8');
  const m = /<!-- openapi-typescript -->\s*```sh\n([^\n]+)\n```/.exec(guide);
  if (!m) throw new Error('docs/guides/frontend.md: no sh block after <!-- openapi-typescript -->');
  return m[1].trim().split(/\s+/);
}

/** The request bodies of the snippets' `client.POST(path, { body: {...} })` calls: the path and the body's source text. */
export function postBodies(snippets: readonly Snippet[]): { path: string; body: string; at: string }[] {
  return snippets.flatMap((s) =>
    [...s.code.matchAll(/\.POST\('([^']+)',\s*\{\s*body:\s*(\{[\s\S]*?\}),?\s*\}\)/g)].map((m) => ({ path: m[1], body: m[2], at: `${s.doc}:${s.line}` })),
  );
}

/** Every snippet of the README and the guides. */
export function allSnippets(root: string): Snippet[] {
  return snippetDocs(root).flatMap((doc) => snippetsOf(doc, readFileSync(join(root, doc), 'utf8')));
}
