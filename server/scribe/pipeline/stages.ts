/**
 * The pipeline's stages as the scribe calls them, bound to the modules that own them (contracts.ts): audio/
 * (decode, speech check), asr/ (engines), structure/ and templates/. The one place the session code meets them.
 */
import { type SpeechConfig, chooseEngine, createEngines } from '../asr/choose.js';
import { NoEngineError } from '../asr/engine.js';
import { AudioDecodeError, decodeToPcm } from '../audio/decode.js';
import { NoSpeechError, assertSpeech } from '../audio/speech.js';
import type { AsrEngine, PcmAudio, RecognitionRequest, RenderedTemplate, RenderInput, TemplateId } from '../contracts.js';
import { structure, type StructureOptions } from '../../clinical-nlp/structure.js';
import { renderTemplate } from '../templates/render.js';

export interface Stages {
  decode(path: string, outDir: string, opts: { signal?: AbortSignal; displayName: string }): Promise<PcmAudio>;
  /** Throws (isNoSpeech) when the audio holds no speech. */
  assertSpeech(pcm: PcmAudio, name: string): Promise<unknown>;
  /** The engine for a request; throws (isInputError) when none here can serve it, saying why. */
  engineFor(request: RecognitionRequest): Promise<AsrEngine>;
  structure(text: string, opts: StructureOptions): Promise<unknown>;
  render(id: TemplateId, input: RenderInput): Promise<RenderedTemplate>;
  isNoSpeech(e: unknown): boolean;
  /** A failure of the session's input (its audio, its language), reported to the client and not retried. */
  isInputError(e: unknown): boolean;
}

export function defaultStages(speech: SpeechConfig): Stages {
  return {
    decode: (path, outDir, opts) => decodeToPcm(path, outDir, opts),
    assertSpeech: (pcm, name) => assertSpeech(pcm, name),
    engineFor: async (request) => chooseEngine(request, await createEngines(speech), speech.defaultModel),
    structure: async (text, opts) => structure(text, opts),
    render: async (id, input) => renderTemplate(id, input),
    isNoSpeech: (e) => e instanceof NoSpeechError,
    isInputError: (e) => e instanceof AudioDecodeError || e instanceof NoSpeechError || e instanceof NoEngineError,
  };
}
