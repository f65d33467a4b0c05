import { EventEmitter } from 'node:events';
import { utilityProcess } from 'electron';
import type { LaunchWorker } from '../server/scribe/pipeline/runner.js';

/** A worker that ignores SIGTERM this long (busy in native code) is killed outright. */
const KILL_AFTER_MS = 5_000;

/**
 * The scribe's worker as an Electron utility process. With the RunAsNode fuse off, child_process.fork from the
 * app starts the app again rather than Node; a utility process runs Node inside Electron's own helper. It cannot
 * be detached, so the runner's process-group kill is replaced by SIGTERM, on which the worker ends what it started
 * (server/scribe/pipeline/worker.ts).
 */
export const utilityWorker: LaunchWorker = (entry, { env, execArgv, stdio }) => {
  const child = utilityProcess.fork(entry, [], { env, execArgv, stdio, serviceName: 'Clinic Desk scribe' });
  const events = new EventEmitter();
  let ended = false;
  child.on('message', (m) => events.emit('message', m));
  child.on('error', (type, location) => events.emit('error', new Error(`${type} at ${location}`)));
  child.on('exit', (code) => {
    ended = true;
    events.emit('exit', code, null);
  });
  const kill = () => {
    if (ended) return;
    const pid = child.pid;
    // Asked before the process is up (the service stopping right after a launch): end it as soon as it is.
    if (pid === undefined) {
      child.once('spawn', kill);
      return;
    }
    child.kill();
    setTimeout(() => {
      if (ended) return;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }, KILL_AFTER_MS).unref();
  };
  return {
    get pid() {
      return child.pid;
    },
    stderr: child.stderr,
    send: (message) => child.postMessage(message),
    kill,
    on(event: string, listener: Parameters<EventEmitter['on']>[1]) {
      events.on(event, listener);
      return this;
    },
  };
};
