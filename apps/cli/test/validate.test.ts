import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qualmWithEnvironment } from './qualm-process.js';

const examples = fileURLToPath(new URL('../../../examples/responses.jsonl', import.meta.url));

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-validate-'));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const qualm = qualmWithEnvironment({});

function file(name: string, content: string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

const jsonl = (rows: unknown[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

describe('qualm validate', () => {
  it('prints a table by id and a summary for the examples shipped in the repository', async () => {
    const result = await qualm(['validate', examples, '--jsonl', '--id-field', 'id', '--summary']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^id\s+score\s+escalate\s+signals/);
    expect(result.stdout).toMatch(/standard-error\s+1\.00\s+no\s+-/);
    expect(result.stdout).toMatch(/direct-refusal\s+0\.25\s+yes\s+refusal "I can't help"/);
    expect(result.stdout).toMatch(/tool-error\s+0\.01\s+yes\s+tool_failure/);
    expect(result.stdout).toMatch(
      /responses: 32\nescalated: \d+ \(\d+\.\d%\)\naverage score: 0\.\d{3}/,
    );
    expect(result.stdout).toContain('common issues: refusal');
  });

  it('writes one JSON line per input line, in order, with the id and the documented fields', async () => {
    const input = file(
      'in.jsonl',
      jsonl([
        { id: 'a', response: 'I cannot help with that request.' },
        { id: 7, response: 'Paris is the capital of France and its largest city.' },
        { response: 'OK' },
      ]),
    );
    const result = await qualm([
      'validate',
      input,
      '--jsonl',
      '--id-field',
      'id',
      '--format',
      'jsonl',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.id)).toEqual(['a', 7, undefined]);
    expect(lines.map((line) => line.line)).toEqual([1, 2, 3]);
    expect(Object.keys(lines[0])).toEqual([
      'id',
      'line',
      'score',
      'shouldEscalate',
      'signals',
      'reason',
      'assessmentConfidence',
    ]);
    expect(lines[0].signals[0]).toEqual({
      type: 'refusal',
      evidence: 'I cannot help',
      weight: 0.75,
      position: 0,
      source: 'pattern',
    });
    expect(lines.map((line) => line.shouldEscalate)).toEqual([true, false, true]);
  });

  it('reads the text from --field and puts the summary in --format json', async () => {
    const input = file('in.jsonl', jsonl([{ text: "I'm not sure about this one." }]));
    const result = await qualm([
      'validate',
      input,
      '--jsonl',
      '--field',
      'text',
      '--format',
      'json',
      '--summary',
    ]);
    const document = JSON.parse(result.stdout);
    expect(document.results[0]).toMatchObject({ line: 1, shouldEscalate: true });
    expect(document.results[0].feedback).toBeTypeOf('string');
    expect(document.summary).toMatchObject({
      total: 1,
      escalated: 1,
      escalationRate: 1,
      skipped: 0,
    });
  });

  it('treats a plain-text file, or stdin with -, as one response', async () => {
    const path = file('answer.txt', "I'm sorry, but I can't\nassist with that.");
    const fromFile = await qualm(['validate', path, '--format', 'jsonl']);
    const fromStdin = await qualm(
      ['validate', '-', '--format', 'jsonl'],
      {},
      { input: "I'm sorry, but I can't\nassist with that." },
    );
    expect(JSON.parse(fromFile.stdout)).toEqual(JSON.parse(fromStdin.stdout));
    expect(JSON.parse(fromFile.stdout).signals[0].type).toBe('refusal');
  });

  it('escapes control characters of ids and evidence in the table, and leaves JSON Lines to JSON', async () => {
    const path = file(
      'coloured.jsonl',
      jsonl([
        { id: '\u001b[31mred', response: 'No\u001b[1m can do, sorry.' },
        { id: 'two\nlines', response: 'Paris is the capital of France, on the Seine.' },
      ]),
    );
    // a pattern that reads across the escape sequence, so the evidence holds it
    const patterns = file('patterns.json', JSON.stringify({ refusal: ['no[\\s\\S]{1,6}can do'] }));
    const args = ['validate', path, '--jsonl', '--id-field', 'id', '--patterns', patterns];
    const table = await qualm(args);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('\u001b');
    // a header, its rule and one line a response: the id's line break is not written
    expect(table.stdout.split('\n')).toHaveLength(5);
    expect(table.stdout).toMatch(
      /^\\u001b\[31mred\s+\d\.\d\d\s+yes\s+refusal "No\\u001b\[1m can do"$/m,
    );
    expect(table.stdout).toMatch(/^two\\nlines\s+1\.00\s+no\s+-$/m);
    const records = await qualm([...args, '--format', 'jsonl']);
    const first = records.stdout.split('\n')[0] as string;
    expect(first).toContain('"id":"\\u001b[31mred"');
    expect(JSON.parse(first).signals[0].evidence).toBe('No\u001b[1m can do');
  });

  it('streams a large text file and still finds a cue at its very end', async () => {
    const path = join(directory, 'large.txt');
    const sentence = 'The committee adopted the recommendations in the following year. ';
    writeFileSync(path, `${sentence.repeat(300_000)}Tool error: the search API call failed.`);
    const result = await qualm(['validate', path, '--format', 'jsonl']);
    expect(result.code).toBe(0);
    const [line] = result.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(line.signals.map((signal: { type: string }) => signal.type)).toContain('tool_failure');
  });

  it('names the line of a broken JSON line, or skips and counts it with --skip-invalid', async () => {
    const input = `${JSON.stringify({ response: 'A complete and useful answer here.' })}\n{not json\n${JSON.stringify({ other: 1 })}\n`;
    const strict = await qualm(['validate', '-', '--jsonl'], {}, { input });
    expect(strict.code).toBe(2);
    expect(strict.stderr).toMatch(/^qualm: stdin:2 is not valid JSON/);
    const skipping = await qualm(['validate', '-', '--jsonl', '--skip-invalid'], {}, { input });
    expect(skipping.code).toBe(0);
    expect(skipping.stderr).toContain('qualm: skipped 2 invalid lines');
  });

  it('names the line and the field when the text field is missing', async () => {
    const input = file(
      'in.jsonl',
      jsonl([{ response: 'Fine answer, long enough here.' }, { answer: 'x' }]),
    );
    const result = await qualm(['validate', input, '--jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/in\.jsonl:2 response: the line has no field "response"/);
  });

  it('reads a JSON Lines file that starts with a byte-order mark', async () => {
    const input = file(
      'bom.jsonl',
      `\uFEFF${jsonl([{ response: "I'm sorry, but I can't help with that." }, { response: 'Fine answer, long enough here.' }])}`,
    );
    const result = await qualm(['validate', input, '--jsonl', '--format', 'jsonl']);
    expect(result.code).toBe(0);
    const rows = result.stdout
      .trim()
      .split('\n')
      .map((row) => JSON.parse(row));
    expect(rows.map((row) => row.shouldEscalate)).toEqual([true, false]);
  });

  it('adds patterns from --patterns and refuses a catastrophic one by name', async () => {
    const patterns = file(
      'patterns.json',
      JSON.stringify({ low_confidence: [{ pattern: '\\bballpark\\b', weight: 0.5 }] }),
    );
    const result = await qualm(
      ['validate', '-', '--patterns', patterns, '--format', 'jsonl'],
      {},
      { input: 'A ballpark figure is forty thousand units.' },
    );
    expect(JSON.parse(result.stdout).signals).toEqual([
      { type: 'low_confidence', evidence: 'ballpark', weight: 0.5, position: 2, source: 'pattern' },
    ]);
    const unsafe = file('unsafe.json', JSON.stringify({ confusion: ['^(a+)+$'] }));
    const rejected = await qualm(['validate', '-', '--patterns', unsafe], {}, { input: 'text' });
    expect(rejected.code).toBe(2);
    expect(rejected.stderr).toMatch(
      /^qualm: .*unsafe\.json: custom confusion pattern #1 "\^\(a\+\)\+\$" can backtrack catastrophically/,
    );
    const mistyped = file('mistyped.json', JSON.stringify({ hedging: ['x'] }));
    const invalid = await qualm(['validate', '-', '--patterns', mistyped], {}, { input: 'text' });
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/mistyped\.json: .*hedging/);
  });

  it('applies --strict and --min-length', async () => {
    const hedged = 'I think this is probably right.';
    const normal = await qualm(['validate', '-', '--format', 'jsonl'], {}, { input: hedged });
    const strict = await qualm(
      ['validate', '-', '--format', 'jsonl', '--strict'],
      {},
      { input: hedged },
    );
    expect(JSON.parse(normal.stdout).shouldEscalate).toBe(false);
    expect(JSON.parse(strict.stdout).shouldEscalate).toBe(true);
    const short = await qualm(
      ['validate', '-', '--format', 'jsonl', '--min-length', '3'],
      {},
      { input: 'Canberra.' },
    );
    expect(JSON.parse(short.stdout).signals).toEqual([]);
    const bad = await qualm(['validate', '-', '--min-length', 'many'], {}, { input: 'Canberra.' });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--min-length must be an integer of at least 0, got "many"');
  });

  it('exits 1 with --fail-on-escalate when a response escalates, 0 otherwise', async () => {
    const gate = await qualm([
      'validate',
      examples,
      '--jsonl',
      '--fail-on-escalate',
      '--format',
      'jsonl',
    ]);
    expect(gate.code).toBe(1);
    expect(gate.stderr).toMatch(/qualm: \d+ of 32 responses escalate \(--fail-on-escalate\)/);
    const clean = await qualm(
      ['validate', '-', '--fail-on-escalate'],
      {},
      { input: 'Canberra is the capital of Australia.' },
    );
    expect(clean.code).toBe(0);
  });

  it('refuses a .jsonl or .ndjson file without --jsonl instead of letting a gate pass on it as one response', async () => {
    const rows = jsonl([
      { id: 1, response: 'I cannot help with that request.' },
      { id: 2, response: 'Paris is the capital of France and its largest city.' },
    ]);
    for (const name of ['answers.jsonl', 'answers.NDJSON']) {
      const path = file(name, rows);
      const result = await qualm(['validate', path, '--fail-on-escalate']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `qualm: ${path} looks like JSON Lines (its name ends in ${name.slice(name.lastIndexOf('.'))}): pass --jsonl to score each line as a response\n`,
      );
    }
    const gated = await qualm([
      'validate',
      file('answers.jsonl', rows),
      '--jsonl',
      '--fail-on-escalate',
    ]);
    expect(gated.code).toBe(1);
  });

  it('refuses an input whose first lines are JSON objects without --jsonl, from stdin or a file of any name', async () => {
    const rows = `\n${jsonl([{ response: 'I cannot help with that request.' }, { response: 'Paris is the capital.' }])}`;
    const stdin = await qualm(['validate', '--fail-on-escalate'], {}, { input: rows });
    expect(stdin.code).toBe(2);
    expect(stdin.stderr).toBe(
      'qualm: stdin looks like JSON Lines (its first lines are JSON objects): pass --jsonl to score each line as a response\n',
    );
    const path = file('log.txt', rows);
    const named = await qualm(['validate', path]);
    expect(named.code).toBe(2);
    expect(named.stderr).toBe(
      `qualm: ${path} looks like JSON Lines (its first lines are JSON objects): pass --jsonl to score each line as a response\n`,
    );
  });

  it('still scores one JSON document, on one line or many, as one response', async () => {
    for (const input of [
      '{"answer": "Paris is the capital of France."}\n',
      '{\n  "answer": "Paris is the capital of France."\n}\n',
    ]) {
      const result = await qualm(['validate', '-', '--format', 'jsonl'], {}, { input });
      expect(result.code, result.stderr).toBe(0);
      const records = result.stdout.trim().split('\n');
      expect(records).toHaveLength(1);
      expect(JSON.parse(records[0] ?? '').score).toBeTypeOf('number');
    }
  });

  it('rounds the average score of the --summary in --format json to 4 decimals', async () => {
    const rows = [
      { response: 'I cannot help with that request.' },
      ...Array.from({ length: 6 }, () => ({
        response: 'Paris is the capital of France and its largest city.',
      })),
    ];
    const result = await qualm([
      'validate',
      file('seven.jsonl', jsonl(rows)),
      '--jsonl',
      '--summary',
      '--format',
      'json',
    ]);
    const document = JSON.parse(result.stdout) as {
      results: { score: number }[];
      summary: { averageScore: number };
    };
    const mean =
      document.results.reduce((sum, row) => sum + row.score, 0) / document.results.length;
    expect(document.summary.averageScore).toBe(Math.round(mean * 10_000) / 10_000);
    expect(String(document.summary.averageScore)).toMatch(/^\d(\.\d{1,4})?$/);
  });

  it('reports a missing input file in one line', async () => {
    const result = await qualm(['validate', join(directory, 'nope.jsonl'), '--jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`qualm: file not found: ${join(directory, 'nope.jsonl')}\n`);
  });
});
