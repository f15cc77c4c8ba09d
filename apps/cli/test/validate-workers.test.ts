import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualmInterrupted } from './fixtures.js';
import { qualmWithEnvironment } from './qualm-process.js';

const withProgress = qualmWithEnvironment({});
// these tests compare whole outputs: on a busy machine a run can last long enough to print
// progress lines, so progress is off
const qualm: typeof withProgress = (args, ...rest) =>
  withProgress(['--no-progress', ...args], ...rest);
let directory: string;

beforeAll(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-workers-'));
});

afterAll(() => {
  rmSync(directory, { recursive: true, force: true });
});

const answers = [
  'Lower the saddle until your heel just reaches the pedal at its lowest point.',
  "I'm sorry, but I can't help with that request.",
  'I think the chain probably needs oil, but I am not entirely sure without seeing it.',
  'Tool error: the parts catalogue returned status 502.',
  'Pump the tyres to the pressure printed on the sidewall — usually 3 to 4.5 bar. 🚲',
  'Short.',
  'First loosen the quick release, then ...',
  'ブレーキパッドの摩耗を確認し、必要なら交換してください。',
];

/** A log of `lines` answers (about 150 bytes each), with ids, CRLF and blank lines mixed in. */
function log(lines: number, line: (index: number) => string | undefined = () => undefined): string {
  let text = '';
  for (let index = 0; index < lines; index += 1) {
    text +=
      line(index) ?? JSON.stringify({ id: `r${index}`, response: answers[index % answers.length] });
    text += index % 97 === 0 ? '\r\n' : index % 89 === 0 ? '\n\n' : '\n';
  }
  return text;
}

function file(name: string, content: string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

// more than one chunk of 1 MiB, so the pool starts with more than one worker
const big = () => file('big.jsonl', log(25_000));

// each test runs the CLI several times over megabytes of answers: slow on a busy machine
describe('qualm validate --workers', { timeout: 240_000 }, () => {
  it('writes the same bytes on 1 and 3 workers, in every format', async () => {
    const path = big();
    expect(readFileSync(path).byteLength).toBeGreaterThan(2 * 1024 * 1024);
    for (const format of [
      ['--format', 'jsonl'],
      ['--format', 'json', '--summary'],
      ['--format', 'table', '--summary'],
    ]) {
      const args = ['validate', path, '--jsonl', '--id-field', 'id', ...format];
      const one = await qualm([...args, '--workers', '1']);
      const three = await qualm([...args, '--workers', '3']);
      expect(one.code, one.stderr).toBe(0);
      expect(three.code, three.stderr).toBe(0);
      expect(three.stdout).toBe(one.stdout);
      expect(three.stderr).toBe(one.stderr);
    }
  });

  it('writes one record per response in input order, with the summary on stderr', async () => {
    const path = big();
    const run = await qualm([
      'validate',
      path,
      '--jsonl',
      '--id-field',
      'id',
      '--format',
      'jsonl',
      '--summary',
      '--workers',
      '2',
    ]);
    const ids = run.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toHaveLength(25_000);
    expect(ids.slice(0, 3)).toEqual(['r0', 'r1', 'r2']);
    expect(ids.at(-1)).toBe('r24999');
    expect(run.stderr).toMatch(/^responses: 25000\nescalated: \d+ \(\d+\.\d%\)/);
  });

  it('stops at a broken line past the first chunk with its number, on any number of workers', async () => {
    const path = file(
      'broken.jsonl',
      log(20_000, (index) => (index === 15_000 ? '{"id": "r15000", "response": "cut' : undefined)),
    );
    const one = await qualm(['validate', path, '--jsonl', '--format', 'jsonl', '--workers', '1']);
    const three = await qualm(['validate', path, '--jsonl', '--format', 'jsonl', '--workers', '3']);
    expect(one.code).toBe(2);
    expect(one.stderr).toMatch(/^qualm: .*broken\.jsonl:\d+ is not valid JSON \(/);
    expect(one.stderr).toMatch(/the output stops before it \(--skip-invalid skips such lines\)\n$/);
    expect(three.code).toBe(2);
    expect(three.stderr).toBe(one.stderr);
    expect(three.stdout).toBe(one.stdout);
    expect(one.stdout.trimEnd().split('\n')).toHaveLength(15_000);
  });

  it('counts skipped lines the same on any number of workers', async () => {
    const path = file(
      'noisy.jsonl',
      log(20_000, (index) => (index % 1000 === 5 ? 'not json' : undefined)),
    );
    const runs = await Promise.all(
      ['1', '3'].map((workers) =>
        qualm([
          'validate',
          path,
          '--jsonl',
          '--skip-invalid',
          '--summary',
          '--format',
          'json',
          '--workers',
          workers,
        ]),
      ),
    );
    for (const run of runs) {
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout).summary).toMatchObject({ total: 19_980, skipped: 20 });
    }
    expect(runs[1]!.stdout).toBe(runs[0]!.stdout);
  });

  it('gives every worker the learned model: --model writes the same bytes on 1 and 2 workers', async () => {
    // a bike shop's own labels, written for this test: its assistant sends some questions to the
    // workshop desk, which no built-in pattern reads as a refusal
    const parts = [
      'gear cable',
      'brake pads',
      'wheel truing',
      'chain wear',
      'saddle height',
      'tyre pressure',
      'bottom bracket',
      'headset',
      'spoke tension',
      'derailleur hanger',
      'disc rotor',
      'pedal thread',
    ];
    const labelled = parts.flatMap((part, index) => [
      {
        text: `Questions about the ${part} are one for the workshop desk.`,
        label: 'refusal',
        group: `g${index}`,
      },
      {
        text: `The ${part} is set from the left side; turn it a quarter at a time.`,
        label: 'none',
        group: `g${index}`,
      },
    ]);
    const training = file('labelled.jsonl', labelled.map((row) => JSON.stringify(row)).join('\n'));
    const model = join(directory, 'shop.qlm');
    const trained = await qualm([
      'train',
      '--input',
      training,
      '--text-field',
      'text',
      '--label-field',
      'label',
      '--group-field',
      'group',
      '--test-split',
      '0',
      '--out',
      model,
    ]);
    expect(trained.code, trained.stderr).toBe(0);
    const path = file(
      'desk.jsonl',
      log(15_000, (index) =>
        index % 10 === 3
          ? JSON.stringify({
              id: `d${index}`,
              response: 'Truing the rear wheel is one for the workshop desk.',
            })
          : undefined,
      ),
    );
    const args = [
      'validate',
      path,
      '--jsonl',
      '--id-field',
      'id',
      '--format',
      'jsonl',
      '--model',
      model,
    ];
    const one = await qualm([...args, '--workers', '1']);
    const two = await qualm([...args, '--workers', '2']);
    expect(one.code, one.stderr).toBe(0);
    expect(two.stdout).toBe(one.stdout);
    expect(one.stdout).toContain('"source":"learned"');
  });

  it('on Ctrl-C finishes the responses under way, closes the output whole, says where it stopped and exits 130', async () => {
    const path = file('long.jsonl', log(400_000));
    for (const format of ['json', 'jsonl']) {
      let signalled = false;
      const run = await qualmInterrupted(
        ['--no-progress', 'validate', path, '--jsonl', '--id-field', 'id', '--format', format],
        {},
        (stdout) => {
          signalled = stdout.length >= 1;
          return signalled;
        },
      );
      expect(signalled).toBe(true);
      expect(run.code, run.stderr).toBe(130);
      const results =
        format === 'json'
          ? JSON.parse(run.stdout).results
          : run.stdout
              .trimEnd()
              .split('\n')
              .map((line) => JSON.parse(line));
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThan(400_000);
      expect(results.map((result: { id: string }) => result.id)).toEqual(
        results.map((_: unknown, index: number) => `r${index}`),
      );
      const last = run.stderr.trimEnd().split('\n').at(-1) as string;
      const said = new RegExp(
        `^qualm: interrupted: ${results.length} responses validated and written, up to line (\\d+) of .*long\\.jsonl; to go on, run the same command with --from-line (\\d+)${format === 'jsonl' ? ' and append its output to this one' : ''}$`,
      ).exec(last);
      expect(said, last).not.toBeNull();
      const [upTo, next] = [Number(said?.[1]), Number(said?.[2])];
      expect(next).toBe(upTo + 1);
      // the line said is the last one read: the last written result's, or a blank line after it
      const lastLine = (results.at(-1) as { line: number }).line;
      expect(upTo - lastLine).toBeGreaterThanOrEqual(0);
      expect(upTo - lastLine).toBeLessThanOrEqual(1);
    }
  });

  it('goes on from a line with --from-line: the two runs give the records of one, numbered alike', async () => {
    const path = big();
    const whole = await qualm(['validate', path, '--jsonl', '--format', 'jsonl', '--workers', '2']);
    expect(whole.code, whole.stderr).toBe(0);
    const records = whole.stdout.trimEnd().split('\n');
    const lineOf = (record: string) => (JSON.parse(record) as { line: number }).line;
    // a line in the second chunk, and the line after a \r\n
    for (const fromLine of [lineOf(records[20_000] as string), 99]) {
      const rest = await qualm([
        'validate',
        path,
        '--jsonl',
        '--format',
        'jsonl',
        '--workers',
        '2',
        '--from-line',
        String(fromLine),
      ]);
      expect(rest.code, rest.stderr).toBe(0);
      const before = records.filter((record) => lineOf(record) < fromLine);
      expect(`${before.join('\n')}\n${rest.stdout}`).toBe(whole.stdout);
    }
  });

  it('refuses a --from-line that is not a line number, or past the input, or without --jsonl', async () => {
    const path = file('few-lines.jsonl', log(5));
    for (const value of ['0', '-2', '1.5', 'ten', '1e3', '0x10']) {
      const run = await qualm(['validate', path, '--jsonl', '--from-line', value]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(
        new RegExp(`^qualm: --from-line must be an integer .*got "${value}"\n$`),
      );
    }
    const past = await qualm(['validate', path, '--jsonl', '--from-line', '9']);
    expect(past.code).toBe(2);
    expect(past.stderr).toBe(
      `qualm: ${path} holds no responses from line 9 on (--from-line): it ends before that line, or only blank lines follow\n`,
    );
    // the summary says which lines it counts
    const summed = await qualm(['validate', path, '--jsonl', '--summary', '--from-line', '3']);
    expect(summed.code, summed.stderr).toBe(0);
    expect(summed.stdout).toContain('responses: 3 (from line 3 on)\n');
    const plain = await qualm(['validate', path, '--from-line', '2']);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe('qualm: --from-line has no effect without --jsonl\n');
  });

  it('refuses a worker count under 1, over 4 × the cores or not whole, or one without --jsonl', async () => {
    const most = 4 * availableParallelism();
    const zero = await qualm(['validate', big(), '--jsonl', '--workers', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toBe(`qualm: --workers must be an integer from 1 to ${most}, got "0"\n`);
    // a thousand threads would hold a heap each: refused even for an input that needs none
    const many = await qualm([
      'validate',
      file('few.jsonl', log(5)),
      '--jsonl',
      '--workers',
      '1000',
    ]);
    expect(many.code).toBe(2);
    expect(many.stderr).toBe(`qualm: --workers must be an integer from 1 to ${most}, got "1000"\n`);
    const plain = await qualm(
      ['validate', '-', '--workers', '2'],
      {},
      { input: 'An answer long enough to be read as one.' },
    );
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe('qualm: --workers has no effect without --jsonl\n');
  });
});

describe('qualm validate --summary-of', { timeout: 240_000 }, () => {
  it('sums the result files of shards up to the summary of one run over the whole log', async () => {
    const text = log(3000);
    const lines = text.split(/(?<=\n)/);
    const cut = Math.floor(lines.length / 3);
    const shards = [lines.slice(0, cut), lines.slice(cut, 2 * cut), lines.slice(2 * cut)].map(
      (part, index) => file(`shard-${index}.jsonl`, part.join('')),
    );
    const results: string[] = [];
    for (const [index, shard] of shards.entries()) {
      const run = await qualm([
        'validate',
        shard,
        '--jsonl',
        '--format',
        'jsonl',
        '--workers',
        '2',
      ]);
      expect(run.code, run.stderr).toBe(0);
      results.push(file(`results-${index}.jsonl`, run.stdout));
    }
    const whole = await qualm([
      'validate',
      file('whole.jsonl', text),
      '--jsonl',
      '--format',
      'json',
      '--summary',
    ]);
    const merged = await qualm(['validate', '--summary-of', ...results, '--format', 'json']);
    expect(merged.code, merged.stderr).toBe(0);
    const { skipped: _, ...wholeSummary } = JSON.parse(whole.stdout).summary;
    expect(JSON.parse(merged.stdout).summary).toStrictEqual(wholeSummary);
    expect(
      JSON.parse(merged.stdout).files.map((entry: { records: number }) => entry.records),
    ).toEqual(
      [cut, cut, lines.length - 2 * cut].map(
        (count, index) =>
          lines.slice(index * cut, index * cut + count).filter((line) => line.trim() !== '').length,
      ),
    );
    const table = await qualm(['validate', '--summary-of', ...results, '--fail-on-escalate']);
    expect(table.stdout).toMatch(/results-0\.jsonl: \d+ results\n.*\n.*\n\nresponses: 3000\n/);
    expect(table.code).toBe(1);
  });

  it('says which file and line is not a result, and refuses an input beside it', async () => {
    const input = file('answers.jsonl', log(5));
    const notResults = await qualm(['validate', '--summary-of', input]);
    expect(notResults.code).toBe(2);
    expect(notResults.stderr).toMatch(
      /^qualm: .*answers\.jsonl:1 is not a result of qualm validate --format jsonl \(score: /,
    );
    const both = await qualm(['validate', input, '--summary-of', input]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/^qualm: --summary-of reads result files in place of an input/);
    const flag = await qualm(['validate', '--summary-of', input, '--workers', '2']);
    expect(flag.stderr).toBe(
      'qualm: --workers has no effect with --summary-of (it reads results)\n',
    );
  });

  it('refuses an empty result file among good ones, and a file given twice, rather than miscount', async () => {
    const run = await qualm([
      'validate',
      file('five.jsonl', log(5)),
      '--jsonl',
      '--format',
      'jsonl',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const good = file('results-good.jsonl', run.stdout);
    const empty = file('results-empty.jsonl', '');
    const withEmpty = await qualm(['validate', '--summary-of', good, empty]);
    expect(withEmpty.code).toBe(2);
    expect(withEmpty.stdout).toBe('');
    expect(withEmpty.stderr).toBe(
      `qualm: ${empty} holds no results: a run of qualm validate --format jsonl writes one per response, so this shard's run failed or has not finished\n`,
    );
    const twice = await qualm(['validate', '--summary-of', good, empty.replace('empty', 'good')]);
    expect(twice.code).toBe(2);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toBe(
      `qualm: --summary-of names ${good} twice: its results would count twice\n`,
    );
  });
});
