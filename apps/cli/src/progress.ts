/**
 * How progress shows on stderr: `auto` draws a live line on a terminal and prints one line every
 * ten seconds of long work otherwise; `on` also prints one line a second when stderr is not a
 * terminal; `off` prints nothing.
 */
export type ProgressMode = 'auto' | 'on' | 'off';

let currentMode: ProgressMode = 'auto';

/** Sets the progress mode of this process (from `--progress` / `--no-progress`). */
export function setProgressMode(mode: ProgressMode): void {
  currentMode = mode;
}

/** The progress mode of this process. */
export function progressMode(): ProgressMode {
  return currentMode;
}

/** Options of a {@link Progress}. */
export interface ProgressOptions {
  mode?: ProgressMode;
  stream?: Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean };
  /** The clock, in milliseconds. */
  now?: () => number;
}

const terminalRedrawMs = 100;
const lineIntervalMs: Record<ProgressMode, number> = { auto: 10_000, on: 1_000, off: 0 };

/**
 * Progress of long work on stderr: a line redrawn in place on a terminal (at most ten times a
 * second), otherwise a plain line from time to time (see {@link ProgressMode}), so that a piped or
 * logged run still shows it is alive. Progress never goes to stdout.
 */
export class Progress {
  private done = 0;
  private lastDraw: number;
  private linesPrinted = 0;
  private readonly started: number;
  private readonly mode: ProgressMode;
  private readonly stream: NonNullable<ProgressOptions['stream']>;
  private readonly now: () => number;
  private readonly terminal: boolean;

  constructor(
    private readonly label: string,
    private total: number | undefined,
    options: ProgressOptions = {},
  ) {
    this.mode = options.mode ?? currentMode;
    this.stream = options.stream ?? process.stderr;
    this.now = options.now ?? Date.now;
    this.terminal = Boolean(this.stream.isTTY);
    this.started = this.now();
    this.lastDraw = this.started;
  }

  /** Units of work finished so far. */
  get count(): number {
    return this.done;
  }

  /** Sets the number of units, once it is known. */
  setTotal(total: number | undefined): void {
    this.total = total;
  }

  /** Counts finished units of work and draws when due. */
  tick(count = 1): void {
    this.done += count;
    if (this.mode === 'off') return;
    const now = this.now();
    const due = this.terminal ? terminalRedrawMs : lineIntervalMs[this.mode];
    if (now - this.lastDraw >= due) this.draw(now);
  }

  /**
   * Draws the final state (on a terminal, or when a line was printed before) and ends the line.
   * A run that did nothing and drew nothing prints nothing: the error that follows says why.
   */
  finish(): void {
    if (this.mode === 'off') return;
    if (this.done === 0 && this.linesPrinted === 0) return;
    if (this.terminal) {
      this.draw(this.now());
      this.stream.write('\n');
    } else if (this.linesPrinted > 0 || this.mode === 'on') {
      this.draw(this.now());
    }
  }

  private draw(now: number): void {
    this.lastDraw = now;
    this.linesPrinted += 1;
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    let line = `${this.label} ${this.done}`;
    if (this.total !== undefined && this.total > 0) {
      const fraction = Math.min(1, this.done / this.total);
      const counts = `${this.done}/${this.total}`;
      if (this.terminal) {
        const width = 24;
        const filled = Math.round(fraction * width);
        line = `${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${counts}`;
      } else {
        line = `${this.label} ${counts} (${Math.floor(fraction * 100)}%)`;
      }
      if (rate > 0 && this.done < this.total) {
        line += ` eta ${Math.ceil((this.total - this.done) / rate)}s`;
      }
    }
    line += ` ${rate.toFixed(1)}/s, ${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
    this.stream.write(this.terminal ? `\r\x1b[2K${line}` : `${line}\n`);
  }
}
