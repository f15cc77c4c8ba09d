/** A byte stream that is not a well-formed JSON array, as far as the splitter can tell. */
export class JsonArraySyntaxError extends Error {
  override readonly name = 'JsonArraySyntaxError';
}

const quote = 0x22;
const backslash = 0x5c;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;
const comma = 0x2c;
const byteOrderMark = [0xef, 0xbb, 0xbf];

function isWhitespace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

type Phase = 'before' | 'between' | 'element' | 'after';

/**
 * Cuts a JSON array arriving in byte chunks into the bytes of its top-level elements, so that each
 * can be parsed on its own and a large file never sits in memory whole. It tracks strings, escapes
 * and nesting depth on bytes; the structural characters it looks for are ASCII and never occur
 * inside a multi-byte UTF-8 sequence, so chunks may split characters anywhere. It checks the
 * structure between elements; the elements themselves are left to `JSON.parse`.
 */
export class JsonArraySplitter {
  /** Number of complete elements returned so far. */
  elementCount = 0;
  private phase: Phase = 'before';
  private expectingElement = true;
  private kind: 'container' | 'string' | 'scalar' = 'container';
  private depth = 0;
  private inString = false;
  // backslashes that immediately precede the scan position inside a string, carried across chunks
  private pendingBackslashes = 0;
  private pieces: Buffer[] = [];
  private offset = 0;
  private markSeen = 0;

  /** Feeds the next chunk and returns the elements it completes. */
  push(chunk: Buffer): Buffer[] {
    const elements: Buffer[] = [];
    const length = chunk.length;
    let start = this.phase === 'element' ? 0 : -1;
    let index = 0;
    const finish = (end: number) => {
      this.pieces.push(chunk.subarray(start, end));
      const pieces = this.pieces;
      elements.push(pieces.length === 1 ? pieces[0]! : Buffer.concat(pieces));
      this.pieces = [];
      this.phase = 'between';
      this.expectingElement = false;
      this.elementCount += 1;
      start = -1;
    };
    while (index < length) {
      if (this.phase === 'element') {
        if (this.inString) {
          const found = chunk.indexOf(quote, index);
          if (found === -1) {
            this.pendingBackslashes = countBackslashes(
              chunk,
              index,
              length,
              this.pendingBackslashes,
            );
            index = length;
            break;
          }
          const run = countBackslashes(chunk, index, found, this.pendingBackslashes);
          this.pendingBackslashes = 0;
          index = found + 1;
          if (run % 2 === 1) continue;
          this.inString = false;
          if (this.kind === 'string') finish(index);
          continue;
        }
        if (this.kind === 'scalar') {
          while (index < length) {
            const byte = chunk[index]!;
            if (byte === comma || byte === closeBracket || isWhitespace(byte)) break;
            index += 1;
          }
          if (index < length) finish(index);
          continue;
        }
        while (index < length) {
          const byte = chunk[index]!;
          index += 1;
          if (byte === quote) {
            this.inString = true;
            this.pendingBackslashes = 0;
            break;
          }
          if (byte === openBrace || byte === openBracket) {
            this.depth += 1;
          } else if (byte === closeBrace || byte === closeBracket) {
            this.depth -= 1;
            if (this.depth === 0) {
              finish(index);
              break;
            }
          }
        }
        continue;
      }
      const byte = chunk[index]!;
      if (isWhitespace(byte)) {
        index += 1;
        continue;
      }
      if (this.phase === 'before') {
        // a UTF-8 byte order mark, EF BB BF, possibly split across chunks
        const position = this.offset + index;
        if (position < 3 && byte === byteOrderMark[position] && position === this.markSeen) {
          this.markSeen += 1;
          index += 1;
          continue;
        }
        if (byte !== openBracket) {
          throw new JsonArraySyntaxError(
            'the file is not a JSON array (it does not start with "[")',
          );
        }
        this.phase = 'between';
        index += 1;
        continue;
      }
      if (this.phase === 'after') {
        throw new JsonArraySyntaxError('unexpected data after the end of the JSON array');
      }
      if (byte === comma) {
        if (this.expectingElement) {
          throw new JsonArraySyntaxError(`unexpected "," before record ${this.elementCount}`);
        }
        this.expectingElement = true;
        index += 1;
        continue;
      }
      if (byte === closeBracket) {
        if (this.expectingElement && this.elementCount > 0) {
          throw new JsonArraySyntaxError(
            `a "," before "]" leaves record ${this.elementCount} empty`,
          );
        }
        this.phase = 'after';
        index += 1;
        continue;
      }
      if (!this.expectingElement) {
        throw new JsonArraySyntaxError(
          `missing "," between records ${this.elementCount - 1} and ${this.elementCount}`,
        );
      }
      this.phase = 'element';
      start = index;
      if (byte === openBrace || byte === openBracket) {
        this.kind = 'container';
        this.depth = 1;
        index += 1;
      } else if (byte === quote) {
        this.kind = 'string';
        this.inString = true;
        this.pendingBackslashes = 0;
        index += 1;
      } else {
        this.kind = 'scalar';
      }
    }
    if (this.phase === 'element' && start >= 0 && start < length) {
      this.pieces.push(chunk.subarray(start, length));
    }
    this.offset += length;
    return elements;
  }

  /** Says the input has ended; throws if it ended before the array closed. */
  end(): void {
    if (this.phase === 'before') throw new JsonArraySyntaxError('the file is empty');
    if (this.phase === 'element') {
      throw new JsonArraySyntaxError(`the file ends inside record ${this.elementCount}`);
    }
    if (this.phase === 'between') {
      throw new JsonArraySyntaxError(
        this.elementCount === 0
          ? 'the file ends before the array closes'
          : `the file ends after record ${this.elementCount - 1} without closing the array`,
      );
    }
  }
}

// backslashes in chunk[from, to) that end at `to`; when the run reaches `from`, those carried in
// from before are added
function countBackslashes(chunk: Buffer, from: number, to: number, carried: number): number {
  let position = to - 1;
  while (position >= from && chunk[position] === backslash) position -= 1;
  const run = to - 1 - position;
  return position < from ? run + carried : run;
}
