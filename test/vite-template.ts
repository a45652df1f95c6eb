/**
 * The create-vite react-ts template, as `npm create vite@latest -- --template
 * react-ts` writes it (the interop tests' frontend app): the create-vite
 * release is pinned here and fetched with `npm pack` from the registry npm
 * uses. Used by test/package.e2e.ts (the types under the template's
 * tsconfig) and test/snippets.e2e.ts (the snippets in an app made from it).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The create-vite release whose react-ts template the tests use (npm's `latest` when written). */
export const CREATE_VITE = '9.3.0';

/** The folder of the template (template-react-ts of create-vite@CREATE_VITE), fetched once per machine. */
export function viteTemplate(): string {
  const cache = join(tmpdir(), `mediagen-create-vite-${CREATE_VITE}`);
  const template = join(cache, 'package/template-react-ts');
  if (existsSync(join(template, 'package.json'))) return template;
  const work = `${cache}.${process.pid}`;
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  execFileSync('npm', ['pack', `create-vite@${CREATE_VITE}`, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] });
  const tgz = readdirSync(work).find((f) => f.endsWith('.tgz'))!;
  execFileSync('tar', ['-xzf', tgz], { cwd: work });
  rmSync(cache, { recursive: true, force: true });
  renameSync(work, cache);
  return template;
}

/** The template's dependencies and devDependencies as `name@range` install arguments. */
export function templateDependencies(template: string): string[] {
  const pkg = JSON.parse(readFileSync(join(template, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
    devDependencies: Record<string, string>;
  };
  return Object.entries({ ...pkg.dependencies, ...pkg.devDependencies }).map(([n, v]) => `${n}@${v}`);
}

/** Copies the template into `dest` as create-vite does (`_gitignore` becomes `.gitignore`). */
export function copyTemplate(template: string, dest: string): void {
  cpSync(template, dest, { recursive: true });
  if (existsSync(join(dest, '_gitignore'))) renameSync(join(dest, '_gitignore'), join(dest, '.gitignore'));
}
