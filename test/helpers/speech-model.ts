import { mkdirSync, symlinkSync } from 'node:fs';
import { basename, join } from 'node:path';
import { inject } from 'vitest';
import { PocketSphinxEngine } from '../../server/scribe/asr/pocketsphinx.js';
import { tempDir } from './server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    speechModel: string;
  }
}

/**
 * PocketSphinx's domain language model and dictionary, built once per run and linked into the cache folder of each
 * engine a test dictates to. Every fresh data folder's first dictation built them anew: 5 s of CPU, 10–20 s on a
 * loaded CI machine, paid by some forty services a run. The model is the same wherever it is built (its folder's
 * name is the hash of what went in), so an engine finds the link as it would find its own earlier build.
 * test/scribe/bundle.test.ts and test/speech/lm.test.ts still build one from nothing.
 */
let built: Promise<string> | undefined;

const sharedModel = () => (built ??= (async () => {
  const dir = inject('speechModel') ?? tempDir('speech-model');
  return (await new PocketSphinxEngine({ cacheDir: dir }).domainModel()).dir;
})());

/** Links the run's model into `cacheDir`, an engine's (PocketSphinxOptions.cacheDir), building the model first if need be. */
export async function linkSpeechModel(cacheDir: string): Promise<void> {
  const model = await sharedModel();
  mkdirSync(cacheDir, { recursive: true });
  symlinkSync(model, join(cacheDir, basename(model)));
}

/** The same for a service on `dataDir`, whose engine keeps its cache in <dataDir>/speech (asr/choose.ts). */
export const linkSpeechModelInto = (dataDir: string) => linkSpeechModel(join(dataDir, 'speech'));
