// Builds the web app (apps/web, issue #35) into dist/web with Vite's JS API: one process, no
// extra `vite` child. The app's own vite.config.mts says where it goes (dist/web, base /app/),
// where the gateway serves it from. Skipped, saying so, while the app is not in the tree.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './swc-options.mjs';

export const WEB_APP_CONFIG = join(repoRoot, 'apps', 'web', 'vite.config.mts');

/** `{ ms }` once built, or `{ skipped }` with the reason when there is no app to build. */
/** `outDir` overrides the config's (the build writes beside dist/ and renames, see build.mjs). */
export async function buildWebApp({ configFile = WEB_APP_CONFIG, outDir } = {}) {
  if (!existsSync(configFile)) return { skipped: `no ${configFile}: the web app is not built` };
  const started = Date.now();
  // Imported only when there is an app: the server-side build never pays for loading Vite.
  const { build } = await import('vite');
  // logLevel 'warn': the per-file size table would drown the build's one line.
  await build({ configFile, logLevel: 'warn', mode: 'production', ...(outDir ? { build: { outDir, emptyOutDir: true } } : {}) });
  return { ms: Date.now() - started };
}
