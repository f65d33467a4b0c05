/** The parts a service started by `npm run serve` waits for before GET /health answers 200. */
export type StartupPart = 'database' | 'workers' | 'routes' | 'demo' | 'sandbox' | 'scribe';

/**
 * What is still starting: /health answers 503 naming these until none is left (an orchestrator, a load balancer,
 * the desktop app's connection check and test harnesses read its 200 as "ready"). The process that starts the
 * service lists the parts it will bring up and marks each done as it comes up.
 */
export function startupTracker(parts: StartupPart[]) {
  const pending = new Set(parts);
  return {
    pending: (): StartupPart[] => [...pending],
    done(part: StartupPart) {
      pending.delete(part);
    },
  };
}
export type StartupTracker = ReturnType<typeof startupTracker>;
