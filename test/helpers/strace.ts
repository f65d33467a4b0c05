import { type ChildProcess, spawn, spawnSync } from 'node:child_process';

/** Whether strace can trace here: installed is not enough, a container without ptrace rights refuses the attach (-p). */
export const strace =
  spawnSync('strace', ['-V']).status === 0 &&
  spawnSync('sh', ['-c', 'sleep 3 & p=$!; strace -o /dev/null -p $p & s=$!; sleep 1; kill $p; wait $s'], { timeout: 10_000 }).status === 0;

/**
 * Attaches strace to every thread of `pid`, recording writes and flushes with the file each descriptor names (-y);
 * resolves once it traces them, with strace's process (added to `children`, which the test file's cleanup kills).
 */
export async function trace(pid: number, out: string, children: Set<ChildProcess>): Promise<ChildProcess> {
  const child = spawn('strace', ['-f', '-y', '-s', '16', '-o', out, '-e', 'trace=pwrite64,pwritev,fdatasync,fsync,write,writev', '-p', String(pid)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.add(child);
  let err = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`strace did not attach:\n${err}`)), 20_000);
    child.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      if (err.includes(`Process ${pid} attached`)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`strace exited with ${code}:\n${err}`)));
  });
  return child;
}
