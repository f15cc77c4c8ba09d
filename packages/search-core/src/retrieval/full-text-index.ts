import { SearchCoreError, SearchCoreErrorCode } from '../errors.js';
import { type Analyzer, defaultAnalyzer } from './analyzer.js';
import { checkLimit, compareHits } from './ranking.js';
import type { RetrievalDocument, RetrievalHit, Retriever, SearchOptions } from './types.js';

/** A part of each document indexed with its own weight and length normalisation (BM25F). */
export interface FullTextField {
  /** A name for the field. */
  name: string;
  /** The field's text for a document. */
  text: (document: RetrievalDocument) => string;
  /** How much an occurrence in this field counts relative to other fields; defaults to 1. */
  weight?: number;
  /** Length normalisation of this field, 0 (none) to 1 (full); defaults to the index's `b`. */
  b?: number;
}

/** Options of a {@link FullTextIndex}. */
export interface FullTextIndexOptions {
  /** Term-frequency saturation; defaults to 1.2. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full); defaults to 0.75. */
  b?: number;
  /** Analyzer shared by documents and queries; defaults to {@link defaultAnalyzer}. */
  analyzer?: Analyzer;
  /** Fields to index; defaults to the document's `text` alone. */
  fields?: readonly FullTextField[];
}

/** An analysed query term with its statistics in an index. */
export interface QueryTerm {
  term: string;
  /** How many times the term occurs in the query. */
  count: number;
  /** Number of documents that contain the term. */
  documentFrequency: number;
  /** Inverse document frequency, ln(1 + (N − df + 0.5) / (df + 0.5)); always positive. */
  idf: number;
}

const defaultFields: readonly FullTextField[] = [
  { name: 'text', text: (document) => document.text },
];

/**
 * A BM25 full-text index over a fixed set of documents, with optional fields weighted as in BM25F.
 *
 * A document's raw score is Σ over query terms of count · idf · tf̃ · (k1 + 1) / (k1 + tf̃), where
 * tf̃ sums each field's term frequency times its weight over its length normalisation
 * (1 − b + b · length / average length). The normalised `score` divides that by its attainable
 * maximum for the query, Σ count · idf · (k1 + 1): 1 means every query term saturates the
 * document, whatever the query's length or the corpus, and a query term found in no document
 * lowers every score. Documents that match no query term are not returned.
 */
export class FullTextIndex implements Retriever {
  /** Number of indexed documents. */
  readonly documentCount: number;
  readonly analyzer: Analyzer;
  readonly k1: number;
  readonly b: number;
  private readonly documents: readonly RetrievalDocument[];
  private readonly positions = new Map<string, number>();
  private readonly termIds = new Map<string, number>();
  private readonly postingDocuments: number[][] = [];
  private readonly postingWeights: number[][] = [];

  constructor(documents: Iterable<RetrievalDocument>, options: FullTextIndexOptions = {}) {
    this.k1 = options.k1 ?? 1.2;
    this.b = options.b ?? 0.75;
    this.analyzer = options.analyzer ?? defaultAnalyzer;
    const fields = options.fields ?? defaultFields;
    checkParameter('k1', this.k1, Number.POSITIVE_INFINITY);
    checkParameter('b', this.b, 1);
    if (fields.length === 0) {
      throw new SearchCoreError(SearchCoreErrorCode.INVALID_CONFIG, 'fields must not be empty');
    }
    for (const field of fields) {
      checkParameter(`fields.${field.name}.weight`, field.weight ?? 1, Number.POSITIVE_INFINITY);
      checkParameter(`fields.${field.name}.b`, field.b ?? this.b, 1);
    }
    this.documents = [...documents];
    this.documentCount = this.documents.length;
    this.build(fields);
  }

  /** Analyses text with this index's analyzer. */
  analyze(text: string): string[] {
    return this.analyzer.analyze(text);
  }

  /** Number of documents that contain an analysed term. */
  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    return id === undefined ? 0 : (this.postingDocuments[id]?.length ?? 0);
  }

  /** Inverse document frequency of an analysed term; positive even for terms in no document. */
  idf(term: string): number {
    const frequency = this.documentFrequency(term);
    return Math.log(1 + (this.documentCount - frequency + 0.5) / (frequency + 0.5));
  }

  /** The distinct analysed terms of a query, in order of first appearance, with their statistics. */
  queryTerms(query: string): QueryTerm[] {
    if (typeof query !== 'string') {
      throw new SearchCoreError(
        SearchCoreErrorCode.INVALID_INPUT,
        `a query must be a string, got ${query === null ? 'null' : typeof query}`,
      );
    }
    const counts = new Map<string, number>();
    for (const term of this.analyzer.analyze(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
    return [...counts].map(([term, count]) => ({
      term,
      count,
      documentFrequency: this.documentFrequency(term),
      idf: this.idf(term),
    }));
  }

  /** The document with an id, if indexed. */
  getDocument(id: string): RetrievalDocument | undefined {
    const position = this.positions.get(id);
    return position === undefined ? undefined : this.documents[position];
  }

  /** Ranks documents for a query; see the class description for the scores. */
  searchSync(query: string, options: SearchOptions = {}): RetrievalHit[] {
    const limit = checkLimit(options.limit);
    const terms = this.queryTerms(query);
    const saturation = this.k1 + 1;
    let maximum = 0;
    for (const term of terms) maximum += term.count * term.idf * saturation;
    if (maximum === 0 || limit === 0) return [];
    const scores = new Float64Array(this.documentCount);
    const matched: (string[] | undefined)[] = new Array(this.documentCount);
    for (const { term, count, idf } of terms) {
      const id = this.termIds.get(term);
      if (id === undefined) continue;
      const postings = this.postingDocuments[id]!;
      const weights = this.postingWeights[id]!;
      const factor = count * idf * saturation;
      for (let index = 0; index < postings.length; index += 1) {
        const position = postings[index]!;
        const weight = weights[index]!;
        scores[position]! += (factor * weight) / (this.k1 + weight);
        const list = matched[position];
        if (list) list.push(term);
        else matched[position] = [term];
      }
    }
    const hits: (RetrievalHit & { position: number })[] = [];
    for (let position = 0; position < this.documentCount; position += 1) {
      const rawScore = scores[position]!;
      if (rawScore <= 0) continue;
      const document = this.documents[position]!;
      hits.push({
        id: document.id,
        score: Math.min(1, rawScore / maximum),
        rawScore,
        document,
        matchedTerms: matched[position] ?? [],
        position,
      });
    }
    hits.sort(compareHits);
    return hits.slice(0, limit).map(({ position: _position, ...hit }) => hit);
  }

  /** Ranks documents for a query; the asynchronous form of {@link FullTextIndex.searchSync}. */
  async search(query: string, options?: SearchOptions): Promise<RetrievalHit[]> {
    return this.searchSync(query, options);
  }

  private build(fields: readonly FullTextField[]): void {
    // first pass: each field's distinct terms, their counts and the field's length, so that
    // average lengths are known before any pseudo-frequency is computed
    const fieldTerms: Int32Array[][] = fields.map(() => []);
    const fieldCounts: Int32Array[][] = fields.map(() => []);
    const lengths: number[][] = fields.map(() => []);
    let scratch = new Int32Array(1024);
    const touched: number[] = [];
    this.documents.forEach((document, position) => {
      if (this.positions.has(document.id)) {
        throw new SearchCoreError(
          SearchCoreErrorCode.INVALID_INPUT,
          `duplicate document id "${document.id}" at position ${position}`,
        );
      }
      this.positions.set(document.id, position);
      fields.forEach((field, fieldIndex) => {
        const text = field.text(document);
        if (typeof text !== 'string') {
          throw new SearchCoreError(
            SearchCoreErrorCode.INVALID_INPUT,
            `document "${document.id}": field ${field.name} is not a string`,
          );
        }
        const terms = this.analyzer.analyze(text);
        for (const term of terms) {
          let id = this.termIds.get(term);
          if (id === undefined) {
            id = this.termIds.size;
            this.termIds.set(term, id);
            this.postingDocuments.push([]);
            this.postingWeights.push([]);
            if (id >= scratch.length) {
              const grown = new Int32Array(scratch.length * 2);
              grown.set(scratch);
              scratch = grown;
            }
          }
          if (scratch[id] === 0) touched.push(id);
          scratch[id]! += 1;
        }
        const ids = Int32Array.from(touched);
        const counts = new Int32Array(touched.length);
        touched.forEach((id, index) => {
          counts[index] = scratch[id]!;
          scratch[id] = 0;
        });
        touched.length = 0;
        fieldTerms[fieldIndex]![position] = ids;
        fieldCounts[fieldIndex]![position] = counts;
        lengths[fieldIndex]![position] = terms.length;
      });
    });
    const averages = lengths.map((fieldLengths) =>
      fieldLengths.length === 0
        ? 0
        : fieldLengths.reduce((sum, length) => sum + length, 0) / fieldLengths.length,
    );
    const pseudoFrequencies = new Float64Array(this.termIds.size);
    for (let position = 0; position < this.documentCount; position += 1) {
      fields.forEach((field, fieldIndex) => {
        const b = field.b ?? this.b;
        const average = averages[fieldIndex]!;
        const length = lengths[fieldIndex]![position]!;
        const normalisation = average > 0 ? 1 - b + (b * length) / average : 1;
        const weight = (field.weight ?? 1) / normalisation;
        const ids = fieldTerms[fieldIndex]![position]!;
        const counts = fieldCounts[fieldIndex]![position]!;
        for (let index = 0; index < ids.length; index += 1) {
          const id = ids[index]!;
          if (pseudoFrequencies[id] === 0) touched.push(id);
          pseudoFrequencies[id]! += counts[index]! * weight;
        }
      });
      for (const id of touched) {
        const frequency = pseudoFrequencies[id]!;
        pseudoFrequencies[id] = 0;
        if (frequency <= 0) continue;
        this.postingDocuments[id]!.push(position);
        this.postingWeights[id]!.push(frequency);
      }
      touched.length = 0;
    }
  }
}

function checkParameter(name: string, value: number, maximum: number): void {
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= 0 && value <= maximum)) {
    throw new SearchCoreError(
      SearchCoreErrorCode.INVALID_CONFIG,
      `${name} must be a number from 0 to ${maximum === Number.POSITIVE_INFINITY ? 'infinity' : maximum}, got ${String(value)}`,
    );
  }
}
