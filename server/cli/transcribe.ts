/**
 * `clinic-desk transcribe FILE [options]`: decode an audio file, pick a speech engine as the service would, and
 * print the transcript. Also manages Whisper models (download with a progress bar, use a local copy, list).
 * Also runs standalone: `npx tsx server/cli/transcribe.ts FILE`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { defaultDataDir } from '../config.js';
import { LANGUAGES, type AsrEngine, type Language } from '../scribe/contracts.js';
import { decodeToPcm } from '../scribe/audio/decode.js';
import { assertSpeech } from '../scribe/audio/speech.js';
import { chooseEngine, createEngines, modelManager, primaryLanguage } from '../scribe/asr/choose.js';
import { progressBar } from '../scribe/asr/models.js';

const USAGE = `Usage: clinic-desk transcribe FILE [options]
       clinic-desk transcribe --download-model ID | --use-local-model PATH | --list-models

Prints the transcript of an audio file (wav, mp3, m4a, aac, ogg, opus, webm, flac, amr).

Options:
  -l, --language ID        input language: ${LANGUAGES.join(', ')} (default en-IN; repeatable)
  -m, --model-type TYPE    lite (default) or pro, as the scribe upload's model_type
  -e, --engine ID          use this engine (e.g. pocketsphinx:en-us+clinic-lm, whisper:small) instead of the rules
      --json               print the transcript as JSON (text, language, engine, segments with times)
      --data-dir DIR       where models live (default CLINIC_DESK_DATA_DIR or ~/.clinic-desk)
      --download-model ID  download and verify a Whisper model (tiny, base, small, medium) first
      --use-local-model P  use Whisper model files in folder P (as model "local")
      --list-models        list the Whisper model catalogue and what is installed
  -h, --help               this text
`;

interface Out {
  write(s: string): unknown;
}

export async function runTranscribeCli(argv: string[], stdout: Out = process.stdout, stderr: Out & { isTTY?: boolean } = process.stderr): Promise<number> {
  const args = argv[0] === 'transcribe' ? argv.slice(1) : argv;
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        language: { type: 'string', short: 'l', multiple: true },
        'model-type': { type: 'string', short: 'm' },
        engine: { type: 'string', short: 'e' },
        json: { type: 'boolean' },
        'data-dir': { type: 'string' },
        'download-model': { type: 'string' },
        'use-local-model': { type: 'string' },
        'list-models': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    stderr.write(`clinic-desk transcribe: ${(e as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    stdout.write(USAGE);
    return 0;
  }
  const languages = (values.language ?? ['en-IN']) as Language[];
  const bad = languages.filter((l) => !(LANGUAGES as readonly string[]).includes(l));
  if (bad.length) {
    stderr.write(`clinic-desk transcribe: unknown language ${bad.join(', ')} (one of ${LANGUAGES.join(', ')})\n`);
    return 2;
  }
  const modelType = values['model-type'] ?? 'lite';
  if (modelType !== 'lite' && modelType !== 'pro') {
    stderr.write('clinic-desk transcribe: --model-type must be lite or pro\n');
    return 2;
  }
  const file = positionals[0];
  const modelOnly = values['download-model'] || values['use-local-model'] || values['list-models'];
  if (!file && !modelOnly) {
    stderr.write(`clinic-desk transcribe: which file?\n\n${USAGE}`);
    return 2;
  }
  const dataDir = resolve(values['data-dir'] ?? process.env.CLINIC_DESK_DATA_DIR ?? defaultDataDir());
  const controller = new AbortController();
  const onSigint = () => controller.abort(new Error('interrupted'));
  process.once('SIGINT', onSigint);
  let work: string | null = null;
  try {
    const manager = modelManager(dataDir);
    if (values['download-model']) {
      let last = 0;
      const m = await manager.ensureModel(values['download-model'], {
        signal: controller.signal,
        onProgress: (p) => {
          const now = Date.now();
          if (now - last < 100 && p.receivedBytes !== p.totalBytes) return;
          last = now;
          stderr.write(stderr.isTTY ? `\r${progressBar(p)}` : `${progressBar(p)}\n`);
        },
      });
      stderr.write(`${stderr.isTTY ? '\n' : ''}Whisper ${m.id} is installed in ${m.dir} (verification: ${m.verification})\n`);
    }
    if (values['use-local-model']) {
      const m = await manager.useLocalModel(values['use-local-model']);
      stderr.write(`Whisper model "${m.id}" now uses ${m.encoder}, ${m.decoder}, ${m.tokens}\n`);
    }
    if (values['list-models']) {
      const installed = new Map((await manager.installed()).map((m) => [m.id, m]));
      for (const s of manager.catalogue()) {
        stdout.write(`${s.id.padEnd(8)} ${String(s.approxMB).padStart(5)} MB  ${installed.has(s.id) ? 'installed' : '-        '}  ${s.description}\n`);
      }
      for (const m of installed.values()) if (!manager.spec(m.id)) stdout.write(`${m.id.padEnd(8)}    local  installed  ${m.dir}\n`);
    }
    if (!file) return 0;

    work = await mkdtemp(join(tmpdir(), 'clinic-desk-transcribe-'));
    const pcm = await decodeToPcm(file, work, { signal: controller.signal });
    await assertSpeech(pcm, file);
    const engines = await createEngines({ dataDir });
    const request = { modelType: modelType as 'lite' | 'pro', inputLanguages: languages };
    let engine: AsrEngine;
    if (values.engine) {
      const e = engines.find((x) => x.id === values.engine || x.id.split(':')[0] === values.engine);
      if (!e) {
        stderr.write(`clinic-desk transcribe: no engine "${values.engine}" (have ${engines.map((x) => x.id).join(', ')})\n`);
        return 2;
      }
      const reason = await e.unavailableReason();
      if (reason) throw new Error(`${e.id} is not available: ${reason}`);
      engine = e;
    } else {
      engine = await chooseEngine(request, engines);
    }
    const transcript = await engine.transcribe(pcm, {
      language: primaryLanguage(request),
      signal: controller.signal,
      onProgress: stderr.isTTY ? (f) => stderr.write(`\r${engine.id}: ${Math.round(f * 100)}%`) : undefined,
    });
    if (stderr.isTTY) stderr.write('\r\x1b[K');
    stdout.write(values.json ? `${JSON.stringify(transcript, null, 2)}\n` : `${transcript.text}\n`);
    return 0;
  } catch (e) {
    stderr.write(`clinic-desk transcribe: ${(e as Error).message}\n`);
    return 1;
  } finally {
    process.off('SIGINT', onSigint);
    if (work) await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void runTranscribeCli(process.argv.slice(2)).then((code) => process.exit(code));
}
