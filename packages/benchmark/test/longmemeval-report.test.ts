import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CalibrationReport,
  calibrate,
  type ReplayResult,
  runNames,
  writeCalibrationReport,
  writeLongMemEvalReport,
} from '../src/index.js';
import { makeQuestion, temporaryFolder, user, writeData } from './longmemeval-records.js';

let folder: { path: string; remove: () => Promise<void> };

beforeEach(async () => {
  folder = await temporaryFolder();
});

afterEach(async () => {
  await folder.remove();
});

const types = ['single-session-user', 'multi-session', 'temporal-reasoning', 'knowledge-update'];
const questions = [
  ...Array.from({ length: 8 }, (_, index) =>
    makeQuestion(`q${index}`, [['answer_s', [user('x', true)]]], {
      question_type: types[index % types.length],
    }),
  ),
  makeQuestion('q8_abs', [['answer_s', [user('x')]]]),
  makeQuestion('q9_abs', [['answer_s', [user('x')]]], { question_type: 'multi-session' }),
];

const refusal = "I don't have enough information to answer this question.";

// run a gets the even ids right, run b the first five; b abstains on two answerable questions
function runLines(run: 'a' | 'b'): string {
  return questions
    .map((question, index) => {
      const abstains = run === 'b' && (index === 6 || index === 7 || index === 9);
      const label = question.question_id.includes('_abs')
        ? abstains
        : run === 'a'
          ? index % 2 === 0
          : index < 5;
      return JSON.stringify({
        question_id: question.question_id,
        hypothesis: abstains ? refusal : `answer ${index}`,
        autoeval_label: { model: 'gpt-4o-2024-08-06', label },
      });
    })
    .join('\n');
}

async function inputs() {
  const dataPath = await writeData(join(folder.path, 'data.json'), JSON.stringify(questions));
  const runA = join(folder.path, 'reader-a_cot.eval-results.jsonl');
  const runB = join(folder.path, 'reader-b_con.eval-results.jsonl');
  await writeFile(runA, runLines('a'));
  await writeFile(runB, runLines('b'));
  const calibrationDirectory = join(folder.path, 'calibration');
  await writeCalibrationReport(calibrationOf(), calibrationDirectory);
  return { dataPath, runA, runB, calibrationDirectory, outDirectory: join(folder.path, 'report') };
}

// a real calibration over a made-up replay: the detector's confidence is high on abstention ids
function calibrationOf(): CalibrationReport {
  const ids = Array.from({ length: 40 }, (_, index) => `c${index}${index % 4 === 0 ? '_abs' : ''}`);
  const replay: ReplayResult = {
    runs: [
      {
        runPath: 'run.jsonl',
        dataPath: 'data.json',
        skippedIds: [],
        answers: ids.map((id, index) => ({
          questionId: id,
          questionType: 'single-session-user',
          recordedLabel: index % 3 !== 0 && !id.includes('_abs'),
          readerAbstained: false,
          detection: {
            signals: [
              {
                reason: 'low_coverage',
                confidence: id.includes('_abs') ? 0.8 + (index % 5) / 50 : 0.5 + (index % 7) / 20,
                detail: '',
              },
            ],
            topScore: 0.5,
            scoreGap: 0.2,
          },
        })),
      },
    ],
    timing: {
      questions: 40,
      retrievalMs: { p50: 0, p90: 0, max: 0 },
      detectionMs: { p50: 0, p90: 0, max: 0 },
      totalMs: 0,
    },
  };
  return calibrate(replay, { maxFalseAbstentionRate: 0.2 });
}

describe('writeLongMemEvalReport', () => {
  it('writes index.html, report.md and one SVG per chart, comparing the runs', async () => {
    const paths = await inputs();
    const report = await writeLongMemEvalReport({
      runPaths: [paths.runA, paths.runB],
      dataPath: paths.dataPath,
      calibrationDirectory: paths.calibrationDirectory,
      outDirectory: paths.outDirectory,
    });
    expect(report.files.map((file) => file.split('/').at(-1))).toEqual([
      'index.html',
      'report.md',
      'accuracy.svg',
      'abstention.svg',
      'tradeoff.svg',
    ]);
    expect(report.runs.map((run) => run.name)).toEqual(['reader-a_cot', 'reader-b_con']);
    const [a, b] = report.runs;
    expect(a?.metrics.overall).toBeCloseTo(4 / 10);
    expect(b?.metrics.falseAbstentionRate).toBeCloseTo(2 / 8);
    expect(b?.metrics.abstention).toEqual({ accuracy: 0.5, correct: 1, n: 2 });

    const markdown = await readFile(join(paths.outDirectory, 'report.md'), 'utf8');
    expect(markdown).toContain('| metric | reader-a_cot | reader-b_con |');
    expect(markdown).toContain('| false abstention | 0.0% (0/8) | 25.0% (2/8) |');
    expect(markdown).toContain('![Accuracy by question type](accuracy.svg)');
    expect(markdown).toContain('![Calibration trade-off](tradeoff.svg)');

    const html = await readFile(join(paths.outDirectory, 'index.html'), 'utf8');
    expect(html.match(/<svg /g)).toHaveLength(3);
    // self-contained: no script, no stylesheet or image fetched from anywhere
    expect(html).not.toMatch(/<script|<link|src=|@import/);
    const urls = html.match(/https?:\/\/[^\s"')]+/g) ?? [];
    expect(new Set(urls)).toEqual(
      new Set(['http://www.w3.org/2000/svg', 'http://www.w3.org/1999/xlink']),
    );
  });

  it('leaves the trade-off chart out without a calibration folder', async () => {
    const paths = await inputs();
    const report = await writeLongMemEvalReport({
      runPaths: [paths.runA],
      dataPath: paths.dataPath,
      outDirectory: paths.outDirectory,
    });
    expect(report.charts.map((chart) => chart.name)).toEqual(['accuracy', 'abstention']);
    expect(existsSync(join(paths.outDirectory, 'tradeoff.svg'))).toBe(false);
  });

  it('says which calibration folder lacks calibration.json', async () => {
    const paths = await inputs();
    const empty = join(folder.path, 'empty');
    await mkdir(empty);
    await expect(
      writeLongMemEvalReport({
        runPaths: [paths.runA],
        dataPath: paths.dataPath,
        calibrationDirectory: empty,
        outDirectory: paths.outDirectory,
      }),
    ).rejects.toThrow(`no calibration.json in ${empty}`);
  });

  it('refuses a run none of whose ids is in the data', async () => {
    const paths = await inputs();
    const other = join(folder.path, 'other.jsonl');
    await writeFile(
      other,
      JSON.stringify({
        question_id: 'zz',
        hypothesis: 'x',
        autoeval_label: { model: 'm', label: true },
      }),
    );
    await expect(
      writeLongMemEvalReport({
        runPaths: [other],
        dataPath: paths.dataPath,
        outDirectory: paths.outDirectory,
      }),
    ).rejects.toThrow(/none of the \d+ question ids of .* is in/);
  });

  it('names runs after their files, uniquely', () => {
    expect(
      runNames(['a/x.eval-results.jsonl', 'b/x.eval-results.jsonl', 'y.jsonl.eval-results-gpt-4o']),
    ).toEqual(['x', 'x (2)', 'y']);
  });
});

const chromiumPath = '/usr/bin/chromium';
const browserCheck = existsSync(chromiumPath) ? describe : describe.skip;
if (!existsSync(chromiumPath)) {
  process.stderr.write(
    `skipping the report page check in a browser: ${chromiumPath} is missing (apt-get install chromium)\n`,
  );
}

browserCheck('the report page in headless Chromium', () => {
  it('loads with its title and three rendered charts, no console error and no request outside the page', async () => {
    const paths = await inputs();
    await writeLongMemEvalReport({
      runPaths: [paths.runA, paths.runB],
      dataPath: paths.dataPath,
      calibrationDirectory: paths.calibrationDirectory,
      outDirectory: paths.outDirectory,
      title: 'Reader comparison',
    });
    const pageUrl = pathToFileURL(join(paths.outDirectory, 'index.html')).href;
    const userDataDirectory = await mkdtemp(join(tmpdir(), 'qualm-chromium-'));
    const context = await chromium.launchPersistentContext(userDataDirectory, {
      executablePath: chromiumPath,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      const errors: string[] = [];
      const requests: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error') errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      page.on('request', (request) => requests.push(request.url()));
      await page.goto(pageUrl, { waitUntil: 'load' });

      expect(await page.title()).toBe('Reader comparison');
      const count = (selector: string) => page.locator(selector).count();
      expect(await count('figure[data-chart] svg')).toBe(3);
      // grouped bars: the 4 types present and overall, for 2 runs; with two of the six types
      // absent the task-averaged accuracy is nan, as the harness prints it, and has no bar
      expect(await count('#accuracy-chart svg .mark-rect.role-mark path')).toBe(10);
      expect(await count('#abstention-chart svg .mark-symbol.role-mark path')).toBe(2);
      expect(await count('#abstention-chart svg .mark-text.role-mark text')).toBe(2);
      expect(await count('#tradeoff-chart svg .mark-line.role-mark path')).toBeGreaterThan(0);
      expect(await count('#tradeoff-chart svg .mark-symbol.role-mark path')).toBeGreaterThan(0);
      const box = await page.locator('#accuracy-chart svg').boundingBox();
      expect(box?.width).toBeGreaterThan(100);
      expect(await page.locator('table').first().textContent()).toContain('reader-b_con');

      expect(errors).toEqual([]);
      expect(requests).toEqual([pageUrl]);
    } finally {
      await context.close();
      await rm(userDataDirectory, { recursive: true, force: true });
    }
  }, 60_000);
});
