export function bundleNode(entry: string, outfile: string): Promise<unknown>;
export const WORKER_SCRIPTS: [entry: string, file: string][];
export function bundleWorkers(root: string, dir: string): Promise<unknown[]>;
