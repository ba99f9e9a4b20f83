/**
 * The renderer's import aliases ($bridge/… for the bridge contract) as a webpack-style resolve
 * config, for dependency-cruiser (build/import-boundaries.cjs). They are read from the paths of
 * renderer/tsconfig.json, so "$bridge/*": ["../electron/bridge/*"] resolves as TypeScript resolves
 * it. (dependency-cruiser's own tsConfig option reads a nested tsconfig's paths from the folder it
 * runs in instead of the tsconfig's own.)
 */
const { readFileSync } = require('node:fs');
const { dirname, resolve } = require('node:path');

const tsconfigFile = resolve('renderer/tsconfig.json');
const paths = JSON.parse(readFileSync(tsconfigFile, 'utf8')).compilerOptions.paths ?? {};
const withoutWildcard = (pattern) => pattern.replace(/\/\*$/, '');

module.exports = {
  resolve: {
    alias: Object.fromEntries(
      Object.entries(paths).map(([alias, [target]]) => [withoutWildcard(alias), resolve(dirname(tsconfigFile), withoutWildcard(target))]),
    ),
  },
};
