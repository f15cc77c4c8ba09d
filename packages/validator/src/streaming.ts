import type { CompiledPatternSet } from './compile.js';
import { ValidatorError, ValidatorErrorCode } from './errors.js';
import { emptySignal, toQuality } from './quality.js';
import {
  CONTEXT_LENGTH,
  draftStart,
  FenceTracker,
  isWhitespaceCode,
  type Layout,
  MAX_DRAFT_INTRO,
  openingQuoteAt,
  opensJson,
  QUOTE_LOOKBACK,
  Scanner,
} from './scan.js';
import type { ResponseQuality } from './types.js';
import type { ResolvedValidatorOptions } from './validator.js';
import { MAX_LABEL_LENGTH, VoiceTracker } from './voices.js';

/** Assesses a response as it arrives; `end()` gives exactly what validating the whole text gives. */
export interface StreamingValidator {
  /** Adds the next piece of the response (text, or UTF-8 bytes). */
  push(chunk: string | Uint8Array): void;
  /** Ends the response and returns its assessment. */
  end(): ResponseQuality;
  /** Characters received so far. */
  readonly length: number;
}

/**
 * How many characters a stream takes in before it scans again. Each scan costs about the same
 * whatever arrived (the text appended to is copied into one string, the prefilter reads on to its
 * next hit), and chat streams arrive a few characters at a time; the outcome does not depend on
 * where the text was cut.
 */
const ADVANCE_EVERY = 256;

// the fence marker and up to three spaces of indentation before it
const FENCE_LOOKBEHIND = 4;
const FENCE_LENGTH = 3;

/**
 * Creates a stream over a compiled set. When every pattern starts with a literal and has a bounded
 * reach, the stream keeps only a bounded window of text; otherwise it keeps the text and validates
 * it whole at the end.
 */
export function createStream(
  set: CompiledPatternSet,
  options: ResolvedValidatorOptions,
  validateWhole: (text: string) => ResponseQuality,
): StreamingValidator {
  const bounded =
    set.plain.length === 0 && Number.isFinite(set.reach) && Number.isFinite(set.behind);
  const decoder = new TextDecoder('utf-8');
  let ended = false;
  let received = 0;

  const toText = (chunk: string | Uint8Array): string => {
    if (ended) {
      throw new ValidatorError(
        ValidatorErrorCode.STREAM_ENDED,
        'push() after end(): this stream is finished',
      );
    }
    if (typeof chunk === 'string') return chunk;
    if (chunk instanceof Uint8Array) return decoder.decode(chunk, { stream: true });
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_INPUT,
      `a chunk must be a string or a Uint8Array, got ${chunk === null ? 'null' : typeof chunk}`,
    );
  };

  const refuseSecondEnd = () => {
    if (ended) {
      throw new ValidatorError(
        ValidatorErrorCode.STREAM_ENDED,
        'end() was already called on this stream',
      );
    }
  };

  if (!bounded) {
    const pieces: string[] = [];
    return {
      push(chunk) {
        const text = toText(chunk);
        pieces.push(text);
        received += text.length;
      },
      end() {
        refuseSecondEnd();
        pieces.push(decoder.decode());
        ended = true;
        return validateWhole(pieces.join(''));
      },
      get length() {
        return received;
      },
    };
  }

  const fences = new FenceTracker();
  const voices = new VoiceTracker();
  const layout: Layout = { leadStart: undefined, leadLength: options.leadLength, fences, voices };
  const scanner = new Scanner(set, layout);
  // a match starting before `processed` has been decided; one starting later may still grow.
  // Voice labels are read further ahead than that, so a voice's opening is known before its
  // text is scanned
  const lag = Math.max(set.reach + 1, MAX_LABEL_LENGTH + 1) + CONTEXT_LENGTH;
  const keep = Math.max(set.behind + 1, CONTEXT_LENGTH, FENCE_LOOKBEHIND, QUOTE_LOOKBACK) + 1;
  let buffer = '';
  let offset = 0;
  let processed = 0;
  let fencesScanned = 0;
  let lastNonBlank = -1;
  // how much had been received when the window last moved on
  let advancedAt = 0;
  let head = '';
  // the response's first line, until its line break settles whether it announces a draft
  let firstLine = '';
  let draftSettled = false;

  const advance = (to: number) => {
    const openingEnd =
      layout.leadStart === undefined
        ? Number.POSITIVE_INFINITY
        : layout.leadStart + options.leadLength;
    if (voices.wanted(openingEnd)) {
      voices.scan(buffer, offset, ended ? received : received - MAX_LABEL_LENGTH, ended);
    }
    const fenceTo = Math.max(fencesScanned, received - FENCE_LENGTH + 1);
    if (fenceTo > fencesScanned) {
      fences.scan(buffer, offset, fencesScanned, ended ? received : fenceTo);
      fencesScanned = ended ? received : fenceTo;
    }
    if (to > processed) {
      scanner.scanFast(buffer, offset, processed, to);
      processed = to;
      fences.forgetBefore(processed);
    }
    const cut = Math.min(processed, fencesScanned) - keep - offset;
    if (cut > 0 && cut * 2 > buffer.length) {
      buffer = buffer.slice(cut);
      offset += cut;
    }
  };

  const take = (text: string) => {
    if (text.length === 0) return;
    const start = received;
    buffer += text;
    received += text.length;
    let index = 0;
    if (layout.leadStart === undefined) {
      while (index < text.length && isWhitespaceCode(text.charCodeAt(index))) index += 1;
      if (index < text.length) {
        layout.leadStart = start + index;
        layout.openingQuote = openingQuoteAt(buffer, layout.leadStart, offset);
        layout.json = opensJson(text[index]);
      }
    }
    layout.openingQuote?.read(buffer, offset);
    // from here on, `index` is where this piece's part of the response starts
    if (layout.leadStart !== undefined && !draftSettled) {
      const newline = text.indexOf('\n', index);
      firstLine += text.slice(index, newline === -1 ? text.length : newline);
      if (newline !== -1 || firstLine.length > MAX_DRAFT_INTRO) {
        draftSettled = true;
        layout.draftFrom = draftStart(
          firstLine,
          layout.leadStart,
          newline === -1 ? undefined : start + newline,
        );
      }
    }
    if (layout.leadStart !== undefined && head.length < options.minLength) {
      head += text.slice(index, index + (options.minLength - head.length));
    }
    for (let last = text.length - 1; last >= index; last -= 1) {
      if (!isWhitespaceCode(text.charCodeAt(last))) {
        lastNonBlank = start + last;
        break;
      }
    }
  };

  return {
    push(chunk) {
      take(toText(chunk));
      if (received - advancedAt >= ADVANCE_EVERY) {
        advancedAt = received;
        advance(received - lag);
      }
    },
    end() {
      refuseSecondEnd();
      take(decoder.decode());
      // a response of one short line settles its draft here: only a greeting can open one
      if (!draftSettled && layout.leadStart !== undefined) {
        draftSettled = true;
        layout.draftFrom = draftStart(firstLine, layout.leadStart, undefined);
      }
      ended = true;
      advance(received);
      const found = scanner.settle();
      const leadStart = layout.leadStart;
      const trimmedLength = leadStart === undefined ? 0 : lastNonBlank - leadStart + 1;
      const empty =
        trimmedLength < options.minLength
          ? emptySignal(head.slice(0, trimmedLength), leadStart ?? 0)
          : undefined;
      return toQuality(found, empty, options.strictMode);
    },
    get length() {
      return received;
    },
  };
}
