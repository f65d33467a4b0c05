/**
 * Test audio made at test time (no binary fixtures): espeak-ng speaks our own sentences, ffmpeg/sox convert them.
 * These sentences are written for the tests; they are not the shared dev dictations and are not in the LM.
 */
import { execFile, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { promisify } from 'node:util';

export const run = promisify(execFile);

/** Our own test dictations (spoken by espeak-ng in the tests). */
export const TEST_DICTATIONS = {
  short: 'The patient has had a sore throat and fever for two days. Prescribe paracetamol and warm salt water gargles.',
  fever:
    'Patient is a thirty eight year old man who has had fever and body ache for the last three days. ' +
    'His pulse is ninety six and temperature is one hundred one. The throat looks congested. ' +
    'This is most likely a viral fever. Start paracetamol six fifty milligrams three times a day after food for five days. ' +
    'Get a complete blood count done. Come back after three days.',
};

export { speak } from '../../eval/spoken.js';

export async function ffmpeg(...args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

/** ffmpeg writing to a pipe, as MediaRecorder streams: the file gets no duration and no cues. */
export async function ffmpegToPipe(outPath: string, ...args: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args, 'pipe:1'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.pipe(createWriteStream(outPath));
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg to pipe failed: ${err}`))));
  });
}

/** Duration in seconds as ffprobe reports the container's; null when it has none ("N/A"). */
export async function probeDuration(path: string): Promise<number | null> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'default=nw=1:nk=1', path]);
  const d = Number(stdout.trim());
  return Number.isFinite(d) && stdout.trim() !== 'N/A' ? d : null;
}
