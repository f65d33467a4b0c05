/**
 * A scribe worker: a child process that runs the pipeline for one session (decode → recognise → structure →
 * render) and reports to the runner (runner.ts). It never touches the database. Headless, the runner forks it
 * and it speaks over Node's IPC channel; in the desktop app it is an Electron utility process
 * (main/worker-launch.ts) and speaks over `process.parentPort`. It ends when the job is done, and at once when the
 * runner ends it or its parent goes away (the service was killed): the parent's successor runs the session again.
 */
import type { ChildProcess } from 'node:child_process';
import { subscribe } from 'node:diagnostics_channel';
import { rmSync } from 'node:fs';
import type { ParentMessage, WorkerMessage } from './job.js';
import { runPipeline } from './pipeline.js';

/** Electron's port to the parent in a utility process; absent in a process started by child_process.fork. */
interface ParentPort {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (event: { data: unknown }) => void): unknown;
}
const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

const send = (m: WorkerMessage) =>
  new Promise<void>((resolve) => {
    if (parentPort) {
      parentPort.postMessage(m);
      return resolve();
    }
    if (!process.connected) return resolve();
    process.send!(m, undefined, {}, () => resolve());
  });

/**
 * Every process this worker starts, whichever module starts it (ffmpeg, PocketSphinx, espeak-ng): a utility
 * process is not a process-group leader, so ending the worker's group cannot reach them; the worker ends them.
 */
const children = new Set<ChildProcess>();
subscribe('child_process', (message) => {
  const child = (message as { process: ChildProcess }).process;
  children.add(child);
  child.once('exit', () => children.delete(child));
});

const abort = new AbortController();
let started = false;

/** Ends the run and everything it started, at once: nothing of it may outlive the worker. */
function end(why: string): never {
  abort.abort(new Error(why));
  for (const child of children) child.kill('SIGKILL');
  // A worker the runner forked leads its own process group: this also reaches anything those children started.
  try {
    process.kill(-process.pid, 'SIGKILL');
  } catch {
    // Not a group leader (a utility process): its children are ended above.
  }
  process.exit(1);
}

// How the runner ends a utility process (and how an operator or the OS asks any process to stop).
process.on('SIGTERM', () => end('the worker was stopped'));
if (!parentPort) process.on('disconnect', () => end('the service stopped'));

/** The last message of a run; then the worker's files go and the worker with them. */
async function finish(m: WorkerMessage, workDir: string, code: number) {
  await send(m);
  rmSync(workDir, { recursive: true, force: true });
  // process.send confirmed delivery; postMessage cannot, and an exit could reach the runner before the message
  // does: a utility worker waits for the runner to end it, which it does on this message.
  if (!parentPort) process.exit(code);
  // Also keeps the event loop alive until then; a launcher that never ends it is left after a minute.
  setTimeout(() => process.exit(code), 60_000);
}

function onParentMessage(raw: unknown) {
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
      await finish({ type: 'done', result }, job.workDir, 0);
    } catch (e) {
      await finish({ type: 'error', message: e instanceof Error ? e.message : String(e) }, job.workDir, 1);
    }
  })();
}

if (parentPort) parentPort.on('message', (e) => onParentMessage(e.data));
else process.on('message', onParentMessage);

void send({ type: 'ready' });
