#!/usr/bin/env node
// `npm start`: compile (swc, a few seconds; only when a source changed) and run the whole system embedded.
// `--wait`: wait for the data folder's owner to stop instead of refusing (apps/embedded).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStaleOnce } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

await buildIfStaleOnce();
await import(pathToFileURL(join(repoRoot, 'dist/apps/embedded/src/main.js')).href);
