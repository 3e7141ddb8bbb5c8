#!/usr/bin/env node
// `npm run cli -- <command>`: compile and run the operator CLI (apps/cli).
// It builds into a folder of its own (tmp/cli), without the web app, and only when a source is
// newer than that build: a running server serves dist/, and an operator's command must never
// take it away for a moment (issue #44: /app/ answered 404 during every `npm run cli`).
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStaleOnce } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

const outDir = join(repoRoot, 'tmp', 'cli');
await buildIfStaleOnce({ outDir, web: false });
await import(pathToFileURL(join(outDir, 'apps/cli/src/main.js')).href);
