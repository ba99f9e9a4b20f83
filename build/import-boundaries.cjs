/**
 * The layers and which way they import (`npm run check:boundaries`, run by `npm test`), for
 * dependency-cruiser. Paths are read from the folder it runs in, the repository's root; a module is
 * named by its path from there.
 *
 *   renderer/            the popover: only the bridge contract, and its TypeBox schemas never at run time
 *   electron/shell/, main.ts, preload.ts   Electron's side: anything of electron/, never the renderer
 *   electron/platform/   OS adapters: the core's interfaces and the wire contract, never Electron's side
 *   electron/core/       the app's logic: the wire and bridge contracts, never Electron nor an adapter
 *   electron/service/    the local service: only the wire contract
 *   electron/bridge/     the bridge contract: only the wire contract's Result type
 *   electron/api/        the wire contract: nothing of ours above it
 */

/** Our own code: what a rule below says a layer may or may not import. */
const ours = '^(electron|renderer)/';

/** A layer's own folder plus the ones it may import. */
const only = (...folders) => `^(${folders.map((folder) => `electron/${folder}/`).join('|')})`;

/** Electron's side: the shell and the two entry points. */
const shellSide = '^electron/(shell/|main\\.ts$|preload\\.ts$)';

/** The Electron npm module (and its subpaths), as it resolves. */
const electronModule = '^node_modules/electron/';

/** The bridge contract's module: its TypeBox schemas check what crosses IPC. */
const bridgeContract = '^electron/bridge/contract\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import loop: modules that need each other to load are one module in two files.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'api-imports-nothing-above',
      comment: 'electron/api/ is the bottom layer, the wire contract: it imports nothing else of ours.',
      severity: 'error',
      from: { path: '^electron/api/' },
      to: { path: ours, pathNot: only('api') },
    },
    {
      name: 'bridge-imports-only-result',
      comment: "The bridge contract depends on nothing of ours but the wire contract's Result type.",
      severity: 'error',
      from: { path: '^electron/bridge/' },
      to: { path: ours, pathNot: '^electron/(bridge/|api/result\\.ts$)' },
    },
    {
      name: 'bridge-typebox-only-in-contract',
      comment:
        "The renderer imports the bridge's helpers at run time: only contract.ts may load TypeBox or the contract's schemas at run time.",
      severity: 'error',
      from: { path: '^electron/bridge/', pathNot: bridgeContract },
      to: { path: `^node_modules/@sinclair/typebox/|${bridgeContract}`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'service-imports-only-api',
      comment: 'The local service stands alone behind the wire contract (it also runs as its own process).',
      severity: 'error',
      from: { path: '^electron/service/' },
      to: { path: ours, pathNot: only('service', 'api') },
    },
    {
      name: 'core-imports-only-contracts',
      comment: 'The core is the pure app logic: it imports the wire and bridge contracts, never an adapter, the service or a view.',
      severity: 'error',
      from: { path: '^electron/core/' },
      to: { path: ours, pathNot: only('core', 'api', 'bridge') },
    },
    {
      name: 'no-electron-below-shell',
      comment: "Only electron/shell/, main.ts and preload.ts use Electron's module: what is below runs and is tested in plain Node.",
      severity: 'error',
      from: { path: '^electron/(api|bridge|service|core)/' },
      to: { path: electronModule },
    },
    {
      name: 'platform-imports-core-and-contracts',
      comment: "The OS adapters implement the core's interfaces: never Electron's side, the service or a view.",
      severity: 'error',
      from: { path: '^electron/platform/' },
      to: { path: ours, pathNot: only('platform', 'core', 'api', 'bridge') },
    },
    {
      name: 'shell-never-imports-renderer',
      comment: 'The popover reaches Electron only through the bridge; Electron loads its built files, never its modules.',
      severity: 'error',
      from: { path: shellSide },
      to: { path: '^renderer/' },
    },
    {
      name: 'renderer-imports-only-bridge',
      comment: 'The popover knows the app only through the bridge contract ($bridge/…).',
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: '^electron/', pathNot: '^electron/bridge/' },
    },
    {
      name: 'renderer-contract-types-only',
      comment:
        "The bridge contract's TypeBox schemas must not reach the popover's bundle: the renderer imports its types only (import type).",
      severity: 'error',
      from: { path: '^renderer/' },
      to: { path: `${bridgeContract}|^node_modules/@sinclair/typebox/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to nothing: a rule above cannot see where it goes.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '^node_modules/' },
    // The types of an `import type` count: a layer that names another's types depends on them.
    tsPreCompilationDeps: true,
    // The renderer's aliases ($bridge/…), read from its tsconfig's paths.
    webpackConfig: { fileName: require('node:path').join(__dirname, 'renderer-aliases.cjs') },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
