#!/usr/bin/env node
// The mediagen-verify command. In a checkout (verify/ is there) it runs the
// TypeScript sources through tsx; an installed package runs the compiled
// lib/verify/cli.js.
import { existsSync } from 'node:fs';

const root = new URL('../', import.meta.url);
let cli;
if (existsSync(new URL('verify/cli.ts', root))) {
  const { register } = await import('tsx/esm/api');
  register();
  cli = await import('../verify/cli.ts');
} else {
  cli = await import('../lib/verify/cli.js');
}
process.exitCode = await cli.main(process.argv);
