import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/** The shape of a generated LongMemEval file. */
export interface LongMemEvalDataOptions {
  /** Questions in the file. */
  questions: number;
  /** Sessions in each question's haystack (S has about 50, M about 500). */
  sessionsPerQuestion: number;
  /** Turns in each session, user and assistant in turn (10). */
  turnsPerSession?: number;
  /** Words in each turn (170, about 1 KB, as in the official files). */
  wordsPerTurn?: number;
  /** Seed of the word choice, so a file is the same from run to run (1). */
  seed?: number;
}

/** What a generated file holds. */
export interface LongMemEvalDataSummary {
  path: string;
  questions: number;
  sessions: number;
  bytes: number;
}

// made-up everyday topics; none of the words comes from the official data
const vocabulary = (
  'garden kayak violin recipe lantern pottery bicycle marathon orchard telescope quilt ' +
  'harbor sourdough chess glacier festival library cactus canoe ceramic mural pianist ' +
  'plumber saddle tulip workshop aquarium balcony compost drone easel ferry guitar hiking ' +
  'jigsaw kettle ladder mosaic notebook oven paddle rooftop scooter tandem umbrella vinyl ' +
  'walnut yoga zucchini weekend morning evening bought planned visited repaired painted ' +
  'booked started finished moved learned tried cooked watched the a and my to of in for ' +
  'with on at about from this that I we it was is will'
).split(' ');

// words only the evidence sessions use, two per question, so that retrieval has something to find
const topics =
  'accordion hammock origami saxophone terrarium trampoline wetsuit xylophone yurt zeppelin'.split(
    ' ',
  );

/**
 * Writes a LongMemEval file of generated records, streamed to disk so that a file the size of the
 * official M set (500 questions of 500 sessions, about 2.7 GB) never sits in memory. Each question
 * has one evidence session (`answer_…`) whose first user turn carries `has_answer` and the words
 * the question asks about; every tenth question is an abstention question (`_abs`).
 */
export async function writeLongMemEvalFile(
  path: string,
  options: LongMemEvalDataOptions,
): Promise<LongMemEvalDataSummary> {
  const turns = options.turnsPerSession ?? 10;
  const words = options.wordsPerTurn ?? 170;
  let seed = options.seed ?? 1;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const text = (count: number) => {
    const chosen: string[] = [];
    for (let index = 0; index < count; index += 1) {
      chosen.push(vocabulary[Math.floor(random() * vocabulary.length)]!);
    }
    return chosen.join(' ');
  };
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (chunk: string) => {
    bytes += Buffer.byteLength(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  };
  await write('[');
  for (let question = 0; question < options.questions; question += 1) {
    const id = `generated_${question}${question % 10 === 9 ? '_abs' : ''}`;
    const evidence = Math.floor(random() * options.sessionsPerQuestion);
    const topic = `${topics[question % topics.length]} ${topics[(question + 1 + Math.floor(question / topics.length)) % topics.length]}`;
    const sessionIds: string[] = [];
    const dates: string[] = [];
    await write(
      `${question === 0 ? '' : ','}{"question_id":${JSON.stringify(id)},"question_type":"single-session-user",` +
        `"question":"What did I say about the ${topic}?","answer":"the ${topic}",` +
        `"question_date":"2024/12/31 (Tue) 23:59","haystack_sessions":[`,
    );
    for (let session = 0; session < options.sessionsPerQuestion; session += 1) {
      const isEvidence = session === evidence;
      sessionIds.push(
        isEvidence ? `answer_${question}_${session}` : `session_${question}_${session}`,
      );
      const day = 1 + Math.floor((session * 364) / options.sessionsPerQuestion);
      const date = new Date(Date.UTC(2024, 0, day));
      dates.push(
        `${date.getUTCFullYear()}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${String(date.getUTCDate()).padStart(2, '0')} (Mon) 10:00`,
      );
      const parts: string[] = [];
      for (let turn = 0; turn < turns; turn += 1) {
        const role = turn % 2 === 0 ? 'user' : 'assistant';
        const content =
          isEvidence && turn === 0 ? `I have news about the ${topic}: ${text(words)}` : text(words);
        const marker = isEvidence ? `,"has_answer":${turn === 0}` : '';
        parts.push(`{"role":"${role}","content":${JSON.stringify(content)}${marker}}`);
      }
      await write(`${session === 0 ? '' : ','}[${parts.join(',')}]`);
    }
    await write(
      `],"haystack_dates":${JSON.stringify(dates)},"haystack_session_ids":${JSON.stringify(sessionIds)},` +
        `"answer_session_ids":${JSON.stringify([sessionIds[evidence]])}}`,
    );
  }
  await write(']\n');
  out.end();
  await once(out, 'finish');
  return {
    path,
    questions: options.questions,
    sessions: options.questions * options.sessionsPerQuestion,
    bytes,
  };
}
