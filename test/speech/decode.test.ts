/**
 * Audio decoding: every accepted container → 16 kHz mono s16le with the right duration; undecodable input fails
 * naming the file; silence and noise → "no speech detected"; abort stops ffmpeg and leaves nothing behind.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioDecodeError, BYTES_PER_SECOND, decodeToPcm, ffmpegPath } from '../../server/scribe/audio/decode.js';
import { NoSpeechError, assertSpeech, detectSpeech } from '../../server/scribe/audio/speech.js';
import { has, missing } from '../helpers/needs.js';
import { skipFor, skipNow } from '../helpers/skip.js';
import { TEST_DICTATIONS, ffmpeg, ffmpegToPipe, probeDuration, run, speak } from '../helpers/speech-audio.js';

const notReady = missing('espeak-ng', 'ffmpeg');
let dir = '';
let out = '';
let wav = '';
let refS = 0;

beforeAll(async () => {
  if (notReady) return;
  dir = mkdtempSync(join(tmpdir(), 'decode-test-'));
  out = join(dir, 'out');
  rmSync(out, { recursive: true, force: true });
  await run('mkdir', ['-p', out]);
  wav = join(dir, 'dictation.wav');
  await speak(TEST_DICTATIONS.short, wav);
  refS = (await probeDuration(wav))!;
});

afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const conversions: [string, string[]][] = [
  ['webm', ['-c:a', 'libopus', '-b:a', '32k']],
  ['ogg', ['-c:a', 'libopus', '-b:a', '32k']],
  ['opus', ['-c:a', 'libopus', '-b:a', '24k']],
  ['mp3', ['-ar', '44100', '-ac', '2', '-c:a', 'libmp3lame', '-b:a', '64k']],
  ['m4a', ['-c:a', 'aac', '-b:a', '64k']],
  ['aac', ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts']],
  ['flac', ['-ar', '48000', '-c:a', 'flac']],
  ['wav', ['-ar', '44100', '-ac', '2', '-c:a', 'pcm_s16le']],
];

describe('decodeToPcm', skipFor(notReady), () => {
  it.each(conversions)('decodes .%s to 16 kHz mono with the right duration', async (ext, args) => {
    const src = join(dir, `in-${ext}.${ext}`);
    await ffmpeg('-i', wav, ...args, src);
    const pcm = await decodeToPcm(src, out);
    expect(pcm.path.startsWith(out)).toBe(true);
    // Raw s16le at 16 kHz mono: the byte count *is* the duration.
    expect(statSync(pcm.path).size).toBe(Math.round(pcm.durationS * BYTES_PER_SECOND));
    // Lossy codecs add a few tens of ms of priming/padding.
    expect(Math.abs(pcm.durationS - refS)).toBeLessThan(0.12);
    expect(pcm.rms).toBeGreaterThan(0.01);
    expect((await detectSpeech(pcm)).hasSpeech).toBe(true);
  });

  it('decodes a streamed webm without duration or cues (as MediaRecorder writes it)', async () => {
    const src = join(dir, 'streamed.webm');
    await ffmpegToPipe(src, '-i', wav, '-c:a', 'libopus', '-b:a', '32k', '-f', 'webm');
    expect(await probeDuration(src)).toBeNull();
    const pcm = await decodeToPcm(src, out);
    expect(Math.abs(pcm.durationS - refS)).toBeLessThan(0.12);
  });

  it('decodes AMR-NB (phone recordings), or skips when sox cannot write it', async (ctx) => {
    // Debian's ffmpeg decodes AMR but has no AMR encoder; sox (libsox-fmt-all, opencore-amr) writes AMR-NB.
    const src = join(dir, 'in.amr');
    const made = has('sox') && (await run('sox', [wav, '-r', '8000', '-c', '1', '-t', 'amr-nb', src]).then(() => true, () => false));
    if (!made) skipNow(ctx, `no AMR encoder here: ${missing('sox') ?? 'this sox cannot write amr-nb (apt-get install -y libsox-fmt-all)'}`);
    const pcm = await decodeToPcm(src, out);
    // AMR-NB's comfort-noise frames in pauses are not decoded by ffmpeg's native decoder, hence a looser bound.
    expect(Math.abs(pcm.durationS - refS)).toBeLessThan(0.6);
    expect((await detectSpeech(pcm)).hasSpeech).toBe(true);
  });

  it('fails naming the file when a text file is renamed .wav, and leaves no output', async () => {
    const src = join(dir, 'clinic notes.wav');
    writeFileSync(src, 'These are my notes, not audio.\n'.repeat(50));
    const before = readdirSync(out).length;
    const err = await decodeToPcm(src, out, { displayName: 'clinic notes.wav' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect((err as AudioDecodeError).code).toBe('UNDECODABLE');
    expect((err as Error).message).toContain('"clinic notes.wav"');
    expect((err as Error).message).not.toContain(dir); // our paths are not shown
    expect(readdirSync(out).length).toBe(before);
  });

  it('fails clearly for a missing file, an empty file, and a video without audio', async () => {
    await expect(decodeToPcm(join(dir, 'nope.mp3'), out)).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('nope.mp3') });
    writeFileSync(join(dir, 'empty.m4a'), '');
    await expect(decodeToPcm(join(dir, 'empty.m4a'), out)).rejects.toMatchObject({ code: 'UNDECODABLE', message: expect.stringContaining('empty.m4a') });
    const video = join(dir, 'silent-video.mp4');
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=d=1:s=64x64', '-c:v', 'mpeg4', video);
    await expect(decodeToPcm(video, out)).rejects.toMatchObject({ code: 'NO_AUDIO', message: expect.stringContaining('silent-video.mp4') });
  });

  it('refuses a playlist that points ffmpeg at other files', async () => {
    const src = join(dir, 'trick.wav');
    writeFileSync(src, `#EXTM3U\n#EXTINF:5,\nfile:${wav}\n`);
    await expect(decodeToPcm(src, out)).rejects.toMatchObject({ code: 'UNDECODABLE' });
  });

  it('says when ffmpeg is missing', async () => {
    const saved = process.env.CLINIC_DESK_FFMPEG;
    process.env.CLINIC_DESK_FFMPEG = join(dir, 'no-such-ffmpeg');
    try {
      expect(ffmpegPath()).toBe(join(dir, 'no-such-ffmpeg'));
      await expect(decodeToPcm(wav, out, { displayName: 'visit.wav' })).rejects.toMatchObject({
        code: 'FFMPEG_MISSING',
        message: expect.stringContaining('"visit.wav"'),
      });
    } finally {
      if (saved === undefined) delete process.env.CLINIC_DESK_FFMPEG;
      else process.env.CLINIC_DESK_FFMPEG = saved;
    }
    expect(ffmpegPath({ PATH: '/nonexistent' })).toBeNull();
  });

  it('aborts: kills ffmpeg, rejects with the abort reason, leaves no partial output', async () => {
    const long = join(dir, 'long.flac');
    await ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=300:duration=1200', '-ar', '48000', '-c:a', 'flac', long);
    const before = readdirSync(out).length;
    const ac = new AbortController();
    const p = decodeToPcm(long, out, { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(readdirSync(out).length).toBe(before);
    await expect(decodeToPcm(wav, out, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('no speech detected', skipFor(notReady), () => {
  it('silence decodes, then fails with "No speech detected" naming the file', async () => {
    const src = join(dir, 'silence.webm');
    await ffmpeg('-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=mono', '-t', '4', '-c:a', 'libopus', src);
    const pcm = await decodeToPcm(src, out);
    expect(pcm.durationS).toBeGreaterThan(3.9);
    expect(pcm.rms).toBeLessThan(0.001);
    const err = await assertSpeech(pcm, 'silence.webm').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NoSpeechError);
    expect((err as Error).message).toMatch(/^No speech detected in "silence\.webm"/);
  });

  it('steady background noise is not speech; speech over the same noise is', async () => {
    const noise = join(dir, 'noise.wav');
    await ffmpeg('-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.02:duration=5', '-ar', '16000', noise);
    await expect(assertSpeech(await decodeToPcm(noise, out), 'noise.wav')).rejects.toBeInstanceOf(NoSpeechError);
    const mixed = join(dir, 'speech-in-noise.wav');
    await ffmpeg('-i', wav, '-f', 'lavfi', '-i', 'anoisesrc=color=pink:amplitude=0.02:duration=8', '-filter_complex', 'amix=inputs=2:duration=first', mixed);
    const check = await assertSpeech(await decodeToPcm(mixed, out), 'speech-in-noise.wav');
    expect(check.speechS).toBeGreaterThan(1);
  });

  it('a recording too short to hold speech', async () => {
    const src = join(dir, 'click.wav');
    await ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=1000:duration=0.1', src);
    await expect(assertSpeech(await decodeToPcm(src, out), 'click.wav')).rejects.toThrow(/No speech detected in "click\.wav"/);
  });
});
