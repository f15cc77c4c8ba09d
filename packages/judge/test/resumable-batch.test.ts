import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ChatServer, startChatServer } from '@qualm/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ErrorKind,
  failureAction,
  JudgeError,
  JudgeErrorCode,
  mapConcurrently,
  openResumableOutput,
  QualmError,
  readVerificationItems,
  runBatch,
  runVerificationBatch,
  VerificationConfig,
} from '../src/index.js';
import { callKind, capitalTemplate, lastUserText, testClient } from './helpers.js';

let server: ChatServer | undefined;
let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-judge-batch-'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  rmSync(directory, { recursive: true, force: true });
});

const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds));

function linesOf(path: string): Record<string, unknown>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

// a question per planet; the work asks the endpoint to name its largest moon
const planets = ['mars', 'jupiter', 'saturn', 'uranus', 'neptune', 'pluto'];

describe('the failure policy', () => {
  it('leaves transient, per-item and input failures out, and stops on set-up, abort and bugs', () => {
    const error = (code: JudgeErrorCode) => new JudgeError(code, code);
    expect(failureAction(error(JudgeErrorCode.ENDPOINT_UNAVAILABLE))).toBe('leave-out');
    expect(failureAction(error(JudgeErrorCode.MALFORMED_REPLY))).toBe('leave-out');
    expect(failureAction(error(JudgeErrorCode.RATE_LIMITED))).toBe('leave-out');
    expect(failureAction(error(JudgeErrorCode.INVALID_RESPONSE))).toBe('leave-out');
    expect(failureAction(error(JudgeErrorCode.INVALID_INPUT))).toBe('leave-out');
    expect(failureAction(error(JudgeErrorCode.AUTHENTICATION_FAILED))).toBe('stop');
    expect(failureAction(error(JudgeErrorCode.INVALID_ENDPOINT))).toBe('stop');
    expect(failureAction(error(JudgeErrorCode.ENDPOINT_NOT_FOUND))).toBe('stop');
    expect(failureAction(error(JudgeErrorCode.ABORTED))).toBe('stop');
    expect(failureAction(new TypeError('x is undefined'))).toBe('stop');
    // a qualm error of another package is judged by its kind alone
    expect(
      failureAction(new QualmError({ code: 'OTHER', kind: ErrorKind.UNAVAILABLE, message: 'x' })),
    ).toBe('leave-out');
  });
});

describe('runBatch', () => {
  it('appends what succeeds, leaves out what the endpoint failed on, and a rerun does the rest', async () => {
    server = await startChatServer({
      handler: (body) =>
        /saturn|pluto/.test(lastUserText(body))
          ? { fault: 'server_error', status: 502 }
          : { content: 'a moon' },
    });
    const client = testClient(server.baseURL);
    const path = join(directory, 'moons.jsonl');
    const work = async (planet: string, signal: AbortSignal) => {
      const reply = await client.complete(
        [{ role: 'user', content: `Largest moon of ${planet}?` }],
        { signal },
      );
      return { record: { planet, moon: reply.text }, usage: reply.usage };
    };
    const first = await runBatch({
      items: planets,
      total: planets.length,
      key: (planet) => planet,
      output: openResumableOutput(path, { keyField: 'planet' }),
      work,
    });
    expect(first.written).toBe(4);
    expect(first.failures.map((failure) => failure.id).sort()).toEqual(['pluto', 'saturn']);
    expect(first.failures[0]).toMatchObject({ code: 'ENDPOINT_UNAVAILABLE', kind: 'unavailable' });
    expect(first.usage.requests).toBe(4 + 2 * 3);
    expect(linesOf(path).map((line) => line.planet)).not.toContain('saturn');

    server.setHandler(() => ({ content: 'a moon' }));
    const output = openResumableOutput(path, { keyField: 'planet' });
    const rest = planets.filter((planet) => !output.doneIds.has(planet));
    expect(rest.sort()).toEqual(['pluto', 'saturn']);
    const second = await runBatch({ items: rest, total: 2, key: (planet) => planet, output, work });
    expect(second.written).toBe(2);
    expect(linesOf(path)).toHaveLength(6);
  });

  it('resumes an output that starts with a byte-order mark, keeping the mark when it drops a cut line', () => {
    const path = join(directory, 'marked.jsonl');
    const whole = `\uFEFF${JSON.stringify({ planet: 'mars', moon: 'Phobos' })}\n`;
    writeFileSync(path, `${whole}{"planet": "jupi`);
    const output = openResumableOutput(path, { keyField: 'planet' });
    expect([...output.doneIds]).toEqual(['mars']);
    expect(readFileSync(path, 'utf8')).toBe(whole);
  });

  it('stops at a rejected key, aborting the calls under way, and throws it', async () => {
    server = await startChatServer({
      handler: async (body) => {
        if (lastUserText(body).includes('mars')) return { fault: 'status', status: 401 };
        await sleep(3_000);
        return { content: 'a moon' };
      },
    });
    const client = testClient(server.baseURL);
    const path = join(directory, 'moons.jsonl');
    const started = performance.now();
    const run = runBatch({
      items: planets,
      total: planets.length,
      key: (planet) => planet,
      output: openResumableOutput(path, { keyField: 'planet' }),
      concurrency: 2,
      work: async (planet, signal) => {
        const reply = await client.complete([{ role: 'user', content: planet }], { signal });
        return { record: { planet, moon: reply.text } };
      },
    });
    await expect(run).rejects.toMatchObject({ code: 'AUTHENTICATION_FAILED' });
    // the call under way was cut short, and no other planet was asked
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(server.chatRequests().length).toBeLessThanOrEqual(2);
    expect(readFileSync(path, { encoding: 'utf8', flag: 'a+' })).toBe('');
  });

  it('ends quietly when its signal aborts, with whole lines and interrupted set', async () => {
    const controller = new AbortController();
    const path = join(directory, 'slow.jsonl');
    let started = 0;
    const run = await runBatch({
      items: Array.from({ length: 50 }, (_, index) => `item-${index}`),
      total: 50,
      key: (item) => item,
      output: openResumableOutput(path, { keyField: 'id' }),
      concurrency: 3,
      signal: controller.signal,
      work: async (id, signal) => {
        started += 1;
        if (started === 8) controller.abort();
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 20);
          signal.addEventListener('abort', () => {
            clearTimeout(timer);
            reject(new JudgeError(JudgeErrorCode.ABORTED, 'aborted'));
          });
        });
        return { record: { id } };
      },
    });
    expect(run.interrupted).toBe(true);
    expect(run.failures).toEqual([]);
    expect(run.written).toBeLessThan(8);
    expect(linesOf(path)).toHaveLength(run.written);
    expect(started).toBeLessThanOrEqual(10);
  });

  it('throws a bug in the work instead of recording it', async () => {
    await expect(
      runBatch({
        items: ['a', 'b'],
        total: 2,
        key: (item) => item,
        work: async (item) => {
          if (item === 'b') throw new TypeError('cannot read properties of undefined');
          return { record: { id: item } };
        },
      }),
    ).rejects.toThrow(TypeError);
  });
});

describe('mapConcurrently', () => {
  it('keeps at most `concurrency` calls running and reads the source only as slots free up', async () => {
    let running = 0;
    let peak = 0;
    let pulled = 0;
    async function* source() {
      for (let index = 0; index < 40; index += 1) {
        pulled += 1;
        yield index;
      }
    }
    const seen: number[] = [];
    for await (const value of mapConcurrently(
      source(),
      async (index) => {
        running += 1;
        peak = Math.max(peak, running);
        await sleep(2 + (index % 3));
        running -= 1;
        return index;
      },
      { concurrency: 3 },
    )) {
      seen.push(value);
      // never more than the running calls and the one handed out ahead of what was seen
      expect(pulled - seen.length).toBeLessThanOrEqual(3);
    }
    expect(peak).toBe(3);
    expect(seen.sort((left, right) => left - right)).toEqual(
      Array.from({ length: 40 }, (_, index) => index),
    );
  });

  it('hands results out in input order when asked, and closes the source on an early break', async () => {
    let closed = false;
    async function* source() {
      try {
        for (let index = 0; index < 100; index += 1) yield index;
      } finally {
        closed = true;
      }
    }
    const seen: number[] = [];
    for await (const value of mapConcurrently(
      source(),
      async (index) => {
        await sleep((10 - (index % 10)) * 2);
        return index;
      },
      { concurrency: 5, ordered: true },
    )) {
      seen.push(value);
      if (seen.length === 12) break;
    }
    expect(seen).toEqual(Array.from({ length: 12 }, (_, index) => index));
    expect(closed).toBe(true);
  });

  it('refuses a concurrency that is not a positive integer', async () => {
    const run = async () => {
      for await (const _ of mapConcurrently([1], async (value) => value, { concurrency: 0 })) {
        // nothing
      }
    };
    await expect(run()).rejects.toMatchObject({ code: 'INVALID_CONFIG' });
  });
});

describe('readVerificationItems', () => {
  const write = (name: string, text: string | Buffer) => {
    const path = join(directory, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads items and names the line of each kind of bad one', async () => {
    const good = write(
      'good.jsonl',
      '{"id": 1, "question": "Capital of Peru?", "response": "Lima"}\n\n{"id": "b", "question": "Capital of Chile?"}\n',
    );
    expect((await readVerificationItems(good)).map((item) => item.id)).toEqual(['1', 'b']);
    const cases: [string, string][] = [
      [
        '{"id": "a", "question": "x"}\n{"id": "a", "question": "y"}\n',
        ':2 id "a" was already used on line 1',
      ],
      ['{"id": "a"}\n', ':1 has no "question"'],
      ['{"question": "x"}\n', ':1 has no "id" (each line needs "id" and "question")'],
      ['{"id": true, "question": "x"}\n', ':1 id: must be a non-empty string or a number'],
      ['{"id": "a", "question": ""}\n', ':1 question: must not be empty'],
      ['[1, 2]\n', ':1 is not a JSON object'],
      ['{"id": "a", "question": "x"\n', ':1 is not valid JSON'],
      ['\n\n', ' holds no items'],
    ];
    for (const [text, problem] of cases) {
      const path = write('bad.jsonl', text);
      await expect(readVerificationItems(path)).rejects.toThrow(`${path}${problem}`);
    }
  });

  it('refuses binary data and a missing file, as bad input', async () => {
    const binary = write('items.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 0, 0, 1, 2, 3]));
    await expect(readVerificationItems(binary)).rejects.toThrow(
      `${binary} is binary data, not JSON Lines text`,
    );
    const missing = join(directory, 'missing.jsonl');
    const error = await readVerificationItems(missing).catch((thrown: unknown) => thrown);
    expect(QualmError.isInstance(error) && error.kind).toBe('invalid_input');
  });
});

describe('runVerificationBatch', () => {
  const items = [
    { id: 'fr', question: 'Capital of France, population?', response: 'Paris, 2.1 million.' },
    { id: 'jp', question: 'Capital of Japan, population?', response: 'Tokyo, 14 million.' },
    { id: 'it', question: 'Capital of Italy, population?', response: 'Rome, 2.8 million.' },
  ];
  const parse = (text: string) =>
    text.includes('Tokyo')
      ? { city: 'Tokyo', population: 14 }
      : text.includes('Rome')
        ? { city: 'Rome', population: 2.8 }
        : { city: 'Paris', population: 2.1 };

  it('writes finished results only: an item whose check met a broken reply is left out for a rerun', async () => {
    server = await startChatServer({
      handler: (body) => {
        const kind = callKind(body);
        if (kind === 'abstention' && lastUserText(body).includes('Tokyo')) {
          return { fault: 'no_choices' };
        }
        if (kind === 'abstention') return { json: { reasoning: 'commits', abstained: false } };
        return { json: parse(lastUserText(body)) };
      },
    });
    const out = join(directory, 'judged.jsonl');
    const options = {
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      config: VerificationConfig.fromOverrides({ abstention: true }),
      out,
    };
    const first = await runVerificationBatch(options);
    expect(first.written).toBe(2);
    expect(first.failures).toEqual([
      expect.objectContaining({ id: 'jp', code: 'MALFORMED_REPLY', kind: 'unavailable' }),
    ]);
    expect(
      linesOf(out)
        .map((line) => line.id)
        .sort(),
    ).toEqual(['fr', 'it']);

    server.setHandler((body) =>
      callKind(body) === 'abstention'
        ? { json: { reasoning: 'commits', abstained: false } }
        : { json: parse(lastUserText(body)) },
    );
    const second = await runVerificationBatch(options);
    expect(second.alreadyDone).toBe(2);
    expect(second.written).toBe(1);
    expect(second.summary.total).toBe(3);
    expect(
      linesOf(out)
        .map((line) => line.id)
        .sort(),
    ).toEqual(['fr', 'it', 'jp']);
  });

  it('writes a result that ended in an error with it, does not count it as done, and a rerun replaces its line', async () => {
    // the parser never fits the schema for Tokyo; the abstention check errors for Rome (fail-safe);
    // re-asks included, since the whole conversation is read
    const badReplies = (body: Parameters<typeof callKind>[0]) => {
      const kind = callKind(body);
      const text = (body?.messages ?? []).map((message) => String(message.content)).join('\n');
      if (kind === 'abstention') {
        return text.includes('Rome')
          ? { content: 'no idea' }
          : { json: { reasoning: 'commits', abstained: false } };
      }
      return text.includes('Tokyo') ? { json: { town: 'Tokyo' } } : { json: parse(text) };
    };
    server = await startChatServer({ handler: badReplies });
    const out = join(directory, 'judged.jsonl');
    const options = {
      items,
      judge: testClient(server.baseURL, { structuredOutput: 'text' }),
      template: capitalTemplate,
      config: VerificationConfig.fromOverrides({ abstention: true }),
      out,
    };
    const first = await runVerificationBatch(options);
    expect(first.written).toBe(3);
    expect(first.failures).toEqual([]);
    expect(first.errored.map((entry) => entry.id).sort()).toEqual(['it', 'jp']);
    expect(first.errored.find((entry) => entry.id === 'jp')).toMatchObject({
      code: 'INVALID_RESPONSE',
      kind: 'failed',
    });
    expect(first.summary.errors).toBe(1);
    expect(first.summary.checkErrors).toBe(1);

    server.setHandler((body) =>
      callKind(body) === 'abstention'
        ? { json: { reasoning: 'commits', abstained: false } }
        : { json: parse(lastUserText(body)) },
    );
    const second = await runVerificationBatch(options);
    expect(second.alreadyDone).toBe(1);
    expect(second.written).toBe(2);
    expect(second.errored).toEqual([]);
    const lines = linesOf(out);
    // one line per id: the errored lines were replaced, not appended beside
    expect(lines.map((line) => line.id).sort()).toEqual(['fr', 'it', 'jp']);
    expect(lines.every((line) => line.error === null && line.abstentionError === null)).toBe(true);
    expect(second.summary).toMatchObject({ total: 3, errors: 0, checkErrors: 0 });

    const third = await runVerificationBatch(options);
    expect(third).toMatchObject({ alreadyDone: 3, written: 0 });
  });

  it('keeps the errored lines of ids this input does not hold', async () => {
    server = await startChatServer({ handler: () => ({ json: { town: 'nowhere' } }) });
    // every reply misses the schema, re-asks included
    const out = join(directory, 'judged.jsonl');
    const judge = testClient(server.baseURL, { structuredOutput: 'text' });
    await runVerificationBatch({ items, judge, template: capitalTemplate, out });
    expect(linesOf(out)).toHaveLength(3);
    server.setHandler((body) => ({ json: parse(lastUserText(body)) }));
    const second = await runVerificationBatch({
      items: items.slice(0, 1),
      judge,
      template: capitalTemplate,
      out,
    });
    expect(second.written).toBe(1);
    const lines = linesOf(out);
    expect(lines.map((line) => line.id).sort()).toEqual(['fr', 'it', 'jp']);
    expect(
      lines
        .filter((line) => line.error !== null)
        .map((line) => line.id)
        .sort(),
    ).toEqual(['it', 'jp']);
  });

  it('returns the results in input order without an output', async () => {
    server = await startChatServer({
      handler: async (body) => {
        const text = lastUserText(body);
        await sleep(text.includes('Paris') ? 60 : 0);
        return { json: parse(text) };
      },
    });
    const run = await runVerificationBatch({
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 3,
    });
    expect(run.records.map((record) => record.id)).toEqual(['fr', 'jp', 'it']);
    expect(run.summary.total).toBe(3);
  });

  it('hands each result to onRecord as soon as it is written, and each left-out item to onFailure, with its input position', async () => {
    server = await startChatServer({
      handler: async (body) => {
        const text = lastUserText(body);
        // Tokyo's parser is down; Paris answers last
        if (text.includes('Tokyo')) return { fault: 'server_error', status: 502 };
        await sleep(text.includes('Paris') ? 80 : 0);
        return { json: parse(text) };
      },
    });
    const out = join(directory, 'judged.jsonl');
    const recorded: { id: string; index: number; onDisk: boolean }[] = [];
    const failed: { id: string; code: string; index: number }[] = [];
    const run = await runVerificationBatch({
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 3,
      out,
      onRecord: (record, index) => {
        const onDisk = linesOf(out).some((line) => line.id === record.id);
        recorded.push({ id: record.id, index, onDisk });
      },
      onFailure: (failure, index) => {
        failed.push({ id: failure.id, code: failure.code, index });
      },
    });
    // in the order they finished, each once, its line already in the output
    expect(recorded).toEqual([
      { id: 'it', index: 2, onDisk: true },
      { id: 'fr', index: 0, onDisk: true },
    ]);
    expect(failed).toEqual([{ id: 'jp', code: 'ENDPOINT_UNAVAILABLE', index: 1 }]);
    expect(run).toMatchObject({ written: 2, failures: [expect.objectContaining({ id: 'jp' })] });

    // a rerun calls back for the item it does, at its position in the input
    server.setHandler((body) => ({ json: parse(lastUserText(body)) }));
    recorded.length = 0;
    failed.length = 0;
    const rerun = await runVerificationBatch({
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      out,
      onRecord: (record, index) => {
        recorded.push({ id: record.id, index, onDisk: true });
      },
      onFailure: (failure, index) => {
        failed.push({ id: failure.id, code: failure.code, index });
      },
    });
    expect(rerun.alreadyDone).toBe(2);
    expect(recorded).toEqual([{ id: 'jp', index: 1, onDisk: true }]);
    expect(failed).toEqual([]);
  });

  it('starts no further item in a slot until the promise onRecord returned settles', async () => {
    server = await startChatServer({ handler: (body) => ({ json: parse(lastUserText(body)) }) });
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const seen: string[] = [];
    const running = runVerificationBatch({
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 1,
      onRecord: (record) => {
        seen.push(record.id);
        return seen.length === 1 ? held : undefined;
      },
    });
    const deadline = Date.now() + 5_000;
    while (seen.length === 0 && Date.now() < deadline) await sleep(5);
    await sleep(60);
    // the reader of the first result has not caught up: nothing else was asked
    expect(seen).toEqual(['fr']);
    expect(server.chatRequests()).toHaveLength(1);
    release();
    const run = await running;
    expect(seen).toEqual(['fr', 'jp', 'it']);
    expect(run.records.map((record) => record.id)).toEqual(['fr', 'jp', 'it']);
  });

  it('stops the run and throws when onRecord throws, starting no further item', async () => {
    server = await startChatServer({ handler: (body) => ({ json: parse(lastUserText(body)) }) });
    const run = runVerificationBatch({
      items,
      judge: testClient(server.baseURL),
      template: capitalTemplate,
      concurrency: 1,
      onRecord: () => {
        throw new TypeError('the reader broke');
      },
    });
    await expect(run).rejects.toThrow('the reader broke');
    expect(server.chatRequests()).toHaveLength(1);
  });

  it('fails before any item when the endpoint cannot be reached', async () => {
    const run = runVerificationBatch({
      items,
      judge: testClient('http://127.0.0.1:1/v1'),
      template: capitalTemplate,
    });
    await expect(run).rejects.toMatchObject({ code: 'INVALID_ENDPOINT', kind: 'setup' });
  });
});
