import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const scripts = new Map<string, Promise<URL>>();

/**
 * The script of a worker thread that imports nothing of ours: in a bundle (the desktop app), `bundled`, built beside
 * the bundle that starts it (scripts/build.mjs). From source (`npm run serve`, tests) a worker thread cannot load
 * TypeScript (tsx's loader does not reach it, and starting tsx inside it costs about 0.3 s of CPU a worker), so the
 * file is made JavaScript with esbuild (a few milliseconds, once a process) and run from a data: URL.
 *
 * `source` is the TypeScript file's URL and `bundled` the built script's, both resolved by the caller against its own
 * `import.meta.url` (where the caller's module is, in source or in the bundle, is where they are).
 */
export function workerScript(source: URL, bundled: URL): Promise<URL> {
  const file = fileURLToPath(source);
  if (!existsSync(file)) return Promise.resolve(bundled);
  let script = scripts.get(file);
  if (!script) {
    // The synchronous transform, not the service the asynchronous one keeps running beside the process.
    script = (async () => {
      const { transformSync } = await import('esbuild');
      const { code } = transformSync(await readFile(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
      return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
    })();
    scripts.set(file, script);
  }
  return script;
}
