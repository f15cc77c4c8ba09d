import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ChatServer, type ChatServerRequestBody, startChatServer } from '@qualm/testkit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  executableBytes,
  judgedLines,
  lockerQuestions,
  qualmInterrupted,
  readLines,
  writeLines,
  writeLockerData,
} from './fixtures.js';
import { endpointEnvironment, qualmWithEnvironment } from './qualm-process.js';

// what a new user met on a fresh clone: each case runs the built binary as a child process

const root = fileURLToPath(new URL('../../../', import.meta.url));
const template = join(root, 'examples/judge/template.schema.json');
const rubric = join(root, 'examples/judge/rubric.json');
const environment = endpointEnvironment('sk-first-use-0123456789');
const qualm = qualmWithEnvironment(environment);

let folder: string;
let server: ChatServer | undefined;
let caseNumber = 0;

beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'qualm-first-use-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

// a fresh folder per case, so no case sees another's files
function caseFolder(): string {
  caseNumber += 1;
  const path = join(folder, `case-${caseNumber}`);
  mkdirSync(path);
  return path;
}

const verdictSchema = (body: ChatServerRequestBody) =>
  (body as { response_format?: { json_schema?: { name?: string } } }).response_format?.json_schema
    ?.name;

// items with their responses, as examples/judge/input.jsonl has them
function writeItems(directory: string, count: number): string {
  return writeLines(
    join(directory, 'items.jsonl'),
    Array.from({ length: count }, (_, index) => ({
      id: `item${index}`,
      question: `What is the capital of country ${index}, and how many people live there?`,
      response: `The capital is City ${index}, with ${index + 1} million people.`,
    })),
  );
}

const parsed = { city: 'City', population_millions: 1 };

// the locker questions with their evidence session named as LongMemEval names it (answer_…), so
// retrieval can score them
function scorableQuestions(count: number) {
  const rename = (id: string) => (id.startsWith('gym_') ? `answer_${id}` : id);
  return lockerQuestions(count).map((question) => ({
    ...question,
    haystack_session_ids: question.haystack_session_ids.map(rename),
    answer_session_ids: question.answer_session_ids.map(rename),
  }));
}

function writeScorableData(directory: string, count: number, name = 'scorable.json'): string {
  const path = join(directory, name);
  writeFileSync(path, JSON.stringify(scorableQuestions(count)));
  return path;
}

describe('retrieve --log', () => {
  it('refuses a --log that is a folder before any work, in one line', async () => {
    const directory = caseFolder();
    const data = writeLockerData(directory, 3);
    const result = await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      data,
      '--level',
      'turn',
      '--log',
      directory,
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`qualm: --log ${directory} is a folder; give a file\n`);
    expect(existsSync(`${directory}.partial`)).toBe(false);
  });

  it('on Ctrl-C removes the unfinished log and says a rerun starts over', async () => {
    const directory = caseFolder();
    const data = join(directory, 'many.json');
    writeFileSync(data, JSON.stringify(lockerQuestions(4000)));
    const log = join(directory, 'turns.jsonl');
    const partial = `${log}.partial`;
    const result = await qualmInterrupted(
      ['bench', 'longmemeval', 'retrieve', '--data', data, '--level', 'turn', '--log', log],
      environment,
      () => existsSync(partial) && statSync(partial).size > 0,
    );
    expect(result.code).toBe(130);
    expect(existsSync(partial)).toBe(false);
    expect(existsSync(log)).toBe(false);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /qualm: interrupted after \d+ scored question\(s\): no metrics were printed; .*turns\.jsonl\.partial was removed\. A retrieval run does not resume: run the same command again to start over\n$/,
    );
  });
});

describe('nothing to do is exit status 2 with one line', () => {
  it('retrieve on a file without questions, or with abstention questions only', async () => {
    const directory = caseFolder();
    const empty = join(directory, 'empty.json');
    writeFileSync(empty, '[]');
    const none = await qualm(['bench', 'longmemeval', 'retrieve', '--data', empty]);
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toBe(`qualm: ${empty} holds no questions\n`);
    const abstention = join(directory, 'abstention.json');
    writeFileSync(
      abstention,
      JSON.stringify(
        lockerQuestions(2).map((question) => ({
          ...question,
          question_id: `${question.question_id}_abs`,
        })),
      ),
    );
    const unscored = await qualm(['bench', 'longmemeval', 'retrieve', '--data', abstention]);
    expect(unscored.code).toBe(2);
    expect(unscored.stderr).toBe(
      `qualm: none of the 2 questions of ${abstention} can be scored: 2 are abstention questions and 0 have no evidence in a user turn\n`,
    );
  });

  it('abstain with an empty question, with nothing to check, or with empty evidence', async () => {
    const directory = caseFolder();
    const emptyEvidence = join(directory, 'empty.txt');
    writeFileSync(emptyEvidence, '\n\n');
    const cases: [string[], string][] = [
      [['--question', ''], 'qualm: --question is empty: give the question asked\n'],
      [
        ['--question', 'Where did I park?'],
        'qualm: nothing to check: give --answer, evidence (--evidence or --context), or both\n',
      ],
      [
        ['--question', 'Where did I park?', '--evidence', emptyEvidence],
        `qualm: ${emptyEvidence} holds no passages: the evidence is empty\n`,
      ],
    ];
    for (const [flags, line] of cases) {
      const result = await qualm(['abstain', ...flags, '--no-nli']);
      expect(result).toMatchObject({ code: 2, stdout: '', stderr: line });
    }
  });

  it('validate of an empty file or empty stdin, as of an empty --jsonl file; blanks are an empty response', async () => {
    const directory = caseFolder();
    const empty = join(directory, 'empty.txt');
    writeFileSync(empty, '');
    const file = await qualm(['validate', empty]);
    expect(file).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `qualm: ${empty} is empty: no response to score\n`,
    });
    const stdin = await qualm(['validate']);
    expect(stdin).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        'qualm: stdin is empty: no response to score (give a file, or pipe the response in)\n',
    });
    const jsonl = await qualm(['validate', empty, '--jsonl']);
    expect(jsonl.code).toBe(2);
    const blanks = join(directory, 'blanks.txt');
    writeFileSync(blanks, '  \n');
    const scored = await qualm(['validate', blanks, '--format', 'jsonl']);
    expect(scored.code).toBe(0);
    expect(JSON.parse(scored.stdout).signals[0].type).toBe('empty_response');
  });
});

describe('judge: a run whose items ended in errors', () => {
  it('rubric_only with replies that never fit: exit 1, says so on stderr, and a rerun judges them again', async () => {
    const directory = caseFolder();
    const items = writeItems(directory, 5);
    const out = join(directory, 'judged.jsonl');
    server = await startChatServer({ handler: () => ({ json: { verdict: 'unsure' } }) });
    const run = () =>
      qualm([
        'judge',
        '--input',
        items,
        '--mode',
        'rubric_only',
        '--rubric',
        rubric,
        '--base-url',
        server!.baseURL,
        '--retry-delay',
        '1',
        '--out',
        out,
      ]);
    const first = await run();
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /^qualm: 5 item\(s\) ended in errors \(first item\d: INVALID_RESPONSE: rubric_evaluation: the reply from gpt-4o-mini did not match the schema after 3 attempts: .*\); their results were written with the error to .*judged\.jsonl; rerunning the same command judges them again\n$/,
    );
    expect(readLines(out)).toHaveLength(5);

    server.setHandler(() => ({
      json: { reasoning: 'plain', scores: { direct: true, clarity: 4 } },
    }));
    const second = await run();
    expect(second.stderr).toBe('');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('5 result(s) appended to');
    expect(second.stdout).toContain(', 0 already there');
    const lines = readLines(out);
    expect(lines).toHaveLength(5);
    expect(lines.every((line) => line.rubricError === null)).toBe(true);
  });

  it('fail-safe checks that all errored are not a success either', async () => {
    const directory = caseFolder();
    const items = writeItems(directory, 5);
    server = await startChatServer({
      handler: (body) =>
        verdictSchema(body)?.endsWith('_verdict') ? { json: { maybe: 1 } } : { json: parsed },
    });
    const result = await qualm([
      'judge',
      '--input',
      items,
      '--template',
      template,
      '--abstention',
      '--sufficiency',
      '--base-url',
      server.baseURL,
      '--retry-delay',
      '1',
      '--format',
      'json',
    ]);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).summary.checkErrors).toBe(10);
    expect(result.stderr).toMatch(
      /^qualm: 5 item\(s\) ended in errors \(first item\d: INVALID_RESPONSE: abstention_check: .*\); rerun to judge them again\n$/,
    );
  });
});

describe('an endpoint whose GET /models fails', () => {
  const page = `<!DOCTYPE html>\n<html><head><title>501 Not Implemented</title></head>\n<body>${'<p>The requested method is not implemented.</p>\n'.repeat(100)}</body></html>`;

  it('does not block judge or generate: the chat completions decide', async () => {
    const directory = caseFolder();
    server = await startChatServer({
      modelsReply: { fault: 'raw', status: 501, body: page },
      handler: (body) => (verdictSchema(body) ? { json: parsed } : { content: 'Code 1000.' }),
    });
    const judged = await qualm([
      'judge',
      '--input',
      writeItems(directory, 2),
      '--template',
      template,
      '--base-url',
      server.baseURL,
    ]);
    expect(judged.stderr).toBe('');
    expect(judged.code).toBe(0);
    const generated = await qualm([
      'bench',
      'longmemeval',
      'generate',
      '--data',
      writeLockerData(directory, 2),
      '--reader-model',
      'gpt-4o',
      '--base-url',
      server.baseURL,
      '--out',
      join(directory, 'hypotheses.jsonl'),
    ]);
    expect(generated.stderr).toBe('');
    expect(generated.code).toBe(0);
  });
});

describe('generate --retrieval-log with data it was not made from', () => {
  it('is refused before any request, naming both files', async () => {
    const directory = caseFolder();
    const haystacks = writeScorableData(directory, 3, 'haystacks.json');
    const log = join(directory, 'sessions.jsonl');
    const logged = await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      haystacks,
      '--log',
      log,
    ]);
    expect(logged.code).toBe(0);
    // the same questions with their evidence sessions alone, as the oracle file holds them
    const oracle = join(directory, 'oracle.json');
    writeFileSync(
      oracle,
      JSON.stringify(
        scorableQuestions(3).map((question) => ({
          ...question,
          haystack_dates: question.haystack_dates.slice(0, 1),
          haystack_session_ids: question.haystack_session_ids.slice(0, 1),
          haystack_sessions: question.haystack_sessions.slice(0, 1),
        })),
      ),
    );
    server = await startChatServer();
    const result = await qualm([
      'bench',
      'longmemeval',
      'generate',
      '--retrieval-log',
      log,
      '--data',
      oracle,
      '--history',
      'retrieval',
      '--reader-model',
      'gpt-4o',
      '--base-url',
      server.baseURL,
      '--out',
      join(directory, 'hypotheses.jsonl'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      new RegExp(
        `^qualm: ${log.replaceAll('/', '\\/')} and ${oracle.replaceAll('/', '\\/')} do not fit: the log ranks sessions that are not in the data's haystacks for 3 of 3 questions \\(first locker\\d: "weather_\\d"\\); give --data the file the log was made from\\n$`,
      ),
    );
    expect(server.requests).toHaveLength(0);
  });
});

describe('flags that would do nothing are refused, naming both flags', () => {
  it('judge, generate and validate', async () => {
    const directory = caseFolder();
    const items = writeItems(directory, 1);
    const data = writeLockerData(directory, 1);
    const out = join(directory, 'out.jsonl');
    const judge = ['judge', '--input', items];
    const generate = [
      'bench',
      'longmemeval',
      'generate',
      '--data',
      data,
      '--reader-model',
      'gpt-4o',
      '--out',
      out,
    ];
    const cases: [string[], string][] = [
      [
        [...judge, '--template', template, '--instructions-abstention', 'Be strict.'],
        '--instructions-abstention has no effect without --abstention',
      ],
      [
        [...judge, '--template', template, '--instructions-sufficiency', 'Be strict.'],
        '--instructions-sufficiency has no effect without --sufficiency',
      ],
      [
        [...judge, '--template', template, '--rubric', rubric],
        '--rubric has no effect with --mode template_only (the default)',
      ],
      [
        [...judge, '--mode', 'rubric_only', '--rubric', rubric, '--template', template],
        '--template has no effect with --mode rubric_only',
      ],
      [
        [...generate, '--history', 'none', '--user-only'],
        '--user-only has no effect with --history none',
      ],
      [
        [...generate, '--history', 'none', '--context-limit', '8000'],
        '--context-limit has no effect with --history none',
      ],
      [
        [...generate, '--history', 'none', '--tokenizer', 'o200k_base'],
        '--tokenizer has no effect with --history none',
      ],
      [
        [...generate, '--history', 'oracle', '--clean-turns'],
        '--clean-turns has no effect at --level session',
      ],
    ];
    for (const [args, message] of cases) {
      const result = await qualm(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(`^qualm: ${message.replace(/[()]/g, '\\$&')}.*\\n$`),
      );
      expect(existsSync(out)).toBe(false);
    }
  });

  it('judge --answering-model when every item has a response, and validate --id-field no line has, get a note', async () => {
    const directory = caseFolder();
    server = await startChatServer({ handler: () => ({ json: parsed }) });
    const judged = await qualm([
      'judge',
      '--input',
      writeItems(directory, 1),
      '--template',
      template,
      '--answering-model',
      'gpt-4o',
      '--base-url',
      server.baseURL,
    ]);
    expect(judged.code).toBe(0);
    expect(judged.stderr).toMatch(
      /^qualm: note: --answering-model is not used: every item of .* has a response\n$/,
    );
    const responses = writeLines(join(directory, 'responses.jsonl'), [{ response: 'Fine.' }]);
    const validated = await qualm(['validate', responses, '--jsonl', '--id-field', 'ID']);
    expect(validated.code).toBe(0);
    expect(validated.stderr).toBe(
      'qualm: no line has the field "ID" given with --id-field, so no result has an id (each carries its line number)\n',
    );
  });
});

describe('messages a new user can act on', () => {
  it('name a missing id, an empty QUALM_JUDGE_MODEL and a bound in words', async () => {
    const directory = caseFolder();
    const noId = writeLines(join(directory, 'no-id.jsonl'), [{ question: 'Capital of Peru?' }]);
    const missing = await qualm(['judge', '--input', noId, '--template', template]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(
      `qualm: ${noId}:1 has no "id" (each line needs "id" and "question")\n`,
    );
    const emptyModel = await qualm(
      ['judge', '--input', writeItems(directory, 1), '--template', template],
      { QUALM_JUDGE_MODEL: '' },
    );
    expect(emptyModel).toMatchObject({
      code: 2,
      stderr:
        'qualm: QUALM_JUDGE_MODEL is set but empty: set it to a model name, unset it, or give --judge-model\n',
    });
    const bound = await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      'x.json',
      '--retriever',
      'hybrid',
      '--hybrid-weight',
      '2',
    ]);
    expect(bound.stderr).toBe('qualm: --hybrid-weight must be a number from 0 to 1, got "2"\n');
  });

  it("print commander's usage errors on one qualm: line with the --help hint, exit status 2", async () => {
    const required = await qualm(['judge']);
    expect(required).toMatchObject({
      code: 2,
      stdout: '',
      stderr: "qualm: required option '--input <file>' not specified (see qualm judge --help)\n",
    });
    const choice = await qualm(['validate', 'x.txt', '--format', 'xml']);
    expect(choice).toMatchObject({
      code: 2,
      stderr:
        "qualm: option '--format <format>' argument 'xml' is invalid. Allowed choices are table, json, jsonl. (see qualm validate --help)\n",
    });
  });

  it('name the folder searched for an embedding model and the flag that does without it', async () => {
    const directory = caseFolder();
    const result = await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      writeLockerData(directory, 1),
      '--retriever',
      'dense',
      '--models-dir',
      join(directory, 'models'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^qualm: embedding model "\S+" not found: searched \S+\/models\/\S+; put its files \(config\.json, .*\) in DIR\/\S+\/ and give --models-dir DIR \(or set QUALM_MODELS_DIR=DIR\), or pass --retriever fulltext, which needs no model\n$/,
    );
  });

  it('say a binary retrieval log is binary data, and an empty judged run holds no answers', async () => {
    const directory = caseFolder();
    const binary = join(directory, 'log.bin');
    writeFileSync(binary, executableBytes());
    const generated = await qualm([
      'bench',
      'longmemeval',
      'generate',
      '--retrieval-log',
      binary,
      '--history',
      'retrieval',
      '--reader-model',
      'gpt-4o',
      '--out',
      join(directory, 'out.jsonl'),
    ]);
    expect(generated).toMatchObject({
      code: 2,
      stderr: `qualm: ${binary} is binary data, not JSON text (it holds NUL or control bytes)\n`,
    });
    const empty = join(directory, 'empty.jsonl');
    writeFileSync(empty, '');
    const reported = await qualm([
      'bench',
      'longmemeval',
      'report',
      '--data',
      writeLockerData(directory, 2),
      '--run',
      empty,
      '--out',
      join(directory, 'report'),
    ]);
    expect(reported.code).toBe(2);
    expect(reported.stderr).toMatch(new RegExp(`^qualm: ${empty} holds no judged answers`));
  });
});

describe('retrieve --level', () => {
  it('defaults to session, as the harness does, and says so in --help', async () => {
    const directory = caseFolder();
    const result = await qualm([
      'bench',
      'longmemeval',
      'retrieve',
      '--data',
      writeScorableData(directory, 2),
      '--format',
      'json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ level: 'session', n: 2 });
    const help = await qualm(['bench', 'longmemeval', 'retrieve', '--help']);
    expect(help.stdout.replaceAll(/\s+/g, ' ')).toContain(
      '--level <level> index sessions or user turns (one of: session, turn; default: session)',
    );
  });
});

describe('evaluate --format official', () => {
  it('prints on stdout exactly what print_qa_metrics.py prints; the rest goes to stderr', async () => {
    const directory = caseFolder();
    const data = writeLockerData(directory, 2);
    const run = join(directory, 'hypotheses.jsonl');
    writeFileSync(run, judgedLines(2));
    server = await startChatServer({ handler: () => ({ content: 'yes' }) });
    const result = await qualm([
      'bench',
      'longmemeval',
      'evaluate',
      '--data',
      data,
      '--run',
      run,
      '--base-url',
      server.baseURL,
      '--format',
      'official',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        '',
        'Evaluation results by task:',
        '\tsingle-session-user: 1.0 (2)',
        '\tsingle-session-preference: nan (0)',
        '\tsingle-session-assistant: nan (0)',
        '\tmulti-session: nan (0)',
        '\ttemporal-reasoning: nan (0)',
        '\tknowledge-update: nan (0)',
        '',
        'Task-averaged Accuracy: nan',
        'Overall Accuracy: 1.0',
        'Abstention Accuracy: nan (0)',
        '',
      ].join('\n'),
    );
    expect(result.stderr).toContain('False-abstention Rate: 0.0 (0/2)');
    expect(result.stderr).toContain('judged now');
  });
});

describe('pnpm -s qualm', () => {
  // starts a command line in a process group of its own, as a terminal starts a job
  function job(command: string): {
    child: ChildProcess;
    done: Promise<{ code: number | null; signal: string | null; stderr: string }>;
  } {
    const child = spawn('sh', ['-c', `exec ${command}`], {
      cwd: root,
      detached: true,
      env: { ...process.env, ...environment },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const done = new Promise<{ code: number | null; signal: string | null; stderr: string }>(
      (resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })),
    );
    return { child, done };
  }

  const untilRequest = async (chat: ChatServer) => {
    for (let waited = 0; waited < 60_000 && chat.chatRequests().length === 0; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  it('Ctrl-C (SIGINT to the whole job) stops the run gracefully and exits 130, never 143', async () => {
    const directory = caseFolder();
    server = await startChatServer({ handler: () => ({ json: parsed, delayMs: 20_000 }) });
    const out = join(directory, 'judged.jsonl');
    for (const target of ['job', 'pnpm twice'] as const) {
      server.clearRequests();
      const { child, done } = job(
        `pnpm -s qualm judge --input ${writeItems(directory, 3)} --template ${template} --base-url ${server.baseURL} --concurrency 1 --out ${out} --no-progress`,
      );
      await untilRequest(server);
      if (target === 'job') process.kill(-child.pid!, 'SIGINT');
      else {
        // pnpm turns a second SIGINT into SIGTERM for the script: still one interrupted run
        child.kill('SIGINT');
        setTimeout(() => child.kill('SIGINT'), 30);
      }
      const ended = await done;
      expect(ended.code === 130 || ended.signal === 'SIGINT', JSON.stringify(ended)).toBe(true);
      expect(ended.stderr).toContain('qualm: interrupted: 0 of 3 result(s) appended to');
    }
  }, 90_000);
});
