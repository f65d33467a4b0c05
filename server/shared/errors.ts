/**
 * A failure a caller can act on, raised by domain services and rendered by each transport in its own shape
 * (the dr envelope, the notification error, an IPC result). `code` is the interface's error code.
 */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}

export const invalid = (message: string) => new ServiceError(400, 'INVALID_REQUEST', message);

/** What `read` finds, or null where it finds nothing (404): for a view that shows "none yet" rather than an error. */
export async function orNone<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}
