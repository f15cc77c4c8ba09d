/** Special tokens of the tiny WordPiece vocabulary, in id order. */
export const TINY_SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

const PUNCTUATION = [...'.,!?;:\'"()[]-/%$&*+=<>@#'];
const DIGITS = [...'0123456789'];
const LETTERS = [...'abcdefghijklmnopqrstuvwxyz'];

// whole words keep common text short in tokens; any other ascii word still splits into letters
const COMMON_WORDS = [
  'the a an and or but not no yes is are was were be been has have had do does did i you he',
  'she it we they my your his her its our their this that these those of in on at to for',
  'from with by as about into over after before what when where who why how which there',
  'here all some many one two three four five year years day days time people city country',
  'capital france paris london berlin cat dog car book red blue green big small new old',
  'good bad first last lives live moved born works bought sold likes said answer question',
  'evidence meeting monday tuesday friday morning evening doctor teacher store ##s ##ed',
  '##ing ##ly ##er ##est ##tion',
]
  .join(' ')
  .split(' ');

/** Options of the tiny WordPiece tokenizer. */
export interface TinyTokenizerOptions {
  /** Extra whole words added to the vocabulary after the built-in ones. */
  extraWords?: readonly string[];
  /** Longest sequence the tokenizer declares (`model_max_length`). */
  maxLength?: number;
}

/** The three files transformers.js reads for a tokenizer, as JSON-ready objects. */
export interface TinyTokenizerFiles {
  vocabulary: string[];
  tokenizerJson: Record<string, unknown>;
  tokenizerConfigJson: Record<string, unknown>;
}

/** Builds the vocabulary: special tokens, punctuation, digits, letters, their `##` pieces, words. */
export function tinyVocabulary(extraWords: readonly string[] = []): string[] {
  const ordered = [
    ...TINY_SPECIAL_TOKENS,
    ...PUNCTUATION,
    ...DIGITS,
    ...LETTERS,
    ...DIGITS.map((digit) => `##${digit}`),
    ...LETTERS.map((letter) => `##${letter}`),
    ...COMMON_WORDS,
    ...extraWords.map((word) => word.toLowerCase()),
  ];
  return [...new Set(ordered)];
}

/**
 * Builds a BERT-style WordPiece tokenizer: lowercase normaliser, BERT pre-tokenizer, and a
 * template post-processor that marks the second text of a pair with token type 1.
 */
export function tinyTokenizerFiles(options: TinyTokenizerOptions = {}): TinyTokenizerFiles {
  const vocabulary = tinyVocabulary(options.extraWords);
  const ids = new Map(vocabulary.map((token, index) => [token, index]));
  const idOf = (token: string): number => {
    const id = ids.get(token);
    if (id === undefined) throw new Error(`token ${token} is missing from the tiny vocabulary`);
    return id;
  };
  const special = (content: string) => ({
    id: idOf(content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  });
  const tokenizerJson = {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: TINY_SPECIAL_TOKENS.map(special),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: '[CLS]', type_id: 0 } },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: { id: '[SEP]', type_id: 0 } },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: {
        '[CLS]': { id: '[CLS]', ids: [idOf('[CLS]')], tokens: ['[CLS]'] },
        '[SEP]': { id: '[SEP]', ids: [idOf('[SEP]')], tokens: ['[SEP]'] },
      },
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(ids),
    },
  };
  const tokenizerConfigJson = {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: options.maxLength ?? 128,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
    clean_up_tokenization_spaces: true,
  };
  return { vocabulary, tokenizerJson, tokenizerConfigJson };
}
