/**
 * The import-boundary check (`npm run check:boundaries`: dependency-cruiser with
 * build/import-boundaries.cjs) on small scratch trees laid out like the repository: a clean one
 * passes, and each import across a boundary fails it with the rule that forbids it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../build/scripts/project-root.js';

type Files = Record<string, string>;

/** A stand-in for an npm package in the scratch tree's node_modules: these modules, empty. */
function packageFiles(name: string, modules: string[]): Files {
  const main = `node_modules/${name}/`;
  return Object.fromEntries([
    [`${main}package.json`, JSON.stringify({ name, main: 'index.js' })],
    ...modules.map((module) => [main + module, 'export {};\n']),
  ]);
}

/** Every layer importing what it may: the wire and bridge contracts, a service, the core, an adapter, the shell and the popover. */
const cleanTree: Files = {
  'electron/api/result.ts': 'export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };\n',
  'electron/api/client.ts':
    "import type { Result } from './result.js';\nexport const fetchAll = (): Result<number, string> => ({ ok: true, value: 1 });\n",
  'electron/bridge/contract.ts': [
    "import { Type, type Static } from '@sinclair/typebox';",
    "import type { Result } from '../api/result.js';",
    'export const Snapshot = Type.Object({});',
    'export type Snapshot = Static<typeof Snapshot>;',
    'export type BridgeResult = Result<Snapshot, string>;',
    '',
  ].join('\n'),
  'electron/bridge/format.ts':
    "import type { Snapshot } from './contract.js';\nexport const describe = (snapshot: Snapshot): string => String(snapshot);\n",
  'electron/service/handlers.ts': "import { fetchAll } from '../api/client.js';\nexport const handle = () => fetchAll();\n",
  'electron/core/poller.ts': [
    "import { fetchAll } from '../api/client.js';",
    "import type { BridgeResult } from '../bridge/contract.js';",
    'export interface Keychain { read(): string }',
    'export const poll = (): BridgeResult => ({ ok: false, error: String(fetchAll()) });',
    '',
  ].join('\n'),
  'electron/platform/keychain.ts':
    "import type { Keychain } from '../core/poller.js';\nexport const keychain: Keychain = { read: () => '' };\n",
  'electron/shell/tray.ts': [
    "import { Tray } from 'electron';",
    "import { poll } from '../core/poller.js';",
    "import { keychain } from '../platform/keychain.js';",
    'export const showTray = () => [new Tray(), poll(), keychain];',
    '',
  ].join('\n'),
  'electron/main.ts': "import { showTray } from './shell/tray.js';\nshowTray();\n",
  'electron/preload.ts': "import { contextBridge } from 'electron';\ncontextBridge.exposeInMainWorld('perch', {});\n",
  'renderer/tsconfig.json': JSON.stringify({ compilerOptions: { paths: { '$bridge/*': ['../electron/bridge/*'] } } }),
  'renderer/src/App.svelte': [
    '<script lang="ts">',
    "  import { describe } from '$bridge/format.js';",
    "  import type { Snapshot } from '$bridge/contract.js';",
    "  import { label } from './lib/label.js';",
    '  let { snapshot }: { snapshot: Snapshot } = $props();',
    '</script>',
    '',
    '<p>{label(describe(snapshot))}</p>',
    '',
  ].join('\n'),
  'renderer/src/lib/label.ts':
    "import type { BridgeResult } from '$bridge/contract.js';\nexport const label = (text: string, _result?: BridgeResult) => text;\n",
  // The packages the rules name, and the Svelte runtime a compiled component imports.
  ...packageFiles('electron', ['index.js']),
  ...packageFiles('@sinclair/typebox', ['index.js']),
  ...packageFiles('svelte', ['internal/client.js', 'internal/disclose-version.js']),
};

/** Each import across a boundary, added to the clean tree in a module of its own, and what the check must say of it. */
const crossings = [
  {
    change: 'a renderer module importing core code',
    path: 'renderer/src/lib/poll-label.ts',
    text: "import { poll } from '../../../electron/core/poller.js';\nexport const pollLabel = () => String(poll());\n",
    violation: { rule: 'renderer-imports-only-bridge', to: 'electron/core/poller.ts' },
  },
  {
    // Also shows the check reads components: Svelte 5's compiler, through which dependency-cruiser
    // reads them, drops their type imports, so what it sees of a component is what reaches the bundle.
    change: 'a Svelte component importing core code',
    path: 'renderer/src/components/PollBadge.svelte',
    text: '<script lang="ts">\n  import { poll } from \'../../../electron/core/poller.js\';\n  let { title }: { title: string } = $props();\n</script>\n\n<span {title}>{String(poll())}</span>\n',
    violation: { rule: 'renderer-imports-only-bridge', to: 'electron/core/poller.ts' },
  },
  {
    change: 'a core module importing electron',
    path: 'electron/core/quit.ts',
    text: "import { app } from 'electron';\nexport const quit = () => app;\n",
    violation: { rule: 'no-electron-below-shell', to: 'node_modules/electron/index.js' },
  },
  {
    change: 'a renderer module importing the bridge contract at run time (its TypeBox schemas)',
    path: 'renderer/src/lib/snapshot-check.ts',
    text: "import { Snapshot } from '$bridge/contract.js';\nexport const snapshotSchema = () => Snapshot;\n",
    violation: { rule: 'renderer-contract-types-only', to: 'electron/bridge/contract.ts' },
  },
  {
    change: 'a bridge helper (which the renderer may import) loading TypeBox',
    path: 'electron/bridge/schema-words.ts',
    text: "import { Type } from '@sinclair/typebox';\nexport const schemaWords = () => String(Type);\n",
    violation: { rule: 'bridge-typebox-only-in-contract', to: 'node_modules/@sinclair/typebox/index.js' },
  },
  {
    change: 'the core importing an OS adapter',
    path: 'electron/core/secrets.ts',
    text: "export { keychain } from '../platform/keychain.js';\n",
    violation: { rule: 'core-imports-only-contracts', to: 'electron/platform/keychain.ts' },
  },
  {
    change: 'the service importing the core',
    path: 'electron/service/poll-route.ts',
    text: "import { poll } from '../core/poller.js';\nexport const pollRoute = () => poll();\n",
    violation: { rule: 'service-imports-only-api', to: 'electron/core/poller.ts' },
  },
  {
    change: 'the wire contract importing the bridge contract',
    path: 'electron/api/bridge-answer.ts',
    text: "import type { BridgeResult } from '../bridge/contract.js';\nexport type BridgeAnswer = BridgeResult;\n",
    violation: { rule: 'api-imports-nothing-above', to: 'electron/bridge/contract.ts' },
  },
  {
    change: 'the shell importing a renderer module',
    path: 'electron/shell/popover-label.ts',
    text: "export { label } from '../../renderer/src/lib/label.js';\n",
    violation: { rule: 'shell-never-imports-renderer', to: 'renderer/src/lib/label.ts' },
  },
  {
    change: 'two modules importing each other (a type import counts)',
    path: 'electron/core/schedule.ts',
    text: "import type { view } from './views.js';\nexport const nextPoll = (): ReturnType<typeof view> | number => 1;\n",
    violation: { rule: 'no-circular', to: 'electron/core/views.ts' },
  },
];

/** The other half of the circle above. */
const circleStart = {
  path: 'electron/core/views.ts',
  text: "import { nextPoll } from './schedule.js';\nexport const view = () => nextPoll();\n",
};

/** What the check printed and how it ended. */
type CheckRun = { exitCode: number; output: string };

/** Runs the check as `npm run check:boundaries` does, in a scratch tree of these files. */
async function checkBoundaries(root: string, files: Files): Promise<CheckRun> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  const cli = join(projectRoot, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');
  const args = [cli, '--config', join(projectRoot, 'build/import-boundaries.cjs'), 'electron', 'renderer/src'];
  try {
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: root });
    return { exitCode: 0, output: stdout };
  } catch (error) {
    const { code, stdout } = error as { code: number; stdout: string };
    return { exitCode: code, output: stdout };
  }
}

/**
 * The violations as the check prints them: "error <rule>: <from> → <to>", a circle's modules on
 * the lines after (from → … → from).
 */
function violations(output: string): { rule: string; from: string; to: string }[] {
  return output
    .split(/^\s*error /m)
    .slice(1)
    .map((block) => {
      const [, rule = '', rest = ''] = /^([\w-]+): ([\s\S]*)$/.exec(block) ?? [];
      const [from = '', to = ''] = rest.split('→').map((path) => path.trim());
      return { rule, from, to: to.split('\n')[0]!.trim() };
    });
}

let scratch: string;
let clean: CheckRun;
let crossed: CheckRun;

// Two runs of the check, side by side (each takes seconds: it loads TypeScript and Svelte's compiler).
beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'perch-boundaries-'));
  const crossedFiles = {
    ...cleanTree,
    [circleStart.path]: circleStart.text,
    ...Object.fromEntries(crossings.map(({ path, text }) => [path, text])),
  };
  [clean, crossed] = await Promise.all([
    checkBoundaries(join(scratch, 'clean'), cleanTree),
    checkBoundaries(join(scratch, 'crossed'), crossedFiles),
  ]);
}, 120_000);

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the import-boundary check', () => {
  it('passes a tree where every layer imports what it may', () => {
    expect(clean.output).toContain('no dependency violations found');
    expect(clean.exitCode).toBe(0);
  });

  it.each(crossings)('flags $change with the rule that forbids it', ({ path, violation }) => {
    expect(violations(crossed.output).filter(({ from }) => from === path)).toEqual([{ ...violation, from: path }]);
  });

  it('fails on those imports, and on nothing else', () => {
    // A circle counts once, at the module that closes it.
    const expected = crossings.map(({ path, violation }) => ({ ...violation, from: path }));
    expect(violations(crossed.output)).toEqual(expect.arrayContaining(expected));
    expect(violations(crossed.output)).toHaveLength(expected.length);
    expect(crossed.exitCode).not.toBe(0);
  });
});
