// `node scripts/build.mjs <package>`: builds a package and the packages it uses when their sources
// changed, quietly (turbo's output shows only when the build fails). The examples run on built
// packages, as a user's project does, and call this first so that a fresh clone needs no step.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const name = process.argv[2];
if (!name) {
  process.stderr.write('usage: node scripts/build.mjs <package>\n');
  process.exit(2);
}
const build = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL('../node_modules/turbo/bin/turbo', import.meta.url)),
    'run',
    'build',
    `--filter=${name}...`,
    '--output-logs=errors-only',
  ],
  { cwd: root, encoding: 'utf8' },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
  process.stderr.write(`building ${name} failed; run pnpm build in ${root} to see why\n`);
  process.exit(1);
}
