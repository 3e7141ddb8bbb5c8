#!/usr/bin/env node
// `npm start`: compile (swc, a few seconds) and run the whole system embedded.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

await build();
await import(pathToFileURL(join(repoRoot, 'dist/apps/embedded/src/main.js')).href);
