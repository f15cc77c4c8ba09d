// `pnpm -s qualm …` from anywhere in the repository: builds the CLI and the packages it uses when
// their sources changed (quietly; the build's output shows only when it fails), then runs `qualm`
// in the folder the command was typed in, so stdout holds the command's output alone and paths
// resolve from where the user stands.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(
  process.execPath,
  [
    fileURLToPath(new URL('../node_modules/turbo/bin/turbo', import.meta.url)),
    'run',
    'build',
    '--filter=@qualm/cli...',
    '--output-logs=errors-only',
  ],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
);
if (build.status !== 0) {
  process.stderr.write(`${build.stdout ?? ''}${build.stderr ?? ''}`);
  process.stderr.write(
    `qualm: building the command failed${build.error ? ` (${build.error.message})` : ''}; run pnpm build to see why\n`,
  );
  process.exit(70);
}

// pnpm runs scripts in the repository's root and says in INIT_CWD where it was called from
// biome-ignore lint/suspicious/noUndeclaredEnvVars: this script runs outside any turbo task
process.chdir(process.env.INIT_CWD || process.cwd());
await import('../apps/cli/bin/qualm.js');
