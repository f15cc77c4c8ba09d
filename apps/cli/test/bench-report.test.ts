import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { calibrate, type ReplayResult, writeCalibrationReport } from '@qualm/benchmark';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { qualm } from './qualm-process.js';

const ids = ['a1', 'a2', 'a3', 'a4', 'b1_abs', 'b2_abs'];
const questions = ids.map((id, index) => ({
  question_id: id,
  question_type: index % 2 === 0 ? 'multi-session' : 'knowledge-update',
  question: `${id}?`,
  answer: 'a',
  question_date: '2023/06/01 (Thu) 10:00',
  haystack_dates: [],
  haystack_session_ids: [],
  haystack_sessions: [],
  answer_session_ids: [],
}));

const refusal = "I don't have enough information to answer this question.";

function writeRun(path: string, correct: readonly string[], refused: readonly string[]) {
  writeFileSync(
    path,
    ids
      .map((id) =>
        JSON.stringify({
          question_id: id,
          hypothesis: refused.includes(id) ? refusal : 'an answer',
          autoeval_label: { model: 'gpt-4o-2024-08-06', label: correct.includes(id) },
        }),
      )
      .join('\n'),
  );
}

let directory: string;

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'qualm-report-'));
});

afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
});

async function calibrationFolder(): Promise<string> {
  const replay: ReplayResult = {
    runs: [
      {
        runPath: 'run.jsonl',
        dataPath: 'data.json',
        skippedIds: [],
        answers: Array.from({ length: 20 }, (_, index) => ({
          questionId: `c${index}${index % 4 === 0 ? '_abs' : ''}`,
          questionType: 'multi-session',
          recordedLabel: index % 3 === 1,
          readerAbstained: false,
          detection: {
            signals: [
              {
                reason: 'low_coverage' as const,
                confidence: index % 4 === 0 ? 0.95 : 0.5 + index / 50,
                detail: '',
              },
            ],
            topScore: 0.5,
            scoreGap: 0.1,
          },
        })),
      },
    ],
    timing: {
      questions: 20,
      retrievalMs: { p50: 0, p90: 0, max: 0 },
      detectionMs: { p50: 0, p90: 0, max: 0 },
      totalMs: 0,
    },
  };
  const folder = join(directory, 'calibration');
  await writeCalibrationReport(calibrate(replay, { maxFalseAbstentionRate: 0.3 }), folder);
  return folder;
}

describe('qualm bench longmemeval report', () => {
  it('writes index.html, report.md and the SVG charts, and prints the runs side by side', async () => {
    const dataPath = join(directory, 'data.json');
    writeFileSync(dataPath, JSON.stringify(questions));
    const first = join(directory, 'reader-one.eval-results.jsonl');
    const second = join(directory, 'reader-two.eval-results.jsonl');
    writeRun(first, ['a1', 'a2', 'a3'], []);
    writeRun(second, ['a1', 'b1_abs', 'b2_abs'], ['a4', 'b1_abs', 'b2_abs']);
    const out = join(directory, 'report');
    const result = await qualm([
      'bench',
      'longmemeval',
      'report',
      '--data',
      dataPath,
      '--run',
      first,
      second,
      '--calibration',
      await calibrationFolder(),
      '--out',
      out,
      '--title',
      'Two readers',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    for (const file of [
      'index.html',
      'report.md',
      'accuracy.svg',
      'abstention.svg',
      'tradeoff.svg',
    ]) {
      expect(existsSync(join(out, file))).toBe(true);
    }
    const rows = result.stdout
      .split('\n')
      .slice(2, 4)
      .map((line) => line.trim().split(/\s{2,}/));
    expect(rows).toEqual([
      // no task average without every question type: "-", as metrics prints it
      ['reader-one', '6', '50.0', '-', '0/2', '0.0'],
      ['reader-two', '6', '50.0', '-', '2/2', '25.0'],
    ]);
    const html = readFileSync(join(out, 'index.html'), 'utf8');
    expect(html).toContain('<title>Two readers</title>');
    expect(html.match(/<svg /g)).toHaveLength(3);
    expect(readFileSync(join(out, 'accuracy.svg'), 'utf8')).toMatch(/^<svg /);
  });

  it('says which run file is not judged', async () => {
    const dataPath = join(directory, 'data.json');
    writeFileSync(dataPath, JSON.stringify(questions));
    const hypotheses = join(directory, 'hypotheses.jsonl');
    writeFileSync(hypotheses, '{"question_id": "a1", "hypothesis": "x"}\n');
    const result = await qualm([
      'bench',
      'longmemeval',
      'report',
      '--data',
      dataPath,
      '--run',
      hypotheses,
      '--out',
      join(directory, 'report'),
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^qualm: .*hypotheses\.jsonl:1: autoeval_label: /);
  });

  it('shows examples in --help', async () => {
    const result = await qualm(['bench', 'longmemeval', 'report', '--help']);
    expect(result.stdout).toContain('Examples:');
    expect(result.stdout).toContain('--calibration');
  });
});
