import { type CompiledPatternSet, compilePatterns } from './compile.js';
import { ValidatorError, ValidatorErrorCode } from './errors.js';
import type { LearnedOptions } from './learned/layer.js';
import {
  checkLearnedOption,
  LearnedLayer,
  streamWithLearned,
  validateWithLearned,
} from './learned/layer.js';
import { emptySignal, toQuality } from './quality.js';
import { layoutText, scanText, scanTextReference, trimBounds } from './scan.js';
import { createStream, type StreamingValidator } from './streaming.js';
import type { CustomPatterns, ResponseQuality, ValidatorOptions } from './types.js';

/** The options a validator runs with, defaults filled in. */
export interface ResolvedValidatorOptions {
  minLength: number;
  strictMode: boolean;
  defaultPatterns: boolean;
  leadLength: number;
  customPatterns: CustomPatterns | undefined;
  /** The learned layer's options, or undefined when it is off. */
  learned: LearnedOptions | undefined;
}

/** A validator whose patterns are compiled once and reused for every response. */
export interface Validator {
  /** Assesses one response. */
  validate(text: string): ResponseQuality;
  /** Assesses many responses, in order. */
  validateMany(texts: readonly string[]): ResponseQuality[];
  /** Starts a streaming assessment of one response. */
  stream(): StreamingValidator;
  readonly options: Readonly<ResolvedValidatorOptions>;
}

const OPTION_NAMES = [
  'minLength',
  'strictMode',
  'customPatterns',
  'defaultPatterns',
  'leadLength',
  'learned',
];

function invalidOption(message: string): ValidatorError {
  return new ValidatorError(ValidatorErrorCode.INVALID_OPTIONS, message);
}

/** Checks options and fills in the defaults. */
function resolveOptions(options: ValidatorOptions | undefined): ResolvedValidatorOptions {
  if (options === undefined || options === null) options = {};
  if (typeof options !== 'object' || Array.isArray(options)) {
    throw invalidOption(
      `options must be an object, got ${Array.isArray(options) ? 'an array' : typeof options}`,
    );
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) {
      throw invalidOption(`unknown option "${key}"; expected one of ${OPTION_NAMES.join(', ')}`);
    }
  }
  const minLength = options.minLength ?? 20;
  if (typeof minLength !== 'number' || !Number.isFinite(minLength) || minLength < 0) {
    throw invalidOption(`minLength must be a number of characters >= 0, got ${String(minLength)}`);
  }
  const leadLength = options.leadLength ?? 400;
  if (typeof leadLength !== 'number' || Number.isNaN(leadLength) || leadLength < 0) {
    throw invalidOption(
      `leadLength must be a number of characters >= 0, got ${String(leadLength)}`,
    );
  }
  for (const key of ['strictMode', 'defaultPatterns'] as const) {
    const value = options[key];
    if (value !== undefined && typeof value !== 'boolean') {
      throw invalidOption(`${key} must be true or false, got ${String(value)}`);
    }
  }
  return {
    minLength,
    strictMode: options.strictMode ?? false,
    defaultPatterns: options.defaultPatterns ?? true,
    leadLength,
    customPatterns: options.customPatterns,
    learned: checkLearnedOption(options.learned),
  };
}

function assertText(text: unknown, where: string): asserts text is string {
  if (typeof text !== 'string') {
    const kind = text === null ? 'null' : Array.isArray(text) ? 'an array' : typeof text;
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_INPUT,
      `${where} must be the response text as a string, got ${kind}`,
    );
  }
}

function validateWith(
  set: CompiledPatternSet,
  options: ResolvedValidatorOptions,
  text: string,
  scan: typeof scanText,
): ResponseQuality {
  const layout = layoutText(text, options.leadLength);
  const found = scan(set, text, layout);
  const bounds = trimBounds(text);
  const trimmedLength = bounds ? bounds.last - bounds.first + 1 : 0;
  const empty =
    trimmedLength < options.minLength
      ? emptySignal(bounds ? text.slice(bounds.first, bounds.last + 1) : '', bounds?.first ?? 0)
      : undefined;
  return toQuality(found, empty, options.strictMode);
}

let defaultSet: CompiledPatternSet | undefined;
const customSets = new WeakMap<
  object,
  { withDefaults?: CompiledPatternSet; alone?: CompiledPatternSet }
>();

/** Compiles the pattern set for some options, reusing an earlier compilation when it can. */
function patternSetFor(options: ResolvedValidatorOptions): CompiledPatternSet {
  const custom = options.customPatterns;
  if (custom === undefined) {
    if (!options.defaultPatterns) return compilePatterns({ defaultPatterns: false });
    defaultSet ??= compilePatterns({});
    return defaultSet;
  }
  if (typeof custom !== 'object' || custom === null) {
    return compilePatterns({ customPatterns: custom, defaultPatterns: options.defaultPatterns });
  }
  // a caller that passes the same customPatterns object again gets the patterns compiled once
  let entry = customSets.get(custom);
  if (!entry) {
    entry = {};
    customSets.set(custom, entry);
  }
  const key = options.defaultPatterns ? 'withDefaults' : 'alone';
  entry[key] ??= compilePatterns({
    customPatterns: custom,
    defaultPatterns: options.defaultPatterns,
  });
  return entry[key];
}

/**
 * Creates a validator: options are checked and patterns compiled (custom ones checked for
 * catastrophic backtracking) once, here.
 */
export function createValidator(options?: ValidatorOptions): Validator {
  const resolved = resolveOptions(options);
  const set = patternSetFor(resolved);
  const patterns = (text: string) => validateWith(set, resolved, text, scanText);
  // the learned layer reads its model at the first response; without it nothing changes here
  const layer = resolved.learned ? new LearnedLayer(resolved.learned) : undefined;
  const validate = layer
    ? (text: string) => validateWithLearned(layer, text, patterns, resolved.strictMode)
    : patterns;
  return {
    options: Object.freeze({ ...resolved }),
    validate(text: string): ResponseQuality {
      assertText(text, 'the response');
      return validate(text);
    },
    validateMany(texts: readonly string[]): ResponseQuality[] {
      if (!Array.isArray(texts)) {
        throw new ValidatorError(
          ValidatorErrorCode.INVALID_INPUT,
          `the responses must be an array of strings, got ${texts === null ? 'null' : typeof texts}`,
        );
      }
      return texts.map((text, index) => {
        assertText(text, `response ${index}`);
        return validate(text);
      });
    },
    stream(): StreamingValidator {
      const stream = createStream(set, resolved, patterns);
      return layer ? streamWithLearned(layer, stream, resolved.strictMode) : stream;
    },
  };
}

/** Assesses one response: its score, signals, whether to escalate, why, and what to do. */
export function validateResponse(text: string, options?: ValidatorOptions): ResponseQuality {
  assertText(text, 'the response');
  return createValidator(options).validate(text);
}

/** Assesses many responses with the same options, in order. */
export function validateResponses(
  texts: readonly string[],
  options?: ValidatorOptions,
): ResponseQuality[] {
  return createValidator(options).validateMany(texts);
}

/** Starts a streaming assessment: push chunks as they arrive, then end() for the result. */
export function createStreamingValidator(options?: ValidatorOptions): StreamingValidator {
  return createValidator(options).stream();
}

/**
 * A validator that uses the straightforward scan: each pattern searched over the whole text on its
 * own. Same results as {@link createValidator}; kept for cross-checks and as the benchmark's
 * reference. Not part of the public API.
 */
export function createReferenceValidator(options?: ValidatorOptions): Pick<Validator, 'validate'> {
  const resolved = resolveOptions(options);
  const set = patternSetFor(resolved);
  return {
    validate(text: string): ResponseQuality {
      assertText(text, 'the response');
      return validateWith(set, resolved, text, scanTextReference);
    },
  };
}

/** {@link createReferenceValidator} for one response. */
export function validateResponseReference(
  text: string,
  options?: ValidatorOptions,
): ResponseQuality {
  return createReferenceValidator(options).validate(text);
}
