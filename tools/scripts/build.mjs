#!/usr/bin/env node
// Compiles apps/, libs/ and bench/ to dist/ with swc (type-checking is `npm run typecheck`, done by tsc).
// Path aliases are rewritten to relative requires, so dist/ runs with plain `node` and no loader.
// The web app (apps/web) is built after them into dist/web with Vite (web-build.mjs): the gateway serves it at /app.
// Usage: node tools/scripts/build.mjs            (everything)
//
// A running server (`npm start`) serves dist/web and loads dist/ lazily, so a build never empties
// the folder it is read from: it writes a sibling (`dist.next-<pid>`) and renames its files into
// place one by one (issue #44: every `npm run cli` used to rebuild dist/web and the app answered
// 404 meanwhile).
import { transformFile } from '@swc/core';
import { copyFile, mkdir, open, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
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

/**
 * Compiles into `outDir`. `web: false` skips the browser app (the operator CLI needs no UI).
 * Everything is written beside `outDir` first, then moved into place by two renames, so a reader
 * of `outDir` sees the old build or the new one, never an empty or half-written folder.
 */
export async function build({ outDir = join(repoRoot, 'dist'), web = true } = {}) {
  const started = Date.now();
  const staging = `${outDir}.next-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  const options = swcOptions({ rewritePaths: true });
  const jobs = [];
  for (const dir of SOURCE_DIRS) {
    for await (const file of sources(join(repoRoot, dir))) {
      jobs.push(
        (async () => {
          const path = relative(repoRoot, file).replace(/\.ts$/, '.js');
          const out = join(staging, path);
          // The source map names the source relative to where the file will live, not the staging folder.
          const { code, map } = await transformFile(file, { ...options, filename: file, sourceFileName: relative(dirname(join(outDir, path)), file) });
          await mkdir(dirname(out), { recursive: true });
          await writeFile(out, `${code}\n//# sourceMappingURL=${out.split('/').pop()}.map\n`);
          if (map) await writeFile(`${out}.map`, map);
        })(),
      );
    }
  }
  for (const file of DATA_FILES) {
    const out = join(staging, file);
    jobs.push(mkdir(dirname(out), { recursive: true }).then(() => copyFile(join(repoRoot, file), out)));
  }
  try {
    await Promise.all(jobs);
    const webBuild = web ? await buildWebApp({ outDir: join(staging, 'web') }) : { skipped: 'the web app is not needed here' };
    if (web) console.log(webBuild.skipped ?? `built the web app in ${webBuild.ms} ms`);
    await moveIntoPlace(staging, outDir);
    return { files: jobs.length, ms: Date.now() - started, web: webBuild };
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
}

/**
 * Replaces `target` by `staging` file by file. Renaming one file over another is atomic, so a
 * reader of any file the two builds share finds the old or the new one, never neither (swapping
 * the two folders by two renames left a moment with no folder at all, and a loaded machine hit
 * it). Folders come before the files beside them, so the web app's new hashed assets are in
 * place before the index.html that names them; what only the old build had goes last.
 */
async function moveIntoPlace(staging, target) {
  const kept = new Set();
  const moveTree = async (from, to) => {
    await mkdir(to, { recursive: true });
    const entries = await readdir(from, { withFileTypes: true });
    entries.sort((a, b) => Number(b.isDirectory()) - Number(a.isDirectory()));
    for (const entry of entries) {
      const source = join(from, entry.name);
      const destination = join(to, entry.name);
      kept.add(destination);
      if (entry.isDirectory()) {
        // A file where the new build has a folder (or the reverse, below) goes first.
        if (!(await stat(destination).catch(() => undefined))?.isDirectory()) await rm(destination, { force: true, recursive: true });
        await moveTree(source, destination);
      } else {
        if ((await stat(destination).catch(() => undefined))?.isDirectory()) await rm(destination, { force: true, recursive: true });
        await rename(source, destination);
      }
    }
  };
  const removeStale = async (dir) => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (!kept.has(path)) await rm(path, { force: true, recursive: true });
      else if (entry.isDirectory()) await removeStale(path);
    }
  };
  await moveTree(staging, target);
  await removeStale(target);
  await rm(staging, { recursive: true, force: true });
}

/** Inputs whose change makes dist/ stale besides the sources: the aliases and the installed packages. */
const BUILD_INPUTS = ['tsconfig.base.json', 'package-lock.json'];
/** What the build reads under SOURCE_DIRS (not, say, the docs' screenshots in apps/web/docs). */
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
export async function buildIfStale({ outDir = join(repoRoot, 'dist'), web = true } = {}) {
  const marker = await stat(join(outDir, 'apps', 'embedded', 'src', 'main.js')).catch(() => undefined);
  const webIndex = web ? await stat(join(outDir, 'web', 'index.html')).catch(() => undefined) : true;
  if (marker && webIndex) {
    let newest = 0;
    for (const dir of SOURCE_DIRS) newest = Math.max(newest, await newestInput(join(repoRoot, dir)));
    for (const file of BUILD_INPUTS) newest = Math.max(newest, (await stat(join(repoRoot, file))).mtimeMs);
    if (newest < marker.mtimeMs) return { skipped: 'dist/ is newer than every source' };
  }
  return build({ outDir, web });
}

const { unlock, waitForLock } = createRequire(import.meta.url)('fs-native-extensions');

/**
 * buildIfStale, one process at a time (`npm start`, `npm run cli`). Two builds at the same moment
 * would race on the final renames (the second finds the folder the first just put in place), and
 * would both do the same work: under this lock the second waits, then finds its output fresh;
 * nothing is rebuilt unless a source changed.
 */
export async function buildIfStaleOnce(options = {}) {
  await mkdir(join(repoRoot, 'tmp'), { recursive: true });
  const lockFile = await open(join(repoRoot, 'tmp', 'build.lock'), 'a');
  try {
    await waitForLock(lockFile.fd);
    return await buildIfStale(options);
  } finally {
    unlock(lockFile.fd);
    await lockFile.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { files, ms } = await build();
  console.log(`built ${files} files into dist/ in ${ms} ms`);
}
