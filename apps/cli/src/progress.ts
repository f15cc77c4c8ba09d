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
  /**
   * Words about the work under way, added to each line (`2 items waiting for the endpoint, the
   * longest 40s`). With it, the line is also drawn on a timer, not only as work finishes, so a run
   * whose calls hang still shows it is alive.
   */
  pending?: () => string | undefined;
}

const terminalRedrawMs = 100;
const timerCheckMs = 1_000;
const lineIntervalMs: Record<ProgressMode, number> = { auto: 10_000, on: 1_000, off: 0 };

/**
 * Progress of long work on stderr: a line redrawn in place on a terminal (at most ten times a
 * second), otherwise a plain line from time to time (see {@link ProgressMode}), so that a piped or
 * logged run still shows it is alive. Progress never goes to stdout.
 */
export class Progress {
  private done = 0;
  private failed = 0;
  private lastDraw: number;
  private timer: NodeJS.Timeout | undefined;
  private readonly pending: (() => string | undefined) | undefined;
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
    this.pending = options.pending;
    if (this.pending && this.mode !== 'off') {
      // checked every second; a line is drawn only when one is due, as on a tick
      this.timer = setInterval(() => this.refresh(), timerCheckMs);
      // the timer never keeps the process alive by itself
      this.timer.unref();
    }
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
    this.refresh();
  }

  /** Counts units of work that failed (shown apart, not as done) and draws when due. */
  fail(count = 1): void {
    this.failed += count;
    this.refresh();
  }

  /** Draws when a line is due, counting nothing: the timer's check while work is pending. */
  refresh(): void {
    if (this.mode === 'off') return;
    const now = this.now();
    const due = this.terminal ? terminalRedrawMs : lineIntervalMs[this.mode];
    if (now - this.lastDraw >= due) this.draw(now);
  }

  /** Stops the timer without drawing (the run ended in an error, which says what happened). */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /**
   * Draws the final state (on a terminal, or when a line was printed before) and ends the line.
   * A run that did nothing and drew nothing prints nothing: the error that follows says why.
   */
  finish(): void {
    this.stop();
    if (this.mode === 'off') return;
    if (this.done + this.failed === 0 && this.linesPrinted === 0) return;
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
    const time = `${seconds.toFixed(seconds < 10 ? 1 : 0)}s`;
    const pending = this.pending?.();
    const finished = this.done + this.failed;
    if (this.total === undefined && finished === 0 && pending) {
      // before the first unit starts (an endpoint check, say): what is under way, and for how long
      const line = `${this.label}: ${pending}, ${time}`;
      this.stream.write(this.terminal ? `\r\x1b[2K${line}` : `${line}\n`);
      return;
    }
    const rate = seconds > 0 ? finished / seconds : 0;
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
      if (rate > 0 && finished < this.total) {
        line += ` eta ${Math.ceil((this.total - finished) / rate)}s`;
      }
    }
    line += ` ${rate.toFixed(1)}/s, ${time}`;
    if (this.failed > 0) line += `; ${this.failed} failed`;
    if (pending) line += `; ${pending}`;
    this.stream.write(this.terminal ? `\r\x1b[2K${line}` : `${line}\n`);
  }
}
