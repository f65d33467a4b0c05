/**
 * Any uploaded or recorded audio → 16 kHz mono s16le PCM in a file (contracts.ts PcmAudio), with ffmpeg.
 *
 * ffmpeg always reads the upload from its file path, never from a pipe: m4a/mp4 keep their index (moov atom)
 * at the end of the file, which a pipe cannot seek to. MediaRecorder's streamed webm (no duration, no cues)
 * decodes fine from a file. Input demuxers are limited to audio containers (-format_whitelist) and inputs to
 * local files (-protocol_whitelist), so an upload that is really a playlist or a "concat:" recipe cannot make
 * ffmpeg open other files or URLs.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { basename, delimiter, join, resolve } from 'node:path';
import type { PcmAudio } from '../contracts.js';

export const SAMPLE_RATE = 16_000;
/** 16-bit mono: two bytes per sample. */
export const BYTES_PER_SECOND = SAMPLE_RATE * 2;

/** The audio containers we accept (ffmpeg demuxer names; the mov entry covers mp4/m4a/3gp, matroska covers webm). */
const DEMUXERS = ['wav', 'mp3', 'mov', 'mp4', 'm4a', '3gp', 'matroska', 'webm', 'ogg', 'flac', 'aac', 'amr', 'amrnb', 'amrwb', 'aiff', 'caf'];

export type DecodeErrorCode = 'FFMPEG_MISSING' | 'NOT_FOUND' | 'UNDECODABLE' | 'NO_AUDIO';

/** A file that cannot be turned into audio. `file` is the name shown to people; the message names it too. */
export class AudioDecodeError extends Error {
  override readonly name = 'AudioDecodeError';
  constructor(readonly code: DecodeErrorCode, readonly file: string, message: string) {
    super(message);
  }
}

export interface DecodeOptions {
  signal?: AbortSignal;
  /** The name to use in error messages (e.g. the uploaded file's original name); default: the path's base name. */
  displayName?: string;
}

const exeName = (name: string) => (process.platform === 'win32' ? `${name}.exe` : name);

/** The first executable called `name` on PATH, or null. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | null {
  const dirs = (env.PATH ?? env.Path ?? '').split(delimiter).filter(Boolean);
  for (const dir of dirs) {
    const candidate = join(dir, exeName(name));
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

/**
 * Which ffmpeg to run:
 * 1. `CLINIC_DESK_FFMPEG` (returned as given, so a wrong setting fails loudly rather than silently using another);
 * 2. the packaged app's own copy, `<resources>/ffmpeg/ffmpeg[.exe]` (Electron's process.resourcesPath; docs/SCRIBE.md);
 * 3. `ffmpeg` on PATH (Debian's ffmpeg on Linux dev and CI machines).
 * null when there is none.
 */
export function ffmpegPath(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.CLINIC_DESK_FFMPEG) return env.CLINIC_DESK_FFMPEG;
  const resources = (process as { resourcesPath?: string }).resourcesPath;
  if (resources) {
    const bundled = join(resources, 'ffmpeg', exeName('ffmpeg'));
    if (existsSync(bundled)) return bundled;
  }
  return findOnPath('ffmpeg', env);
}

export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException(typeof reason === 'string' ? reason : 'The operation was aborted', 'AbortError');
}

/** ffmpeg's last meaningful stderr line, for error messages. */
function ffmpegReason(stderr: string, input: string, name: string): string {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const last = lines.find((l) => l.includes(input)) ?? lines.at(-1) ?? 'no output';
  // Our paths are not the user's business: name the file as they know it.
  return last.split(`file:${input}`).join(name).split(input).join(name).slice(0, 300);
}

/**
 * Decode `inputPath` into `<outDir>/<name>.<random>.s16le` (16 kHz, mono, signed 16-bit little-endian, no header).
 * Rejects with AudioDecodeError naming the file when it is missing, not audio, or has no audio track; with the
 * signal's reason (an AbortError) when aborted, after killing ffmpeg and removing the partial output.
 */
export async function decodeToPcm(inputPath: string, outDir: string, opts: DecodeOptions = {}): Promise<PcmAudio> {
  const { signal } = opts;
  const name = opts.displayName ?? basename(inputPath);
  if (signal?.aborted) throw abortError(signal);
  const input = resolve(inputPath);
  const st = await stat(input).catch(() => null);
  if (!st?.isFile()) throw new AudioDecodeError('NOT_FOUND', name, `Audio file "${name}" was not found`);
  if (st.size === 0) throw new AudioDecodeError('UNDECODABLE', name, `Audio file "${name}" is empty`);
  const ffmpeg = ffmpegPath();
  if (!ffmpeg) {
    throw new AudioDecodeError('FFMPEG_MISSING', name,
      `Cannot decode "${name}": ffmpeg was not found (install ffmpeg, or set CLINIC_DESK_FFMPEG to its path)`);
  }

  const out = join(resolve(outDir), `${basename(inputPath).replace(/[^\w.-]+/g, '_').slice(0, 80)}.${randomUUID().slice(0, 8)}.s16le`);
  const part = `${out}.part`;
  const args = [
    '-hide_banner', '-nostdin', '-loglevel', 'error',
    '-protocol_whitelist', 'file',
    '-format_whitelist', DEMUXERS.join(','),
    '-i', `file:${input}`,
    '-map', '0:a:0', '-vn', '-sn', '-dn',
    '-ac', '1', '-ar', String(SAMPLE_RATE), '-c:a', 'pcm_s16le', '-f', 's16le',
    '-y', `file:${part}`,
  ];

  const stderr = await new Promise<string>((resolvePromise, reject) => {
    let err = '';
    let settled = false;
    const child = spawn(ffmpeg, args, { stdio: ['ignore', 'ignore', 'pipe'], windowsHide: true });
    const onAbort = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (d: string) => {
      if (err.length < 64_000) err += d;
    });
    const finish = (e: Error | null) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (e) reject(e);
      else resolvePromise(err);
    };
    child.on('error', (e: NodeJS.ErrnoException) => {
      finish(new AudioDecodeError('FFMPEG_MISSING', name,
        `Cannot decode "${name}": could not run ffmpeg at ${ffmpeg} (${e.code ?? e.message})`));
    });
    child.on('close', (code) => {
      if (signal?.aborted) return finish(abortError(signal));
      if (code === 0) return finish(null);
      if (/matches no streams|does not contain any stream|Output file #0 does not contain/.test(err)) {
        return finish(new AudioDecodeError('NO_AUDIO', name, `"${name}" has no audio track`));
      }
      finish(new AudioDecodeError('UNDECODABLE', name,
        `Could not decode "${name}": it is not a supported audio file (ffmpeg: ${ffmpegReason(err, input, name)})`));
    });
  }).catch(async (e: unknown) => {
    await rm(part, { force: true });
    throw e;
  });

  const bytes = (await stat(part)).size;
  if (bytes < 2) {
    await rm(part, { force: true });
    throw new AudioDecodeError('NO_AUDIO', name,
      `Could not decode "${name}": no audio samples came out of it${stderr ? ` (ffmpeg: ${ffmpegReason(stderr, input, name)})` : ''}`);
  }
  await rename(part, out);
  return { path: out, durationS: Math.floor(bytes / 2) / SAMPLE_RATE, rms: await pcmRms(out) };
}

/** Root-mean-square level of a s16le file, 0..1 of full scale, read in chunks. */
export async function pcmRms(path: string): Promise<number> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(1 << 20);
    let sumSq = 0;
    let n = 0;
    let carry: number | null = null;
    for (;;) {
      const { bytesRead } = await fh.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      let i = 0;
      if (carry !== null) {
        const s = (((buf[0]! << 8) | carry) << 16) >> 16;
        sumSq += s * s;
        n++;
        carry = null;
        i = 1;
      }
      for (; i + 1 < bytesRead; i += 2) {
        const s = buf.readInt16LE(i);
        sumSq += s * s;
        n++;
      }
      if (i < bytesRead) carry = buf[i]!;
    }
    return n === 0 ? 0 : Math.sqrt(sumSq / n) / 32768;
  } finally {
    await fh.close();
  }
}
