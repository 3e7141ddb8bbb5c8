#!/usr/bin/env node
// Rewrites tools/jest/slow-test-files.json from the last `npm test` run (tmp/jest-results.json):
// the files that took at least MIN_SECONDS, slowest first. Run it after a full run on a quiet
// machine when the slowest files changed; the test sequencer starts these first on a fresh clone.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from './swc-options.mjs';

const MIN_SECONDS = 20;
const listFile = join(repoRoot, 'tools/jest/slow-test-files.json');
const results = JSON.parse(readFileSync(join(repoRoot, 'tmp/jest-results.json'), 'utf8'));
const seconds = results.testResults
  .map((file) => [relative(repoRoot, file.name).split('\\').join('/'), Math.round((file.endTime - file.startTime) / 1000)])
  .filter(([, took]) => took >= MIN_SECONDS)
  .sort(([, a], [, b]) => b - a);
const list = JSON.parse(readFileSync(listFile, 'utf8'));
writeFileSync(listFile, `${JSON.stringify({ ...list, seconds: Object.fromEntries(seconds) }, null, 2)}\n`);
console.log(`${seconds.length} files of ${MIN_SECONDS} s or more written to ${relative(repoRoot, listFile)}`);
