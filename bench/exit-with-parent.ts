/**
 * Loaded (`--import`) into every process a benchmark starts: it ends the process once the benchmark that started
 * it is gone, even one killed with SIGKILL, which no handler of the benchmark's can see. A process whose parent
 * dies is handed to another (init), so a changed parent id means exactly that; it then stops itself the orderly
 * way (SIGTERM: a server writes and closes its database), and for good 10 s later if that hangs.
 */
const parent = process.ppid;
const check = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(check);
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 10_000).unref();
  process.kill(process.pid, 'SIGTERM');
}, 500);
check.unref();
