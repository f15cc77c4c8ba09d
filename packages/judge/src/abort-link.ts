/** A signal that aborts when its parent does, until it is released. */
export interface LinkedController {
  readonly signal: AbortSignal;
  /** Aborts this signal alone, not its parent. */
  abort(reason?: unknown): void;
  /** Unlinks the signal from its parent; the parent's listener goes with the last link. */
  release(): void;
}

interface Links {
  children: Set<AbortController>;
  onAbort: () => void;
}

// the links of each parent signal, so that every call sharing a parent shares one listener on it
const linksByParent = new WeakMap<AbortSignal, Links>();

/**
 * A child signal of `parent`, for one call: however many calls are linked to one parent at a time,
 * the parent holds a single 'abort' listener, and it holds none once every link is released. A
 * run's signal shared by many calls in flight thus never collects a listener per call (Node warns
 * past ten), and a long run leaves nothing behind. Release the link when the call ends, on every
 * path; a child whose parent has already aborted starts aborted.
 */
export function linkSignal(parent: AbortSignal | undefined): LinkedController {
  const controller = new AbortController();
  const unlinked = {
    signal: controller.signal,
    abort: (reason?: unknown) => controller.abort(reason),
    release: () => {},
  };
  if (parent === undefined) return unlinked;
  if (parent.aborted) {
    controller.abort(parent.reason);
    return unlinked;
  }
  let links = linksByParent.get(parent);
  if (links === undefined) {
    const created: Links = {
      children: new Set(),
      onAbort: () => {
        linksByParent.delete(parent);
        for (const child of created.children) child.abort(parent.reason);
        created.children.clear();
      },
    };
    links = created;
    linksByParent.set(parent, created);
    parent.addEventListener('abort', created.onAbort, { once: true });
  }
  const current = links;
  current.children.add(controller);
  return {
    ...unlinked,
    release: () => {
      if (!current.children.delete(controller) || current.children.size > 0) return;
      parent.removeEventListener('abort', current.onAbort);
      if (linksByParent.get(parent) === current) linksByParent.delete(parent);
    },
  };
}
