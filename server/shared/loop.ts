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
