#!/usr/bin/env node
// `npx clinic-desk <command> …` in the repository (package.json "bin"): runs the TypeScript CLIs through tsx.
//   structure   text → clinical facts and templates (server/cli/structure.ts)
//   transcribe  audio file → transcript; speech model management (server/cli/transcribe.ts)
//   serve       the service headless, as `npm run serve` (server/cli/serve.ts)
import { register } from 'tsx/esm/api';

// Each CLI's own signature: structure reads the transcript on stdin; transcribe takes its output streams.
const COMMANDS = {
  structure: {
    module: '../server/cli/structure.ts', run: 'runStructureCli', about: 'structure dictation text (stdin) into a scribe template',
    args: (rest) => [rest, process.stdin, process.stdout, process.stderr],
  },
  transcribe: {
    module: '../server/cli/transcribe.ts', run: 'runTranscribeCli', about: 'transcribe an audio file; manage speech models',
    args: (rest) => [rest, process.stdout, process.stderr],
  },
  serve: { module: '../server/cli/serve.ts', run: null, about: 'run the service headless (same flags as npm run serve)' },
};

const usage = () => [
  'Usage: clinic-desk <command> [options]',
  '',
  'Commands:',
  ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)}${c.about}`),
  '',
  'Run clinic-desk <command> --help for its options.',
  '',
].join('\n');

const [command, ...rest] = process.argv.slice(2);
if (!command || command === '-h' || command === '--help' || command === 'help') {
  process.stdout.write(usage());
  process.exit(command ? 0 : 2);
}
const entry = COMMANDS[command];
if (!entry) {
  process.stderr.write(`clinic-desk: unknown command "${command}"\n\n${usage()}`);
  process.exit(2);
}

register();
if (entry.run === null) {
  // serve reads process.argv itself.
  process.argv = [process.argv[0], new URL(entry.module, import.meta.url).pathname, ...rest];
  await import(entry.module);
} else {
  const mod = await import(entry.module);
  const code = await mod[entry.run](...entry.args(rest));
  process.exitCode = typeof code === 'number' ? code : 0;
}
