import { configFromArgs, helpText, type Config } from '../config.js';

/**
 * `npm run serve -- [flags]` (`--help` lists them): the service headless. The flags are read first: the service's
 * modules (Fastify, the OIDC provider, the clinical vocabularies checked against their schemas) take seconds to load,
 * which a mistyped flag or --help need not wait for.
 */
async function main() {
  let config: Config;
  try {
    config = configFromArgs(process.argv.slice(2));
  } catch (e) {
    console.error(`clinic-desk: ${(e as Error).message} (see --help)`);
    process.exit(2);
  }
  if (config.help) {
    console.log(helpText());
    return;
  }
  const { serveWith } = await import('./serve-service.js');
  await serveWith(config);
}

main().catch((e) => {
  console.error('clinic-desk failed to start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
