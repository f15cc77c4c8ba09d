/** A unit of text a retriever can return: a session, a turn, a passage. */
export interface RetrievalDocument {
  id: string;
  text: string;
  metadata?: Record<string, unknown>;
}

/** One ranked result of a search. */
export interface RetrievalHit {
  id: string;
  /** Normalised score in [0, 1], comparable across queries (see each retriever for its meaning). */
  score: number;
  /** The retriever's own score before normalisation (BM25 sum, cosine similarity, …). */
  rawScore: number;
  document: RetrievalDocument;
  /** Analysed query terms found in the document (full-text and hybrid retrievers). */
  matchedTerms?: string[];
}

/** Options of a single search. */
export interface SearchOptions {
  /** Most hits to return; defaults to 10. */
  limit?: number;
}

/** Anything that ranks documents for a query with scores normalised to [0, 1]. */
export interface Retriever {
  search(query: string, options?: SearchOptions): Promise<RetrievalHit[]>;
}

/** Turns texts into vectors; the dense retriever compares them by cosine similarity. */
export interface Embedder {
  embed(texts: string[]): Promise<Float32Array[]>;
}
