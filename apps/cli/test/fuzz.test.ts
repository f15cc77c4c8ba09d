import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatServer, startChatServer } from '@qualm/testkit';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasControlCharacters, judgedLines, readLines, writeLockerData } from './fixtures.js';
import { endpointEnvironment, type QualmRun, qualmWithEnvironment } from './qualm-process.js';

// every verb, driven through the process boundary with generated bad input: whatever it is fed,
// it exits 0, 1 or 2, prints no stack trace, names the problem on the first line of stderr, and
// leaves no output half-written

const runs = Number(process.env.QUALM_FUZZ_RUNS ?? 5);
const seed = process.env.QUALM_FUZZ_SEED ? Number(process.env.QUALM_FUZZ_SEED) : undefined;
const settings = { numRuns: runs, ...(seed !== undefined ? { seed } : {}), endOnFailure: true };

const template = fileURLToPath(
  new URL('../../../examples/judge/template.schema.json', import.meta.url),
);
const qualm = qualmWithEnvironment(endpointEnvironment('sk-fuzz-0123456789'));

let root: string;
let server: ChatServer;
let data: string;
let run: string;
let caseNumber = 0;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'qualm-fuzz-'));
  server = await startChatServer({
    handler: (body) =>
      body.response_format
        ? { json: { city: 'Oslo', population_millions: 0.7 } }
        : { content: 'yes' },
  });
  data = writeLockerData(root, 4);
  run = join(root, 'run.eval-results.jsonl');
  writeFileSync(run, judgedLines(4));
});

afterAll(async () => {
  await server.close();
  rmSync(root, { recursive: true, force: true });
});

const jsonValue = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.string(), { maxKeys: 3 }),
);

// objects with the fields the verbs read, holding values of any type
const wrongTypes = fc
  .array(
    fc.record(
      {
        id: jsonValue,
        question: jsonValue,
        response: jsonValue,
        question_id: jsonValue,
        hypothesis: jsonValue,
        autoeval_label: fc.oneof(jsonValue, fc.record({ model: jsonValue, label: jsonValue })),
        question_type: jsonValue,
        haystack_sessions: jsonValue,
      },
      { requiredKeys: [] },
    ),
    { maxLength: 6 },
  )
  .map((rows) => rows.map((row) => JSON.stringify(row)).join('\n'));

const brokenJson = fc
  .array(
    fc.oneof(
      fc.json().map((text) => text.slice(0, Math.max(1, Math.floor(text.length / 2)))),
      fc.constantFrom(
        '{',
        '}',
        '[',
        '{"id": ',
        '{"response": "unterminated',
        'null',
        '"text"',
        '[1,',
      ),
      fc.string(),
    ),
    { minLength: 1, maxLength: 6 },
  )
  .map((lines) => lines.join('\n'));

const bytes = fc.uint8Array({ minLength: 1, maxLength: 2048 }).map((array) => Buffer.from(array));

const hugeLine = fc
  .tuple(fc.constantFrom('a', 'é', '"', '\\', '{', ' '), fc.integer({ min: 200_000, max: 400_000 }))
  .map(([character, length]) => character.repeat(length));

const content: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constant(''),
  bytes,
  brokenJson,
  wrongTypes,
  hugeLine,
  fc.constant('[]'),
  fc.constant('{}'),
  fc.constant('\n\n\n'),
);

// flags that are odd for any verb: numbers out of range or not numbers, unknown values
const oddFlags = fc.constantFrom<string[]>(
  [],
  [],
  ['--format', 'xml'],
  ['--concurrency', '0'],
  ['--concurrency', 'many'],
  ['--timeout', '-5'],
  ['--top-k', '0'],
  ['--min-length', 'NaN'],
  ['--max-false-abstention', '2'],
  ['--frobnicate'],
  ['--no-progress'],
  ['--progress'],
);

function check(result: QualmRun, allowed: readonly number[] = [0, 1, 2]): void {
  expect(allowed).toContain(result.code);
  expect(result.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
  expect(result.stderr).not.toContain('this is a bug');
  const first = result.stderr.split('\n')[0] ?? '';
  if (result.code !== 0) {
    expect(first).toMatch(/^(qualm: |error: )\S/);
  }
  expect(hasControlCharacters(first)).toBe(false);
}

// every line of a JSON Lines output is whole
function checkJsonLines(path: string): void {
  if (existsSync(path)) expect(() => readLines(path)).not.toThrow();
}

function newCase(): string {
  caseNumber += 1;
  const folder = join(root, `case-${caseNumber}`);
  mkdirSync(folder);
  return folder;
}

function input(folder: string, name: string, value: string | Buffer): string {
  const path = join(folder, name);
  writeFileSync(path, value);
  return path;
}

const timeout = 300_000;

describe('every verb survives generated bad input', () => {
  it(
    'validate',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          content,
          fc.boolean(),
          fc.constantFrom('table', 'json', 'jsonl'),
          oddFlags,
          async (text, jsonl, format, flags) => {
            const file = input(newCase(), 'responses.jsonl', text);
            check(
              await qualm([
                'validate',
                file,
                ...(jsonl ? ['--jsonl'] : []),
                '--format',
                format,
                ...flags,
              ]),
            );
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    'train, and validate with a model file of any content',
    async () => {
      await fc.assert(
        fc.asyncProperty(content, content, oddFlags, async (rows, modelBytes, flags) => {
          const folder = newCase();
          check(
            await qualm([
              'train',
              '--input',
              input(folder, 'labelled.jsonl', rows),
              '--text-field',
              'response',
              '--label-field',
              'question',
              '--out',
              join(folder, 'model.qlm'),
              ...flags,
            ]),
          );
          const answer = input(folder, 'answer.txt', 'Plant tulip bulbs in autumn, pointy end up.');
          const model = input(folder, 'given.qlm', modelBytes);
          check(await qualm(['validate', answer, '--model', model, ...flags]));
        }),
        settings,
      );
    },
    timeout,
  );

  it(
    'abstain',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          content,
          fc.constantFrom('txt', 'jsonl'),
          oddFlags,
          async (text, extension, flags) => {
            const file = input(newCase(), `evidence.${extension}`, text);
            const args = [
              'abstain',
              '--question',
              'What is the code of locker 2?',
              '--answer',
              '1002',
            ];
            // 1 says to abstain
            check(await qualm([...args, '--evidence', file, '--no-nli', ...flags]));
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    'judge',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          content,
          content,
          fc.boolean(),
          oddFlags,
          async (items, schema, badSchema, flags) => {
            const folder = newCase();
            const out = join(folder, 'judged.jsonl');
            const args = [
              'judge',
              '--input',
              input(folder, 'items.jsonl', items),
              '--template',
              badSchema ? input(folder, 'schema.json', schema) : template,
              '--base-url',
              server.baseURL,
              '--out',
              out,
              ...flags,
            ];
            check(await qualm(args));
            checkJsonLines(out);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    'bench longmemeval retrieve, generate and evaluate with a bad data file',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          content,
          fc.constantFrom('retrieve', 'generate', 'evaluate'),
          oddFlags,
          async (text, verb, flags) => {
            const folder = newCase();
            const file = input(folder, 'data.json', text);
            const out = join(folder, 'out.jsonl');
            const args =
              verb === 'retrieve'
                ? ['retrieve', '--data', file, '--level', 'session']
                : verb === 'generate'
                  ? [
                      'generate',
                      '--data',
                      file,
                      '--reader-model',
                      'reader',
                      '--context-limit',
                      'none',
                      '--out',
                      out,
                    ]
                  : ['evaluate', '--data', file, '--run', run, '--out', out];
            const live = verb === 'retrieve' ? [] : ['--base-url', server.baseURL];
            check(await qualm(['bench', 'longmemeval', ...args, ...live, ...flags]));
            checkJsonLines(out);
          },
        ),
        settings,
      );
    },
    timeout,
  );

  it(
    'bench longmemeval evaluate, metrics, replay, calibrate and report with a bad run file',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          content,
          fc.constantFrom('evaluate', 'metrics', 'replay', 'calibrate', 'report'),
          oddFlags,
          async (text, verb, flags) => {
            const folder = newCase();
            const file = input(folder, 'run.jsonl', text);
            const out = join(folder, 'out');
            const args = ['bench', 'longmemeval', verb, '--data', data, '--run', file];
            if (verb === 'evaluate')
              args.push('--base-url', server.baseURL, '--out', join(folder, 'labels.jsonl'));
            if (verb === 'calibrate') args.push('--out', out, '--no-nli');
            if (verb === 'report') args.push('--out', out);
            const result = await qualm([...args, ...flags]);
            check(result);
            checkJsonLines(join(folder, 'labels.jsonl'));
            // a folder output is written whole, after the work, or not at all
            if (result.code !== 0 && existsSync(out)) expect(readdirSync(out)).toEqual([]);
          },
        ),
        settings,
      );
    },
    timeout,
  );
});
