import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONSOLE_OUTPUT, consoleStale, markConsoleBuilt } from '../../scripts/console-build-if-changed.js';

/**
 * `npm run build` (and so `npm start`) builds only what changed: the TypeScript build is
 * incremental, and the console is built only when one of its sources changed since its last
 * build. What must never happen is the opposite: a changed source left unbuilt.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const SCRIPTS = (JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const BUILD = SCRIPTS['build'] ?? '';
/** The TypeScript half of `npm run typecheck` (the console's check is another project). */
const TYPECHECK = (SCRIPTS['typecheck'] ?? '').split('&&')[0]?.trim() ?? '';

/** A file time `secondsAgo` in the past, so a later change is newer whatever the file system's time resolution. */
function age(path: string, secondsAgo: number): void {
  const at = Date.now() / 1_000 - secondsAgo;
  utimesSync(path, at, at);
}

/** A repository holding a console that was built a minute ago, from sources two minutes old. */
function builtConsole(): string {
  const root = mkdtempSync(join(tmpdir(), 'regpay-console-build-'));
  mkdirSync(join(root, 'console/src/views'), { recursive: true });
  mkdirSync(join(root, 'dist/console'), { recursive: true });
  for (const file of ['console/index.html', 'console/src/app.tsx', 'console/src/views/inbox.tsx', 'package-lock.json']) writeFileSync(join(root, file), 'source');
  for (const path of ['console/index.html', 'console/src/app.tsx', 'console/src/views/inbox.tsx', 'console/src/views', 'console/src', 'console', 'package-lock.json']) age(join(root, path), 120);
  writeFileSync(join(root, CONSOLE_OUTPUT), 'built');
  markConsoleBuilt(root, Date.now() - 60_000);
  return root;
}

void describe('building the console only when it changed', () => {
  void it('leaves a console built after its last change alone', () => {
    assert.equal(consoleStale(builtConsole()), undefined);
  });

  void it('builds when there is no record of a build, or no built page', () => {
    const root = builtConsole();
    rmSync(join(root, CONSOLE_OUTPUT));
    assert.match(consoleStale(root) ?? '', /index\.html is missing/);
    const unrecorded = builtConsole();
    rmSync(join(unrecorded, 'dist/console.built'));
    assert.match(consoleStale(unrecorded) ?? '', /console\.built is missing/);
  });

  void it('builds again when any source below console/ was saved since, however deep', () => {
    const root = builtConsole();
    writeFileSync(join(root, 'console/src/views/inbox.tsx'), 'changed');
    age(join(root, 'console/src/views'), 120);
    assert.equal(consoleStale(root), 'console/src/views/inbox.tsx changed');
  });

  void it('builds again when a source was saved while the last build was running', () => {
    const root = builtConsole();
    const startedAt = Date.now();
    writeFileSync(join(root, 'console/src/app.tsx'), 'saved during the build');
    markConsoleBuilt(root, startedAt);
    assert.equal(consoleStale(root), 'console/src/app.tsx changed');
  });

  void it('builds again when a file was added, removed or renamed, even one carrying an old time', () => {
    for (const change of [
      (root: string) => writeFileSync(join(root, 'console/src/views/new.tsx'), 'new'),
      (root: string) => rmSync(join(root, 'console/src/views/inbox.tsx')),
      (root: string) => renameSync(join(root, 'console/src/views/inbox.tsx'), join(root, 'console/src/views/messages.tsx')),
    ]) {
      const root = builtConsole();
      change(root);
      for (const file of ['console/src/views/new.tsx', 'console/src/views/messages.tsx']) if (statSync(join(root, file), { throwIfNoEntry: false })) age(join(root, file), 300);
      assert.equal(consoleStale(root), 'console/src/views changed');
    }
  });

  void it('builds again when package-lock.json changed (another Preact or Vite)', () => {
    const root = builtConsole();
    writeFileSync(join(root, 'package-lock.json'), 'other versions');
    assert.equal(consoleStale(root), 'package-lock.json changed');
  });
});

/**
 * A project with the repository's compiler options, two minutes old: a.ts imports b.ts, c.ts
 * imports nothing. Its sources are aged so that a later change is newer whatever the file
 * system's time resolution.
 */
function smallProject(): string {
  const root = mkdtempSync(join(tmpdir(), 'regpay-tsc-build-'));
  const options = (JSON.parse(readFileSync(join(REPO, 'tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> }).compilerOptions;
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { ...options, types: [] }, include: ['src'] }));
  mkdirSync(join(root, 'src'));
  writeFileSync(join(root, 'src/a.ts'), "import { b } from './b.js';\nexport const a: string = `a ${b}`;\n");
  writeFileSync(join(root, 'src/b.ts'), "export const b = 'one';\n");
  writeFileSync(join(root, 'src/c.ts'), "export const c = 'alone';\n");
  for (const path of ['tsconfig.json', 'src/a.ts', 'src/b.ts', 'src/c.ts', 'src']) age(join(root, path), 120);
  return root;
}

/** Runs one of package.json's tsc commands in `root`, with the repository's TypeScript. */
function run(root: string, command: string): void {
  execSync(command, { cwd: root, env: { ...process.env, PATH: `${join(REPO, 'node_modules/.bin')}:${process.env.PATH ?? ''}` }, stdio: 'pipe' });
}

void describe('the incremental TypeScript build of npm run build', () => {
  const tscCommand = BUILD.split('&&')[0]?.trim() ?? '';

  void it('builds with tsc --build, then the console only if it changed', () => {
    assert.equal(tscCommand, 'tsc -b tsconfig.json');
    assert.match(BUILD, /&& node dist\/scripts\/console-build-if-changed\.js$/);
  });

  void it('re-emits a changed source, and rewrites nothing when nothing changed (the same command on a small project with the same options)', () => {
    const root = smallProject();
    const build = () => run(root, tscCommand);

    build();
    assert.match(readFileSync(join(root, 'dist/src/b.js'), 'utf8'), /'one'/);
    const emitted = statSync(join(root, 'dist/src/a.js')).mtimeMs;

    build();
    assert.equal(statSync(join(root, 'dist/src/a.js')).mtimeMs, emitted, 'an unchanged tree is not rebuilt');

    writeFileSync(join(root, 'src/b.ts'), "export const b = 'two';\n");
    build();
    assert.match(readFileSync(join(root, 'dist/src/b.js'), 'utf8'), /'two'/, 'the changed source is emitted again');

    writeFileSync(join(root, 'src/d.ts'), "export const d = 'three';\n");
    build();
    assert.match(readFileSync(join(root, 'dist/src/d.js'), 'utf8'), /'three'/, 'a new source is emitted');
  });

  void it('after a change re-checks and re-emits only the changed source and its dependents, also after a typecheck saw the change first', () => {
    const root = smallProject();
    const build = () => run(root, tscCommand);
    build();
    const untouched = statSync(join(root, 'dist/src/c.js')).mtimeMs;

    writeFileSync(join(root, 'src/b.ts'), "export const b = 'two';\n");
    build();
    assert.match(readFileSync(join(root, 'dist/src/b.js'), 'utf8'), /'two'/);
    assert.equal(statSync(join(root, 'dist/src/c.js')).mtimeMs, untouched, 'a source that did not change, nor any it imports, is not emitted again');

    writeFileSync(join(root, 'src/b.ts'), "export const b = 'three';\n");
    run(root, TYPECHECK);
    build();
    assert.match(readFileSync(join(root, 'dist/src/b.js'), 'utf8'), /'three'/, 'a change the typecheck saw first is still emitted by the build');
    assert.equal(statSync(join(root, 'dist/src/c.js')).mtimeMs, untouched);
  });

  void it('has nothing to do after a typecheck of an unchanged tree, with which it shares its record', () => {
    const root = smallProject();
    run(root, tscCommand);
    const record = join(root, 'dist/tsconfig.tsbuildinfo');
    const recorded = statSync(record).mtimeMs;
    run(root, TYPECHECK);
    run(root, tscCommand);
    assert.equal(statSync(record).mtimeMs, recorded, 'the build found its record as it left it: nothing compiled again');
  });
});
