/**
 * "Is anybody speaking?" before recognition, so silence or room noise ends a session with "no speech detected"
 * rather than an engine's guesses (Whisper in particular invents sentences on silence).
 *
 * An energy detector over 20 ms frames: a frame counts as voiced when it is louder than an absolute floor
 * (-50 dBFS) and clearly above the recording's own noise floor (its 10th-percentile frame, +12 dB). A file needs
 * at least 0.3 s of voiced frames. Steady noise (a fan, hiss) stays near its own floor and is not speech.
 */
import { readFile } from 'node:fs/promises';
import type { PcmAudio } from '../contracts.js';
import { SAMPLE_RATE } from './decode.js';

const FRAME = SAMPLE_RATE / 50; // 20 ms
const ABSOLUTE_FLOOR_DBFS = -50;
const ABOVE_NOISE_DB = 12;
export const MIN_SPEECH_S = 0.3;

export interface SpeechCheck {
  hasSpeech: boolean;
  /** Seconds of frames that look like speech. */
  speechS: number;
  /** Loudest 20 ms frame, dBFS. */
  peakDbfs: number;
  /** The recording's noise floor (10th-percentile frame), dBFS. */
  floorDbfs: number;
}

export class NoSpeechError extends Error {
  override readonly name = 'NoSpeechError';
  readonly code = 'NO_SPEECH';
  constructor(readonly file: string, detail: string) {
    super(`No speech detected in "${file}" (${detail})`);
  }
}

const dbfs = (rms: number) => (rms <= 0 ? -120 : Math.max(-120, 20 * Math.log10(rms / 32768)));

/** Frame levels (dBFS) of s16le samples. */
export function frameLevels(pcm: Int16Array, frame = FRAME): Float64Array {
  const n = Math.floor(pcm.length / frame);
  const out = new Float64Array(n);
  for (let f = 0; f < n; f++) {
    let sum = 0;
    for (let i = f * frame; i < (f + 1) * frame; i++) sum += pcm[i]! * pcm[i]!;
    out[f] = dbfs(Math.sqrt(sum / frame));
  }
  return out;
}

export function checkSpeechSamples(pcm: Int16Array): SpeechCheck {
  const levels = frameLevels(pcm);
  if (levels.length === 0) return { hasSpeech: false, speechS: 0, peakDbfs: -120, floorDbfs: -120 };
  const sorted = Float64Array.from(levels).sort();
  const floorDbfs = sorted[Math.floor(sorted.length * 0.1)]!;
  const peakDbfs = sorted[sorted.length - 1]!;
  const threshold = Math.max(ABSOLUTE_FLOOR_DBFS, floorDbfs + ABOVE_NOISE_DB);
  let voiced = 0;
  for (const l of levels) if (l > threshold) voiced++;
  const speechS = (voiced * FRAME) / SAMPLE_RATE;
  return { hasSpeech: speechS >= MIN_SPEECH_S, speechS, peakDbfs, floorDbfs };
}

export function samplesOf(buf: Buffer): Int16Array {
  // Copy to an aligned buffer: a Buffer from the pool may start at an odd offset.
  const aligned = new Uint8Array(buf.length - (buf.length % 2));
  aligned.set(buf.subarray(0, aligned.length));
  return new Int16Array(aligned.buffer);
}

/** Whether a decoded file holds speech (reads the whole file: ~1.9 MB per minute). */
export async function detectSpeech(pcm: PcmAudio): Promise<SpeechCheck> {
  return checkSpeechSamples(samplesOf(await readFile(pcm.path)));
}

/** Throws NoSpeechError ("No speech detected in <file> (...)") unless the audio holds speech. */
export async function assertSpeech(pcm: PcmAudio, fileName: string): Promise<SpeechCheck> {
  if (pcm.durationS < MIN_SPEECH_S) throw new NoSpeechError(fileName, `the recording is only ${pcm.durationS.toFixed(2)} s long`);
  const check = await detectSpeech(pcm);
  if (!check.hasSpeech) {
    throw new NoSpeechError(fileName, check.peakDbfs <= -90
      ? 'the recording is silent'
      : `nothing louder than the background noise; loudest moment ${check.peakDbfs.toFixed(0)} dBFS`);
  }
  return check;
}
