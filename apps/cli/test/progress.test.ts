import { describe, expect, it } from 'vitest';
import { Progress, type ProgressMode } from '../src/progress.js';

// a stream that keeps what is written, and a clock the test moves by hand
function recorder(isTTY: boolean) {
  const written: string[] = [];
  return { written, stream: { isTTY, write: (text: string) => written.push(text) > 0 } };
}

function run(mode: ProgressMode, isTTY: boolean, ticks: number, stepMs: number) {
  const { written, stream } = recorder(isTTY);
  let now = 0;
  const progress = new Progress('work', ticks, { mode, stream, now: () => now });
  for (let tick = 0; tick < ticks; tick += 1) {
    now += stepMs;
    progress.tick();
  }
  progress.finish();
  return written;
}

describe('progress on stderr', () => {
  it('prints a line every ten seconds of long work when stderr is not a terminal', () => {
    // 100 units of half a second: 50 s of work
    const written = run('auto', false, 100, 500);
    expect(written).toHaveLength(6);
    expect(written[0]).toBe('work 20/100 (20%) eta 40s 2.0/s, 10s\n');
    expect(written.at(-1)).toBe('work 100/100 (100%) 2.0/s, 50s\n');
  });

  it('stays silent for work shorter than ten seconds when stderr is not a terminal', () => {
    expect(run('auto', false, 20, 100)).toEqual([]);
  });

  it('prints a line a second, and the last state, with --progress', () => {
    const written = run('on', false, 10, 250);
    expect(written).toEqual([
      'work 4/10 (40%) eta 2s 4.0/s, 1.0s\n',
      'work 8/10 (80%) eta 1s 4.0/s, 2.0s\n',
      'work 10/10 (100%) 4.0/s, 2.5s\n',
    ]);
  });

  it('redraws one line in place on a terminal and ends it', () => {
    const written = run('auto', true, 3, 200);
    expect(written.slice(0, 3).every((text) => text.startsWith('\r\u001b[2Kwork ['))).toBe(true);
    expect(written.at(-2)).toContain('[########################] 3/3');
    expect(written.at(-1)).toBe('\n');
  });

  it('prints nothing for work that never started, even with --progress or on a terminal', () => {
    // the error that follows (nothing to do) is then the first line on stderr
    expect(run('on', false, 0, 0)).toEqual([]);
    expect(run('auto', true, 0, 0)).toEqual([]);
  });

  it('prints a line on its timer while work is pending, though nothing finished', () => {
    const { written, stream } = recorder(false);
    let now = 0;
    const progress = new Progress('judge', 40, {
      mode: 'auto',
      stream,
      now: () => now,
      pending: () => `2 item(s) waiting for the endpoint, the longest ${now / 1000}s`,
    });
    for (let second = 1; second <= 25; second += 1) {
      now = second * 1000;
      progress.refresh();
    }
    progress.stop();
    expect(written).toEqual([
      'judge 0/40 (0%) 0.0/s, 10s; 2 item(s) waiting for the endpoint, the longest 10s\n',
      'judge 0/40 (0%) 0.0/s, 20s; 2 item(s) waiting for the endpoint, the longest 20s\n',
    ]);
  });

  it('counts failed work apart from what was done', () => {
    const { written, stream } = recorder(false);
    let now = 0;
    const progress = new Progress('judge', 40, { mode: 'on', stream, now: () => now });
    now = 1000;
    progress.tick();
    progress.fail(39);
    progress.finish();
    expect(written.at(-1)).toBe('judge 1/40 (2%) 40.0/s, 1.0s; 39 failed\n');
  });

  it('prints nothing with --no-progress, even on a terminal', () => {
    expect(run('off', true, 50, 1_000)).toEqual([]);
  });
});
