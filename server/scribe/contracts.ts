/**
 * The seams of the scribe pipeline: upload → session → decode → recognise → structure → render.
 * Each stage is owned by its own module; this file is the agreement between them.
 *
 *   audio/decode.ts      decodeToPcm(inputPath, outDir)            → PcmAudio        (ffmpeg)
 *   asr/                 chooseEngine(request) / AsrEngine.transcribe(PcmAudio) → Transcript
 *   structure/           structure(text, { locale, mode })          → ClinicalFacts   (structure/facts.ts)
 *                        annotateFromAudio(facts, Transcript)      → ClinicalFacts   (seconds, LOW_CONFIDENCE flags)
 *   templates/           renderTemplate(id, RenderInput)           → RenderedTemplate
 *   vocab/               drugNames(), diagnosisNames(), investigationNames(), dictationPhrases()
 */

/** Interface language ids (service-interface.md, Scribe upload parameters). */
export const LANGUAGES = ['en-IN', 'en-US', 'hi', 'gu', 'kn', 'ml', 'ta', 'te', 'bn', 'mr', 'pa'] as const;
export type Language = (typeof LANGUAGES)[number];

export const TEMPLATE_IDS = ['clinical_notes_template', 'service_emr_template', 'transcript_template'] as const;
export type TemplateId = (typeof TEMPLATE_IDS)[number];

/** 16 kHz mono signed 16-bit little-endian PCM in a file (raw, no header). */
export interface PcmAudio {
  path: string;
  durationS: number;
  /** Root-mean-square level, 0..1 of full scale: lets the pipeline say "no speech detected" early. */
  rms: number;
}

/** A recognised word: seconds from the start of the recording, and how sure the engine was of it (0..1). */
export interface Word {
  word: string;
  start: number;
  end: number;
  conf: number;
}

export interface Segment {
  start: number;
  end: number;
  /** Its words joined by single spaces, when the engine gives words. */
  text: string;
  /** Per-word times and confidences, from engines that give them (PocketSphinx; not Whisper through sherpa-onnx). */
  words?: Word[];
}

export interface Transcript {
  text: string;
  language: Language;
  /** Engine id and model, e.g. "pocketsphinx:en-us+clinic-lm" or "whisper:small". */
  engine: string;
  segments: Segment[];
}

export interface TranscribeOptions {
  language: Language;
  /** Fraction 0..1 of the audio recognised so far. */
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

export interface AsrEngine {
  readonly id: string;
  readonly languages: readonly Language[];
  /** null when the engine can run here; otherwise why not, in words for a person (missing binary, no model). */
  unavailableReason(): Promise<string | null>;
  transcribe(audio: PcmAudio, opts: TranscribeOptions): Promise<Transcript>;
}

/** What the upload asked for (init body and extra_data), as the engine chooser sees it. */
export interface RecognitionRequest {
  modelType: 'pro' | 'lite';
  inputLanguages: Language[];
}

export interface RenderInput {
  transcript: Transcript;
  /** The structurer's output (structure/facts.ts ClinicalFacts). */
  facts: unknown;
  codify: boolean;
}

export interface RenderedTemplate {
  /** The template's JSON, exactly as templates.md shows it. */
  json: Record<string, unknown>;
  warnings: string[];
}
