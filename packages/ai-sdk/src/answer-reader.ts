import type { ResponseQuality, StreamingValidator, Validator } from '@qualm/validator';

/**
 * The validators an answer can be read with: prose, and the string values of a JSON answer (where
 * a short value such as "Paris" is a complete answer, so no length counts as empty).
 */
export interface AnswerValidators {
  text: Validator;
  json: Validator;
}

/**
 * Reads an answer as it arrives and feeds the streaming validator. A JSON answer (requested with a
 * JSON response format, and starting with `{` or `[`) is read for its string values only: keys,
 * numbers and punctuation are not prose. Anything else, a refusal in place of the JSON included,
 * is read as text. Reading the whole answer at once gives the same result as reading it in pieces.
 */
export class AnswerReader {
  private stream: StreamingValidator | undefined;
  private json: JsonStringValues | undefined;
  // blanks before the first character, which decides how the answer is read
  private pendingBlank = '';
  private readonly expectJson: boolean;

  constructor(
    private readonly validators: AnswerValidators,
    options: { expectJson: boolean },
  ) {
    this.expectJson = options.expectJson;
  }

  /** Adds the next piece of the answer. */
  push(delta: string): void {
    if (delta.length === 0) return;
    if (this.stream === undefined) {
      const start = delta.search(/\S/);
      if (start === -1) {
        this.pendingBlank += delta;
        return;
      }
      const first = delta[start];
      if (this.expectJson && (first === '{' || first === '[')) {
        this.stream = this.validators.json.stream();
        this.json = new JsonStringValues();
      } else {
        this.stream = this.validators.text.stream();
      }
      delta = this.pendingBlank + delta;
      this.pendingBlank = '';
    }
    this.stream.push(this.json ? this.json.read(delta) : delta);
  }

  /** Ends the answer and returns its assessment. */
  end(): ResponseQuality {
    const stream = this.stream ?? this.validators.text.stream();
    if (this.stream === undefined) stream.push(this.pendingBlank);
    return stream.end();
  }
}

/**
 * Pulls the string values out of JSON text as it arrives, one per line; keys and other tokens are
 * dropped. Escapes are decoded, also when a chunk ends inside one.
 */
class JsonStringValues {
  // containers from the outermost: true for an object, false for an array
  private readonly containers: boolean[] = [];
  private expectingKey = false;
  private inString = false;
  private stringIsKey = false;
  private escapeSequence: string | undefined;

  read(chunk: string): string {
    let out = '';
    for (let index = 0; index < chunk.length; index += 1) {
      const character = chunk[index]!;
      if (this.inString) {
        if (this.escapeSequence !== undefined) {
          this.escapeSequence += character;
          const decoded = decodeEscape(this.escapeSequence);
          if (decoded !== undefined) {
            if (!this.stringIsKey) out += decoded;
            this.escapeSequence = undefined;
          }
        } else if (character === '\\') {
          this.escapeSequence = '';
        } else if (character === '"') {
          this.inString = false;
          if (!this.stringIsKey) out += '\n';
        } else if (!this.stringIsKey) {
          out += character;
        }
        continue;
      }
      const inObject = this.containers.at(-1) === true;
      switch (character) {
        case '"':
          this.inString = true;
          this.stringIsKey = inObject && this.expectingKey;
          break;
        case '{':
          this.containers.push(true);
          this.expectingKey = true;
          break;
        case '[':
          this.containers.push(false);
          break;
        case '}':
        case ']':
          this.containers.pop();
          this.expectingKey = false;
          break;
        case ',':
          this.expectingKey = inObject;
          break;
        case ':':
          this.expectingKey = false;
          break;
      }
    }
    return out;
  }
}

const simpleEscapes: Record<string, string> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** The character an escape stands for, or undefined while a `\u` escape is still incomplete. */
function decodeEscape(sequence: string): string | undefined {
  if (sequence[0] !== 'u') return simpleEscapes[sequence] ?? sequence;
  if (sequence.length < 5) return undefined;
  const code = Number.parseInt(sequence.slice(1), 16);
  return Number.isNaN(code) ? sequence : String.fromCharCode(code);
}
