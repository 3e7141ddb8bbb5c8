#!/usr/bin/env node
// `npm run start:cluster`: compile (swc, a few seconds), then run every service as its own
// process over PostgreSQL and NATS, as a cluster is deployed. `--no-build` reuses dist/.
// Options: see `npm run start:cluster -- --help`.
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { build } from './build.mjs';
import { repoRoot } from './swc-options.mjs';

const args = process.argv.slice(2);
const noBuild = args.includes('--no-build');
if (!noBuild) await build();
const distDir = join(repoRoot, 'dist');
// dist/ is CommonJS (swc); require() sees its exports.
const { launchCluster } = createRequire(import.meta.url)(join(distDir, 'libs/system/src/cluster-launcher.js'));
process.exit(await launchCluster(args.filter((arg) => arg !== '--no-build'), distDir));
