/**
 * Every TypeScript snippet of README.md and docs/guides/*.md says where it
 * runs (the marker of test/snippets.ts), so test/snippets.e2e.ts
 * (`npm run test:frontend`) runs them all; a block without one fails here.
 */
import { describe, expect, it } from 'vitest';
import { allSnippets, snippetsOf } from './snippets.ts';

const root = new URL('..', import.meta.url).pathname;

describe('the snippets of the README and the guides', () => {
  it('every ts/tsx block carries a snippet marker with a place and a file name', () => {
    const all = allSnippets(root);
    expect(all.length).toBeGreaterThanOrEqual(8);
    const unmarked = all.filter((s) => !s.where || !s.file).map((s) => `${s.doc}:${s.line}`);
    expect(unmarked).toEqual([]);
  });

  it('reads a marker: place, file, MSW major, a mock needed, partial', () => {
    const doc = [
      '<!-- snippet: node a.ts msw=2 needs=mock -->',
      '',
      '```ts',
      'x();',
      '```',
      '<!-- snippet: browser src/b.tsx partial: shows one line -->',
      '```tsx',
      'y();',
      '```',
      '```ts',
      'z();',
      '```',
    ].join('\n');
    const [a, b, c] = snippetsOf('t.md', doc);
    expect(a).toMatchObject({ where: 'node', file: 'a.ts', msw: [2], needsMock: true, needsTypes: false, line: 3, code: 'x();\n', lang: 'ts' });
    expect(b).toMatchObject({ where: 'browser', file: 'src/b.tsx', msw: [2, 3], needsMock: false, partial: 'shows one line', lang: 'tsx' });
    expect(c.where).toBeUndefined();
    expect(() => snippetsOf('t.md', '<!-- snippet: deno a.ts -->\n```ts\n```')).toThrow(/unknown place "deno"/);
  });
});
