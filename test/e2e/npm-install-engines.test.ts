import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm ci` on the Node.js the README asks for (20.19 or later) opens with no warning: every
 * package the lock file installs declares a Node range this Node is in (npm warns EBADENGINE
 * otherwise, as it did for cookie@2.0.2, which wants Node 22, until package.json's `overrides`
 * pinned light-my-request's cookie to 1.1.1). npm judges the lock file as `npm ci` would, in a
 * copy (package.json and package-lock.json only), offline, touching no node_modules.
 */
const REPO = fileURLToPath(new URL('../../../', import.meta.url));

void describe('npm install on Node 20', () => {
  void it('warns of no package that wants another Node (no EBADENGINE), and the lock file is complete as it is', () => {
    const dir = mkdtempSync(join(tmpdir(), 'regpay-engines-'));
    for (const file of ['package.json', 'package-lock.json']) copyFileSync(join(REPO, file), join(dir, file));
    const npm = spawnSync('npm', ['install', '--package-lock-only', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    const output = `${npm.stdout}${npm.stderr}`;
    assert.equal(npm.status, 0, output);
    assert.doesNotMatch(output, /EBADENGINE/, output);
    assert.match(output, /up to date/, 'the lock file already holds everything package.json asks for');
  });
});
