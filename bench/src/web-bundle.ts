import { readFile } from 'node:fs/promises';
import { join, posix } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Gzip level of the measurement: 9, the most a server precompressing its assets would use. */
export const GZIP_LEVEL = 9;

export interface FirstLoadFile {
  readonly path: string;
  readonly bytes: number;
  readonly gzipBytes: number;
}

/** A module's static imports and re-exports (`import x from "./a.js"`, `import "./a.js"`); never `import("./a.js")`, which loads later. */
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+\.js)["']/g;
const MODULE_SCRIPT = /<script\b[^>]*\btype=["']module["'][^>]*\bsrc=["']([^"']+)["']/g;
const MODULE_PRELOAD = /<link\b[^>]*\brel=["']modulepreload["'][^>]*\bhref=["']([^"']+)["']/g;
const STYLESHEET = /<link\b[^>]*\brel=["']stylesheet["'][^>]*\bhref=["']([^"']+)["']/g;

/**
 * What the first load of the built web app (dist/web) costs in script: every JavaScript file its
 * index.html loads (module scripts, modulepreloads) and, transitively, their static imports, each
 * gzipped here (node:zlib, level 9). Paths in the page are under `base` (`/app/`). Stylesheets
 * are reported apart: they are not the budget's JavaScript.
 */
export async function firstLoadFiles(webDir: string, base = '/app/'): Promise<{ scripts: FirstLoadFile[]; styles: FirstLoadFile[] }> {
  const html = await readFile(join(webDir, 'index.html'), 'utf8');
  const local = (url: string) => (url.startsWith(base) ? url.slice(base.length) : url.replace(/^\//, ''));
  const pending = [...html.matchAll(MODULE_SCRIPT), ...html.matchAll(MODULE_PRELOAD)].map((match) => local(match[1]));
  const seen = new Set<string>();
  const scripts: FirstLoadFile[] = [];
  while (pending.length > 0) {
    const path = pending.shift()!;
    if (seen.has(path)) continue;
    seen.add(path);
    const source = await readFile(join(webDir, path));
    scripts.push(measure(path, source));
    for (const match of source.toString('utf8').matchAll(STATIC_IMPORT)) {
      const target = match[1];
      if (target.startsWith('.')) pending.push(posix.normalize(posix.join(posix.dirname(path), target)));
      else if (target.startsWith(base)) pending.push(local(target));
    }
  }
  const styles = await Promise.all([...html.matchAll(STYLESHEET)].map(async (match) => measure(local(match[1]), await readFile(join(webDir, local(match[1]))))));
  return { scripts, styles };
}

function measure(path: string, source: Buffer): FirstLoadFile {
  return { path, bytes: source.length, gzipBytes: gzipSync(source, { level: GZIP_LEVEL }).length };
}

export const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
