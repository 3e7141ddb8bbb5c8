// Three tiers, one runner: `unit` (beside the code, no I/O), `integration` (a real PostgreSQL,
// a fresh database per run) and `e2e` (the whole system over HTTP, embedded and clustered).
import { repoRoot, swcOptions, tsPaths } from './tools/scripts/swc-options.mjs';

const moduleNameMapper = {
  ...Object.fromEntries(Object.entries(tsPaths()).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target.replace(/^\.\//, '')}`])),
  // ESM-only packages whose exports have no `require`/`default` entry Jest's resolver can take:
  // their Node entry, which the transform below turns into CommonJS.
  '^file-type$': '<rootDir>/node_modules/file-type/index.js',
  '^music-metadata$': '<rootDir>/node_modules/music-metadata/lib/index.js',
};

// Nest 12 and the NATS client are ESM-only; Jest's module system needs them as CommonJS.
const esmPackages = ['@nestjs', '@seriousme', '@nats-io', 'file-type', 'strtok3', 'token-types', '@tokenizer', 'uint8array-extras', '@borewit', 'music-metadata', 'win-guid', 'media-typer', 'openid-client', 'oauth4webapi', 'jose'];

const common = {
  rootDir: repoRoot,
  testEnvironment: 'node',
  moduleNameMapper,
  transform: { '^.+\\.(t|j|mj)s$': ['@swc/jest', { ...swcOptions({ rewritePaths: false }), swcrc: false }] },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // tmp/ holds checkouts of earlier releases (the rolling-upgrade e2e): not this tree's modules.
  modulePathIgnorePatterns: ['<rootDir>/tmp/'],
};

export default {
  testSequencer: '<rootDir>/tools/jest/tiers-in-order.sequencer.cjs',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,tools,bench}/**/*.spec.ts'], setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-unit.ts'] },
    { ...common, displayName: 'integration', testMatch: ['<rootDir>/{apps,libs}/**/*.integration-spec.ts'], setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-integration.ts'] },
    // One running system per mode per worker, shared by the suites (e2e/support/use-system.ts).
    { ...common, displayName: 'e2e', testEnvironment: '<rootDir>/tools/jest/shared-systems.environment.cjs', testMatch: ['<rootDir>/e2e/**/*.e2e-spec.ts'], setupFilesAfterEnv: ['<rootDir>/tools/jest/timeout-e2e.ts', '<rootDir>/e2e/support/openapi-check.setup.ts'] },
  ],
};
