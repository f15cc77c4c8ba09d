import { createRequire } from 'node:module';
import type { checkSync as RecheckSync } from 'recheck';
import { type BuiltInRegion, DEFAULT_PATTERNS } from './default-patterns.js';
import { DEFAULT_SHAPES, DEFAULT_TRIGGER_LENGTH } from './default-shapes.generated.js';
import { ValidatorError, ValidatorErrorCode } from './errors.js';
import { decodeShape } from './pattern-shapes.js';
import { analysePattern, type PatternShape, type Trigger } from './regex-analysis.js';
import {
  type CustomPatterns,
  DEFAULT_WEIGHTS,
  type PatternInput,
  type PatternRegion,
  SIGNAL_TYPES,
  type SignalType,
} from './types.js';

// recheck (the ReDoS checker) takes about 200 ms to load: it is read only when a custom pattern
// is checked, so a validator with the built-in patterns alone never pays for it
let recheckSync: typeof RecheckSync | undefined;
function checkSync(...args: Parameters<typeof RecheckSync>): ReturnType<typeof RecheckSync> {
  recheckSync ??= (createRequire(import.meta.url)('recheck') as { checkSync: typeof RecheckSync })
    .checkSync;
  return recheckSync(...args);
}

/** A pattern ready to scan with. */
export interface CompiledPattern {
  index: number;
  type: SignalType;
  weight: number;
  /** `late`: counts only past the opening (built-in patterns only). */
  region: BuiltInRegion;
  /** Finds the first match from `lastIndex` on (global; made at its first use). */
  readonly search: RegExp;
  /** Matches only at `lastIndex` (sticky). */
  sticky: RegExp;
  /** Literals every match starts with; undefined puts the pattern on the plain path. */
  triggers: Trigger[] | undefined;
  reach: number;
  behind: number;
  custom: boolean;
  /** Whether `sticky` has been compiled (see {@link compileAtOnce}; `search` is at its making). */
  stickyCompiled: boolean;
}

/** A trigger literal and the patterns whose matches can start with it. */
export interface TriggerBucket {
  trigger: Trigger;
  patterns: CompiledPattern[];
  /**
   * What the patterns need after the trigger (see {@link followFor}): worked out at the bucket's
   * first hit, as most buckets are never hit in a process; null when every pattern runs at any hit.
   */
  follow?: Follow | null;
}

/**
 * What may follow a bucket's trigger, read at each hit so that only the patterns that can match
 * there run: most hits of a common trigger ("I'm ", "I cannot") go on with words that none or few
 * of its patterns start with.
 */
export interface Follow {
  /**
   * Run just past the trigger (sticky, in any case, without capture groups), it matches the longest
   * of the patterns' continuations that the text goes on with.
   */
  sticky: RegExp;
  /** A continuation it can match, canonical → the patterns that can match there, in order. */
  patterns: Map<string, CompiledPattern[]>;
  /** The patterns that can match whatever follows the trigger, in order: all that run when it fails. */
  anyway: CompiledPattern[];
  /** Continuations as they stood in texts (any case and blanks) → their patterns, up to a bound. */
  seen: Map<string, CompiledPattern[]>;
}

/** A set of patterns with the one-pass prefilter over their leading literals. */
export interface CompiledPatternSet {
  patterns: CompiledPattern[];
  /** Patterns without leading literals, searched one by one. */
  plain: CompiledPattern[];
  /**
   * Find every position where a pattern that counts anywhere may start: one regular expression
   * for triggers that start a word, one for the others (V8 scans each much faster than the two
   * as one alternation).
   */
  prefilterAnywhere: Prefilter[];
  /** The same for every pattern (used in the openings). */
  prefilterAll: Prefilter[];
  /** The patterns with leading literals, which the prefilters find. */
  fastPatterns: CompiledPattern[];
  /** How many of them count anywhere. */
  fastAnywhere: number;
  /** Trigger literal (lower case) → bucket. */
  buckets: Map<string, TriggerBucket>;
  /** Prefilter hits as they stood in texts (any case and blanks) → bucket, up to a bound. */
  seen: Map<string, TriggerBucket | null>;
  /** Entries kept in `seen` and in the buckets' follows' `seen`, together. */
  seenCount: number;
  /** Longest reach of any pattern past its start; Infinity when some pattern is unbounded. */
  reach: number;
  /** Longest look-behind of any pattern. */
  behind: number;
  /** How long the triggers were cut to for the prefilters to fit (12 down to 2). */
  triggerLength: number;
  /** Whether the prefilters have been compiled (see {@link compilePrefilters}). */
  prefiltersCompiled: boolean;
}

const DEFAULT_REGION: Record<SignalType, PatternRegion> = {
  confusion: 'anywhere',
  refusal: 'lead',
  low_confidence: 'anywhere',
  empty_response: 'anywhere',
  tool_failure: 'anywhere',
  incomplete_reasoning: 'anywhere',
  hallucination_risk: 'anywhere',
};

function withFlags(flags: string, extra: string): string {
  const kept = [...flags].filter((flag) => flag !== 'g' && flag !== 'y').join('');
  return kept + extra;
}

function describe(pattern: RegExp | string): string {
  return pattern instanceof RegExp ? String(pattern) : JSON.stringify(pattern);
}

interface PatternSpec {
  type: SignalType;
  source: string;
  flags: string;
  weight: number;
  region: BuiltInRegion;
  custom: boolean;
  label: string;
  /** The analysis written for a built-in pattern, when it is of this source. */
  shape?: PatternShape | undefined;
}

function specFromInput(type: SignalType, input: PatternInput, position: number): PatternSpec {
  const where = `custom ${type} pattern #${position + 1}`;
  let pattern: RegExp | string;
  let weight = DEFAULT_WEIGHTS[type];
  let region = DEFAULT_REGION[type];
  if (input instanceof RegExp || typeof input === 'string') {
    pattern = input;
  } else if (typeof input === 'object' && input !== null && 'pattern' in input) {
    pattern = input.pattern;
    if (input.weight !== undefined) {
      if (typeof input.weight !== 'number' || !(input.weight >= 0 && input.weight <= 1)) {
        throw new ValidatorError(
          ValidatorErrorCode.INVALID_PATTERN,
          `${where} ${describe(pattern)}: weight must be a number from 0 to 1, got ${String(input.weight)}`,
        );
      }
      weight = input.weight;
    }
    if (input.region !== undefined) {
      if (input.region !== 'anywhere' && input.region !== 'lead') {
        throw new ValidatorError(
          ValidatorErrorCode.INVALID_PATTERN,
          `${where} ${describe(pattern)}: region must be "anywhere" or "lead", got ${JSON.stringify(input.region)}`,
        );
      }
      region = input.region;
    }
  } else {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_PATTERN,
      `${where} must be a RegExp, a string or { pattern, weight }, got ${input === null ? 'null' : typeof input}`,
    );
  }
  if (!(pattern instanceof RegExp) && typeof pattern !== 'string') {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_PATTERN,
      `${where}: pattern must be a RegExp or a string, got ${typeof pattern}`,
    );
  }
  if (typeof pattern === 'string' && pattern.length === 0) {
    throw new ValidatorError(ValidatorErrorCode.INVALID_PATTERN, `${where} is an empty string`);
  }
  const source = pattern instanceof RegExp ? pattern.source : pattern;
  // a string is a regular-expression source, matched in any case like the built-in patterns
  const flags = pattern instanceof RegExp ? withFlags(pattern.flags, '') : 'i';
  return {
    type,
    source,
    flags,
    weight,
    region,
    custom: true,
    label: `${where} ${describe(pattern)}`,
  };
}

/** Rejects a pattern that can backtrack catastrophically, naming it and its complexity. */
function assertSafe(spec: PatternSpec): void {
  let result: ReturnType<typeof checkSync>;
  try {
    // the automaton checker is exact and fast; it does not take look-behind or back-references,
    // for which recheck's fuzzer decides within the time limit
    result = checkSync(spec.source, spec.flags, { checker: 'automaton' });
    if (result.status === 'unknown' && result.error.kind === 'unsupported') {
      result = checkSync(spec.source, spec.flags, { timeout: 10_000 });
    }
  } catch (error) {
    throw new ValidatorError(
      ValidatorErrorCode.UNSAFE_PATTERN,
      `${spec.label} could not be checked for catastrophic backtracking: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (result.status === 'vulnerable') {
    const attack = result.attack.pattern ?? result.attack.string;
    throw new ValidatorError(
      ValidatorErrorCode.UNSAFE_PATTERN,
      `${spec.label} can backtrack catastrophically (${result.complexity.summary} time, e.g. on ${JSON.stringify(attack.slice(0, 60))}); rewrite it without nested or overlapping repetition`,
    );
  }
  if (result.status === 'unknown') {
    throw new ValidatorError(
      ValidatorErrorCode.UNSAFE_PATTERN,
      `${spec.label} could not be shown safe from catastrophic backtracking (${result.error.kind}${'message' in result.error ? `: ${result.error.message}` : ''}); simplify it`,
    );
  }
}

function compileSpec(spec: PatternSpec, index: number): CompiledPattern {
  let sticky: RegExp;
  try {
    sticky = new RegExp(spec.source, withFlags(spec.flags, 'y'));
  } catch (error) {
    throw new ValidatorError(
      ValidatorErrorCode.INVALID_PATTERN,
      `${spec.label} is not a valid regular expression: ${(error as Error).message}`,
      { cause: error },
    );
  }
  if (spec.custom) {
    sticky.lastIndex = 0;
    const empty = sticky.exec('');
    if (empty !== null) {
      throw new ValidatorError(
        ValidatorErrorCode.INVALID_PATTERN,
        `${spec.label} matches the empty string, so it would fire on every response`,
      );
    }
    assertSafe(spec);
  }
  const shape = spec.shape ?? analysePattern(spec.source, spec.flags);
  // the global form searches the whole text: only a pattern without leading literals and the
  // reference scan need it, so it is made, and compiled at once, at its first use
  let search: RegExp | undefined;
  return {
    index,
    type: spec.type,
    weight: spec.weight,
    region: spec.region,
    get search() {
      if (search === undefined) {
        search = new RegExp(spec.source, withFlags(spec.flags, 'g'));
        compileAtOnce(search);
      }
      return search;
    },
    sticky,
    triggers: shape.triggers,
    reach: shape.reach,
    behind: shape.behind,
    custom: spec.custom,
    stickyCompiled: false,
  };
}

// V8 compiles a regular expression at its first run. On a text shorter than 1,000 characters it
// compiles bytecode for its interpreter, then machine code at a later run; on a longer text,
// machine code at once. For expressions as large as the built-in patterns and the prefilters the
// bytecode costs more to build than the machine code (on the largest patterns about four times as
// much, measured on Node 20 and 22), so each is first run on a long blank text, which no trigger
// and no built-in pattern matches at its start. Nothing depends on this but the time it saves.
const LONG_BLANK_TEXT = ' '.repeat(1_000);

/** Has V8 compile `expression` to machine code now, leaving its `lastIndex` as it was. */
export function compileAtOnce(expression: RegExp): void {
  const kept = expression.lastIndex;
  expression.lastIndex = 0;
  expression.test(LONG_BLANK_TEXT);
  expression.lastIndex = kept;
}

/** Compiles a set's prefilters at once (see {@link compileAtOnce}), the first time it scans. */
export function compilePrefilters(set: CompiledPatternSet): void {
  if (set.prefiltersCompiled) return;
  for (const prefilter of [...set.prefilterAll, ...set.prefilterAnywhere]) {
    if (prefilter instanceof RegExp) compileAtOnce(prefilter);
    else if (prefilter instanceof LiteralStartFinder) prefilter.compileAtOnce();
  }
  set.prefiltersCompiled = true;
}

/** The prefilter form of one trigger character: blanks and apostrophes match their variants. */
function triggerCharacterSource(character: string): string {
  if (character === ' ') return '\\s+';
  if (character === "'") return "['’‘]";
  return character.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

interface TrieNode {
  children: Map<string, TrieNode>;
  /** A trigger ends here; true when it must end a word. */
  end: boolean | undefined;
}

/** The node at the end of `path` in the trie under `root`, made on the way where missing. */
function nodeAt<Node extends { children: Map<string, Node> }>(
  root: Node,
  path: string,
  make: () => Node,
): Node {
  let node = root;
  for (const character of path) {
    let child = node.children.get(character);
    if (!child) {
      child = make();
      node.children.set(character, child);
    }
    node = child;
  }
  return node;
}

/** Writes triggers as one alternation with shared prefixes, so a failing word is dropped early. */
function trieSource(triggers: Trigger[]): string {
  const make = (): TrieNode => ({ children: new Map(), end: undefined });
  const root = make();
  for (const trigger of triggers)
    nodeAt(root, trigger.literal, make).end = trigger.trailingBoundary;
  const write = (node: TrieNode): string => {
    const branches = [...node.children.entries()]
      .sort(([left], [right]) => left.localeCompare(right))
      .map(([character, child]) => triggerCharacterSource(character) + write(child));
    // triggers are prefix-free, so a node either ends a trigger or has children
    if (node.end !== undefined) return node.end ? '\\b' : '';
    if (branches.length === 1) return branches[0] ?? '';
    return `(?:${branches.join('|')})`;
  };
  return write(root);
}

function isWordChar(character: string | undefined): boolean {
  return character !== undefined && /^[A-Za-z0-9_]$/.test(character);
}

/**
 * Merges triggers so that no literal is a prefix of another: at any position at most one of them
 * matches, so the matched text names its bucket.
 */
function mergeTriggers(patterns: CompiledPattern[], maxLength: number): Map<string, TriggerBucket> {
  const buckets = new Map<string, TriggerBucket>();
  for (const pattern of patterns) {
    for (const whole of pattern.triggers ?? []) {
      // a shorter literal still starts every match, so cutting one is always safe
      const trigger =
        whole.literal.length > maxLength
          ? { ...whole, literal: whole.literal.slice(0, maxLength), trailingBoundary: false }
          : whole;
      const existing = buckets.get(trigger.literal);
      if (existing) {
        existing.trigger = {
          literal: trigger.literal,
          leadingBoundary: existing.trigger.leadingBoundary && trigger.leadingBoundary,
          trailingBoundary: existing.trigger.trailingBoundary && trigger.trailingBoundary,
        };
        if (!existing.patterns.includes(pattern)) existing.patterns.push(pattern);
      } else {
        buckets.set(trigger.literal, {
          trigger: { ...trigger },
          patterns: [pattern],
        });
      }
    }
  }
  const literals = [...buckets.keys()].sort((left, right) => left.length - right.length);
  for (const longer of literals) {
    const longerBucket = buckets.get(longer);
    if (!longerBucket) continue;
    // the shortest literal still in a bucket that this one starts with (its prefixes, shortest first)
    let shorter: string | undefined;
    for (let length = 1; length < longer.length && shorter === undefined; length += 1) {
      const candidate = longer.slice(0, length);
      if (buckets.has(candidate)) shorter = candidate;
    }
    if (shorter === undefined) continue;
    const shorterBucket = buckets.get(shorter);
    if (!shorterBucket) continue;
    // the shorter literal must still fire wherever the longer one would
    shorterBucket.trigger = {
      literal: shorter,
      leadingBoundary:
        shorterBucket.trigger.leadingBoundary && longerBucket.trigger.leadingBoundary,
      trailingBoundary:
        shorterBucket.trigger.trailingBoundary && !isWordChar(longer[shorter.length]),
    };
    for (const pattern of longerBucket.patterns) {
      if (!shorterBucket.patterns.includes(pattern)) shorterBucket.patterns.push(pattern);
    }
    buckets.delete(longer);
  }
  for (const bucket of buckets.values()) {
    bucket.patterns.sort((left, right) => left.index - right.index);
  }
  return buckets;
}

interface FollowNode {
  children: Map<string, FollowNode>;
  /** The patterns with a continuation that ends here. */
  patterns: CompiledPattern[];
}

const byIndex = (left: CompiledPattern, right: CompiledPattern) => left.index - right.index;

// above this the continuations are cut shorter, which only lets more patterns run
const MAX_FOLLOW_SOURCE = 4_000;

/**
 * Works out what follows a bucket's trigger in its patterns. Every match of a pattern starts with
 * one of its literals, in full (the analysis guarantees it, as it does for the prefilter, which
 * reads them cut to the trigger): at a hit of the trigger only a literal that starts with the
 * trigger can be the one, so the rest of that literal must follow. A pattern one of whose literals
 * is the trigger itself can match whatever follows; so can every pattern at a hit whose text names
 * no bucket.
 */
function followOf(bucket: TriggerBucket): Follow | undefined {
  const trigger = bucket.trigger.literal;
  const anyway: CompiledPattern[] = [];
  const keyed: { pattern: CompiledPattern; rests: string[] }[] = [];
  for (const pattern of bucket.patterns) {
    const rests = (pattern.triggers ?? [])
      .filter((whole) => whole.literal.startsWith(trigger))
      .map((whole) => whole.literal.slice(trigger.length));
    if (rests.length === 0 || rests.includes('')) anyway.push(pattern);
    else keyed.push({ pattern, rests });
  }
  if (keyed.length === 0) return undefined;
  const longest = Math.max(...keyed.flatMap(({ rests }) => rests.map((rest) => rest.length)));
  for (let keep = longest; ; keep = Math.ceil(keep / 2)) {
    const make = (): FollowNode => ({ children: new Map(), patterns: [] });
    const root = make();
    for (const { pattern, rests } of keyed) {
      for (const rest of rests) {
        const node = nodeAt(root, rest.slice(0, keep), make);
        if (!node.patterns.includes(pattern)) node.patterns.push(pattern);
      }
    }
    const source = followSource(root);
    if (source.length > MAX_FOLLOW_SOURCE && keep > 1) continue;
    // the expression ends on the deepest continuation the text has; those on the way to it hold too
    const patterns = new Map<string, CompiledPattern[]>();
    const collect = (node: FollowNode, path: string, above: CompiledPattern[]) => {
      let here = above;
      if (node.patterns.length > 0) {
        here = [...above, ...node.patterns.filter((pattern) => !above.includes(pattern))];
        patterns.set(path, [...here].sort(byIndex));
      }
      for (const [character, child] of node.children) collect(child, path + character, here);
    };
    collect(root, '', anyway);
    const sticky = new RegExp(source, 'iy');
    compileAtOnce(sticky);
    return { sticky, patterns, anyway, seen: new Map() };
  }
}

/** What follows a bucket's trigger in its patterns, worked out once, at the bucket's first hit. */
export function followFor(bucket: TriggerBucket): Follow | undefined {
  if (bucket.follow === undefined) bucket.follow = followOf(bucket) ?? null;
  return bucket.follow ?? undefined;
}

/**
 * Writes continuations as one expression that prefers the longer one: the characters of a blank
 * or an apostrophe match what they match in the prefilter, and two children of a node never match
 * the same character, so the expression follows the text down one path and stops at the deepest
 * continuation on it.
 */
function followSource(node: FollowNode): string {
  const branches = [...node.children.entries()]
    .sort(([left], [right]) => (left < right ? -1 : 1))
    .map(([character, child]) => triggerCharacterSource(character) + followSource(child));
  if (branches.length === 0) return '';
  const ends = node.patterns.length > 0;
  if (branches.length === 1 && !ends) return branches[0] ?? '';
  return `(?:${branches.join('|')})${ends ? '?' : ''}`;
}

/** Finds where a trigger starts, from `lastIndex` on; a RegExp or a {@link LiteralStartFinder}. */
export interface Prefilter {
  lastIndex: number;
  exec(text: string): { index: number; 0: string } | null;
  readonly source: string;
}

/**
 * A prefilter for triggers that all start with a character that has no case and is not a word
 * character ("...", "…", "[insert"): it looks for those first characters with `indexOf`, much
 * faster than a regular expression over every position, and reads the trigger there, sticky.
 */
export class LiteralStartFinder implements Prefilter {
  lastIndex = 0;
  readonly source: string;
  private readonly sticky: RegExp;
  private readonly firsts: string[];
  private readonly next: number[];
  private text: string | undefined;
  private searchedFrom = -1;

  /** `firsts`: strings one of which every match starts with. */
  constructor(source: string, firsts: string[]) {
    this.source = source;
    this.sticky = new RegExp(source, 'iy');
    this.firsts = firsts;
    this.next = firsts.map(() => -1);
  }

  /** See {@link compileAtOnce}. */
  compileAtOnce(): void {
    compileAtOnce(this.sticky);
  }

  exec(text: string): { index: number; 0: string } | null {
    let from = this.lastIndex;
    // the next occurrence of each first character is kept while the search moves forward
    if (text !== this.text || from < this.searchedFrom) {
      this.text = text;
      this.next.fill(-1);
    }
    this.searchedFrom = from;
    for (;;) {
      let candidate = -1;
      for (let index = 0; index < this.firsts.length; index += 1) {
        let at = this.next[index] ?? -1;
        if (at !== Number.POSITIVE_INFINITY && at < from) {
          const found = text.indexOf(this.firsts[index] as string, from);
          at = found === -1 ? Number.POSITIVE_INFINITY : found;
          this.next[index] = at;
        }
        if (at !== Number.POSITIVE_INFINITY && (candidate === -1 || at < candidate)) candidate = at;
      }
      if (candidate === -1) {
        this.lastIndex = 0;
        return null;
      }
      this.sticky.lastIndex = candidate;
      const match = this.sticky.exec(text);
      if (match !== null) {
        this.lastIndex = candidate + match[0].length;
        return { index: candidate, 0: match[0] };
      }
      from = candidate + 1;
    }
  }
}

function buildPrefilter(buckets: TriggerBucket[]): Prefilter[] {
  const bounded = buckets.filter((bucket) => bucket.trigger.leadingBoundary);
  const free = buckets.filter((bucket) => !bucket.trigger.leadingBoundary);
  const prefilters: Prefilter[] = [];
  if (bounded.length > 0) {
    prefilters.push(new RegExp(`\\b${trieSource(bounded.map((bucket) => bucket.trigger))}`, 'gi'));
  }
  if (free.length > 0) {
    const source = trieSource(free.map((bucket) => bucket.trigger));
    // each trigger's opening run of characters that have no case and are not word characters,
    // blanks or apostrophes ("...", "…", "["): where one of those occurs, a trigger may start
    const plain = (character: string) =>
      character.toLowerCase() === character.toUpperCase() && !/[\s\w'’‘]/.test(character);
    const openings = free.map((bucket) => {
      let opening = '';
      for (const character of bucket.trigger.literal) {
        if (!plain(character) || opening.length === 3) break;
        opening += character;
      }
      return opening;
    });
    const caseless = openings.every((opening) => opening !== '');
    // an opening that another one starts with adds nothing
    const firsts = [...new Set(openings)].filter(
      (opening, _, all) => !all.some((other) => other !== opening && opening.startsWith(other)),
    );
    prefilters.push(caseless ? new LiteralStartFinder(source, firsts) : new RegExp(source, 'gi'));
  }
  return prefilters;
}

const sourceLength = (prefilters: Prefilter[]) =>
  prefilters.reduce((total, prefilter) => total + prefilter.source.length, 0);

const MAX_PREFILTER_SOURCE = 16_000;

/**
 * Compiles the built-in and custom patterns; custom ones are checked for ReDoS first. The analysis
 * written for the built-in patterns is used where it is of their sources; `fresh` works everything
 * out again (to write it, and to test it).
 */
export function compilePatterns(
  options: {
    customPatterns?: CustomPatterns | undefined;
    defaultPatterns?: boolean | undefined;
  },
  { fresh = false }: { fresh?: boolean } = {},
): CompiledPatternSet {
  const specs: PatternSpec[] = [];
  if (options.defaultPatterns !== false) {
    DEFAULT_PATTERNS.forEach((definition, position) => {
      specs.push({
        type: definition.type,
        source: definition.source,
        flags: 'i',
        weight: definition.weight ?? DEFAULT_WEIGHTS[definition.type],
        region: definition.region ?? DEFAULT_REGION[definition.type],
        custom: false,
        label: `built-in ${definition.type} pattern #${position + 1}`,
        shape: fresh ? undefined : decodeShape(definition.source, DEFAULT_SHAPES[position]),
      });
    });
  }
  const custom = options.customPatterns;
  if (custom !== undefined) {
    if (typeof custom !== 'object' || custom === null || Array.isArray(custom)) {
      throw new ValidatorError(
        ValidatorErrorCode.INVALID_OPTIONS,
        'customPatterns must be an object mapping signal types to lists of patterns',
      );
    }
    for (const [type, list] of Object.entries(custom)) {
      if (!(SIGNAL_TYPES as readonly string[]).includes(type)) {
        throw new ValidatorError(
          ValidatorErrorCode.INVALID_OPTIONS,
          `customPatterns has an unknown signal type "${type}"; expected one of ${SIGNAL_TYPES.join(', ')}`,
        );
      }
      if (list === undefined) continue;
      if (!Array.isArray(list)) {
        throw new ValidatorError(
          ValidatorErrorCode.INVALID_OPTIONS,
          `customPatterns.${type} must be a list of patterns`,
        );
      }
      list.forEach((input: PatternInput, position: number) => {
        specs.push(specFromInput(type as SignalType, input, position));
      });
    }
  }
  const patterns = specs.map(compileSpec);
  const fast = patterns.filter((pattern) => pattern.triggers !== undefined);
  // V8 compiles a regular expression whose source is over 20 KB without its optimisations, which
  // makes it many times slower; shorter triggers make a smaller prefilter. For the built-in
  // patterns alone, as written, the length was found when they were written: the search starts there
  const written =
    !fresh &&
    custom === undefined &&
    specs.length > 0 &&
    specs.length === DEFAULT_SHAPES.length &&
    specs.every((spec) => spec.shape !== undefined);
  let maxLength = written ? DEFAULT_TRIGGER_LENGTH : 12;
  let buckets: Map<string, TriggerBucket>;
  let prefilterAll: Prefilter[];
  let prefilterAnywhere: Prefilter[];
  for (;;) {
    buckets = mergeTriggers(fast, maxLength);
    const all = [...buckets.values()];
    prefilterAll = buildPrefilter(all);
    prefilterAnywhere = buildPrefilter(
      all.filter((bucket) => bucket.patterns.some((pattern) => pattern.region !== 'lead')),
    );
    const size = Math.max(sourceLength(prefilterAll), sourceLength(prefilterAnywhere));
    if (size <= MAX_PREFILTER_SOURCE || maxLength <= 2) break;
    maxLength -= 2;
  }
  return {
    patterns,
    plain: patterns.filter((pattern) => pattern.triggers === undefined),
    prefilterAll,
    prefilterAnywhere,
    fastPatterns: fast,
    fastAnywhere: fast.filter((pattern) => pattern.region !== 'lead').length,
    buckets,
    seen: new Map(),
    seenCount: 0,
    reach: Math.max(0, ...patterns.map((pattern) => pattern.reach)),
    behind: Math.max(0, ...patterns.map((pattern) => pattern.behind)),
    triggerLength: maxLength,
    prefiltersCompiled: false,
  };
}
