import { describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

describe('qualm program', () => {
  it('prints usage with --help and exits 0', async () => {
    const result = await qualm(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: qualm');
  });

  it('rejects an unknown verb with a non-zero exit and a hint', async () => {
    const result = await qualm(['no-such-verb']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/unknown command|too many arguments/);
  });

  it('lists every verb in its help, and names the verb a misspelt one was meant to be', async () => {
    const help = await qualm(['--no-progress', '--help']);
    for (const verb of ['validate', 'train', 'abstain', 'judge', 'bench']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${verb} `, 'm'));
    }
    const misspelt = await qualm(['--no-progress', 'judgde', '--input', 'items.jsonl']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toBe(
      "qualm: unknown command 'judgde' (did you mean judge?) (see qualm --help)\n",
    );
  });
});

describe('an option that needs a value', () => {
  it('refuses a flag in place of its value, naming both, in every verb', async () => {
    for (const [args, option, flag, verb] of [
      [
        ['validate', '--jsonl', '--id-field', '--summary', 'r.jsonl'],
        '--id-field',
        '--summary',
        'validate',
      ],
      [
        ['validate', '--jsonl', '--field', '--id-field', 'id', 'r.jsonl'],
        '--field',
        '--id-field',
        'validate',
      ],
      [['judge', '--input', '--template', 'schema.json'], '--input', '--template', 'judge'],
      [
        ['bench', 'longmemeval', 'metrics', '--data', '--run', 'run.jsonl'],
        '--data',
        '--run',
        'bench longmemeval metrics',
      ],
    ] as const) {
      const result = await qualm(args);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `qualm: option ${option} needs a value, got the flag ${flag}; a value that starts with -- is written ${option}=VALUE (see qualm ${verb} --help)\n`,
      );
    }
  });

  it('still takes a value that starts with one dash, and one given with = that starts with two', async () => {
    const stdin = await qualm(
      ['validate', '--min-length', '-1', '-'],
      {},
      { input: 'Canberra is the capital.' },
    );
    expect(stdin.stderr).toBe('qualm: --min-length must be an integer of at least 0, got "-1"\n');
    const equals = await qualm(
      ['validate', '-', '--jsonl', '--id-field=--id', '--format', 'jsonl'],
      {},
      { input: '{"--id": "a", "response": "Canberra is the capital of Australia."}\n' },
    );
    expect(equals.code, equals.stderr).toBe(0);
    expect(JSON.parse(equals.stdout).id).toBe('a');
  });
});

describe('qualm bench --help', () => {
  it('shows examples, as every verb does', async () => {
    for (const args of [
      ['bench', '--help'],
      ['bench', 'longmemeval', '--help'],
    ]) {
      const result = await qualm(args);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain('\nExamples:\n  qualm bench longmemeval retrieve --data ');
      expect(result.stdout).toContain('  qualm bench longmemeval evaluate --data ');
    }
  });
});

describe('what --help says a run does', () => {
  const help = async (args: string[]) =>
    (await qualm([...args, '--help'])).stdout.replace(/\s+/g, ' ');

  it('says Ctrl-C cancels the calls under way, as the runs do', async () => {
    for (const verb of [
      ['judge'],
      ['bench', 'longmemeval', 'generate'],
      ['bench', 'longmemeval', 'evaluate'],
    ]) {
      const text = await help(verb);
      expect(text).toContain('Ctrl-C cancels the calls under way');
      expect(text).not.toContain('stops after the calls under way');
    }
  });

  it('says an endpoint with nothing listening exits 2, as the runs do', async () => {
    const judge = await help(['judge']);
    expect(judge).toContain(
      'nothing listening there, an unknown host or a rejected key stops the run at once with exit 2',
    );
    expect(judge).not.toMatch(/endpoint failed on \(unreachable/);
    for (const verb of ['generate', 'evaluate']) {
      const text = await help(['bench', 'longmemeval', verb]);
      expect(text).toContain(
        'Nothing listening at the endpoint, an unknown host or a rejected key',
      );
      expect(text).not.toMatch(/endpoint failed on \(unreachable/);
    }
  });
});
