import { execFile } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { compareVersions } from '@doable/contracts-releases';
import { REPO_ROOT } from '../support/processes';

/**
 * The previous release, built from its commit, for the rolling-upgrade e2e. Tags do not travel
 * to every clone, so the commit comes from `contracts/releases/commits.json` (version -> commit,
 * added once the release commit exists). The release is checked out as a git worktree under
 * `tmp/releases/<version>` and built there with its own build script; a build already made
 * from that commit is reused.
 */

const run = promisify(execFile);
const COMMITS_FILE = join(REPO_ROOT, 'contracts', 'releases', 'commits.json');
/** Written into the release's dist/ after its build: the commit it was built from. */
const BUILT_MARK = '.built-from-commit';

export interface BuiltRelease {
  readonly version: string;
  readonly commit: string;
  /** The release's checkout. */
  readonly root: string;
  /** Its build output (`dist/apps/<service>/src/main.js`...). */
  readonly distDir: string;
}

/** The newest release recorded in commits.json: what a cluster runs before it is upgraded to HEAD. */
export function latestRecordedRelease(): { version: string; commit: string } {
  const commits = JSON.parse(readFileSync(COMMITS_FILE, 'utf8')) as Record<string, string>;
  const versions = Object.keys(commits).sort(compareVersions);
  if (versions.length === 0) throw new Error(`${COMMITS_FILE} records no release`);
  const version = versions[versions.length - 1];
  return { version, commit: commits[version] };
}

const git = (args: string[], cwd = REPO_ROOT) => run('git', args, { cwd, maxBuffer: 16 * 1024 * 1024 });

/** A shallow clone may lack the release's commit: fetch just that one. */
async function ensureCommit(commit: string): Promise<void> {
  try {
    await git(['cat-file', '-e', `${commit}^{commit}`]);
  } catch {
    await git(['fetch', '--depth=1', 'origin', commit]).catch((err: Error) => {
      throw new Error(`commit ${commit} is not in this clone and could not be fetched (${err.message.trim()})`);
    });
  }
}

/**
 * True when this checkout's installed packages serve the release: every package its lockfile
 * names is locked here too, at the same place and version (HEAD usually only adds packages).
 * Then its node_modules is a link to ours instead of a second install.
 */
function installedPackagesServe(releaseRoot: string): boolean {
  type Lock = { packages: Record<string, { version?: string }> };
  const theirs = (JSON.parse(readFileSync(join(releaseRoot, 'package-lock.json'), 'utf8')) as Lock).packages;
  const ours = (JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as Lock).packages;
  return Object.entries(theirs).every(([path, locked]) => path === '' || ours[path]?.version === locked.version);
}

/** Checks out and builds the release (skipped when its build from that commit is there). */
export async function buildRelease(release: { version: string; commit: string }, log: (line: string) => void = () => undefined): Promise<BuiltRelease> {
  const root = join(REPO_ROOT, 'tmp', 'releases', release.version);
  const distDir = join(root, 'dist');
  const built = { ...release, root, distDir };
  const mark = join(distDir, BUILT_MARK);
  if (existsSync(mark) && readFileSync(mark, 'utf8').trim() === release.commit) return built;

  await ensureCommit(release.commit);
  const checkedOut = existsSync(join(root, '.git')) ? (await git(['rev-parse', 'HEAD'], root).catch(() => ({ stdout: '' }))).stdout.trim() : '';
  if (checkedOut !== release.commit) {
    if (existsSync(root)) {
      await git(['worktree', 'remove', '--force', root]).catch(() => undefined);
      rmSync(root, { recursive: true, force: true });
    }
    // -f: a worktree registered here before whose folder was deleted (tmp/ cleaned) is reused.
    log(`checking out release ${release.version} (${release.commit.slice(0, 7)}) in ${root}`);
    await git(['worktree', 'add', '-f', '--detach', root, release.commit]);
  }
  const modules = join(root, 'node_modules');
  if (!existsSync(modules)) {
    if (installedPackagesServe(root)) symlinkSync(realpathSync(join(REPO_ROOT, 'node_modules')), modules);
    else {
      log(`installing release ${release.version}'s packages (its lockfile differs from HEAD's)`);
      await run('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
    }
  }
  log(`building release ${release.version}`);
  await run(process.execPath, [join('tools', 'scripts', 'build.mjs')], { cwd: root, maxBuffer: 64 * 1024 * 1024 });
  writeFileSync(mark, `${release.commit}\n`);
  return built;
}
