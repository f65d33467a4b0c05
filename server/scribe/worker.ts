/**
 * A scribe worker: a child process (child_process.fork from runner.ts) that runs the pipeline for one session
 * (decode → recognise → structure → render) and reports over IPC. It never touches the database. It ends when the
 * job is done, and at once when its parent goes away (the service was killed): the parent's successor runs the
 * session again.
 */
import { rmSync } from 'node:fs';
import type { ParentMessage, WorkerMessage } from './job.js';
import { runPipeline } from './pipeline.js';

const send = (m: WorkerMessage) =>
  new Promise<void>((resolve) => {
    if (!process.connected) return resolve();
    process.send!(m, undefined, {}, () => resolve());
  });

const abort = new AbortController();
let started = false;

process.on('disconnect', () => {
  abort.abort(new Error('the service stopped'));
  // Leave a moment for ffmpeg or the recogniser to stop through the signal, then end the whole process group
  // (the runner starts each worker as a group leader), so nothing of the run outlives the service.
  setTimeout(() => {
    try {
      process.kill(-process.pid, 'SIGKILL');
    } catch {
      process.exit(1);
    }
  }, 200).unref();
});

process.on('message', (raw) => {
  if ((raw as ParentMessage).type !== 'run' || started) return;
  started = true;
  const { job } = raw as ParentMessage;
  void (async () => {
    try {
      const result = await runPipeline(job, {
        signal: abort.signal,
        progress: (stage, percent) => void send({ type: 'progress', stage, percent }),
        checkpoint: (transcript) => send({ type: 'transcript', transcript }),
      });
      await send({ type: 'done', result });
      rmSync(job.workDir, { recursive: true, force: true });
      process.exit(0);
    } catch (e) {
      await send({ type: 'error', message: e instanceof Error ? e.message : String(e) });
      rmSync(job.workDir, { recursive: true, force: true });
      process.exit(1);
    }
  })();
});

void send({ type: 'ready' });
