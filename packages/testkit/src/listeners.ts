import { getEventListeners } from 'node:events';

/**
 * Runs `work` and returns the messages of every MaxListenersExceededWarning the process emitted
 * meanwhile (a warning is emitted on a later tick than the listener that caused it, so one more
 * tick is waited for).
 */
export async function listenerWarnings(work: () => Promise<void>): Promise<string[]> {
  const warnings: string[] = [];
  const onWarning = (warning: Error) => {
    if (warning.name === 'MaxListenersExceededWarning') warnings.push(warning.message);
  };
  process.on('warning', onWarning);
  try {
    await work();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', onWarning);
  }
  return warnings;
}

/** How many 'abort' listeners `signal` holds now. */
export const abortListeners = (signal: AbortSignal): number =>
  getEventListeners(signal, 'abort').length;
