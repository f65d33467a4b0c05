/**
 * A background loop for work kept in durable tables (webhook deliveries, pushes, transcription): runs `tick`
 * every `intervalMs`, or at once when `wake()` is called, never two ticks at a time. A tick that throws is
 * reported and the loop goes on. `stop()` resolves once the running tick, if any, has finished.
 */
export interface Loop {
  wake(): void;
  stop(): Promise<void>;
}

export function startLoop(opts: { intervalMs: number; tick: () => Promise<void>; onError: (e: unknown) => void }): Loop {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;

  const schedule = (ms: number) => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, ms);
    timer.unref();
  };

  function run() {
    timer = null;
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = opts.tick().catch(opts.onError).finally(() => {
      running = null;
      if (again) {
        again = false;
        schedule(0);
      } else schedule(opts.intervalMs);
    });
  }

  schedule(0);
  return {
    wake: () => schedule(0),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/**
 * A startLoop for a sender that talks to the outside world (pushes, reminders): started and stopped again, with an
 * AbortSignal that `stop` aborts, so requests in flight end at once. `stopped` is true from `stop` until the next
 * `start`; `stop` resolves once the running tick has unwound.
 */
export function senderLoop(opts: { intervalMs: number; tick: () => Promise<void>; onError: (e: unknown) => void }) {
  let loop: Loop | null = null;
  let abort = new AbortController();
  return {
    get signal(): AbortSignal {
      return abort.signal;
    },
    get stopped(): boolean {
      return abort.signal.aborted;
    },
    start() {
      if (loop) return;
      if (abort.signal.aborted) abort = new AbortController();
      loop = startLoop(opts);
    },
    wake: () => loop?.wake(),
    stop(): Promise<void> {
      abort.abort();
      const l = loop;
      loop = null;
      return l ? l.stop() : Promise.resolve();
    },
  };
}
