import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatServer, type ChatServerReply, startChatServer, unusedPort } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  executableBytes,
  hasControlCharacters,
  hasScript,
  qualmInTerminal,
  qualmInterrupted,
  readLines,
  writeLines,
  writeLockerData,
} from './fixtures.js';
import { endpointEnvironment, qualmWithEnvironment } from './qualm-process.js';

const examples = fileURLToPath(new URL('../../../examples/', import.meta.url));
const template = join(examples, 'judge', 'template.schema.json');
const apiKey = 'sk-reliability-test-0123456789';
const environment = endpointEnvironment(apiKey);
const qualm = qualmWithEnvironment(environment);

let directory: string;
let server: ChatServer | undefined;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-reliability-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

// a judge that reads the city and the number back from the response it is shown
const parsingReply = (): ChatServerReply => ({ json: { city: 'Oslo', population_millions: 0.7 } });

function judgeItems(count: number): string {
  return writeLines(
    join(directory, 'items.jsonl'),
    Array.from({ length: count }, (_, index) => ({
      id: `city-${index}`,
      question: 'Which city is the capital of Norway, and how many million people live there?',
      response: 'Oslo, with about 0.7 million people.',
      expected: { city: 'Oslo' },
    })),
  );
}

const judge = (input: string, ...flags: string[]) => [
  'judge',
  '--input',
  input,
  '--template',
  template,
  '--retry-delay',
  '1',
  ...flags,
];

const generate = (data: string, ...flags: string[]) => [
  'bench',
  'longmemeval',
  'generate',
  '--data',
  data,
  '--reader-model',
  'reader',
  // a model outside the harness's table: its history is never cut
  '--context-limit',
  'none',
  '--retry-delay',
  '1',
  ...flags,
];

const evaluate = (data: string, run: string, ...flags: string[]) => [
  'bench',
  'longmemeval',
  'evaluate',
  '--data',
  data,
  '--run',
  run,
  '--retry-delay',
  '1',
  ...flags,
];

function hypotheses(count: number): string {
  return writeLines(
    join(directory, 'hypotheses.jsonl'),
    Array.from({ length: count }, (_, index) => ({
      question_id: `locker${index}`,
      hypothesis: `The code is ${1000 + index}.`,
    })),
  );
}

function judgedRun(count: number, name = 'run.eval-results.jsonl', prefix = 'locker'): string {
  return writeLines(
    join(directory, name),
    Array.from({ length: count }, (_, index) => ({
      question_id: `${prefix}${index}`,
      hypothesis: `The code is ${1000 + index}.`,
      autoeval_label: { model: 'gpt-4o-2024-08-06', label: index % 2 === 0 },
    })),
  );
}

describe('a transient endpoint failure is never a finished result', () => {
  it.each([
    ['a body that is not JSON', { fault: 'malformed_json' } as const],
    ['a reply without choices', { fault: 'no_choices' } as const],
  ])(
    'judge leaves out items that got %s, exits 1, and a rerun judges them',
    async (_what, fault) => {
      server = await startChatServer({ handler: () => fault });
      const input = judgeItems(5);
      const out = join(directory, 'judged.jsonl');
      const first = await qualm(judge(input, '--base-url', server.baseURL, '--out', out));
      expect(first.code).toBe(1);
      expect(first.stderr).toMatch(/^qualm: 5 item\(s\) could not be judged .*MALFORMED_REPLY/);
      expect(readLines(out)).toEqual([]);

      server.setHandler(parsingReply);
      const rerun = await qualm(judge(input, '--base-url', server.baseURL, '--out', out));
      expect(rerun.code).toBe(0);
      expect(rerun.stdout).toContain('5 result(s) appended to');
      expect(rerun.stdout).toContain('0 already there');
      expect(readLines(out)).toHaveLength(5);
    },
  );

  it('generate leaves out answers that got a broken reply, and a rerun answers them', async () => {
    const data = writeLockerData(directory, 4);
    server = await startChatServer({ handler: () => ({ fault: 'malformed_json' }) });
    const out = join(directory, 'hypotheses.jsonl');
    const first = await qualm(generate(data, '--base-url', server.baseURL, '--out', out));
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(/^qualm: 4 question\(s\) were not answered .*MALFORMED_REPLY/);
    expect(first.stderr).not.toContain('JUDGE_UNAVAILABLE');
    expect(readLines(out)).toEqual([]);
    server.setHandler(() => ({ content: 'The code is 1000.' }));
    const rerun = await qualm(generate(data, '--base-url', server.baseURL, '--out', out));
    expect(rerun.code).toBe(0);
    expect(readLines(out)).toHaveLength(4);
  });

  it('evaluate leaves out labels whose reply had no choices, and a rerun judges them', async () => {
    const data = writeLockerData(directory, 3);
    const run = hypotheses(3);
    server = await startChatServer({ handler: () => ({ fault: 'no_choices' }) });
    const out = join(directory, 'labels.jsonl');
    const first = await qualm(evaluate(data, run, '--base-url', server.baseURL, '--out', out));
    expect(first.code).toBe(1);
    expect(readLines(out)).toEqual([]);
    server.setHandler(() => ({ content: 'yes' }));
    const rerun = await qualm(evaluate(data, run, '--base-url', server.baseURL, '--out', out));
    expect(rerun.code).toBe(0);
    expect(readLines(out)).toHaveLength(3);
  });

  it('names an unreachable reader ENDPOINT_UNAVAILABLE, not a judge code', async () => {
    const data = writeLockerData(directory, 2);
    server = await startChatServer({ handler: () => ({ fault: 'server_error', status: 503 }) });
    const result = await qualm(
      generate(data, '--base-url', server.baseURL, '--out', join(directory, 'h.jsonl')),
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('ENDPOINT_UNAVAILABLE');
    expect(result.stderr).not.toContain('JUDGE');
  });
});

describe('validate prints a table of any size', () => {
  it('streams a table of 130,000 rows without running out of stack', async () => {
    const rows = Array.from({ length: 130_000 }, (_, index) =>
      JSON.stringify({ id: `r${index}`, response: index % 2 ? 'Maybe, I am not sure.' : 'Yes.' }),
    );
    const input = join(directory, 'big.jsonl');
    writeFileSync(input, `${rows.join('\n')}\n`);
    // a run over ten seconds on a busy machine prints a progress line; this checks stderr for errors
    const result = await qualm([
      '--no-progress',
      'validate',
      input,
      '--jsonl',
      '--id-field',
      'id',
      '--summary',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toMatch(/^id\s+score\s+escalate\s+signals$/);
    expect(lines).toContain('responses: 130000');
    expect(lines.filter((line) => /^r\d+ /.test(line))).toHaveLength(130_000);
  });
});

describe('live runs with default settings', () => {
  it.each(['judge', 'generate', 'evaluate'])(
    '%s never warns of an abort-listener leak',
    async (verb) => {
      server = await startChatServer({
        handler: (body) =>
          body.response_format ? parsingReply() : { content: 'yes, the code is 1000' },
      });
      const data = writeLockerData(directory, 24);
      const out = join(directory, 'out.jsonl');
      const args =
        verb === 'judge'
          ? judge(judgeItems(24), '--base-url', server.baseURL)
          : verb === 'generate'
            ? generate(data, '--base-url', server.baseURL, '--out', out)
            : evaluate(data, hypotheses(24), '--base-url', server.baseURL, '--out', out);
      const result = await qualm(args);
      expect(result.code).toBe(0);
      expect(result.stderr).not.toContain('MaxListenersExceededWarning');
      expect(result.stderr).toBe('');
    },
  );
});

describe('nothing to do is an error', () => {
  it('calibrate refuses a run whose ids are all unknown, in one line, before choosing anything', async () => {
    const data = writeLockerData(directory, 3);
    const run = judgedRun(4, 'elsewhere.jsonl', 'kettle');
    const out = join(directory, 'calibration');
    const result = await qualm([
      'bench',
      'longmemeval',
      'calibrate',
      '--data',
      data,
      '--run',
      run,
      '--out',
      out,
      '--no-nli',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: none of the 4 question ids of .*elsewhere\.jsonl is in/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(out, 'calibration.json'))).toBe(false);
  });

  it('replay refuses a run whose ids are all unknown instead of printing 0.0%', async () => {
    const data = writeLockerData(directory, 3);
    const run = judgedRun(2, 'elsewhere.jsonl', 'kettle');
    const result = await qualm(['bench', 'longmemeval', 'replay', '--data', data, '--run', run]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^qualm: none of the 2 question ids/);
  });

  it.each(['metrics', 'replay'])('%s refuses an empty run', async (verb) => {
    const data = writeLockerData(directory, 3);
    const run = join(directory, 'empty.jsonl');
    writeFileSync(run, '');
    const result = await qualm(['bench', 'longmemeval', verb, '--data', data, '--run', run]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `qualm: ${run} holds no judged answers: each line should be {"question_id", "hypothesis", "autoeval_label"}\n`,
    );
  });

  it('generate refuses --ids that are all missing from the data, before any request', async () => {
    const data = writeLockerData(directory, 3);
    server = await startChatServer();
    const result = await qualm(
      generate(
        data,
        '--base-url',
        server.baseURL,
        '--ids',
        'nosuch',
        '--out',
        join(directory, 'h.jsonl'),
      ),
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `qualm: none of the 1 question ids asked for is in ${data}: nosuch\n`,
    );
    expect(server.requests).toHaveLength(0);
  });

  it('evaluate refuses an empty hypotheses file', async () => {
    const data = writeLockerData(directory, 3);
    const run = join(directory, 'empty.jsonl');
    writeFileSync(run, '\n');
    server = await startChatServer();
    const result = await qualm(evaluate(data, run, '--base-url', server.baseURL));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: .*empty\.jsonl holds no hypotheses/);
  });

  it('judge refuses an input without items, and validate a JSON Lines input without responses', async () => {
    const empty = join(directory, 'empty.jsonl');
    writeFileSync(empty, '\n\n');
    const judged = await qualm(judge(empty));
    expect(judged.code).toBe(2);
    expect(judged.stderr).toMatch(/^qualm: .*empty\.jsonl holds no items/);
    const validated = await qualm(['validate', empty, '--jsonl']);
    expect(validated.code).toBe(2);
    expect(validated.stdout).toBe('');
    expect(validated.stderr).toMatch(/^qualm: .*empty\.jsonl holds no responses/);
  });
});

describe('--out is checked before any work, and its missing folders are created', () => {
  it('metrics creates the missing folders of --out', async () => {
    const data = writeLockerData(directory, 4);
    const out = join(directory, 'missing', 'dir', 'metrics.md');
    const result = await qualm([
      'bench',
      'longmemeval',
      'metrics',
      '--data',
      data,
      '--run',
      judgedRun(4),
      '--format',
      'markdown',
      '--out',
      out,
    ]);
    expect(result.code).toBe(0);
    expect(existsSync(out)).toBe(true);
  });

  it.each(['report', 'calibrate'])(
    '%s refuses an --out that is a file at once, naming it',
    async (verb) => {
      const data = writeLockerData(directory, 4);
      const file = join(directory, 'README.md');
      writeFileSync(file, '# notes\n');
      const started = performance.now();
      const result = await qualm([
        'bench',
        'longmemeval',
        verb,
        '--data',
        data,
        '--run',
        judgedRun(4),
        '--out',
        file,
        ...(verb === 'calibrate' ? ['--no-nli'] : []),
      ]);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`qualm: --out ${file} is a file; give a folder\n`);
      expect(performance.now() - started).toBeLessThan(5_000);
    },
  );

  it('judge refuses an --out whose folder cannot be created, before any request', async () => {
    server = await startChatServer();
    const blocker = join(directory, 'blocker');
    writeFileSync(blocker, 'a file, not a folder');
    const out = join(blocker, 'judged.jsonl');
    const result = await qualm(judge(judgeItems(2), '--base-url', server.baseURL, '--out', out));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `qualm: --out ${out}: cannot write there (a part of its path is a file)\n`,
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('an endpoint URL that cannot work is bad input', () => {
  it.each([
    ['notaurl', 'must start with http:// or https://'],
    ['ftp://127.0.0.1/v1', 'has the scheme ftp'],
  ])('--base-url %s exits 2 in one line', async (url, problem) => {
    const result = await qualm(judge(judgeItems(1), '--base-url', url));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(`^qualm: the endpoint URL "${url}" ${problem}[^\\n]*\\n$`),
    );
  });

  it('a closed port exits 2 at once, naming the URL, with no retries', async () => {
    const port = await unusedPort();
    const url = `http://127.0.0.1:${port}/v1`;
    const started = performance.now();
    const result = await qualm([
      ...generate(
        writeLockerData(directory, 2),
        '--base-url',
        url,
        '--out',
        join(directory, 'h.jsonl'),
      ),
      '--retry-delay',
      '10000',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(new RegExp(`^qualm: cannot reach ${url}: connection refused`));
    // a retry would have waited ten seconds (the margin is for a busy machine)
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it('a port that fetch refuses names the URL and exits 2', async () => {
    const result = await qualm(judge(judgeItems(1), '--base-url', 'http://127.0.0.1:6000/v1'));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'qualm: cannot reach http://127.0.0.1:6000/v1: fetch never connects to this port (bad port); use another one\n',
    );
  });
});

describe('binary input and control bytes', () => {
  it('validate refuses an executable instead of scoring it as an answer', async () => {
    const binary = join(directory, 'tool');
    writeFileSync(binary, executableBytes());
    for (const args of [
      ['validate', binary],
      ['validate', binary, '--jsonl'],
    ]) {
      const result = await qualm(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `qualm: ${binary} is binary data, not text (it holds NUL or control bytes)\n`,
      );
    }
  });

  it('judge refuses a binary input file', async () => {
    const binary = join(directory, 'items.bin');
    writeFileSync(binary, executableBytes());
    const result = await qualm(judge(binary));
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`qualm: ${binary} is binary data, not JSON Lines text\n`);
  });

  it('escapes the control bytes an error message quotes', async () => {
    const input = join(directory, 'odd.jsonl');
    writeFileSync(input, 'ok \u001b[2J\u0007 then garbage\n{"response": "fine"}\n');
    const result = await qualm(['validate', input, '--jsonl']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('\\u001b[2J\\u0007');
    expect(hasControlCharacters(result.stderr)).toBe(false);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('flags that would do nothing are refused, naming both flags', () => {
  it.each([
    [['validate', 'x.jsonl', '--field', 'text'], '--field has no effect without --jsonl'],
    [
      [
        'bench',
        'longmemeval',
        'replay',
        '--data',
        'd',
        '--run',
        'r',
        '--abstention-threshold',
        '0.5',
      ],
      '--abstention-threshold has no effect without --abstention',
    ],
    [
      [
        'bench',
        'longmemeval',
        'retrieve',
        '--data',
        'd',
        '--level',
        'session',
        '--hybrid-weight',
        '0.3',
      ],
      '--hybrid-weight has no effect with --retriever fulltext',
    ],
    [
      [
        'bench',
        'longmemeval',
        'generate',
        '--data',
        'd',
        '--reader-model',
        'm',
        '--out',
        'o',
        '--history',
        'none',
        '--top-k',
        '5',
      ],
      '--top-k has no effect with --history none',
    ],
    [
      ['abstain', '--question', 'q', '--answer', 'a', '--no-nli', '--nli-model', 'org/model'],
      '--nli-model has no effect with --no-nli',
    ],
  ])('%j', async (args, line) => {
    const result = await qualm(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`qualm: ${line}\n`);
  });

  it.each([
    ['judge', '--judge-model'],
    ['bench longmemeval evaluate', '--judge-model'],
    ['bench longmemeval generate', '--reader-model'],
    ['bench longmemeval retrieve', '--embedding-model'],
  ])('%s says that --model was renamed %s', async (verb, flag) => {
    const required: Record<string, string[]> = {
      judge: ['--input', 'i.jsonl'],
      'bench longmemeval evaluate': ['--data', 'd', '--run', 'r'],
      'bench longmemeval generate': ['--data', 'd', '--reader-model', 'm', '--out', 'o'],
      'bench longmemeval retrieve': ['--data', 'd', '--level', 'session'],
    };
    const result = await qualm([...verb.split(' '), ...(required[verb] ?? []), '--model', 'm']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      `qualm: --model was renamed ${flag}: it names what the model does here\n`,
    );
  });
});

describe('progress and interruption', () => {
  it('prints nothing on stderr for short work when stderr is not a terminal', async () => {
    const result = await qualm(['validate', join(examples, 'responses.jsonl'), '--jsonl']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('prints one-line progress on stderr with --progress, placed before or after the verb', async () => {
    const input = join(examples, 'responses.jsonl');
    for (const args of [
      ['--progress', 'validate', input, '--jsonl'],
      ['validate', input, '--jsonl', '--progress'],
    ]) {
      const result = await qualm(args);
      expect(result.code).toBe(0);
      // a line a second and one at the end: a loaded machine may take past the first second
      expect(result.stderr).toMatch(
        /^(?:validate \d+ [\d.]+\/s, [\d.]+s\n)*validate 32 [\d.]+\/s, [\d.]+s\n$/,
      );
    }
  });

  it.skipIf(!hasScript)(
    'validate says on a terminal that it waits for the responses to be typed',
    async () => {
      const result = await qualmInTerminal(['validate'], ['I cannot help with that.\n', '\u0004']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        'qualm: reading responses from the terminal; end with Ctrl-D (or give a file)',
      );
      expect(result.stdout).toMatch(/refusal "I cannot help"/);
    },
  );

  it.skipIf(!hasScript)('draws a live progress bar when stderr is a terminal', async () => {
    server = await startChatServer({ latencyMs: 30, handler: parsingReply });
    const result = await qualmInTerminal(
      judge(judgeItems(12), '--base-url', server.baseURL, '--concurrency', '1'),
      [],
      environment,
    );
    expect(result.code).toBe(0);
    // redrawn in place: a carriage return and an erase-line before each state
    expect(result.stdout).toContain('\r\u001b[2Kjudge [');
    expect(result.stdout).toMatch(/judge \[#{24}\] 12\/12/);
  });

  it('judge stops on Ctrl-C, says how much was written and how to continue, and a rerun finishes', async () => {
    server = await startChatServer({ latencyMs: 60, handler: parsingReply });
    const input = judgeItems(40);
    const out = join(directory, 'judged.jsonl');
    const args = judge(input, '--base-url', server.baseURL, '--out', out, '--concurrency', '2');
    const stopped = await qualmInterrupted(args, environment, () => readLines(out).length >= 4);
    expect(stopped.code).toBe(130);
    const written = readLines(out).length;
    expect(written).toBeGreaterThanOrEqual(4);
    expect(written).toBeLessThan(40);
    expect(stopped.stderr).toContain(
      `qualm: interrupted: ${written} of 40 result(s) appended to ${out}; run the same command again to judge the rest`,
    );
    const rerun = await qualm(args);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain(
      `${40 - written} result(s) appended to ${out}, ${written} already there`,
    );
    expect(new Set(readLines(out).map((line) => line.id)).size).toBe(40);
  });

  it('generate stops on Ctrl-C with every written line whole, and says how to continue', async () => {
    server = await startChatServer({ latencyMs: 60, handler: () => ({ content: 'It is 1000.' }) });
    const data = writeLockerData(directory, 30);
    const out = join(directory, 'hypotheses.jsonl');
    const args = generate(data, '--base-url', server.baseURL, '--out', out, '--concurrency', '2');
    const stopped = await qualmInterrupted(args, environment, () => readLines(out).length >= 3);
    expect(stopped.code).toBe(130);
    const written = readLines(out).length;
    expect(stopped.stderr).toContain(
      `qualm: interrupted: ${written} of 30 answer(s) written to ${out}; run the same command again to continue`,
    );
    const rerun = await qualm(args);
    expect(rerun.code).toBe(0);
    expect(readLines(out)).toHaveLength(30);
  });
});

describe('the program itself', () => {
  it('prints a version that says whether it is a release, and the runtime', async () => {
    const result = await qualm(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^qualm \d+\.\d+\.\d+.* on node v\d+\.\d+\.\d+\n$/);
    expect(result.stdout).not.toBe('0.0.0\n');
  });

  it('prints every default in one style in --help', async () => {
    for (const verb of [
      ['judge'],
      ['validate'],
      ['train'],
      ['abstain'],
      ['bench', 'longmemeval', 'generate'],
      ['bench', 'longmemeval', 'evaluate'],
      ['bench', 'longmemeval', 'retrieve'],
      ['bench', 'longmemeval', 'metrics'],
      ['bench', 'longmemeval', 'replay'],
      ['bench', 'longmemeval', 'calibrate'],
      ['bench', 'longmemeval', 'report'],
    ]) {
      const result = await qualm([...verb, '--help']);
      expect(result.code).toBe(0);
      // help wraps lines: "(default" may end one
      const help = result.stdout.replaceAll(/\s+/g, ' ');
      expect(help).not.toMatch(/\(default [^:]/);
      expect(help).not.toMatch(/default: "/);
    }
  });

  it('creates the folder of --out of a resumable run when missing', async () => {
    server = await startChatServer({ handler: parsingReply });
    const out = join(directory, 'a', 'b', 'judged.jsonl');
    mkdirSync(join(directory, 'a'));
    const result = await qualm(judge(judgeItems(2), '--base-url', server.baseURL, '--out', out));
    expect(result.code).toBe(0);
    expect(readLines(out)).toHaveLength(2);
  });
});
