#!/usr/bin/env node
// The mediagen-mock command: runs mock/cli.ts through tsx's loader.
import { register } from 'tsx/esm/api';

register();
await import('../mock/cli.ts');
