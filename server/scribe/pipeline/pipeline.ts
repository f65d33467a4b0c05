/**
 * One session's pipeline, run inside a worker process: decode every file → check it holds speech → recognise →
 * structure → render each asked template. Expected failures (a file that does not decode, silence, a language no
 * engine here speaks) end the session `failed` with errors that say so, in every output entry. A template whose
 * rendering fails fails alone (the session is `partial`, 206). Anything unexpected is thrown, and the runner
 * retries the run.
 */
import type { SpeechConfig } from '../asr/choose.js';
import type { Language, PcmAudio, RecognitionRequest, Segment, TemplateId, Transcript } from '../contracts.js';
import type { JobResult, JobSpec, OutputEntry, TemplateRequest } from './job.js';
import { TEMPLATE_NAMES } from '../formats.js';
import { defaultStages, type Stages } from './stages.js';
import { annotateFromAudio } from '../../clinical-nlp/confidence.js';
import type { ClinicalFacts } from '../../clinical-nlp/facts.js';
import type { StructureOptions } from '../../clinical-nlp/structure.js';

export interface PipelineHooks {
  signal?: AbortSignal;
  progress?: (stage: string, percent: number) => void;
  /** Called once the transcript exists, before structuring; the runner stores it so a retry resumes from here. */
  checkpoint?: (transcript: Transcript) => Promise<void> | void;
}

/** A failure of the session's input, not of the machinery: reported, never retried. */
export class SessionInputError extends Error {}

const encode = (json: unknown) => Buffer.from(JSON.stringify(json), 'utf8').toString('base64');

function failedEntries(templates: TemplateRequest[], errors: string[], warnings: string[] = []): OutputEntry[] {
  return templates.map((t) => ({
    template_id: t.asked, value: '', type: 'json', name: TEMPLATE_NAMES[t.id], status: 'failure', errors, warnings,
  }));
}

/** Throttles progress to whole percents, each stage's first report always passing. */
function progressReporter(report?: (stage: string, percent: number) => void) {
  let last = { stage: '', percent: -1 };
  return (stage: string, percent: number) => {
    const p = Math.max(0, Math.min(100, Math.floor(percent)));
    if (stage === last.stage && p <= last.percent) return;
    last = { stage, percent: p };
    report?.(stage, p);
  };
}

/** Recognises every file, one after another, into one transcript (segment times run on across files). */
async function recognise(job: JobSpec, stages: Stages, hooks: PipelineHooks, progress: (s: string, p: number) => void) {
  const { files, request } = job;
  const warnings: string[] = [];
  if (files.length === 0) throw new SessionInputError('No audio files were uploaded for this transaction');
  const decoded: { name: string; pcm: PcmAudio }[] = [];
  const silent: string[] = [];
  for (const [i, f] of files.entries()) {
    progress('decoding', (i / files.length) * 10);
    const pcm = await stages.decode(f.path, job.workDir, { signal: hooks.signal, displayName: f.name });
    try {
      await stages.assertSpeech(pcm, f.name);
      decoded.push({ name: f.name, pcm });
    } catch (e) {
      if (!stages.isNoSpeech(e)) throw e;
      silent.push((e as Error).message);
    }
  }
  if (decoded.length === 0) {
    throw new SessionInputError(silent.length === 1 ? silent[0]! : `No speech detected in any of the ${files.length} files`);
  }
  warnings.push(...silent.map((m) => `${m}; the file was left out`));

  const rr: RecognitionRequest = { modelType: request.modelType, inputLanguages: request.languages };
  const engine = await stages.engineFor(rr);
  const total = decoded.reduce((n, d) => n + d.pcm.durationS, 0) || 1;
  let done = 0;
  let offset = 0;
  const texts: string[] = [];
  const segments: Segment[] = [];
  let language: Language = request.languages[0] ?? 'en-IN';
  let engineId = engine.id;
  progress('recognising', 10);
  for (const d of decoded) {
    const t = await engine.transcribe(d.pcm, {
      language,
      signal: hooks.signal,
      onProgress: (f) => progress('recognising', 10 + ((done + f * d.pcm.durationS) / total) * 70),
    });
    done += d.pcm.durationS;
    language = t.language;
    engineId = t.engine;
    if (t.text.trim()) texts.push(t.text.trim());
    for (const s of t.segments) {
      const words = s.words?.map((w) => ({ ...w, start: round2(w.start + offset), end: round2(w.end + offset) }));
      segments.push({ start: round2(s.start + offset), end: round2(s.end + offset), text: s.text, ...(words ? { words } : {}) });
    }
    offset += d.pcm.durationS;
  }
  if (texts.length === 0) throw new SessionInputError('No speech detected: the recogniser heard no words in the recording');
  return { transcript: { text: texts.join(' '), language, engine: engineId, segments } satisfies Transcript, warnings };
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export async function runPipeline(job: JobSpec, hooks: PipelineHooks = {}, stages: Stages = defaultStages({ ...job.speech, dataDir: job.dataDir } as SpeechConfig)): Promise<JobResult> {
  const progress = progressReporter(hooks.progress);
  const templates = job.request.templates;
  let transcript = job.transcript;
  const warnings: string[] = [];
  if (!transcript) {
    try {
      const r = await recognise(job, stages, hooks, progress);
      transcript = r.transcript;
      warnings.push(...r.warnings);
    } catch (e) {
      if (hooks.signal?.aborted) throw e;
      if (e instanceof SessionInputError || stages.isInputError(e)) {
        const message = (e as Error).message;
        return { status: 'failed', errors: [message], output: failedEntries(templates, [message]) };
      }
      throw e;
    }
    await hooks.checkpoint?.(transcript);
  }

  progress('structuring', 82);
  let facts: unknown = null;
  let structureError: string | null = null;
  const needsFacts = templates.some((t) => t.id !== 'transcript_template');
  if (needsFacts) {
    try {
      // The runner hands the request over as init stored it, with the patient record's allergies (service.ts).
      const { patientAllergies } = job.request;
      const opts: StructureOptions = { locale: transcript.language, mode: job.request.mode, patientAllergies };
      // Seconds and the recogniser's doubts belong to the recording, so they are added once the facts exist.
      facts = annotateFromAudio((await stages.structure(transcript.text, opts)) as ClinicalFacts, transcript);
    } catch (e) {
      structureError = `The dictation could not be structured: ${e instanceof Error ? e.message : String(e)}`;
    }
  }

  const output: OutputEntry[] = [];
  for (const [i, t] of templates.entries()) {
    progress('rendering', 88 + (i / templates.length) * 12);
    const base = { template_id: t.asked, type: 'json' as const, name: TEMPLATE_NAMES[t.id] };
    try {
      if (job.failTemplates.includes(t.id) || job.failTemplates.includes(t.asked)) {
        throw new Error('rendering was made to fail by the service configuration (scribe.failTemplates)');
      }
      if (t.id !== 'transcript_template' && structureError) throw new Error(structureError);
      const rendered = await stages.render(t.id as TemplateId, { transcript, facts, codify: t.codify });
      output.push({ ...base, value: encode(rendered.json), status: 'success', errors: [], warnings: [...warnings, ...rendered.warnings] });
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      output.push({ ...base, value: '', status: 'failure', errors: [`${t.asked} could not be produced: ${message}`], warnings });
    }
  }
  const failed = output.filter((o) => o.status === 'failure');
  if (failed.length === output.length) {
    return { status: 'failed', errors: [...new Set(failed.flatMap((o) => o.errors))], output };
  }
  return { status: failed.length ? 'partial' : 'completed', errors: [], output };
}

