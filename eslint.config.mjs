// Lint: Nx module boundaries on two tag axes (scope = which service, type = which layer), and
// promise-aware TypeScript rules. Constraints are explicit lists, never '*'.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

const SERVICES = ['gateway', 'sync', 'rest', 'auth-oauth', 'uploads', 'notifications', 'plans', 'webhooks', 'mcp'];

const depConstraints = [
  // Layers: apps compose features; features use infrastructure, utilities and contracts;
  // contracts depend only on other contracts and utilities; an app never imports an app.
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:composition', 'type:infra', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:composition', onlyDependOnLibsWithTags: ['type:feature', 'type:pure', 'type:infra', 'type:util', 'type:contracts', 'type:testing'] },
  // A feature may build on features of its own service only (the scope rules below): the sync
  // service is several libraries, ordered by their sync:* tags.
  { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:pure', 'type:infra', 'type:util', 'type:contracts', 'type:testing'] },
  // A service's pure domain libraries (libs/sync/dates, libs/sync/filter-language): rules and
  // languages with no framework, database or transport, so they are tested and reused alone.
  {
    sourceTag: 'type:pure',
    onlyDependOnLibsWithTags: ['type:pure', 'type:util', 'type:contracts'],
    bannedExternalImports: ['@nestjs/*', 'typeorm', 'pg', '@electric-sql/*', '@nats-io/*', 'nats'],
  },
  // Infrastructure and composition libraries have integration specs: they may use the test kit,
  // which in turn depends on utilities only (so no cycle).
  { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:infra', 'type:util', 'type:contracts', 'type:testing'] },
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util'] },
  { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
  { sourceTag: 'type:bench', onlyDependOnLibsWithTags: ['type:composition', 'type:feature', 'type:pure', 'type:testing', 'type:infra', 'type:util', 'type:contracts'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:composition', 'type:feature', 'type:pure', 'type:testing', 'type:infra', 'type:util', 'type:contracts'] },
  // The sync service's libraries (libs/sync/*), one floor each: the domain (models, repositories,
  // membership), the read side, the engine (commands and the request they run in), the dialects;
  // the service (libs/services/sync: transports and features) sits on all of them.
  { sourceTag: 'sync:domain', onlyDependOnLibsWithTags: ['sync:domain', 'type:pure', 'scope:shared'] },
  { sourceTag: 'sync:read', onlyDependOnLibsWithTags: ['sync:read', 'sync:domain', 'type:pure', 'scope:shared'] },
  { sourceTag: 'sync:engine', onlyDependOnLibsWithTags: ['sync:engine', 'sync:read', 'sync:domain', 'type:pure', 'scope:shared'] },
  { sourceTag: 'sync:dialects', onlyDependOnLibsWithTags: ['sync:dialects', 'sync:engine', 'sync:read', 'sync:domain', 'type:pure', 'scope:shared'] },
  // Scopes: a service sees only itself and what is shared; only the system (embedded runner,
  // CLI, end-to-end tests) sees every service.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  ...SERVICES.map((service) => ({ sourceTag: `scope:${service}`, onlyDependOnLibsWithTags: [`scope:${service}`, 'scope:shared'] })),
  { sourceTag: 'scope:system', onlyDependOnLibsWithTags: ['scope:system', 'scope:shared', ...SERVICES.map((service) => `scope:${service}`)] },
  // The web app (issue #46) runs in a browser over the public APIs only: it may import the wire's
  // types-only entry (libs/contracts/web-wire) and the one library it bundles, quick add's name
  // matcher (shared with the server's parser), and nothing else of the monorepo.
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['web:wire', 'web:bundled'] },
];

export default [
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.nx/**', 'data/**', 'tmp/**', 'bench/results/**', '**/*.mjs', '**/*.mts', '**/*.cjs', '**/*.js'] },
  ...nx.configs['flat/base'],
  ...tseslint.configs.recommendedTypeChecked,
  {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@nx/enforce-module-boundaries': ['error', { enforceBuildableLibDependency: false, allowCircularSelfDependency: false, banTransitiveDependencies: false, depConstraints }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
    },
  },
  {
    // Tests may poke at loosely typed JSON responses.
    files: ['**/*.spec.ts', '**/*.integration-spec.ts', '**/*.e2e-spec.ts', 'e2e/support/**/*.ts', 'libs/shared/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
];
