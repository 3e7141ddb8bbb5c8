#!/usr/bin/env node
// `npm run cli -- <command>`: compile and run the operator CLI (apps/cli).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

await build();
await import(pathToFileURL(join(repoRoot, 'dist/apps/cli/src/main.js')).href);
