/**
 * The seeded OAuth users' keys follow the seed (decisions/0028-seeded-user-keys.md):
 * the same seed gives the same keys in another process (no per-process
 * secret); another seed gives other keys; the key's secret part is not made
 * from the user id the sign-in page shows.
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createMock } from '../mock/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** The seeded users of a fresh in-process mock with `seed`. */
async function users(seed: number): Promise<{ userId: string; apiKey: string }[]> {
  const m = createMock({ seed });
  return ((await (await m.fetch('http://localhost/__mock/users')).json()) as { items: { userId: string; apiKey: string }[] }).items;
}

describe('seeded OAuth users', () => {
  it('the same seed gives the same keys in another process', async () => {
    const here = await users(42);
    const script = `import('./mock/index.ts').then(async ({ createMock }) => { const r = await createMock({ seed: 42 }).fetch('http://localhost/__mock/users'); console.log(JSON.stringify((await r.json()).items)); })`;
    const there = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 })) as unknown;
    expect(here).toHaveLength(3);
    expect(there).toEqual(here);
  }, 150_000);

  it('another seed gives other keys; the secret part is not the user id', async () => {
    const a = await users(42);
    const b = await users(43);
    for (let i = 0; i < 3; i++) {
      expect(b[i].apiKey).not.toBe(a[i].apiKey);
      const [, idPart, secret] = a[i].apiKey.split('_');
      expect(idPart).toBe(`u${a[i].userId.slice(4, 12)}`);
      expect(secret).toMatch(/^[0-9a-f]{32}$/);
      expect(secret).not.toContain(a[i].userId.slice(4));
    }
  });
});
