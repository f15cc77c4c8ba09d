import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qualmWithEnvironment } from './qualm-process.js';

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-train-'));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

const qualm = qualmWithEnvironment({ QUALM_PROGRESS: undefined });

function file(name: string, content: string): string {
  const path = join(directory, name);
  writeFileSync(path, content);
  return path;
}

const jsonl = (rows: unknown[]) => `${rows.map((row) => JSON.stringify(row)).join('\n')}\n`;

// a support desk's own labels, written for this test: the desk's assistant sometimes deflects
// with "that is a matter for your account manager", which no built-in pattern reads as a refusal
const PRODUCTS = [
  'invoice export',
  'team calendar',
  'backup schedule',
  'API key',
  'shared inbox',
  'audit log',
];
const DEFLECTIONS = [
  'Questions about the {p} are a matter for your account manager.',
  'That is a matter for your account manager; they handle the {p}.',
  'Changes to the {p} are a matter for your account manager, please contact them.',
];
const ANSWERS = [
  'Open Settings, choose {p}, and press Save; the change applies at once.',
  'To set up the {p}, go to the admin page and follow the three steps shown there.',
  'The {p} is under Workspace > Tools. Click it and pick the option you need.',
];

function rows(offset = 0) {
  const result: { text: string; label: string; ticket: string }[] = [];
  for (let index = 0; index < 18; index += 1) {
    const product = PRODUCTS[(index + offset) % PRODUCTS.length] as string;
    const variant = (index + Math.floor((index + offset) / PRODUCTS.length)) % 3;
    result.push({
      text: (DEFLECTIONS[variant] as string).replace('{p}', product),
      label: 'refusal',
      ticket: `t${index}`,
    });
    result.push({
      text: (ANSWERS[variant] as string).replace('{p}', product),
      label: 'none',
      ticket: `t${index}`,
    });
  }
  return result;
}

const trainArgs = (input: string, out: string) => [
  'train',
  '--input',
  input,
  '--text-field',
  'text',
  '--label-field',
  'label',
  '--group-field',
  'ticket',
  '--out',
  out,
];

describe('qualm train', () => {
  it('writes a model and prints precision, recall and F1 per label on the held-out groups', async () => {
    const input = file('labelled.jsonl', jsonl(rows()));
    const out = join(directory, 'desk.qlm');
    const result = await qualm(trainArgs(input, out));
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^trained on \d+ rows, measured on \d+ held-out rows/);
    expect(result.stdout).toMatch(/label\s+test rows\s+predicted\s+precision\s+recall\s+F1/);
    expect(result.stdout).toMatch(/\nnone\s+\d+\s+\d+\s+1\.000\s+1\.000\s+1\.000/);
    expect(result.stdout).toMatch(/\nrefusal\s+\d+\s+\d+\s+1\.000\s+1\.000\s+1\.000/);
    expect(result.stdout).toContain(`wrote ${out} (256 KB; labels none, refusal; threshold 0.5)`);
    expect(readFileSync(out).subarray(0, 4).toString()).toBe('qlm1');
  });

  it('writes the same bytes when run twice on the same file', async () => {
    const input = file('labelled.jsonl', jsonl(rows()));
    const first = join(directory, 'first.qlm');
    const second = join(directory, 'second.qlm');
    expect((await qualm(trainArgs(input, first))).code).toBe(0);
    expect((await qualm(trainArgs(input, second))).code).toBe(0);
    expect(readFileSync(first).equals(readFileSync(second))).toBe(true);
  });

  it('reads a labelled file that starts with a byte-order mark, as it reads one without', async () => {
    const plain = file('plain.jsonl', jsonl(rows()));
    const marked = file('marked.jsonl', `\uFEFF${jsonl(rows())}`);
    const fromPlain = join(directory, 'plain.qlm');
    const fromMarked = join(directory, 'marked.qlm');
    expect((await qualm(trainArgs(plain, fromPlain))).code).toBe(0);
    expect((await qualm(trainArgs(marked, fromMarked))).code).toBe(0);
    expect(readFileSync(fromMarked).equals(readFileSync(fromPlain))).toBe(true);
  });

  it('gives a model that qualm validate --model uses on answers it has not seen', async () => {
    const input = file('labelled.jsonl', jsonl(rows()));
    const model = join(directory, 'desk.qlm');
    expect((await qualm([...trainArgs(input, model), '--test-split', '0'])).code).toBe(0);
    const answers = file(
      'answers.jsonl',
      jsonl([
        {
          id: 'deflects',
          response: 'Exports of old invoices are a matter for your account manager.',
        },
        {
          id: 'answers',
          response:
            'Open Settings, choose shared inbox, and press Save; the change applies at once.',
        },
      ]),
    );
    const patternsOnly = await qualm([
      'validate',
      answers,
      '--jsonl',
      '--id-field',
      'id',
      '--format',
      'jsonl',
    ]);
    expect(
      patternsOnly.stdout
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line).shouldEscalate),
    ).toEqual([false, false]);
    const result = await qualm([
      'validate',
      answers,
      '--jsonl',
      '--id-field',
      'id',
      '--format',
      'jsonl',
      '--model',
      model,
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.shouldEscalate)).toEqual([true, false]);
    expect(lines[0].signals[0]).toMatchObject({
      type: 'refusal',
      source: 'learned',
      evidence: 'Exports of old invoices are a matter for your account manager.',
    });
    expect(lines[0].signals[0].probability).toBeGreaterThanOrEqual(0.5);
    // the table tells a learned signal from a pattern's, with its probability
    const table = await qualm([
      'validate',
      answers,
      '--jsonl',
      '--id-field',
      'id',
      '--model',
      model,
    ]);
    expect(table.code).toBe(0);
    const probability = (lines[0].signals[0].probability as number).toFixed(2);
    expect(table.stdout).toMatch(
      new RegExp(
        `\\ndeflects\\s+\\d\\.\\d\\d\\s+yes\\s+refusal \\(learned ${probability}\\) "Exports of old invoices`,
      ),
    );
    expect(table.stdout).toMatch(/\nanswers\s+1\.00\s+no\s+-\n/);
  });

  it('prints a machine-readable report with --format json', async () => {
    const input = file('labelled.jsonl', jsonl(rows()));
    const out = join(directory, 'desk.qlm');
    const result = await qualm([...trainArgs(input, out), '--format', 'json', '--epochs', '3']);
    expect(result.code).toBe(0);
    const document = JSON.parse(result.stdout);
    expect(document).toMatchObject({ model: out, labels: ['none', 'refusal'], threshold: 0.5 });
    expect(document.trainRows + document.testRows).toBe(36);
    expect(document.report.map((entry: { label: string }) => entry.label)).toEqual([
      'none',
      'refusal',
    ]);
  });

  it('stops with one line and exit 2 on an unknown label, naming the line', async () => {
    const input = file(
      'labelled.jsonl',
      jsonl([...rows().slice(0, 4), { text: 'Fine.', label: 'rude', ticket: 'x' }]),
    );
    const result = await qualm(trainArgs(input, join(directory, 'm.qlm')));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `qualm: ${input}:5 the label "rude" is not a signal type or none (labels: none, confusion, refusal, low_confidence, empty_response, tool_failure, incomplete_reasoning, hallucination_risk)\n`,
    );
  });

  it('stops with one line and exit 2 on an empty file, a missing field or a label with too few rows', async () => {
    const empty = file('empty.jsonl', '\n');
    const noRows = await qualm(trainArgs(empty, join(directory, 'm.qlm')));
    expect(noRows.code).toBe(2);
    expect(noRows.stderr).toBe(`qualm: ${empty} has no rows to train on\n`);

    const missing = file('missing.jsonl', jsonl([{ body: 'An answer.', label: 'none' }]));
    const noText = await qualm(trainArgs(missing, join(directory, 'm.qlm')));
    expect(noText.code).toBe(2);
    expect(noText.stderr).toBe(
      `qualm: ${missing}:1 the field "text" must hold the response text as a string (it is missing)\n`,
    );

    const few = file(
      'few.jsonl',
      jsonl([
        ...rows().filter((row) => row.label === 'none'),
        ...rows()
          .filter((row) => row.label === 'refusal')
          .slice(0, 3),
      ]),
    );
    const tooFew = await qualm(trainArgs(few, join(directory, 'm.qlm')));
    expect(tooFew.code).toBe(2);
    expect(tooFew.stderr).toBe('qualm: label "refusal" has 3 rows; each label needs at least 10\n');

    const broken = file('broken.jsonl', '{"text": "An answer", "label": \n');
    const notJson = await qualm(trainArgs(broken, join(directory, 'm.qlm')));
    expect(notJson.code).toBe(2);
    expect(notJson.stderr).toMatch(new RegExp(`^qualm: ${broken}:1 is not valid JSON`));
  });

  it('refuses a split that leaves a label too few rows to train on, naming a --test-split that works', async () => {
    // 36 rows in 18 tickets pass the rule on the whole file; 0.9 holds out all tickets but one
    const input = file('labelled.jsonl', jsonl(rows()));
    const out = join(directory, 'm.qlm');
    const refused = await qualm([...trainArgs(input, out), '--test-split', '0.9']);
    expect(refused.code).toBe(2);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      'qualm: label "none" has 1 row to train on and 17 held out by the test split of 0.9; each label needs at least 10 to train on: a test split of at most 0.48 keeps enough, or give more groups\n',
    );
    expect(existsSync(out)).toBe(false);
    const kept = await qualm([...trainArgs(input, out), '--test-split', '0.48']);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/^trained on 20 rows, measured on 16 held-out rows/);
  });

  it('shows "-", not 0.000, for what a label without held-out rows could not measure', async () => {
    // tickets t7, t13 and t17 are the ones the default split of 0.2 holds out: without their
    // refusals, every refusal is trained on and none is left to measure
    const input = file(
      'labelled.jsonl',
      jsonl(
        rows().filter(
          (row) => !(row.label === 'refusal' && ['t7', 't13', 't17'].includes(row.ticket)),
        ),
      ),
    );
    const result = await qualm(trainArgs(input, join(directory, 'm.qlm')));
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/\nnone\s+3\s+3\s+1\.000\s+1\.000\s+1\.000\n/);
    expect(result.stdout).toMatch(/\nrefusal\s+0\s+0\s+-\s+-\s+-\n/);
  });

  it('prints every default in --help the one way the other verbs do', async () => {
    const result = await qualm(['train', '--help']);
    expect(result.code).toBe(0);
    const help = result.stdout.replaceAll(/\s+/g, ' ');
    expect(help).not.toMatch(/\(default [^:]/);
    for (const option of [
      '--test-split',
      '--epochs',
      '--learning-rate',
      '--seed',
      '--threshold',
      '--window',
      '--bits',
    ]) {
      expect(help).toMatch(new RegExp(`${option} <\\w+> [^(]*\\(default: [\\d.]+\\)`));
    }
  });
});

describe('qualm validate with a learned model', () => {
  it('refuses a corrupt or missing model file with one line and exit 2, before reading input', async () => {
    const input = file('labelled.jsonl', jsonl(rows()));
    const model = join(directory, 'desk.qlm');
    expect((await qualm(trainArgs(input, model))).code).toBe(0);
    const bytes = readFileSync(model);
    bytes[bytes.length - 10] = (bytes[bytes.length - 10] as number) ^ 0xff;
    const corrupt = file('corrupt.qlm', '');
    writeFileSync(corrupt, bytes);
    const answers = file('answers.jsonl', jsonl([{ response: 'Open Settings and press Save.' }]));
    const bad = await qualm(['validate', answers, '--jsonl', '--model', corrupt]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe(
      `qualm: ${corrupt}: the model file is corrupt (checksum mismatch): truncated or altered\n`,
    );
    expect(bad.stdout).toBe('');
    const absent = await qualm(['validate', '-', '--model', join(directory, 'nope.qlm')]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toBe(`qualm: model file not found: ${join(directory, 'nope.qlm')}\n`);
    const empty = await qualm(['validate', '-', '--model', '']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe('qualm: --model is empty: give the path of a model file\n');
    const dash = await qualm(['validate', answers, '--jsonl', '--model', '-']);
    expect(dash.code).toBe(2);
    expect(dash.stderr).toBe(
      'qualm: --model - : a model is not read from stdin; give the path of a model file\n',
    );
    const folder = await qualm(['validate', '-', '--model', directory]);
    expect(folder.code).toBe(2);
    expect(folder.stderr).toBe(
      `qualm: ${directory} is a folder, not a model file: give the file qualm train wrote\n`,
    );
  });

  it('refuses --learned and --model together in one line', async () => {
    const result = await qualm(['validate', '-', '--learned', '--model', join(directory, 'x.qlm')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('qualm: --learned and --model: give one of them\n');
  });

  it('uses the shipped model with --learned and marks each signal with its source', async () => {
    const answers = file(
      'answers.jsonl',
      jsonl([
        { id: 'plain', response: 'Open Settings, choose the team calendar, and press Save.' },
        { id: 'refuses', response: "I'm sorry, but I can't help with that request." },
      ]),
    );
    const result = await qualm([
      'validate',
      answers,
      '--jsonl',
      '--id-field',
      'id',
      '--format',
      'jsonl',
      '--learned',
    ]);
    expect(result.code).toBe(0);
    const lines = result.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(lines[0].shouldEscalate).toBe(false);
    expect(lines[1].signals[0]).toMatchObject({ type: 'refusal', source: 'pattern' });
    const table = await qualm(['validate', answers, '--jsonl', '--id-field', 'id', '--learned']);
    expect(table.stdout).toMatch(/\nrefuses\s+0\.25\s+yes\s+refusal "I can't help"$/m);
    expect(table.stdout).not.toContain('(learned');
  });
});
