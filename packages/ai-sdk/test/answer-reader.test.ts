import { createValidator, validateResponse } from '@qualm/validator';
import { describe, expect, it } from 'vitest';
import { AnswerReader } from '../src/index.js';

const validators = { text: createValidator(), json: createValidator({ minLength: 0 }) };

function read(pieces: readonly string[], expectJson: boolean) {
  const reader = new AnswerReader(validators, { expectJson });
  for (const piece of pieces) reader.push(piece);
  return reader.end();
}

/** Every way to cut a text in two and in three. */
function* cuts(text: string): Generator<string[]> {
  for (let first = 0; first <= text.length; first += 1) {
    yield [text.slice(0, first), text.slice(first)];
    for (let second = first; second <= text.length; second += 3) {
      yield [text.slice(0, first), text.slice(first, second), text.slice(second)];
    }
  }
}

describe('AnswerReader', () => {
  it('reads a prose answer exactly as the validator reads the whole text', () => {
    const text =
      "  Honestly, I'm not sure. It might be the blue one, but I can't help with wiring.";
    const whole = validateResponse(text);
    expect(whole.signals.length).toBeGreaterThan(1);
    for (const pieces of cuts(text)) {
      expect(read(pieces, false)).toEqual(whole);
    }
  });

  it('reads only the string values of a JSON answer, one per line, wherever it is cut', () => {
    const json =
      '{"title":"Rainfall","notes":["I\'m not sure about \\"May\\"","maybe June\\n\\u00e9t\\u00e9"],"count":3,"nested":{"ok":true,"why":"I can\'t help with that."}}';
    const values =
      'Rainfall\nI\'m not sure about "May"\nmaybe June\nété\nI can\'t help with that.\n';
    const whole = validateResponse(values, { minLength: 0 });
    expect(whole.signals.map((signal) => signal.type)).toEqual(
      expect.arrayContaining(['low_confidence', 'refusal']),
    );
    for (const pieces of cuts(json)) {
      expect(read(pieces, true)).toEqual(whole);
    }
  });

  it('does not read object keys as prose', () => {
    const result = read(['{"I cannot help":"Lisbon"}'], true);
    expect(result.signals).toEqual([]);
    expect(result.shouldEscalate).toBe(false);
  });

  it('reads a refusal sent in place of the requested JSON as text', () => {
    const text = "I'm sorry, but I can't help with that request.";
    expect(read([text], true)).toEqual(validateResponse(text));
  });

  it('calls a blank answer empty', () => {
    expect(read(['  ', '\n'], false).signals.map((signal) => signal.type)).toEqual([
      'empty_response',
    ]);
    expect(read([], true).shouldEscalate).toBe(true);
  });
});
