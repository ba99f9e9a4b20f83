import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { databaseFile } from './data-folder.js';
import type { demoLogins } from './seed/demo.js';
import type { FirstStart } from './seed/first-start.js';

const defaultPort = 8750;
const defaultDataFolder = '.perch-data';

const usage = `Usage: npm run service -- [--port <port>] [--data <folder>] [--demo]

Serves the Perch local service (the reservation REST API) on 127.0.0.1.

  --port <port>    TCP port; 0 picks a free one (default ${defaultPort})
  --data <folder>  data folder, created when missing; holds perch.db (default ./${defaultDataFolder})
  --demo           on a data folder without users, create the demo organisation
  -h, --help       show this help

On a data folder without users and without --demo, the administrator "admin" is created with the
password in PERCH_ADMIN_PASSWORD, or a generated one that is printed once.`;

/** A failure the user can fix, told in one line: exit 2 for the command line, 1 while running. */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 2,
  ) {
    super(message);
  }
}

interface CommandLine {
  port: number;
  dataFolder: string;
  demo: boolean;
}

function parseCommandLine(args: string[]): CommandLine | 'help' {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        demo: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (error) {
    // Node's messages run on with advice about `--`; the first sentence is the useful part.
    throw new CliError(String((error as Error).message).split(/\.(?:\s|$)/)[0]!);
  }
  if (values.help) return 'help';
  const port = values.port ?? String(defaultPort);
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new CliError(`--port must be a whole number from 0 to 65535, not "${port}"`);
  }
  if (values.data !== undefined && values.data.trim() === '') throw new CliError('--data needs a folder');
  return { port: Number(port), dataFolder: resolve(values.data ?? defaultDataFolder), demo: values.demo };
}

function report(outcome: FirstStart, commandLine: CommandLine, logins: typeof demoLogins) {
  switch (outcome.kind) {
    case 'administrator':
      if (outcome.generatedPassword) {
        console.log(`Administrator: ${outcome.userName} / ${outcome.generatedPassword}`);
        console.log('This password is shown only this once; keep it somewhere safe.');
      } else {
        console.log(`Administrator: ${outcome.userName} (password from PERCH_ADMIN_PASSWORD)`);
      }
      break;
    case 'demo':
      console.log('Demo organisation created. Sign in as:');
      for (const login of logins) console.log(`  ${login.userName} / ${login.password} (${login.description})`);
      break;
    case 'existing':
      if (!commandLine.demo) break;
      if (outcome.seeded === 'demo') console.log('Demo organisation from an earlier start, kept as it is.');
      else console.warn(`Demo data not added: ${commandLine.dataFolder} already holds data, which is kept as it is.`);
      break;
  }
}

async function main(args: string[]): Promise<void> {
  const commandLine = parseCommandLine(args);
  if (commandLine === 'help') {
    console.log(usage);
    return;
  }
  // Loaded only now, so that --help and a mistyped option answer at once.
  const [{ startService }, { prepareFirstStart }, demo] = await Promise.all([
    import('./service.js'),
    import('./seed/first-start.js'),
    import('./seed/demo.js'),
  ]);
  try {
    mkdirSync(commandLine.dataFolder, { recursive: true });
  } catch (error) {
    throw new CliError(
      `--data: cannot use ${commandLine.dataFolder} as the data folder (${(error as NodeJS.ErrnoException).code ?? error})`,
    );
  }

  const service = await startService({ database: databaseFile(commandLine.dataFolder), port: commandLine.port }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw new CliError(`port ${commandLine.port} is already in use on 127.0.0.1; choose another with --port`, 1);
  });
  let stopping: Promise<void> | undefined;
  const stop = () => {
    stopping ??= service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Perch local service did not stop cleanly:', error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  const administratorPassword = process.env.PERCH_ADMIN_PASSWORD;
  try {
    report(await prepareFirstStart(service.store, { demo: commandLine.demo, administratorPassword }), commandLine, demo.demoLogins);
  } catch (error) {
    await service.close();
    throw error;
  }
  // Printed last: whoever waits for this line finds the service seeded and answering.
  console.log(`Perch local service: ${service.apiRoot}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof CliError) {
    console.error(`perch service: ${error.message}${error.exitCode === 2 ? ' (see --help)' : ''}`);
    process.exit(error.exitCode);
  }
  console.error(error);
  process.exit(1);
});
