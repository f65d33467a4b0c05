/**
 * Speech recognition behind one interface (contracts.ts AsrEngine). Two real engines:
 *   pocketsphinx.ts  PocketSphinx (Debian), English, with a generated domain language model: the embedded default
 *   whisper.ts       Whisper through sherpa-onnx-node, all interface languages, model downloaded by models.ts
 * choose.ts picks one per request; docs/SCRIBE.md has the rules.
 */
export type { AsrEngine, Language, PcmAudio, RecognitionRequest, Segment, TranscribeOptions, Transcript } from '../contracts.js';
export { LANGUAGES } from '../contracts.js';

/** No engine here can recognise the requested language(s): the session fails with this message. */
export class NoEngineError extends Error {
  override readonly name = 'NoEngineError';
  readonly code = 'NO_ENGINE';
}

/** The engine cannot run here (missing program, missing or broken model). */
export class EngineUnavailableError extends Error {
  override readonly name = 'EngineUnavailableError';
  readonly code = 'ENGINE_UNAVAILABLE';
}

/** The engine ran and failed (crashed, bad output). */
export class RecognitionError extends Error {
  override readonly name = 'RecognitionError';
  readonly code = 'RECOGNITION_FAILED';
}

/** Last lines of a child's stderr, for error messages. */
export function tail(text: string, lines = 3): string {
  return text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean).slice(-lines).join(' | ').slice(0, 500);
}
