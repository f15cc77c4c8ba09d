import { describe, expect, it } from 'vitest';
import { createValidator, type SignalType, validateResponse } from '../src/index.js';

const typesOf = (text: string): SignalType[] =>
  validateResponse(text).signals.map((signal) => signal.type);

describe('refusals as models write them are caught', () => {
  it.each([
    "I'm sorry, but I can't assist with that.",
    'I can’t help with that.',
    'I CANNOT HELP WITH THAT REQUEST.',
    'I cannot\nhelp with that request.',
    'I cannot   provide\r\n  that information.',
    "Sorry, I can't do that.",
    "I won't be helping with this one.",
    "I'm not able to share that information.",
    'I am unable to comply with this request.',
    "I'm not going to write that.",
    'I must decline this request.',
    "I'm afraid I can't answer that.",
    'Unfortunately, I cannot fulfil your request.',
    "That's not something I can help with.",
    "I'd prefer not to discuss this topic.",
    'This goes against my guidelines, so I will stop here.',
    'I am not comfortable providing instructions for this.',
    "I'm sorry, I can't.",
    'As an AI language model, I cannot provide legal advice.',
    'I have no comment.',
    '[CONTENT_FILTERED]',
    "I don't think I should help with that.",
    "That's not something I'm comfortable with.",
    'This is not within my capabilities.',
    "I'm not going to be able to help with this one.",
    'Sorry, but I cannot answer that question.',
  ])('%s', (text) => {
    expect(typesOf(text)).toContain('refusal');
  });
});

describe('ordinary phrases that look like signals are not signals', () => {
  it.each([
    'The standard error of the mean is the standard deviation divided by the square root of n.',
    'You cannot divide by zero, so the function checks the denominator first.',
    "I can't recommend this restaurant enough: the pasta is superb.",
    'I cannot recommend the second edition enough for beginners.',
    "I can't stress enough how much regular backups matter.",
    "I can't help but notice that the second chart uses a log scale.",
    "I can't thank the maintainers enough for the quick fix.",
    'Leap years are an exception to the rule of 365 days.',
    'The error was in the sensor, which had drifted by two degrees.',
    "I don't know of any country that bans the practice outright.",
    "I can't tell you how many times this trick has saved me: use a lockfile.",
    'If the request timed out, the client retries it with a longer deadline.',
    'A typical refusal reads "I cannot help with that." and ends the conversation.',
    'Use `except TimeoutError:` to catch it when the call fails; the code is below.',
    'If I don’t know a word in the lyrics, I look it up before I sing along.',
    "When I'm not sure which fork to use, I start from the outside and work in.",
    "I don't know anyone kinder than my grandmother; she still bakes for the whole street.",
  ])('%s', (text) => {
    expect(validateResponse(text).signals).toEqual([]);
  });

  it('ignores cues inside fenced code that the answer quotes', () => {
    const text = [
      'Here is a retry wrapper for your client:',
      '```python',
      'raise RuntimeError("API call failed: request timed out")',
      '# Traceback (most recent call last) is printed by the runtime',
      '```',
      'Call it with the number of attempts you want.',
    ].join('\n');
    expect(validateResponse(text).signals).toEqual([]);
  });

  it('reads a refusal in the opening of a long answer but not a caveat deep inside it', () => {
    const body = 'The protocol has four stages, each with its own controls and checks. '.repeat(30);
    const opening = validateResponse(`I cannot provide that protocol. ${body}`);
    const deep = validateResponse(
      `${body} Note that I cannot provide vendor-specific settings here. ${body}`,
    );
    expect(opening.signals.map((signal) => signal.type)).toContain('refusal');
    expect(deep.signals.map((signal) => signal.type)).not.toContain('refusal');
  });

  it('reads weak hedges in the opening of a long answer but not deep inside it', () => {
    const body = 'Each stage has its own controls and checks that run after every batch. '.repeat(
      30,
    );
    expect(typesOf(`It will probably work. ${body}`)).toContain('low_confidence');
    expect(typesOf(`${body} It will probably work. ${body}`)).not.toContain('low_confidence');
  });

  it('still reads strong hedges anywhere', () => {
    const body = 'Each stage has its own controls and checks that run after every batch. '.repeat(
      30,
    );
    expect(typesOf(`${body} I'm not entirely sure about the last step. ${body}`)).toContain(
      'low_confidence',
    );
  });

  it('still reads not knowing and not being sure as the answer’s own', () => {
    expect(typesOf("I don't know which ferry runs on Sundays.")).toContain('confusion');
    expect(typesOf("Even so, I'm not sure the bridge reopened.")).toContain('confusion');
  });

  it('does not read what the characters of a script or a titled piece say', () => {
    const script = [
      'INT. LIGHTHOUSE - NIGHT',
      '',
      'NORA: I don’t know where the spare bulbs went. I think Elias moved them.',
      'ELIAS: I’m not sure I did. Check the shed.',
    ].join('\n');
    expect(validateResponse(script).signals).toEqual([]);
    const bracketed = `[EXT. HARBOUR - DAWN]\n\nNORA\nI don’t know, the tide tables say otherwise.`;
    expect(validateResponse(bracketed).signals).toEqual([]);
    const titled = `Title: The Last Ferry\n\n"Where is it?" Nora asked. Elias shrugged. I don't know, he thought.`;
    expect(validateResponse(titled).signals).toEqual([]);
    // a heading further down is not an opening: the model's own doubt before it still counts
    const notOpening = `I don't know this play well.\nINT. LIGHTHOUSE - NIGHT\nNORA: Hello?`;
    expect(typesOf(notOpening)).toContain('confusion');
  });

  it('reads an answer written as a JSON object as the model speaking in its values', () => {
    const validator = createValidator();
    const cases: [string, string[]][] = [
      ['{"answer": "I can\'t share the home address of a private person."}', ['refusal']],
      [
        '{\n  "status": "error",\n  "detail": "Tool error: the ferry lookup timed out"\n}',
        ['tool_failure'],
      ],
      ['{"answer": "The last ferry leaves at 9:40 pm from pier 3."}', []],
      // a quotation inside a value is escaped, and stays a quotation
      [
        '{"answer": "Her note said \\"I cannot come on Friday\\", so the party moved to Sunday."}',
        [],
      ],
    ];
    for (const [text, expected] of cases) {
      const result = validator.validate(text);
      expect(
        result.signals.map((signal) => signal.type),
        text,
      ).toEqual(expected);
      const stream = validator.stream();
      for (let at = 0; at < text.length; at += 3) stream.push(text.slice(at, at + 3));
      expect(stream.end(), text).toEqual(result);
    }
    // outside a JSON object, the same words in quotation marks are reported speech
    expect(validator.validate('She wrote back: "I cannot come on Friday."').signals).toEqual([]);
  });

  it('counts a response that is wholly in quotation marks', () => {
    expect(typesOf('"I cannot help with that request."')).toContain('refusal');
  });
});

describe('signals carry their evidence', () => {
  it('gives the type, the matched text, its weight, position and context', () => {
    const text = 'Thanks for asking. I’m not sure how the\nscheduler decides this.';
    const [signal] = validateResponse(text).signals;
    expect(signal).toMatchObject({ type: 'confusion', evidence: 'I’m not sure', weight: 0.6 });
    expect(signal?.position).toBe(text.indexOf('I’m'));
    expect(signal?.context).toContain('Thanks for asking. I’m not sure how the scheduler');
  });

  it('lists signals in order of position, one per stretch of text', () => {
    const result = validateResponse(
      'Error: API request timed out\nStatus: 500 Internal Server Error\nPlease try again later',
    );
    const positions = result.signals.map((signal) => signal.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(result.signals.map((signal) => signal.evidence)).toEqual([
      'API request timed out',
      'Status: 500',
    ]);
  });
});
