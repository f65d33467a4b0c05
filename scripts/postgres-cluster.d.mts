export function findPostgresBin(search?: { path?: string; versionsRoot?: string }): { bin: string; reason?: undefined } | { bin?: undefined; reason: string };

export interface PostgresCluster {
  /** The superuser's URL to the `postgres` database, over 127.0.0.1. */
  url: string;
  port: number;
  /** The temporary folder: data directory, unix socket and server log. */
  dir: string;
  bin: string;
  startMs: number;
  /** pg_ctl stop -m fast, then removes the folder; synchronous (so it can run on process exit), and only once. */
  stop(): void;
  /** pg_ctl stop -m fast (every session ends), `downMs` without a server, then start again on the same port. */
  restart(options?: { downMs?: number }): Promise<void>;
}

export function startPostgresCluster(options?: { bin?: string; settings?: Record<string, string> }): Promise<PostgresCluster>;
