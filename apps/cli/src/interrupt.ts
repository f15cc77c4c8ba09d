import { INTERRUPTED_EXIT_STATUS } from './errors.js';

let controller: AbortController | undefined;
let stopping = 'the calls under way are cancelled';
const cleanups = new Set<() => void>();

/**
 * Registers work to do if a second Ctrl-C ends the process at once (removing a file left
 * unfinished); returns a function that unregisters it.
 */
export function onForcedExit(cleanup: () => void): () => void {
  cleanups.add(cleanup);
  return () => cleanups.delete(cleanup);
}

/**
 * Lets a verb stop cleanly on Ctrl-C: the first SIGINT aborts the signal returned here, so the
 * run can finish the line it is writing and say how to continue; a second one ends the process at
 * once. A verb that never asks is ended by the first SIGINT. `whatStops` is what the first
 * Ctrl-C's message says happens to the work under way.
 */
export function interruptSignal(whatStops = 'the calls under way are cancelled'): AbortSignal {
  stopping = whatStops;
  controller ??= new AbortController();
  return controller.signal;
}

// copies of one Ctrl-C arrive together (the terminal signals the whole process group, and a
// launcher such as pnpm forwards its own): those within this window count as one
const sameInterruptMs = 500;
let firstInterruptAt: number | undefined;

function onInterrupt(): void {
  const now = Date.now();
  if (firstInterruptAt !== undefined && now - firstInterruptAt < sameInterruptMs) return;
  firstInterruptAt ??= now;
  if (controller && !controller.signal.aborted) {
    process.stderr.write(`\nqualm: stopping: ${stopping} (Ctrl-C again to quit at once)\n`);
    controller.abort(new Error('interrupted'));
    return;
  }
  for (const cleanup of cleanups) {
    try {
      cleanup();
    } catch {
      // quitting at once: a cleanup that fails must not keep the process alive
    }
  }
  process.stderr.write('\nqualm: interrupted\n');
  process.exit(INTERRUPTED_EXIT_STATUS);
}

/** Handles SIGINT for the duration of `work`. */
export async function withInterruptHandler<Result>(work: () => Promise<Result>): Promise<Result> {
  process.on('SIGINT', onInterrupt);
  try {
    return await work();
  } finally {
    process.off('SIGINT', onInterrupt);
    controller = undefined;
    stopping = 'the calls under way are cancelled';
    firstInterruptAt = undefined;
    cleanups.clear();
  }
}
