/**
 * docs/architecture.md against the repository: every repository path it names in backticks exists, and its list
 * of files over 600 lines ("Files that fit on a screen") is exactly the tracked source files over 600 lines.
 * Counts files and lines only; reads `git ls-files`, so it runs in a clone.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean);
const topDirs = new Set(tracked.filter((f) => f.includes('/')).map((f) => f.slice(0, f.indexOf('/'))));
const MAX_LINES = 600;
const SOURCE = /\.(ts|tsx|js|mjs|cjs)$/;

/** Lines of a text as `wc -l` counts them (newlines). */
const lineCount = (text: string) => text.split('\n').length - 1;

/** The backticked paths of `text` whose first segment is a tracked top-level folder, placeholders (`<area>`) left out. */
export function namedPaths(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(/`([A-Za-z0-9_.-]+\/[^`\s]*)`/g)) {
    const path = m[1].replace(/[.,:;]$/, '');
    if (/[<>{}*]/.test(path)) continue;
    if (topDirs.has(path.slice(0, path.indexOf('/')))) found.add(path);
  }
  return [...found].sort();
}

/** The backticked paths at the start of the list items that follow `heading` in the doc, up to the next blank line after the list. */
function listAfter(heading: string): string[] {
  const at = doc.indexOf(heading);
  if (at < 0) throw new Error(`docs/architecture.md has no "${heading}"`);
  const lines = doc.slice(at + heading.length).split('\n');
  const items: string[] = [];
  let i = 0;
  while (i < lines.length && !lines[i].startsWith('- ')) i++;
  for (; i < lines.length && lines[i].startsWith('- '); i++) {
    const m = /^- `([^`]+)`/.exec(lines[i]);
    if (!m) throw new Error(`a list item without a path: ${lines[i]}`);
    items.push(m[1]);
  }
  return items;
}

describe('docs/architecture.md names paths that exist', () => {
  const paths = namedPaths(doc);

  it('finds the paths it names (a hand-picked few among them)', () => {
    expect(paths).toEqual(expect.arrayContaining(['mock/core/front.ts', 'schemas/errors.ts', 'decisions/0008-task-kit.md', 'schemas/video/']));
    expect(paths.length).toBeGreaterThan(50);
  });

  it('every one of them exists in the repository', () => {
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it('the path finder skips placeholders and what is not under a tracked folder', () => {
    expect(namedPaths('`schemas/<area>.ts` `/media/videos/{taskId}.mp4` `nowhere/x.ts` `mock/engine/rng.ts`')).toEqual(['mock/engine/rng.ts']);
  });
});

describe('files that fit on a screen', () => {
  const over = tracked
    .filter((f) => SOURCE.test(f) && existsSync(join(root, f)))
    .filter((f) => lineCount(readFileSync(join(root, f), 'utf8')) > MAX_LINES)
    .sort();
  const withReason = listAfter('Over 600 lines, with the reason:');

  it(`every tracked source file over ${MAX_LINES} lines is listed in docs/architecture.md`, () => {
    const listed = new Set(withReason);
    expect(over.filter((f) => !listed.has(f))).toEqual([]);
  });

  it('every listed file is still over the limit (the lists stay current)', () => {
    expect(withReason.filter((f) => !over.includes(f))).toEqual([]);
  });

  it('counts lines as wc -l does', () => {
    expect([lineCount(''), lineCount('a'), lineCount('a\n'), lineCount('a\nb\n')]).toEqual([0, 0, 1, 2]);
  });
});
