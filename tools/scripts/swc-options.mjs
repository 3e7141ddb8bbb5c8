// One source of truth for path aliases: tsconfig.base.json. Both the build (swc) and Jest
// (@swc/jest, moduleNameMapper) derive their settings from it, so an alias is added once.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function tsPaths() {
  const base = JSON.parse(readFileSync(resolve(repoRoot, 'tsconfig.base.json'), 'utf8'));
  return base.compilerOptions.paths;
}

/** swc options for CommonJS output with Nest's legacy decorators and design-time metadata. */
export function swcOptions({ rewritePaths }) {
  return {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true },
      ...(rewritePaths ? { baseUrl: repoRoot, paths: tsPaths() } : {}),
    },
    module: { type: 'commonjs' },
    sourceMaps: true,
  };
}
