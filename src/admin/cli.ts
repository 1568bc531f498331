/**
 * The operators' admin command: `npm run --silent admin -- <command>` (see USAGE in args.ts).
 * Exit codes: 0 done, 1 the operation failed (e.g. unknown appKey), 2 usage error.
 */
import { loadConfig } from '../config.js';
import { createStorage } from '../storage/index.js';
import { USAGE, UsageError, parseCommand } from './args.js';
import { CommandError, runCommand } from './commands.js';

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseCommand(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
    return 2;
  }
  if (command.name === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const storage = await createStorage(loadConfig());
  try {
    await storage.migrate();
    await runCommand(storage, command, { out: (line) => process.stdout.write(`${line}\n`) });
    return 0;
  } catch (err) {
    if (!(err instanceof CommandError)) throw err;
    process.stderr.write(`error: ${err.message}\n`);
    return 1;
  } finally {
    await storage.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
