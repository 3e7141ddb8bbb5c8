#!/usr/bin/env node
// Compiles apps/, libs/ and bench/ to dist/ with swc (type-checking is `npm run typecheck`, done by tsc).
// Path aliases are rewritten to relative requires, so dist/ runs with plain `node` and no loader.
// The web app (apps/web) is built after them into dist/web with Vite (web-build.mjs): the gateway serves it at /app.
// Usage: node tools/scripts/build.mjs            (everything)
import { transformFile } from '@swc/core';
import { copyFile, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { repoRoot, swcOptions } from './swc-options.mjs';
import { buildWebApp } from './web-build.mjs';

// e2e/support too: the e2e tier's shared systems are started from dist/ (tools/jest/shared-systems.environment.cjs).
const SOURCE_DIRS = ['apps', 'libs', 'bench', 'e2e/support'];
/** Files compiled code reads beside itself: the e2e plan catalogue; the CPU pool's plain-JS worker entry. */
const DATA_FILES = ['e2e/support/plans.e2e.json', 'libs/shared/runtime/src/workers/cpu-task-runner.cjs'];
const SKIP = /\.(spec|integration-spec|e2e-spec)\.ts$|\.d\.ts$/;

/** The browser app is Vite's to build (web-build.mjs), not swc's: none of it runs under Node. */
const NOT_SERVER_CODE = new Set([join(repoRoot, 'apps', 'web')]);

async function* sources(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && NOT_SERVER_CODE.has(path)) continue;
    if (entry.isDirectory()) yield* sources(path);
    else if (entry.name.endsWith('.ts') && !SKIP.test(entry.name)) yield path;
  }
}

export async function build({ outDir = join(repoRoot, 'dist') } = {}) {
  const started = Date.now();
  await rm(outDir, { recursive: true, force: true });
  const options = swcOptions({ rewritePaths: true });
  const jobs = [];
  for (const dir of SOURCE_DIRS) {
    for await (const file of sources(join(repoRoot, dir))) {
      jobs.push(
        (async () => {
          const out = join(outDir, relative(repoRoot, file)).replace(/\.ts$/, '.js');
          const { code, map } = await transformFile(file, { ...options, filename: file, sourceFileName: relative(dirname(out), file) });
          await mkdir(dirname(out), { recursive: true });
          await writeFile(out, `${code}\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
          if (map) await writeFile(`${out}.map`, map);
        })(),
      );
    }
  }
  for (const file of DATA_FILES) {
    const out = join(outDir, file);
    jobs.push(mkdir(dirname(out), { recursive: true }).then(() => copyFile(join(repoRoot, file), out)));
  }
  await Promise.all(jobs);
  // After the rm above and the swc jobs: Vite empties and fills dist/web itself.
  const web = await buildWebApp();
  console.log(web.skipped ?? `built the web app into dist/web in ${web.ms} ms`);
  return { files: jobs.length, ms: Date.now() - started, web };
}

/** Inputs whose change makes dist/ stale besides the sources: the aliases and the installed packages. */
const BUILD_INPUTS = ['tsconfig.base.json', 'package-lock.json'];
/** What the build reads under SOURCE_DIRS (not, say, the README's screenshots in apps/web/docs). */
const BUILT_FROM = /\.(ts|tsx|mts|css|html|json)$/;

async function newestInput(dir) {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, await newestInput(path));
    else if (BUILT_FROM.test(entry.name)) newest = Math.max(newest, (await stat(path)).mtimeMs);
  }
  return newest;
}

/**
 * Builds unless dist/ is newer than every source (server and web app alike) and the files it
 * depends on: for tools that run the built system often (`npm run screenshots`), where a
 * rebuild on every run would cost more than the run. Marker: the embedded entry point, written
 * before the web app (a source saved during a build is then seen as newer, and rebuilt next time).
 */
export async function buildIfStale() {
  const marker = await stat(join(repoRoot, 'dist', 'apps', 'embedded', 'src', 'main.js')).catch(() => undefined);
  const web = await stat(join(repoRoot, 'dist', 'web', 'index.html')).catch(() => undefined);
  if (marker && web) {
    let newest = 0;
    for (const dir of SOURCE_DIRS) newest = Math.max(newest, await newestInput(join(repoRoot, dir)));
    for (const file of BUILD_INPUTS) newest = Math.max(newest, (await stat(join(repoRoot, file))).mtimeMs);
    if (newest < marker.mtimeMs) return { skipped: 'dist/ is newer than every source' };
  }
  return build();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, ms } = await build();
  console.log(`built ${files} files into dist/ in ${ms} ms`);
}
