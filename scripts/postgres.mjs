// node scripts/postgres.mjs: a throwaway PostgreSQL in the foreground, the same kind the tests start, with an empty
// clinic_desk database; prints the URL for `npm run serve -- --database-url …`. Ctrl-C stops it and removes it.
import pg from 'pg';
import { startPostgresCluster } from './postgres-cluster.mjs';

let cluster;
try {
  cluster = await startPostgresCluster();
} catch (e) {
  console.error(`PostgreSQL did not start: ${e.message}`);
  process.exit(1);
}
const stop = () => {
  clearInterval(alive);
  cluster.stop();
};
// The server runs detached (pg_ctl); this keeps the script waiting for Ctrl-C.
const alive = setInterval(() => undefined, 1 << 30);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    stop();
    console.log('PostgreSQL stopped and removed');
    process.exit(0);
  });
}

const admin = new pg.Client({ connectionString: cluster.url });
try {
  await admin.connect();
  await admin.query('CREATE DATABASE clinic_desk');
  await admin.end();
} catch (e) {
  console.error(`CREATE DATABASE clinic_desk failed: ${e.message}`);
  stop();
  process.exit(1);
}
console.log(`PostgreSQL started in ${(cluster.startMs / 1000).toFixed(1)} s, data in ${cluster.dir} (removed on exit)`);
console.log(`  npm run serve -- --database-url ${cluster.url.replace(/\/postgres$/, '/clinic_desk')}`);
console.log('Ctrl-C stops it.');
