import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createChatClient } from '@qualm/judge';
import { tinyTokenizerFiles } from '@qualm/testkit';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildReaderPrompt,
  DIRECT_READER_TEMPLATE,
  fillTemplate,
  formatHistory,
  type LongMemEvalQuestion,
  loadHistoryTokenizer,
  modelContextLimit,
  o200kTokenizer,
  selectHistory,
} from '../src/index.js';
import { temporaryFolder } from './longmemeval-records.js';

// tiktoken's own algorithm, ported by js-tiktoken: the reference the harness's cut is checked on
const reference = new Tiktoken(o200kRanks);
const referenceCut = (text: string, budget: number) => {
  const tokens = reference.encode(text, ['<|endoftext|>']);
  return { tokens: tokens.length, text: reference.decode(tokens.slice(0, budget)) };
};

// a seeded history of 60 long sessions: prose, numbers, accents, emoji, CJK, a literal
// <|endoftext|>, so that its latest 50 sessions are far over gpt-4o's 126,200-token budget
function longQuestion(): LongMemEvalQuestion {
  let seed = 11;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const words = [
    ...'the quilt pattern needs seven blocks of indigo fabric and a walnut frame'.split(' '),
    ...['naïve', 'café', '東京の古本屋', '🧵', '1,250', 'résumé', "don't", '  ', '\n', 'Żółw'],
  ];
  const text = (length: number) =>
    Array.from({ length }, () => words[Math.floor(random() * words.length)]).join(' ');
  return {
    question_id: 'quilt_long',
    question_type: 'single-session-user',
    question: 'Which wood did I choose for the quilt frame?',
    answer: 'walnut',
    question_date: '2024/06/01 (Sat) 12:00',
    haystack_dates: Array.from(
      { length: 60 },
      (_, index) => `2024/05/${String(1 + (index % 30)).padStart(2, '0')} (Wed) 0${index % 10}:00`,
    ),
    haystack_session_ids: Array.from({ length: 60 }, (_, index) => `chat_${index}`),
    haystack_sessions: Array.from({ length: 60 }, (_, index) => [
      {
        role: 'user' as const,
        content: `${text(900)}${index === 40 ? ' <|endoftext|> ' : ''}`,
      },
      { role: 'assistant' as const, content: text(700) },
    ]),
    answer_session_ids: [],
  };
}

describe('cutting the history to the context limit', () => {
  it('cuts a history over the budget to limit − 800 − 1000 o200k_base tokens for a GPT model, as tiktoken does', async () => {
    const question = longQuestion();
    const history = formatHistory(await selectHistory(question, { source: 'full' }));
    const budget = 128000 - 800 - 1000;
    const cut = referenceCut(history, budget);
    expect(cut.tokens).toBeGreaterThan(budget);
    const built = await buildReaderPrompt(question, {
      client: createChatClient({ model: 'gpt-4o-2024-08-06', apiKey: 'unused' }),
      method: 'direct',
      history: { source: 'full' },
    });
    expect(built.truncated).toEqual({ tokens: cut.tokens, budget });
    expect(built.prompt).toBe(
      fillTemplate(DIRECT_READER_TEMPLATE, [cut.text, question.question_date, question.question]),
    );
  });

  it('cuts to a --context-limit given for any model, and leaves a history within it alone', async () => {
    const question = longQuestion();
    const history = formatHistory(await selectHistory(question, { source: 'full', topK: 2 }));
    const client = createChatClient({ model: 'gpt-4.1-nano', apiKey: 'unused' });
    const built = await buildReaderPrompt(question, {
      client,
      method: 'direct',
      history: { source: 'full', topK: 2 },
      contextLimit: 3000,
      maxTokens: 300,
    });
    const cut = referenceCut(history, 3000 - 300 - 1000);
    expect(built.truncated).toEqual({ tokens: cut.tokens, budget: 1700 });
    expect(built.prompt).toContain(cut.text);
    const uncut = await buildReaderPrompt(question, {
      client,
      method: 'direct',
      history: { source: 'full', topK: 2 },
      contextLimit: 'none',
    });
    expect(uncut.truncated).toBeUndefined();
    expect(uncut.prompt).toContain(history);
  });

  it('names the fix when no context length is known for the model', async () => {
    await expect(
      buildReaderPrompt(longQuestion(), {
        client: createChatClient({ model: 'my-local-model', apiKey: 'unused' }),
        history: { source: 'oracle' },
      }),
    ).rejects.toThrow(/no context length is known for model "my-local-model".*--context-limit N/);
  });

  it("knows the harness's table, by full name or run_generation.sh's short name", () => {
    expect(modelContextLimit('meta-llama/Meta-Llama-3.1-8B-Instruct')).toBe(128000);
    expect(modelContextLimit('llama-3.1-8b-instruct')).toBe(128000);
    expect(modelContextLimit('gpt-4o-mini')).toBe(128000);
    expect(modelContextLimit('microsoft/Phi-3-medium-128k-instruct')).toBe(120000);
    expect(modelContextLimit('mistral-7b-instruct-v0.2')).toBe(32000);
    expect(modelContextLimit('gpt-5')).toBeUndefined();
  });
});

describe('the o200k_base tokenizer', () => {
  it('counts and cuts exactly as tiktoken, a character cut in two becoming U+FFFD', async () => {
    const tokenizer = await o200kTokenizer();
    const samples = [
      'Plain words, numbers 3.14159 and 2,048, whitespace   runs\n\n\tand tabs.',
      'Accents é à ü, emoji 🧶🪡, CJK 刺繍と縫い物, Arabic خياطة, and <|endoftext|> once.',
      '<|im_start|> is plain text in o200k_base, and so is <|fim_prefix|>.',
    ];
    for (const text of samples) {
      const total = reference.encode(text, ['<|endoftext|>']).length;
      for (const budget of [1, 5, Math.floor(total / 2), total - 1, total]) {
        const fitted = tokenizer.fit(text, budget);
        const cut = referenceCut(text, budget);
        expect(fitted.tokens).toBe(total);
        expect(fitted.truncated).toBe(total > budget);
        expect(fitted.text).toBe(total > budget ? cut.text : text);
      }
    }
    expect(tokenizer.fit('🪡🪡🪡', 1).text).toBe(referenceCut('🪡🪡🪡', 1).text);
    expect(referenceCut('🪡🪡🪡', 1).text).toContain('\ufffd');
  });

  it('refuses <|endofprompt|> in a history, as tiktoken does', async () => {
    const tokenizer = await o200kTokenizer();
    expect(() => tokenizer.fit('before <|endofprompt|> after', 100)).toThrow(
      /special token <\|endofprompt\|>/,
    );
  });
});

describe("a model's own tokenizer from a folder", () => {
  let models: { path: string; remove: () => Promise<void> };
  const model = 'meta-llama/Meta-Llama-3.1-8B-Instruct';

  beforeAll(async () => {
    models = await temporaryFolder();
    const folder = join(models.path, model);
    await mkdir(folder, { recursive: true });
    const files = tinyTokenizerFiles();
    await writeFile(join(folder, 'tokenizer.json'), JSON.stringify(files.tokenizerJson));
    await writeFile(
      join(folder, 'tokenizer_config.json'),
      JSON.stringify(files.tokenizerConfigJson),
    );
  });

  afterAll(async () => {
    await models.remove();
  });

  it('counts with the special tokens and keeps budget − specials content tokens, decoded without them', async () => {
    const tokenizer = await loadHistoryTokenizer(model, { modelsDir: models.path });
    // a WordPiece vocabulary of whole words: [CLS] the cat is big and red [SEP]
    const fitted = tokenizer.fit('the cat is big and red', 6);
    expect(fitted).toEqual({ text: 'the cat is big', tokens: 8, truncated: true });
    expect(tokenizer.fit('the cat is big and red', 8)).toEqual({
      text: 'the cat is big and red',
      tokens: 8,
      truncated: false,
    });
  });

  it("is found under the models folder by the model's name, and cuts the reader's history", async () => {
    const question = longQuestion();
    const built = await buildReaderPrompt(question, {
      client: createChatClient({ model, apiKey: 'unused' }),
      method: 'direct',
      history: { source: 'full', topK: 3 },
      modelsDir: models.path,
      contextLimit: 1800 + 200,
    });
    expect(built.truncated?.budget).toBe(200);
    expect(built.truncated?.tokens).toBeGreaterThan(200);
  });

  it('asks for the tokenizer of a model that is not GPT once its history may be over the budget', async () => {
    const client = createChatClient({ model, apiKey: 'unused' });
    await expect(
      buildReaderPrompt(longQuestion(), { client, history: { source: 'full' } }),
    ).rejects.toThrow(/not a GPT model.*--tokenizer DIR/);
    // a short history cannot be over the budget, whatever the tokenizer
    const short = await buildReaderPrompt(longQuestion(), {
      client,
      history: { source: 'full', topK: 1 },
    });
    expect(short.truncated).toBeUndefined();
  });

  it('names a folder without a tokenizer', async () => {
    await expect(loadHistoryTokenizer(join(models.path, 'nothing-here'))).rejects.toThrow(
      /no tokenizer in .*nothing-here/,
    );
  });
});
