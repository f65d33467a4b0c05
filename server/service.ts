import { appointmentService } from './appointments/service.js';
import { auditReadsWriter } from './audit/reads-writer.js';
import { auditLog } from './audit/service.js';
import { auditStore } from './audit/store.js';
import { authService } from './auth/service.js';
import { announcePrincipalChanges, invalidatePrincipals, trustPrincipals } from './auth/store.js';
import { tokenService } from './auth/tokens.js';
import { databaseFile } from './config.js';
import { type Db, openDatabase } from './db/database.js';
import { type ChangeBusOptions, changeBus } from './db/change-bus.js';
import { walCheckpointer } from './db/checkpointer.js';
import { migrateSql } from './db/migrate-sql.js';
import { sql } from 'kysely';
import { type SqlDatabase, openSql } from './db/sql.js';
import { rootExecutor } from './db/tx.js';
import { noteReader, noteService } from './notes/service.js';
import { type NotificationOptions, notificationService } from './notifications/service.js';
import { type OidcOptions, oidcService } from './oidc/service.js';
import { patientService } from './patients/service.js';
import { type ReminderOptions, reminderService } from './reminders/service.js';
import { type ScribeOptions, scribeService } from './scribe/service.js';
import { type SpeechModelOptions, speechModelService } from './scribe/speech-models/service.js';
import { type EnvironmentName, environment } from './shared/environment.js';
import { statusService } from './status/service.js';
import { loadKek, secretBox } from './shared/secret-box.js';
import { type Clock, systemClock } from './shared/time.js';
import { type WebhookOptions, webhookService } from './webhooks/service.js';

export interface ServiceOptions {
  dataDir: string;
  /**
   * PostgreSQL instead of the SQLite file in dataDir (docs/ARCHITECTURE.md, "From one clinic to a chain"): migrated
   * at start (under an advisory lock, so instances starting together migrate once); dataDir then keeps only what is
   * this machine's (the key file unless kekFile says otherwise, speech models).
   */
  databaseUrl?: string;
  clock?: Clock;
  /** better_sqlite3.node for the running ABI; only the Electron main process passes one. */
  nativeBinding?: string;
  /** Key-encryption key for secrets at rest; the app passes one kept by the OS keychain, headless reads loadKek. */
  kek?: Buffer;
  /** Webhook delivery: retry schedule, timeout and concurrency overrides (tests), or dispatch: false. */
  webhooks?: WebhookOptions;
  /** FCM's base address (default https://fcm.googleapis.com); tests point it at a local stand-in. */
  fcmBaseUrl?: string;
  /** Push sender: retry timings, poll interval, request timeout (tests), or sender: false to leave the queue alone. */
  push?: NotificationOptions & { sender?: boolean };
  /** The OpenID provider for AI assistants: sign-in rate limits (tests lower them). */
  oidc?: OidcOptions;
  /** Scribe: upload limits, worker concurrency, retries and timeouts, fault injection (tests), or worker: false. */
  scribe?: ScribeOptions;
  /** Speech models: the mirror model files are downloaded from (headless: --model-mirror). */
  speechModels?: SpeechModelOptions;
  /** production (default) or sandbox: the prefix of the credentials it issues and the environment its webhooks name. */
  environment?: EnvironmentName;
  /**
   * The change bus's listening connection: its reconnection backoff, and its own address where the pool's is not a
   * session (PgBouncer in transaction mode cannot LISTEN) or, in tests, a relay that can cut it. Default: databaseUrl.
   */
  changeBus?: Pick<ChangeBusOptions, 'reconnectMinMs' | 'reconnectMaxMs' | 'postgresUrl'>;
  /** How many days ahead a booking may be (default 730). */
  appointments?: { horizonDays?: number };
  /** Appointment reminders: retry timings, poll interval, request timeout (tests), or sender: false. */
  reminders?: ReminderOptions & { sender?: boolean };
}

/**
 * Lists ordered by text ids (scribe transactions, their pages) follow SQLite's byte order only where PostgreSQL
 * compares text the same way: a database made with the C collation. Another one works, with some lists in another
 * order, so this says so at every start rather than refusing.
 */
async function warnOfCollation(database: SqlDatabase) {
  const { rows } = await sql<{ collation: string }>`SELECT datcollate AS collation FROM pg_database WHERE datname = current_database()`.execute(database.db);
  const collation = rows[0]?.collation ?? '';
  if (collation !== 'C' && collation !== 'POSIX') {
    console.warn(`clinic-desk: this PostgreSQL database compares text with the ${collation} collation; lists ordered by transaction id may differ from a desktop clinic's. Create the database with LC_COLLATE 'C' (createdb --locale=C --template=template0) for the same order (docs/ARCHITECTURE.md, "From one clinic to a chain").`);
  }
}

/**
 * The clinic service without any transport: database, domain services and background work. The HTTP app and
 * the Electron IPC handlers are both thin layers over what this returns.
 */
export async function createService(opts: ServiceOptions) {
  const clock = opts.clock ?? systemClock;
  const env = environment(opts.environment ?? 'production');
  const sqlite: Db | null = opts.databaseUrl ? null : openDatabase({ file: databaseFile(opts.dataDir), nativeBinding: opts.nativeBinding });
  const database = sqlite ? openSql({ sqlite }) : openSql({ postgresUrl: opts.databaseUrl! });
  if (!sqlite) await migrateSql(database).catch(async (e: unknown) => {
    await database.close();
    throw e;
  });
  if (!sqlite) await warnOfCollation(database);
  // On SQLite, the -wal file is copied back into the database by a thread of its own, off the event loop.
  const checkpoints = sqlite && await walCheckpointer(sqlite, { nativeBinding: opts.nativeBinding });
  const db = rootExecutor(database, sqlite);
  // What one instance changes that others cache (revocations, sign-in failures, webhook subscriptions): delivered
  // in-process on SQLite, through LISTEN/NOTIFY between a chain's instances on PostgreSQL.
  const bus = changeBus(database, { postgresUrl: opts.databaseUrl, ...opts.changeBus });
  // Another instance revoked a token or disabled a user or clinic: drop what this one cached. While the listener is
  // down (messages missed), cache nothing: every token is checked against the database until it is back.
  bus.subscribe('principals', () => invalidatePrincipals(database), {
    onLost: () => trustPrincipals(database, false), onResync: () => trustPrincipals(database, true), ignoreOwn: true,
  });
  announcePrincipalChanges(database, () => void bus.publish('principals', { reason: 'token_revoked' }).catch((e: unknown) =>
    console.error(`clinic-desk: could not tell the other instances of a revocation: ${(e as Error).message}`)));
  // On SQLite, read entries go through a writer thread with a connection of its own, without an fsync per commit
  // (audit/reads-writer.ts); a PostgreSQL pool already writes them beside the requests.
  const auditReads = sqlite && auditReadsWriter({
    file: databaseFile(opts.dataDir), nativeBinding: opts.nativeBinding, insertSql: auditStore(db).insertSql(),
  });
  const audit = auditLog(db, clock, auditReads || db);
  const box = secretBox(opts.kek ?? loadKek(opts.dataDir));
  const auth = authService(db, clock, env);
  const tokens = tokenService(db, clock, box, auth, env);
  const oidc = await oidcService(db, clock, box, auth, audit, { ...opts.oidc, bus });
  const patients = patientService(db, clock, auth, audit);
  const webhooks = webhookService(db, clock, box, audit, { ...opts.webhooks, environment: env.name, bus });
  // Reminders take the appointments' events first (scheduling and cancelling in the change's transaction), then the outbox.
  const reminders = reminderService(db, clock, box, audit, webhooks.events, { ...opts.reminders, sandbox: env.name === 'sandbox' });
  const appointments = appointmentService(db, clock, auth, patients, audit, reminders.events, bus, opts.appointments);
  reminders.useAppointments(appointments);
  webhooks.start();
  if (opts.reminders?.sender !== false) await reminders.startSender();
  const notifications = notificationService(db, clock, box, audit, { ...opts.push, fcmBaseUrl: opts.fcmBaseUrl ?? opts.push?.fcmBaseUrl });
  if (opts.push?.sender !== false) notifications.startSender();
  const speechModels = speechModelService({ db, clock, audit, dataDir: opts.dataDir }, opts.speechModels);
  const scribe = scribeService({ db, clock, box, audit, webhooks, notifications, notes: noteReader(db), dataDir: opts.dataDir }, { defaultModel: speechModels.defaultFor, ...opts.scribe });
  scribe.start();
  const notes = noteService({ db, clock, audit, auth, webhooks, appointments, scribe, patients });
  const status = statusService({ db, clock, audit, scribe, dataDir: opts.dataDir });
  return {
    /**
     * SQLite's connection (SQLite only): for the seeder's bulk pragmas and tests that look at the file itself. Domain
     * code goes through `sql`.
     */
    get db(): Db {
      if (!sqlite) throw new Error('service.db is the SQLite connection, and this service runs on PostgreSQL');
      return sqlite;
    },
    /** The database's executor (server/db/tx.ts), what the domain services run on. */
    sql: db,
    bus,
    clock,
    dataDir: opts.dataDir,
    environment: env,
    audit,
    box,
    auth,
    tokens,
    oidc,
    patients,
    appointments,
    reminders,
    webhooks,
    notifications,
    scribe,
    notes,
    speechModels,
    status,
    /** Flushes queued work and closes the database. */
    async close() {
      // First: kills the scribe's workers and puts their sessions back in the queue, while the database is open.
      await scribe.stop();
      speechModels.stop();
      await webhooks.stop();
      oidc.close();
      // The push sender touches the database no more once this resolves (requests in flight are aborted).
      await notifications.stopSender();
      await reminders.stopSender();
      await audit.flush();
      await bus.close();
      await auditReads?.close();
      await checkpoints?.close();
      await database.close();
      sqlite?.close();
    },
  };
}
export type Service = Awaited<ReturnType<typeof createService>>;
