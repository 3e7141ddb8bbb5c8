// The one file a CPU pool's worker thread starts with (piscina's `filename`). Plain CommonJS on
// purpose: a worker thread gets neither Jest's transform nor the build's, so this file must run
// as it is, from the sources under Jest and from dist/ (the build copies it there, beside the
// compiled pool). Each task names the module that does the work, without its extension:
// - from dist/, the compiled `.js` beside it is required as it is;
// - from the sources (Jest), there is no `.js`, so `.ts` files are compiled on require with swc
//   (the compiler Jest and the build use), path aliases mapped as tsconfig.base.json maps them.
// A task module exports `run(input)`: small and pure, bytes or text in, a bounded result out;
// what it throws as a DomainError comes back to the caller as one.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

let typeScriptHooked = false;

function repoRootFrom(start) {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) if (existsSync(join(dir, 'tsconfig.base.json'))) return dir;
  throw new Error(`no tsconfig.base.json above ${start}`);
}

function hookTypeScript(from) {
  if (typeScriptHooked) return;
  typeScriptHooked = true;
  const { transformSync } = require('@swc/core');
  const root = repoRootFrom(from);
  const paths = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8')).compilerOptions.paths;
  const options = {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      target: 'es2022',
      keepClassNames: true,
      transform: { legacyDecorator: true, decoratorMetadata: true },
      baseUrl: root,
      paths,
    },
    module: { type: 'commonjs' },
  };
  require.extensions['.ts'] = (module, filename) => {
    module._compile(transformSync(readFileSync(filename, 'utf8'), { ...options, filename }).code, filename);
  };
}

const modules = new Map();

function load(modulePath) {
  let loaded = modules.get(modulePath);
  if (!loaded) {
    if (existsSync(`${modulePath}.js`)) loaded = require(`${modulePath}.js`);
    else {
      hookTypeScript(dirname(modulePath));
      loaded = require(`${modulePath}.ts`);
    }
    modules.set(modulePath, loaded);
  }
  return loaded;
}

// A coded refusal (a DomainError) crosses back as its code, message and extra: an Error's class
// and own fields do not survive the copy between threads.
module.exports = async function runTask({ module, input }) {
  try {
    return { value: await load(module).run(input) };
  } catch (err) {
    if (err && typeof err.code === 'string' && err.extra && typeof err.extra === 'object') return { refusal: { code: err.code, message: err.message, extra: err.extra } };
    throw err;
  }
};
