/*
 * A small reader of JavaScript regular-expression sources, enough to answer two questions about a
 * pattern: which literal words every match starts with (so one scan for those words can replace a
 * scan per pattern), and how far a match can reach (so a stream can be checked with a bounded
 * buffer). Anything it does not understand makes it answer "unknown", never a wrong bound.
 */

type Atom =
  | { kind: 'char'; value: string }
  | { kind: 'set'; nonWord: boolean; canonical?: ' ' | "'" }
  | { kind: 'assertion'; value: 'b' | 'B' | '^' | '$' }
  | { kind: 'look'; behind: boolean; body: Branch[] }
  | { kind: 'group'; body: Branch[] }
  | { kind: 'backreference' };

interface Term {
  atom: Atom;
  min: number;
  max: number;
}

type Branch = Term[];

class UnsupportedSyntax extends Error {}

/**
 * The form in which triggers are compared: lower case, every run of blanks as one space, every
 * apostrophe as a straight one.
 */
export function canonicalTrigger(text: string): string {
  // most hits are already canonical; checking is cheaper than rebuilding the string
  if (!NOT_CANONICAL.test(text)) return text;
  let canonical = text.toLowerCase();
  // most hits only have a capital ("I cannot"): the replacements run when there is work for them
  if (SPACING.test(canonical)) canonical = canonical.replace(/\s+/g, ' ');
  if (CURLY.test(canonical)) canonical = canonical.replace(/[’‘]/g, "'");
  return canonical;
}

const NOT_CANONICAL = /[A-Z\t-\r\u0080-\uffff]| {2}/;
const SPACING = /[^\S ]| {2}/;
const CURLY = /[’‘]/;

const WORD_CHAR = /^[A-Za-z0-9_]$/;

/** The apostrophes a trigger treats as one: straight, right and left single quotation marks. */
const APOSTROPHES = ["'", '’', '‘'];

function isWordChar(value: string): boolean {
  return WORD_CHAR.test(value);
}

function rangeHasWordChar(from: number, to: number): boolean {
  const wordRanges: [number, number][] = [
    [48, 57],
    [65, 90],
    [95, 95],
    [97, 122],
  ];
  return wordRanges.some(([low, high]) => from <= high && to >= low);
}

class Parser {
  private index = 0;

  constructor(
    private readonly source: string,
    private readonly unicode: boolean,
  ) {}

  parse(): Branch[] {
    const branches = this.alternation();
    if (this.index !== this.source.length) throw new UnsupportedSyntax('unbalanced parenthesis');
    return branches;
  }

  private peek(offset = 0): string | undefined {
    return this.source[this.index + offset];
  }

  private alternation(): Branch[] {
    const branches: Branch[] = [this.branch()];
    while (this.peek() === '|') {
      this.index += 1;
      branches.push(this.branch());
    }
    return branches;
  }

  private branch(): Branch {
    const terms: Term[] = [];
    for (;;) {
      const next = this.peek();
      if (next === undefined || next === '|' || next === ')') return terms;
      const atom = this.atom();
      const { min, max } = this.quantifier();
      terms.push({ atom, min, max });
    }
  }

  private quantifier(): { min: number; max: number } {
    const next = this.peek();
    let bounds: { min: number; max: number } | undefined;
    if (next === '*') bounds = { min: 0, max: Number.POSITIVE_INFINITY };
    else if (next === '+') bounds = { min: 1, max: Number.POSITIVE_INFINITY };
    else if (next === '?') bounds = { min: 0, max: 1 };
    if (bounds) {
      this.index += 1;
    } else if (next === '{') {
      const match = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.index));
      if (!match) return { min: 1, max: 1 };
      const min = Number(match[1]);
      const max =
        match[2] === undefined
          ? min
          : match[3] === ''
            ? Number.POSITIVE_INFINITY
            : Number(match[3]);
      this.index += match[0].length;
      bounds = { min, max };
    } else {
      return { min: 1, max: 1 };
    }
    if (this.peek() === '?') this.index += 1;
    return bounds;
  }

  private atom(): Atom {
    const character = this.source[this.index];
    if (character === undefined) throw new UnsupportedSyntax('unexpected end');
    this.index += 1;
    switch (character) {
      case '\\':
        return this.escape();
      case '[':
        return this.characterClass();
      case '(':
        return this.group();
      case '.':
        return { kind: 'set', nonWord: false };
      case '^':
      case '$':
        return { kind: 'assertion', value: character };
      case '*':
      case '+':
      case '?':
        throw new UnsupportedSyntax('nothing to repeat');
      default: {
        if (this.unicode) {
          const code = character.charCodeAt(0);
          const low = this.source.charCodeAt(this.index);
          if (code >= 0xd800 && code <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
            this.index += 1;
            return { kind: 'char', value: character + String.fromCharCode(low) };
          }
        }
        return { kind: 'char', value: character };
      }
    }
  }

  private group(): Atom {
    if (this.peek() === '?') {
      const kind = this.source.slice(this.index, this.index + 3);
      let look: { behind: boolean } | undefined;
      if (kind.startsWith('?:')) {
        this.index += 2;
      } else if (kind.startsWith('?=') || kind.startsWith('?!')) {
        this.index += 2;
        look = { behind: false };
      } else if (kind === '?<=' || kind === '?<!') {
        this.index += 3;
        look = { behind: true };
      } else if (kind.startsWith('?<')) {
        const end = this.source.indexOf('>', this.index);
        if (end === -1) throw new UnsupportedSyntax('unterminated group name');
        this.index = end + 1;
      } else {
        throw new UnsupportedSyntax(`group syntax (${kind})`);
      }
      const body = this.alternation();
      this.expect(')');
      return look ? { kind: 'look', behind: look.behind, body } : { kind: 'group', body };
    }
    const body = this.alternation();
    this.expect(')');
    return { kind: 'group', body };
  }

  private expect(character: string): void {
    if (this.peek() !== character) throw new UnsupportedSyntax(`expected ${character}`);
    this.index += 1;
  }

  private escape(): Atom {
    const character = this.source[this.index];
    if (character === undefined) throw new UnsupportedSyntax('trailing backslash');
    this.index += 1;
    switch (character) {
      case 'b':
      case 'B':
        return { kind: 'assertion', value: character };
      case 's':
        return { kind: 'set', nonWord: true, canonical: ' ' };
      case 'W':
        return { kind: 'set', nonWord: true };
      case 'S':
      case 'w':
      case 'd':
      case 'D':
        return { kind: 'set', nonWord: false };
      case 'p':
      case 'P':
        if (this.unicode) {
          const end = this.source.indexOf('}', this.index);
          if (end === -1) throw new UnsupportedSyntax('unterminated property escape');
          this.index = end + 1;
          return { kind: 'set', nonWord: false };
        }
        return { kind: 'char', value: character };
      case 'k':
        return { kind: 'backreference' };
      default: {
        if (/[1-9]/.test(character)) return { kind: 'backreference' };
        return { kind: 'char', value: this.escapedCharacter(character) };
      }
    }
  }

  /** The character an escape such as \n, \x41, \u0041, \u{1F600} or \. stands for. */
  private escapedCharacter(character: string): string {
    const simple: Record<string, string> = { n: '\n', r: '\r', t: '\t', v: '\v', f: '\f' };
    if (simple[character] !== undefined) return simple[character];
    if (character === '0' && !/[0-9]/.test(this.peek() ?? '')) return '\0';
    if (character === 'x') {
      const hex = /^[0-9A-Fa-f]{2}/.exec(this.source.slice(this.index));
      if (!hex) return 'x';
      this.index += 2;
      return String.fromCharCode(Number.parseInt(hex[0], 16));
    }
    if (character === 'u') {
      const rest = this.source.slice(this.index);
      const braced = this.unicode ? /^\{([0-9A-Fa-f]+)\}/.exec(rest) : null;
      if (braced) {
        this.index += braced[0].length;
        return String.fromCodePoint(Number.parseInt(braced[1] ?? '0', 16));
      }
      const hex = /^[0-9A-Fa-f]{4}/.exec(rest);
      if (!hex) return 'u';
      this.index += 4;
      return String.fromCharCode(Number.parseInt(hex[0], 16));
    }
    if (character === 'c') {
      const letter = this.peek();
      if (letter && /[A-Za-z]/.test(letter)) {
        this.index += 1;
        return String.fromCharCode(letter.charCodeAt(0) % 32);
      }
      throw new UnsupportedSyntax('control escape');
    }
    if (/[0-9]/.test(character)) throw new UnsupportedSyntax('octal escape');
    return character;
  }

  /** Reads a [...] class up to its closing bracket; it matches one character. */
  private characterClass(): Atom {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.index += 1;
    }
    let nonWord = true;
    let apostrophesOnly = true;
    let previous: number | undefined;
    for (;;) {
      const character = this.source[this.index];
      if (character === undefined) throw new UnsupportedSyntax('unterminated class');
      this.index += 1;
      if (character === ']') break;
      let code: number | undefined;
      if (character === '\\') {
        const escaped = this.source[this.index];
        if (escaped === undefined) throw new UnsupportedSyntax('trailing backslash');
        this.index += 1;
        if (escaped === 's' || escaped === 'W') {
          apostrophesOnly = false;
          previous = undefined;
          continue;
        }
        if ('wdSDpP'.includes(escaped)) {
          if ((escaped === 'p' || escaped === 'P') && this.unicode) {
            const end = this.source.indexOf('}', this.index);
            if (end === -1) throw new UnsupportedSyntax('unterminated property escape');
            this.index = end + 1;
          }
          nonWord = false;
          apostrophesOnly = false;
          previous = undefined;
          continue;
        }
        if (escaped === 'b') {
          code = 8;
        } else {
          code = this.escapedCharacter(escaped).codePointAt(0);
        }
      } else if (character === '-' && previous !== undefined && this.peek() !== ']') {
        const next = this.source[this.index];
        let to: number | undefined;
        if (next === '\\') {
          this.index += 1;
          const escaped = this.source[this.index];
          if (escaped === undefined) throw new UnsupportedSyntax('trailing backslash');
          this.index += 1;
          to = this.escapedCharacter(escaped).codePointAt(0);
        } else {
          this.index += 1;
          to = next?.codePointAt(0);
        }
        if (to === undefined) throw new UnsupportedSyntax('bad range');
        if (rangeHasWordChar(previous, to)) nonWord = false;
        apostrophesOnly = false;
        previous = undefined;
        continue;
      } else {
        code = character.codePointAt(0);
      }
      if (code !== undefined && isWordChar(String.fromCodePoint(code))) nonWord = false;
      if (code === undefined || !APOSTROPHES.includes(String.fromCodePoint(code))) {
        apostrophesOnly = false;
      }
      previous = code;
    }
    if (apostrophesOnly && !negated) return { kind: 'set', nonWord: true, canonical: "'" };
    return { kind: 'set', nonWord: nonWord && !negated };
  }
}

function parse(source: string, flags: string): Branch[] | undefined {
  // the v flag's class syntax (nested classes, set operations) is not read here
  if (flags.includes('v')) return undefined;
  try {
    return new Parser(source, flags.includes('u')).parse();
  } catch (error) {
    if (error instanceof UnsupportedSyntax) return undefined;
    throw error;
  }
}

/** Longest text a piece of pattern can consume, in UTF-16 code units. */
function atomLength(atom: Atom, unicode: boolean): number {
  switch (atom.kind) {
    case 'char':
      return atom.value.length;
    case 'set':
      return unicode ? 2 : 1;
    case 'assertion':
    case 'look':
      return 0;
    case 'group':
      return Math.max(0, ...atom.body.map((branch) => branchLength(branch, unicode)));
    case 'backreference':
      return Number.POSITIVE_INFINITY;
  }
}

function termLength(term: Term, unicode: boolean): number {
  const length = atomLength(term.atom, unicode);
  if (length === 0 || term.max === 0) return 0;
  return length * term.max;
}

function branchLength(branch: Branch, unicode: boolean): number {
  return branch.reduce((total, term) => total + termLength(term, unicode), 0);
}

/** How far past the start of a match a piece of pattern looks, lookahead and \b included. */
function atomReach(atom: Atom, unicode: boolean): number {
  switch (atom.kind) {
    case 'assertion':
      return atom.value === '^' ? 0 : unicode ? 2 : 1;
    case 'look':
      return atom.behind
        ? 0
        : Math.max(0, ...atom.body.map((branch) => branchReach(branch, unicode)));
    case 'group':
      return Math.max(0, ...atom.body.map((branch) => branchReach(branch, unicode)));
    default:
      return atomLength(atom, unicode);
  }
}

function branchReach(branch: Branch, unicode: boolean): number {
  let consumed = 0;
  let reach = 0;
  for (const term of branch) {
    if (term.max > 0) {
      const length = atomLength(term.atom, unicode);
      if (!Number.isFinite(length)) return Number.POSITIVE_INFINITY;
      const extra = atomReach(term.atom, unicode) - length;
      const repeated = length === 0 ? 0 : length * term.max;
      reach = Math.max(reach, consumed + repeated + extra);
    }
    consumed += termLength(term, unicode);
  }
  return reach;
}

/** How far before the start of a match a piece of pattern looks (lookbehind, \b, ^). */
function branchesBehind(branches: Branch[], unicode: boolean): number {
  let behind = 0;
  for (const branch of branches) {
    for (const term of branch) {
      const atom = term.atom;
      if (atom.kind === 'assertion' && atom.value !== '$')
        behind = Math.max(behind, unicode ? 2 : 1);
      if (atom.kind === 'look' && atom.behind) {
        const inner = Math.max(0, ...atom.body.map((inside) => branchLength(inside, unicode)));
        behind = Math.max(behind, inner + branchesBehind(atom.body, unicode));
      } else if (atom.kind === 'look' || atom.kind === 'group') {
        behind = Math.max(behind, branchesBehind(atom.body, unicode));
      }
    }
  }
  return behind;
}

/** A literal text every match of a pattern (or of one of its alternatives) starts with. */
export interface Trigger {
  /** The literal, lower-cased. */
  literal: string;
  /** The match starts at a word boundary (the pattern says \b before the literal). */
  leadingBoundary: boolean;
  /** The literal ends a word: what the pattern requires next is not a word character. */
  trailingBoundary: boolean;
}

/** What the analysis knows about a pattern. */
export interface PatternShape {
  /** Literals covering every possible match start, or undefined when they cannot be found. */
  triggers: Trigger[] | undefined;
  /** Longest stretch after a match start the pattern examines; Infinity when unbounded. */
  reach: number;
  /** Longest stretch before a match start the pattern examines; Infinity when unknown. */
  behind: number;
}

const MAX_TRIGGERS_PER_PATTERN = 256;
// a trigger this long is rare enough; stopping here keeps the combinations of long phrases few
const MAX_TRIGGER_LENGTH = 16;

/** A way a stretch of pattern can begin: the literal it starts with, and what comes after. */
interface Continuation {
  literal: string;
  /** The stretch may be wholly literal, so the literal can go on with what follows it. */
  open: boolean;
  /** What the pattern requires right after the literal is not a word character. */
  trailingBoundary: boolean;
  /** A \b comes before the first character of the literal. */
  boundaryAtStart: boolean;
}

/** Whether the terms from `index` on must start with a non-word character. */
function startsWithNonWord(terms: Branch, index: number): boolean {
  const term = terms[index];
  if (term === undefined) return false;
  const atom = term.atom;
  if (atom.kind === 'look') return startsWithNonWord(terms, index + 1);
  if (atom.kind === 'assertion') return atom.value === 'b';
  if (term.max === 0) return startsWithNonWord(terms, index + 1);
  let present: boolean;
  switch (atom.kind) {
    case 'char':
      present = !isWordChar(atom.value[0] ?? '');
      break;
    case 'set':
      present = atom.nonWord;
      break;
    case 'group':
      present = atom.body.every((branch) => startsWithNonWord(branch, 0));
      break;
    default:
      present = false;
  }
  // an optional piece may be absent, and then what follows it comes next
  return term.min === 0 ? present && startsWithNonWord(terms, index + 1) : present;
}

function concatenate(first: Continuation, second: Continuation): Continuation {
  const literal =
    first.literal.endsWith(' ') && second.literal.startsWith(' ')
      ? first.literal + second.literal.slice(1)
      : first.literal + second.literal;
  const boundaryAtStart = first.boundaryAtStart || (first.literal === '' && second.boundaryAtStart);
  if (literal.length > MAX_TRIGGER_LENGTH) {
    return {
      literal: literal.slice(0, MAX_TRIGGER_LENGTH),
      open: false,
      trailingBoundary: false,
      boundaryAtStart,
    };
  }
  return {
    literal,
    open: second.open,
    trailingBoundary: second.trailingBoundary,
    boundaryAtStart,
  };
}

function distinct(list: Continuation[]): Continuation[] {
  // keyed by literal, then by the three flags as bits: no key string is built per item
  const seen = new Map<string, number>();
  const unique: Continuation[] = [];
  for (const item of list) {
    const bit =
      1 << ((item.open ? 4 : 0) | (item.trailingBoundary ? 2 : 0) | (item.boundaryAtStart ? 1 : 0));
    const bits = seen.get(item.literal) ?? 0;
    if ((bits & bit) !== 0) continue;
    seen.set(item.literal, bits | bit);
    unique.push(item);
  }
  return unique;
}

/**
 * Finds the literals every match of a pattern starts with, by walking its terms. Each stretch
 * (branch, index) is worked out once; when combinations grow past a limit, the literal stops
 * earlier, which only makes the prefilter fire more often, never miss a match.
 */
class TriggerFinder {
  private readonly memo = new Map<Branch, Map<number, Continuation[]>>();

  /** The ways the terms from `index` on can begin. */
  continuations(terms: Branch, index: number): Continuation[] {
    let byIndex = this.memo.get(terms);
    if (!byIndex) {
      byIndex = new Map();
      this.memo.set(terms, byIndex);
    }
    const known = byIndex.get(index);
    if (known) return known;
    const result = this.compute(terms, index);
    byIndex.set(index, result);
    return result;
  }

  private closedAt(terms: Branch, index: number): Continuation[] {
    return [
      {
        literal: '',
        open: false,
        trailingBoundary: startsWithNonWord(terms, index),
        boundaryAtStart: false,
      },
    ];
  }

  /** Joins the ways a term can begin with the ways the rest can; stops after the term if too many. */
  private join(head: Continuation[], terms: Branch, next: number): Continuation[] {
    const rest = this.continuations(terms, next);
    // too many combinations: keep fewer characters of what follows the head, then none
    for (const extra of [MAX_TRIGGER_LENGTH, 12, 8, 5, 3]) {
      const joined: Continuation[] = [];
      for (const first of head) {
        if (!first.open) {
          joined.push(first);
          continue;
        }
        const limit = first.literal.length + extra;
        for (const second of rest) {
          const item = concatenate(first, second);
          joined.push(
            item.literal.length > limit
              ? {
                  ...item,
                  literal: item.literal.slice(0, limit),
                  open: false,
                  trailingBoundary: false,
                }
              : item,
          );
        }
      }
      const unique = distinct(joined);
      if (unique.length <= MAX_TRIGGERS_PER_PATTERN) return unique;
    }
    const after = startsWithNonWord(terms, next);
    return head.map((first) =>
      first.open ? { ...first, open: false, trailingBoundary: after } : first,
    );
  }

  /** The ways one atom, taken exactly once, can begin. */
  private atomContinuations(atom: Atom): Continuation[] | undefined {
    if (atom.kind === 'char') {
      // a cased letter outside ASCII folds in ways lower-casing does not mirror (İ, ß, ſ)
      if (
        [...atom.value].some((character) => (character.codePointAt(0) ?? 0) > 0x7f) &&
        atom.value.toLowerCase() !== atom.value.toUpperCase()
      ) {
        return undefined;
      }
      return [
        {
          literal: canonicalTrigger(atom.value),
          open: true,
          trailingBoundary: false,
          boundaryAtStart: false,
        },
      ];
    }
    if (atom.kind === 'set' && atom.canonical !== undefined) {
      return [
        { literal: atom.canonical, open: true, trailingBoundary: false, boundaryAtStart: false },
      ];
    }
    if (atom.kind === 'group') {
      const union: Continuation[] = [];
      for (const branch of atom.body) union.push(...this.continuations(branch, 0));
      const unique = distinct(union);
      return unique.length > MAX_TRIGGERS_PER_PATTERN ? undefined : unique;
    }
    return undefined;
  }

  private compute(terms: Branch, index: number): Continuation[] {
    const term = terms[index];
    if (term === undefined) {
      return [{ literal: '', open: true, trailingBoundary: false, boundaryAtStart: false }];
    }
    const atom = term.atom;
    if (atom.kind === 'assertion' || atom.kind === 'look') {
      const rest = this.continuations(terms, index + 1);
      if (atom.kind === 'assertion' && atom.value === 'b') {
        return rest.map((item) => ({ ...item, boundaryAtStart: true }));
      }
      return rest;
    }
    // blanks and apostrophes stand in a trigger as one canonical character: the prefilter
    // matches any run of blanks and any apostrophe there, and hits are normalised the same way
    const repeatable =
      term.max === 1 || (atom.kind === 'set' && atom.canonical === ' ' && term.max >= 1);
    if (!repeatable || term.min > 1) return this.closedAt(terms, index);
    const head = this.atomContinuations(atom);
    if (head === undefined) return this.closedAt(terms, index);
    const taken = this.join(head, terms, index + 1);
    if (term.min >= 1) return taken;
    // an optional piece: the match either has it once or goes straight on
    const both = distinct([...taken, ...this.continuations(terms, index + 1)]);
    return both.length > MAX_TRIGGERS_PER_PATTERN ? this.closedAt(terms, index) : both;
  }
}

function findTriggers(branches: Branch[]): Trigger[] | undefined {
  const finder = new TriggerFinder();
  const found: Trigger[] = [];
  for (const branch of branches) {
    for (const result of finder.continuations(branch, 0)) {
      if (result.literal === '' || result.literal.startsWith(' ')) return undefined;
      found.push({
        literal: result.literal,
        leadingBoundary: result.boundaryAtStart && isWordChar(result.literal[0] ?? ''),
        trailingBoundary:
          !result.open &&
          result.trailingBoundary &&
          isWordChar(result.literal[result.literal.length - 1] ?? ''),
      });
    }
  }
  return found.length > 0 ? found : undefined;
}

/** Analyses a pattern source; `flags` are the RegExp flags it is compiled with. */
export function analysePattern(source: string, flags: string): PatternShape {
  const branches = parse(source, flags);
  if (branches === undefined) {
    return {
      triggers: undefined,
      reach: Number.POSITIVE_INFINITY,
      behind: Number.POSITIVE_INFINITY,
    };
  }
  const unicode = flags.includes('u');
  const reach = Math.max(0, ...branches.map((branch) => branchReach(branch, unicode)));
  const behind = branchesBehind(branches, unicode);
  // with both u and i, case folding reaches characters such as U+017F (long s) that the
  // prefilter, compiled without u, would not fold; such patterns take the plain path
  const foldsBeyondAscii = unicode && flags.includes('i');
  let triggers: Trigger[] | undefined;
  if (!foldsBeyondAscii) {
    triggers = findTriggers(branches);
  }
  return { triggers, reach, behind };
}
