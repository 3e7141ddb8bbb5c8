import { join, resolve } from 'node:path';

/**
 * Where `npm run build` puts the web app (tools/scripts/web-build.mjs, Vite's outDir): `dist/web`
 * at the repository's root. Found from this file's place, so it holds wherever the code runs
 * from: compiled, this file is `dist/libs/services/gateway/src/web-app/` (five levels under
 * dist/, whose `web` it wants: a container runs /app/dist/...); under Jest it is the source,
 * five levels under the repository, whose `dist/web` it wants.
 */
export function defaultWebAppDir(): string {
  const top = resolve(__dirname, '..', '..', '..', '..', '..');
  return __filename.endsWith('.ts') ? join(top, 'dist', 'web') : join(top, 'web');
}
