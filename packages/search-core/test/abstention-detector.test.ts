import { describe, expect, it } from 'vitest';
import {
  ABSTENTION_ANSWER,
  AbstentionDetector,
  createHedgingAssessor,
  extractSpecificTerms,
  FullTextIndex,
  missingTermConfidence,
  type NliModel,
  type NliPair,
  type NliScores,
  SearchCoreError,
  strongestSignal,
  withAbstention,
} from '../src/index.js';

const history = [
  'I adopted a cat named Luna last spring. She sleeps on the couch all day.',
  'We drove to the coast in my new car and ate fish tacos.',
  'My sister gave me a scarf for my birthday.',
];
const hitsFor = (question: string, documents = history) =>
  new FullTextIndex(documents.map((text, index) => ({ id: `s${index}`, text }))).searchSync(
    question,
    { limit: 5 },
  );

/** An NLI model that entails a hypothesis the premise contains, and contradicts any other. */
class ContainmentNliModel implements NliModel {
  readonly maxTokens = 512;
  readonly pairSpecialTokens = 3;
  pairs = 0;
  countTokens(text: string): number {
    return text.split(/\s+/).length;
  }
  async classify(pairs: readonly NliPair[]): Promise<NliScores[]> {
    this.pairs += pairs.length;
    return pairs.map(({ premise, hypothesis }) =>
      premise.toLowerCase().includes(hypothesis.toLowerCase().replace(/\.$/, ''))
        ? { entailment: 0.9, neutral: 0.05, contradiction: 0.05 }
        : { entailment: 0.05, neutral: 0.1, contradiction: 0.85 },
    );
  }
}

const noNli = { useNLI: false } as const;

describe('AbstentionDetector', () => {
  it('abstains when the evidence never mentions a name the question asks about', async () => {
    const question = 'What did Tom give me for my birthday?';
    const result = await new AbstentionDetector(noNli).detect({
      question,
      answer: 'A scarf.',
      hits: hitsFor(question),
    });
    expect(result.shouldAbstain).toBe(true);
    expect(result.reason).toBe('low_coverage');
    expect(result.layers.retrieval.coverage?.missing.map((term) => term.text)).toEqual(['tom']);
  });

  it('answers when the evidence covers the question', async () => {
    const question = 'What did I call my cat?';
    const result = await new AbstentionDetector(noNli).detect({
      question,
      answer: 'Your cat is Luna.',
      hits: hitsFor(question),
    });
    expect(result).toMatchObject({ shouldAbstain: false, reason: null, confidence: 0 });
    expect(result.layers.retrieval.coverage?.missing).toEqual([]);
  });

  it('abstains on a rare missing noun alone, and on a common one only when the answer concludes it does not know', async () => {
    const detector = new AbstentionDetector(noNli);
    const tortoise = 'What did I name my tortoise?';
    expect(
      (await detector.detect({ question: tortoise, answer: 'Biscuit.', hits: hitsFor(tortoise) }))
        .shouldAbstain,
    ).toBe(true);

    const dad = 'What did my dad give me for my birthday?';
    const committed = await detector.detect({
      question: dad,
      answer: 'He gave you a scarf.',
      hits: hitsFor(dad),
    });
    expect(committed.shouldAbstain).toBe(false);
    expect(committed.reason).toBe('low_coverage');
    const hedged = await detector.detect({
      question: dad,
      answer: 'Assuming it was your last birthday, he gave you a scarf.',
      hits: hitsFor(dad),
    });
    expect(hedged.shouldAbstain).toBe(false);
    const unsure = await detector.detect({
      question: dad,
      answer:
        'You got a scarf that year. I do not have any information about a gift from your dad.',
      hits: hitsFor(dad),
    });
    expect(unsure).toMatchObject({ shouldAbstain: true, reason: 'low_coverage' });
    expect(unsure.details).toContain('the answer hedges');
  });

  it('abstains when the answer corrects the question on the term the evidence lacks', async () => {
    const detector = new AbstentionDetector(noNli);
    const dad = 'What did my dad give me for my birthday?';
    const corrected = await detector.detect({
      question: dad,
      answer: 'It was your sister, not your dad, who gave you a scarf for your birthday.',
      hits: hitsFor(dad),
    });
    expect(corrected).toMatchObject({ shouldAbstain: true, reason: 'low_coverage' });
    expect(corrected.confidence).toBeCloseTo(1 - (1 - 0.59) * (1 - 0.8), 2);
    expect(corrected.details).toContain('corrects the question on it');
    // a "not" about anything else is an ordinary answer
    const contrast = await detector.detect({
      question: dad,
      answer: 'He gave you a scarf, not a hat.',
      hits: hitsFor(dad),
    });
    expect(contrast.shouldAbstain).toBe(false);
    // and a correction of a term the evidence has is not a false premise
    const sister = 'What did my sister give me for my birthday?';
    const kept = await detector.detect({
      question: sister,
      answer: 'A scarf, not a sweater: your sister gave you a scarf.',
      hits: hitsFor(sister),
    });
    expect(kept.shouldAbstain).toBe(false);
  });

  it('gives a missing noun the confidence its rarity earns, as documented: "dad" 0.59, "tortoise" 0.97', async () => {
    const [dad] = await extractSpecificTerms('What did my dad give me for my birthday?');
    const [tortoise] = await extractSpecificTerms('What did I name my tortoise?');
    expect(dad?.rarity).toBeCloseTo(10.6, 1);
    expect(missingTermConfidence(dad!)).toBeCloseTo(0.59, 2);
    expect(tortoise?.rarity).toBeCloseTo(13.2, 1);
    expect(missingTermConfidence(tortoise!)).toBeCloseTo(0.97, 2);
  });

  it('measures coverage on an empty evidence list, every term missing, and not without one', async () => {
    const detector = new AbstentionDetector(noNli);
    const question = 'What did I name my tortoise?';
    for (const input of [{ hits: [] }, { evidence: [] }]) {
      const result = await detector.detect({ question, ...input });
      expect(result.layers.retrieval.coverage?.missing.map((term) => term.text)).toEqual([
        'tortoise',
      ]);
    }
    expect((await detector.detect({ question })).layers.retrieval.coverage).toBeNull();
  });

  it('does not abstain on hedges alone, which correct step-by-step answers use', async () => {
    const question = 'Where did we drive in my new car?';
    const result = await new AbstentionDetector(noNli).detect({
      question,
      answer:
        'Assuming the trip was last summer, you drove to the coast. There is no mention of the date.',
      hits: hitsFor(question),
    });
    expect(result.shouldAbstain).toBe(false);
    expect(result.layers.hedging.hedged).toBe(true);
  });

  it('does not abstain on an answer that ends with an offer', async () => {
    const question = 'Where did we drive in my new car?';
    const result = await new AbstentionDetector(noNli).detect({
      question,
      answer: 'You drove to the coast and had fish tacos. If there is more, feel free to share!',
      hits: hitsFor(question),
    });
    expect(result.shouldAbstain).toBe(false);
    expect(result.layers.hedging).toMatchObject({ nonAnswer: false, hedged: true, doubt: 0.3 });
  });

  it('abstains when the answer turns the question back to the user, unless advice was asked', async () => {
    const detector = new AbstentionDetector(noNli);
    const recall = await detector.detect({
      question: 'Where did we drive last month?',
      answer: 'Could you share more details about the trip? Then I can look again.',
      hits: hitsFor('Where did we drive last month?'),
    });
    expect(recall).toMatchObject({ shouldAbstain: true, reason: 'hedging_detected' });
    const advice = await detector.detect({
      question: 'Can you suggest a weekend trip for me?',
      answer: 'Sure! Could you share more details about what you enjoy?',
      hits: hitsFor('Can you suggest a weekend trip for me?'),
    });
    expect(advice.shouldAbstain).toBe(false);
  });

  it('weighs a concluding admission beside a weak coverage doubt enough to abstain', async () => {
    const detector = new AbstentionDetector(noNli);
    const question = 'What did my dad give me for my birthday?';
    const concluding = await detector.detect({
      question,
      answer: 'Your sister gave you a scarf. The history does not mention a gift from your dad.',
      hits: hitsFor(question),
    });
    // coverage 0.59 for "dad" and doubt 0.8: 1 - 0.41 × 0.2 ≈ 0.92
    expect(concluding).toMatchObject({ shouldAbstain: true, reason: 'low_coverage' });
    expect(concluding.confidence).toBeCloseTo(0.92, 2);
    const inPassing = await detector.detect({
      question,
      answer: 'The history does not mention a gift list. Your dad gave you a scarf.',
      hits: hitsFor(question),
    });
    expect(inPassing.shouldAbstain).toBe(false);
  });

  it('treats an empty answer as a non-answer', async () => {
    const result = await new AbstentionDetector(noNli).detect({
      question: 'Where did we drive?',
      answer: '   ',
    });
    expect(result).toMatchObject({ shouldAbstain: true, reason: 'hedging_detected' });
  });

  it('applies the score checks as first designed only when asked', async () => {
    const question = 'What is the capital of Mongolia?';
    const off = await new AbstentionDetector({ ...noNli, useCoverage: false }).detect({
      question,
      hits: hitsFor(question),
    });
    expect(off.shouldAbstain).toBe(false);
    const detector = new AbstentionDetector({
      ...noNli,
      useCoverage: false,
      useScoreThreshold: true,
    });
    expect((await detector.detect({ question, hits: [] })).reason).toBe('no_results');
    const weak = hitsFor('my new scarf from the coast');
    const low = await detector.detect({
      question: 'scarf coast Luna Mongolia capital',
      hits: weak,
    });
    expect(low.layers.retrieval.topScore).toBeLessThan(0.3);
    expect(low).toMatchObject({ shouldAbstain: true, reason: 'low_retrieval_score' });
    const gap = await new AbstentionDetector({
      ...noNli,
      useCoverage: false,
      useScoreThreshold: true,
      minRetrievalScore: 0,
    }).detect({
      question: 'x',
      hits: [
        { id: 'a', score: 0.42, rawScore: 1, document: { id: 'a', text: 'a' } },
        { id: 'b', score: 0.4, rawScore: 1, document: { id: 'b', text: 'b' } },
      ],
    });
    expect(gap.reason).toBe('no_score_gap');
  });

  it('switches each layer off on its own', async () => {
    const question = 'What did Tom give me?';
    const input = { question, answer: 'Could you share more details?', hits: hitsFor(question) };
    const coverageOff = await new AbstentionDetector({ ...noNli, useCoverage: false }).detect(
      input,
    );
    expect(coverageOff.layers.retrieval.coverage).toBeNull();
    expect(coverageOff.reason).toBe('hedging_detected');
    const hedgingOff = await new AbstentionDetector({ ...noNli, useHedging: false }).detect(input);
    expect(hedgingOff.layers.hedging.signals).toEqual([]);
    expect(hedgingOff.reason).toBe('low_coverage');
    const allOff = await new AbstentionDetector({
      ...noNli,
      useRetrieval: false,
      useHedging: false,
    }).detect(input);
    expect(allOff.shouldAbstain).toBe(false);
    expect(allOff.layers.retrieval.enabled).toBe(false);
  });

  it('grounds the answer by NLI against the retrieved evidence', async () => {
    const model = new ContainmentNliModel();
    const detector = new AbstentionDetector({
      nliModel: model,
      useCoverage: false,
      useHedging: false,
    });
    const question = 'What did I call my cat?';
    const grounded = await detector.detect({
      question,
      answer: 'I adopted a cat named Luna.',
      hits: hitsFor(question),
    });
    expect(grounded.shouldAbstain).toBe(false);
    expect(grounded.layers.grounding.result?.grounded).toBe(true);
    const invented = await detector.detect({
      question,
      answer: 'Your cat is called Whiskers.',
      hits: hitsFor(question),
    });
    expect(invented).toMatchObject({ shouldAbstain: true, reason: 'not_grounded' });
    expect(model.pairs).toBeGreaterThan(0);
  });

  it('says why grounding did not run', async () => {
    const withoutModel = await new AbstentionDetector().detect({
      question: 'Where?',
      answer: 'Paris.',
      evidence: ['Paris'],
    });
    expect(withoutModel.layers.grounding.skipped).toBe('no NLI model was given');
    const blank = await new AbstentionDetector({ nliModel: new ContainmentNliModel() }).detect({
      question: 'Where?',
      answer: 'Paris.',
      evidence: ['  ', ''],
    });
    expect(blank.layers.grounding.skipped).toBe('there is no evidence to ground the answer in');
  });

  it('abstains less as the threshold rises', async () => {
    const question = 'What did I name my tortoise?';
    const input = { question, answer: 'Biscuit.', hits: hitsFor(question) };
    const strict = await new AbstentionDetector({ ...noNli, abstentionThreshold: 1 }).detect(input);
    const lenient = await new AbstentionDetector({ ...noNli, abstentionThreshold: 0.5 }).detect(
      input,
    );
    expect(strict.shouldAbstain).toBe(false);
    expect(lenient.shouldAbstain).toBe(true);
    expect(strict.confidence).toBe(lenient.confidence);
  });

  it('rejects a bad configuration and bad input with a typed error', async () => {
    expect(() => new AbstentionDetector({ abstentionThreshold: 2 })).toThrowError(
      /abstentionThreshold must be a number from 0 to 1/,
    );
    expect(() => new AbstentionDetector({ evidenceHits: 0 })).toThrowError(SearchCoreError);
    await expect(
      new AbstentionDetector(noNli).detect({ question: 42 as unknown as string }),
    ).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});

describe('strongestSignal', () => {
  it('picks the most confident signal, the first of them on a tie, and nothing from none', () => {
    const coverage = { reason: 'low_coverage', confidence: 0.9, detail: 'a' } as const;
    const hedging = { reason: 'hedging_detected', confidence: 0.9, detail: 'b' } as const;
    const grounding = { reason: 'not_grounded', confidence: 0.95, detail: 'c' } as const;
    expect(strongestSignal([coverage, hedging])).toBe(coverage);
    expect(strongestSignal([hedging, coverage])).toBe(hedging);
    expect(strongestSignal([coverage, grounding, hedging])).toBe(grounding);
    expect(strongestSignal([])).toBeUndefined();
  });
});

describe('withAbstention', () => {
  it('replaces an answer the detector does not trust and keeps the original', async () => {
    const read = withAbstention(async () => 'Its name is Biscuit.', new AbstentionDetector(noNli));
    const question = 'What did I name my tortoise?';
    const answer = await read({ question, hits: hitsFor(question) });
    expect(answer).toMatchObject({
      answer: ABSTENTION_ANSWER,
      abstained: true,
      abstentionReason: 'low_coverage',
      originalAnswer: 'Its name is Biscuit.',
    });
    expect(ABSTENTION_ANSWER).toBe("I don't have enough information to answer this question.");
  });

  it('passes a trusted answer through', async () => {
    const read = withAbstention(() => 'Luna.', new AbstentionDetector(noNli));
    const question = 'What did I call my cat?';
    expect(await read({ question, hits: hitsFor(question) })).toMatchObject({
      answer: 'Luna.',
      abstained: false,
      abstentionReason: null,
    });
  });
});

describe('hedging layer', () => {
  const assess = createHedgingAssessor();

  it('calls an answer that commits to nothing a non-answer, offers included', () => {
    expect(
      assess('I’ll need more information from you about the trip to answer that.'),
    ).toMatchObject({
      nonAnswer: true,
    });
    expect(assess("If you could share more details, I'd be happy to help.")).toMatchObject({
      nonAnswer: true,
    });
    expect(
      assess('Unfortunately, there is no record of the kayak rental in our chats.'),
    ).toMatchObject({
      nonAnswer: true,
    });
    expect(assess('   ')).toMatchObject({ nonAnswer: true, substance: 0 });
  });

  it('reads "you never told me" in every tense as an admission, and what was told as substance', () => {
    for (const answer of [
      'You have not mentioned owning a canoe.',
      'You never told me the name of the plumber.',
      "You haven't shared the date of the recital yet.",
      "We haven't discussed your allergy in our chats.",
      "That hasn't come up in our conversations.",
      "I don't have that information.",
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: true });
      expect(assess(answer).cues.map((cue) => cue.kind)).toEqual(['admission']);
    }
    for (const answer of [
      'You have mentioned the canoe twice, both times about the lake trip.',
      'You told me the plumber is called Ines.',
      'We discussed your allergy in May.',
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: false, hedged: false });
    }
  });

  it('reads a bare "I don\'t know" as an admission, and not being sure or guessing as a hedge', () => {
    for (const answer of ["I don't know.", 'I honestly do not know for sure.']) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: true, hedged: false });
      expect(assess(answer).cues.map((cue) => cue.kind)).toEqual(['admission']);
    }
    for (const answer of [
      "I'm not sure, maybe the pottery class was on Thursday?",
      'Possibly the blue kettle, I guess.',
      'If I remember correctly, your cousin moved to Leeds.',
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: false, hedged: true, doubt: 0.3 });
      expect(assess(answer).cues.map((cue) => cue.kind)).toEqual(['hedge']);
    }
    // knowing, or not knowing why, on the way to an answer commits to it
    for (const answer of [
      "I don't know why, but the class moved to Thursday.",
      'You bought the blue kettle in March.',
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: false, hedged: false });
    }
  });

  it('calls an answer that asks as much as it says a non-answer', () => {
    const guide = [
      'Let me help you work it out.',
      '1. Think back to the day you moved in.',
      '2. Check your receipts from that week.',
      '3. The removal van was booked for a Friday.',
    ].join('\n');
    expect(assess(guide)).toMatchObject({ nonAnswer: true });
  });

  it('reads an answer that states something and then offers more as an answer', () => {
    for (const answer of [
      'You replaced the kettle and fixed the gate. If there’s more, feel free to share!',
      'The lease started in May. Let me know if you want the full timeline.',
      'You ordered the blue rug in March.\n\nIf you have more details about the delivery, I can check again.',
      "I'm glad to help you remember! The lease started in May.",
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: false, hedged: true, doubt: 0.3 });
    }
  });

  it('reads a closing question that offers more as an offer, not as handing the question back', () => {
    for (const answer of [
      'You repotted the fern in late April. Would you like me to list the other plants too?',
      'Your dentist appointment is on the 14th. Do you want a reminder the day before?',
      "The bike service cost 85 euros. Is there anything else you'd like to check?",
      'You finished the third book of the series last week. Shall I suggest what to read next? 📚',
      'It was the green raincoat. Want me to add it to your packing list?',
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: false, hedged: true, doubt: 0.3 });
      expect(assess(answer).cues.map((cue) => cue.kind)).toEqual(['offer']);
    }
    // one question that closes an answer follows the conversation on
    expect(
      assess('You started the pottery course in March. Have you finished the vase yet?'),
    ).toMatchObject({
      nonAnswer: false,
      hedged: true,
    });
    // a string of questions hands the question back
    expect(
      assess(
        'Think about how often you swim. Do you go every week? Do you swim on holidays? Let us assume twice a month.',
      ),
    ).toMatchObject({ nonAnswer: true });
    // a question that asks which thing was meant still hands the question back
    expect(assess('You mentioned two concerts in May. Which one do you mean?')).toMatchObject({
      nonAnswer: true,
    });
    // and so does an offer to answer once the user says more, with nothing stated
    expect(
      assess('There is no mention of a gym in our chats. Would you like to tell me which one?'),
    ).toMatchObject({ nonAnswer: true });
  });

  it('weighs an admission by where it stands', () => {
    expect(
      assess('You visited Ghent in June. There is no mention of a second trip.'),
    ).toMatchObject({
      nonAnswer: false,
      doubt: 0.8,
    });
    expect(
      assess('There is no mention of a second trip. You visited Ghent in June.'),
    ).toMatchObject({
      nonAnswer: false,
      doubt: 0.3,
    });
    // a sentence that admits a gap and then infers an answer is substance
    expect(
      assess('There is no mention of a second trip, so the answer is one trip, to Ghent.'),
    ).toMatchObject({ hedged: false, doubt: 0 });
  });

  it('reads words split by line breaks and any apostrophe', () => {
    for (const apostrophe of ["'", '’', '‘']) {
      const answer = `You bought the lamp in May. I don${apostrophe}t have\nany information about the shade.`;
      expect(assess(answer).doubt).toBe(0.8);
    }
  });

  it('leaves committed answers alone, caveats and quoted questions included', () => {
    for (const answer of [
      'You adopted Luna in April, so about three months ago.',
      'I think the answer is 42, since you mentioned it twice.',
      'Maybe surprisingly, the first trip was to Porto.',
      'You wrote: "Should I repaint the fence before winter?" and then painted it green.',
    ]) {
      expect(assess(answer), answer).toMatchObject({ nonAnswer: false, hedged: false });
    }
  });

  it('takes extra phrasings for asks and hedges', () => {
    const custom = createHedgingAssessor({
      nonAnswerPatterns: [/\bping me\b/i],
      hedgePatterns: ['\\bguesstimate\\b'],
    });
    expect(custom('Ping me with the dates and I will look.').nonAnswer).toBe(true);
    expect(custom('You spent about 40 euros, a guesstimate from the receipts.').hedged).toBe(true);
  });
});
