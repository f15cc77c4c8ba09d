import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'qualm-abstain-'));
  await writeFile(
    join(folder, 'notes.txt'),
    'I adopted a cat named Luna last spring.\n\nWe drove to the coast in June.\n',
  );
  await writeFile(
    join(folder, 'notes.jsonl'),
    '"I adopted a cat named Luna."\n{"text": "We drove to the coast."}\n',
  );
  await writeFile(join(folder, 'broken.jsonl'), '"fine"\n{"text": \n');
});
afterAll(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe('qualm abstain', () => {
  it('abstains, with exit status 1, when the evidence never mentions what the question names', async () => {
    const result = await qualm([
      'abstain',
      '--question',
      'What did I name my tortoise?',
      '--answer',
      'Biscuit.',
      '--evidence',
      join(folder, 'notes.txt'),
      '--no-nli',
    ]);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^verdict\s+abstain \(low_coverage\)/m);
    expect(result.stdout).toContain('missing: "tortoise"');
  });

  it('lets a supported answer stand, with exit status 0, and prints the layers as JSON', async () => {
    const result = await qualm([
      'abstain',
      '--question',
      'What did I call my cat?',
      '--answer',
      'Luna.',
      '--evidence',
      join(folder, 'notes.jsonl'),
      '--no-nli',
      '--format',
      'json',
    ]);
    expect(result.code).toBe(0);
    const output = JSON.parse(result.stdout);
    expect(output).toMatchObject({ shouldAbstain: false, reason: null });
    expect(output.layers.retrieval.hits).toBe(1);
    expect(output.layers.retrieval.coverage.terms[0]).toMatchObject({
      covered: true,
      matchedAs: 'cat',
    });
    expect(output.layers.grounding).toMatchObject({ enabled: false });
    expect(output.layers.hedging).toMatchObject({ enabled: true, nonAnswer: false });
  });

  it('takes inline passages and a threshold', async () => {
    const args = [
      'abstain',
      '--question',
      'What did I name my tortoise?',
      '--answer',
      'Biscuit.',
      '--context',
      'My cat is Luna.',
      '--no-nli',
    ];
    expect((await qualm(args)).code).toBe(1);
    expect((await qualm([...args, '--abstention-threshold', '1'])).code).toBe(0);
  });

  it('gives one clear line and exit status 2 for bad input', async () => {
    const missing = await qualm([
      'abstain',
      '--question',
      'Where?',
      '--evidence',
      join(folder, 'nope.txt'),
      '--no-nli',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`qualm: file not found: ${join(folder, 'nope.txt')}\n`);
    const broken = await qualm([
      'abstain',
      '--question',
      'Where?',
      '--evidence',
      join(folder, 'broken.jsonl'),
      '--no-nli',
    ]);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/^qualm: .*broken\.jsonl:2 is not valid JSON/);
    const threshold = await qualm([
      'abstain',
      '--question',
      'Where?',
      '--abstention-threshold',
      'high',
      '--no-nli',
    ]);
    expect(threshold.code).toBe(2);
    expect(threshold.stderr).toContain(
      '--abstention-threshold must be a number from 0 to 1, got "high"',
    );
  });

  it('reads a long question, answer or evidence from a file or stdin, as it reads them inline', async () => {
    const question = 'What did I call my cat?';
    // 200 KB: more than a shell passes as one argument
    const answer = `Luna. ${'She is a grey cat called Luna, adopted last spring. '.repeat(4000)}`;
    await writeFile(join(folder, 'question.txt'), `${question}\n`);
    await writeFile(join(folder, 'answer.txt'), `${answer}\n`);
    const flags = ['--no-nli', '--format', 'json'];
    const notes = join(folder, 'notes.txt');
    // each run loads the detector for seconds: they run side by side
    const [inline, fromFiles, answerFromStdin, questionFromStdin, evidenceFromStdin] =
      await Promise.all([
        qualm([
          'abstain',
          '--question',
          question,
          '--answer',
          'Luna.',
          '--evidence',
          notes,
          ...flags,
        ]),
        qualm([
          'abstain',
          '--question-file',
          join(folder, 'question.txt'),
          '--answer-file',
          join(folder, 'answer.txt'),
          '--evidence',
          notes,
          ...flags,
        ]),
        qualm(
          ['abstain', '--question', question, '--answer-file', '-', '--evidence', notes, ...flags],
          {},
          { input: 'Luna.\n' },
        ),
        qualm(
          ['abstain', '--question-file', '-', '--answer', 'Luna.', '--evidence', notes, ...flags],
          {},
          { input: `${question}\n` },
        ),
        qualm(
          ['abstain', '--question', question, '--answer', 'Luna.', '--evidence', '-', ...flags],
          {},
          { input: 'I adopted a cat named Luna last spring.\n\nWe drove to the coast in June.\n' },
        ),
      ]);
    expect(inline.code).toBe(0);
    expect(fromFiles).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(fromFiles.stdout).layers.retrieval).toEqual(
      JSON.parse(inline.stdout).layers.retrieval,
    );
    expect(answerFromStdin).toMatchObject({ code: 0, stdout: inline.stdout, stderr: '' });
    expect(questionFromStdin).toMatchObject({ code: 0, stdout: inline.stdout, stderr: '' });
    expect(evidenceFromStdin).toMatchObject({ code: 0, stdout: inline.stdout, stderr: '' });
  });

  it('refuses a missing, folder or binary text file, text given two ways, and stdin read twice, in one line', async () => {
    await writeFile(join(folder, 'binary.dat'), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 1, 2]));
    await writeFile(join(folder, 'empty.txt'), '\n');
    const cases: [string[], string][] = [
      [
        ['--question', 'Where?', '--answer-file', join(folder, 'nope.txt')],
        `qualm: file not found: ${join(folder, 'nope.txt')}\n`,
      ],
      [
        ['--question', 'Where?', '--answer-file', folder],
        `qualm: expected a file, got a directory: ${folder}\n`,
      ],
      [
        ['--question-file', join(folder, 'binary.dat'), '--answer', 'Here.'],
        `qualm: ${join(folder, 'binary.dat')} is binary data, not text (it holds NUL or control bytes)\n`,
      ],
      [
        ['--question-file', join(folder, 'empty.txt'), '--answer', 'Here.'],
        `qualm: --question-file ${join(folder, 'empty.txt')} is empty: give the question asked\n`,
      ],
      [
        ['--question', 'Where?', '--answer', 'Here.', '--answer-file', join(folder, 'notes.txt')],
        'qualm: --answer and --answer-file: give the answer one way\n',
      ],
      [
        ['--question', 'Where?', '--answer', '-'],
        'qualm: --answer - would be the text "-": to read the answer from stdin, give --answer-file -\n',
      ],
      [
        ['--question', 'Where?', '--context', '-'],
        'qualm: --context - would be the passage "-": to read evidence from stdin, give --evidence -\n',
      ],
      [['--answer', 'Here.'], 'qualm: no question: give --question TEXT or --question-file FILE\n'],
      [
        ['--question-file', '-', '--answer-file', '-'],
        'qualm: --question-file - and --answer-file - both read stdin, which can be read once: give all but one a file\n',
      ],
    ];
    for (const [flags, line] of cases) {
      const result = await qualm(['abstain', ...flags, '--no-nli']);
      expect(result).toMatchObject({ code: 2, stdout: '', stderr: line });
    }
  });

  it('documents its exit statuses and its files in --help', async () => {
    const result = await qualm(['abstain', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /--question-file <file>\s+a text file holding the question; - for stdin/,
    );
    expect(result.stdout).toMatch(
      /--answer-file <file>\s+a text file holding the answer; - for stdin/,
    );
    expect(result.stdout).toContain(
      'qualm abstain --question-file question.txt --answer-file answer.txt',
    );
    expect(result.stdout.replaceAll(/\s+/g, ' ')).toContain(
      'Exit status: 0 when the answer can stand, 1 when the detector says to abstain, 2 on bad input or when the NLI model cannot be loaded.',
    );
  });

  it('says how to provide the NLI model when it cannot be loaded, with exit status 2, not the 1 of "abstain"', async () => {
    const result = await qualm([
      'abstain',
      '--question',
      'Where?',
      '--answer',
      'Porto.',
      '--context',
      'We moved to Porto.',
      '--models-dir',
      join(folder, 'no-models'),
    ]);
    expect(result.code).toBe(2);
    const folderSearched = join(folder, 'no-models', 'Xenova', 'nli-deberta-v3-xsmall');
    expect(result.stderr).toBe(
      `qualm: NLI model "Xenova/nli-deberta-v3-xsmall" not found: searched ${folderSearched}; put its files (config.json, tokenizer.json, tokenizer_config.json, onnx/model.onnx) in DIR/Xenova/nli-deberta-v3-xsmall/ and give --models-dir DIR (or set QUALM_MODELS_DIR=DIR), or pass --no-nli to skip layer 2\n`,
    );
  });

  it('names the folder it searched when neither --models-dir nor QUALM_MODELS_DIR is set, and no option of the library', async () => {
    const result = await qualm(
      ['abstain', '--question', 'Where?', '--answer', 'Porto.', '--context', 'We moved to Porto.'],
      // no network here: the download fails at once
      {
        QUALM_MODELS_DIR: undefined,
        HTTPS_PROXY: 'http://127.0.0.1:9',
        https_proxy: 'http://127.0.0.1:9',
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^qualm: NLI model "Xenova\/nli-deberta-v3-xsmall" not found: searched \/\S+\/Xenova\/nli-deberta-v3-xsmall \(the default: neither --models-dir nor \$QUALM_MODELS_DIR is set\), and it could not be downloaded \(.+\); put its files .* give --models-dir DIR .*, or pass --no-nli to skip layer 2\n$/,
    );
    expect(result.stderr).not.toContain('allowRemoteModels');
    expect(result.stderr).not.toContain('$QUALM_MODELS_DIR/');
  });
});
