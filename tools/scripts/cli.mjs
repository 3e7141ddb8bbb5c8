#!/usr/bin/env node
// `npm run cli -- <command>`: compile (only when a source changed) and run the operator CLI (apps/cli).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStaleOnce } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

await buildIfStaleOnce();
await import(pathToFileURL(join(repoRoot, 'dist/apps/cli/src/main.js')).href);
