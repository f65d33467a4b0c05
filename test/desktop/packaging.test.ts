import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { FuseState, SENTINEL } from '@electron/fuses/dist/constants.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs helper shared with npm start
import { electronBinary } from '../../scripts/electron-runtime.mjs';
import { ROOT, tempDir } from '../helpers/server.js';
import { skipFor } from '../helpers/skip.js';

/**
 * The packaged app's layout, checked without the Electron binary where it is not installed (it cannot be
 * downloaded here): electron-builder --dir with a stub electronDist (a dummy `electron` and a LICENSE) packs
 * exactly what a real build would, around a fake executable. The stub carries Electron's fuse wire in its default
 * state (build/fuses/fuses.json5 in electron/electron), so electron-builder flips it as it would the real one and
 * the test reads the packaged executable's fuses back. Where the runtime is installed, the real dist is packed
 * instead and its fuses are read. Placeholders stand in for the Electron build of better-sqlite3 and for ffmpeg
 * where the checkout has none (native/ is not in git), and are removed afterwards.
 */
const require = createRequire(import.meta.url);
const built = existsSync(join(ROOT, 'dist', 'main', 'main.mjs')) && existsSync(join(ROOT, 'dist', 'renderer', 'index.html'));
const skip = process.platform !== 'linux' ? 'the layout check runs the Linux target' : built ? null : 'dist/ is not built (node scripts/build.mjs; npm test builds first)';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string; devDependencies: Record<string, string> };
const ABI = '145'; // Electron 41
const realElectron: string | null = electronBinary();
const executable = realElectron ? 'the real Electron 41 executable' : 'a stub executable with Electron\'s default fuse wire';

/** Electron's fuse wire as it ships: version 1, 8 fuses, "1" on and "0" off in the order of FuseV1Options. */
const DEFAULT_WIRE = Buffer.concat([Buffer.from(SENTINEL, 'ascii'), Buffer.from([1, 8]), Buffer.from('10110001', 'ascii')]);

describe('packaged layout (electron-builder --dir, stub Electron)', skipFor(skip), () => {
  const stub = tempDir('electron-stub');
  const out = tempDir('release');
  const created: string[] = [];
  let files: string[] = [];
  let resources = '';
  let log = '';

  const placeholder = (rel: string, content: string) => {
    const file = join(ROOT, rel);
    if (existsSync(file)) return;
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, content);
    created.push(file);
  };

  beforeAll(() => {
    writeFileSync(join(stub, 'electron'), Buffer.concat([Buffer.from('#!/bin/sh\necho "stub electron: packaging check only" >&2\nexit 1\n'), DEFAULT_WIRE]));
    chmodSync(join(stub, 'electron'), 0o755);
    writeFileSync(join(stub, 'LICENSE'), 'stub');
    writeFileSync(join(stub, 'version'), '41.7.1');
    placeholder(`native/electron-${ABI}/better_sqlite3.node`, 'placeholder: the Electron build of better-sqlite3');
    placeholder('native/ffmpeg/linux-x64/ffmpeg', '#!/bin/sh\n');
    const r = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'electron-builder', 'cli.js'), '--linux', '--x64', '--dir', '--publish', 'never',
      `-c.electronDist=${realElectron ? dirname(realElectron) : stub}`, `-c.directories.output=${out}`], {
      cwd: ROOT, encoding: 'utf8', timeout: 80_000,
      env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1', CSC_IDENTITY_AUTO_DISCOVERY: 'false', ELECTRON_BUILDER_CACHE: join(out, 'cache') },
    });
    log = `${r.stdout}\n${r.stderr}`;
    if (r.status !== 0) throw new Error(`electron-builder failed (${r.status ?? r.signal}):\n${log.slice(-3000)}`);
    resources = join(out, 'linux-unpacked', 'resources');
    const asar = require('@electron/asar') as { listPackage(p: string, o: { isPack: boolean }): string[] };
    files = asar.listPackage(join(resources, 'app.asar'), { isPack: false }).map((f) => f.replaceAll('\\', '/'));
  }, 90_000);

  afterAll(() => {
    for (const f of created) rmSync(f, { force: true });
    rmSync(out, { recursive: true, force: true });
    rmSync(stub, { recursive: true, force: true });
  });

  it('packs the built app: main, the scribe and read-audit workers, preload and renderer, and the entry package.json names', () => {
    expect(files).toContain(`/${pkg.main}`);
    expect(files).toContain('/dist/main/scribe-worker.mjs');
    expect(files).toContain('/dist/main/audit-reads-worker.mjs');
    expect(files).toContain('/dist/main/db-checkpoint-worker.mjs');
    expect(files).toContain('/dist/preload/preload.cjs');
    expect(files).toContain('/dist/renderer/index.html');
    expect(files.some((f) => /^\/dist\/renderer\/assets\/index-.*\.js$/.test(f))).toBe(true);
    expect(files.some((f) => f.endsWith('.map'))).toBe(false);
  });

  it('packs production node_modules only', () => {
    for (const dep of ['fastify', 'better-sqlite3', 'typebox', '@fastify/static']) expect(files, dep).toContain(`/node_modules/${dep}/package.json`);
    // Dev-only packages (the lockfile marks them "dev": a devDependency that a production package also needs, such
    // as node-abi under better-sqlite3's installer, is not one).
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.keys(pkg.devDependencies).filter((d) => lock.packages[`node_modules/${d}`]?.dev);
    expect(devOnly).toContain('vitest');
    for (const dev of devOnly) expect(files, dev).not.toContain(`/node_modules/${dev}/package.json`);
  });

  it('leaves better-sqlite3\'s Node build and sources out, and ships the Electron build and ffmpeg outside the asar', () => {
    expect(files.filter((f) => /^\/node_modules\/better-sqlite3\/(build|deps|src)\//.test(f))).toEqual([]);
    expect(existsSync(join(resources, 'native', `electron-${ABI}`, 'better_sqlite3.node'))).toBe(true);
    expect(existsSync(join(resources, 'ffmpeg', 'ffmpeg'))).toBe(true);
  });

  it(`flips the fuses of the packaged executable (${executable})`, async () => {
    const wire = await getCurrentFuseWire(join(out, 'linux-unpacked', 'clinic-desk'));
    const expected: [FuseV1Options, FuseState][] = [
      [FuseV1Options.RunAsNode, FuseState.DISABLE],
      [FuseV1Options.EnableNodeOptionsEnvironmentVariable, FuseState.DISABLE],
      [FuseV1Options.EnableNodeCliInspectArguments, FuseState.DISABLE],
      [FuseV1Options.EnableCookieEncryption, FuseState.ENABLE],
      [FuseV1Options.OnlyLoadAppFromAsar, FuseState.ENABLE],
      [FuseV1Options.EnableEmbeddedAsarIntegrityValidation, FuseState.ENABLE],
      [FuseV1Options.GrantFileProtocolExtraPrivileges, FuseState.DISABLE],
    ];
    expect(wire.version).toBe('1');
    for (const [fuse, state] of expected) expect(FuseState[wire[fuse]!], FuseV1Options[fuse]).toBe(FuseState[state]);
  });
});
