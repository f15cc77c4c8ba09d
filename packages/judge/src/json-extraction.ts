/** What {@link extractJson} found in a model's text. */
export type JsonExtraction = { ok: true; value: unknown } | { ok: false; problem: string };

const fencePattern = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/;

/**
 * Reads the JSON object a model wrote in its reply: the whole text, else the first fenced code
 * block, else the first balanced `{…}` span in the text.
 */
export function extractJson(text: string): JsonExtraction {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, problem: 'the reply was empty' };
  const candidates: string[] = [trimmed];
  const fenced = fencePattern.exec(trimmed);
  if (fenced?.[1] !== undefined) candidates.push(fenced[1].trim());
  const span = firstObjectSpan(trimmed);
  if (span !== undefined) candidates.push(span);

  let firstProblem: string | undefined;
  for (const candidate of candidates) {
    try {
      return { ok: true, value: JSON.parse(candidate) };
    } catch (error) {
      firstProblem ??= (error as Error).message;
    }
  }
  if (span === undefined && fenced === null) {
    return { ok: false, problem: 'the reply contains no JSON object' };
  }
  return { ok: false, problem: `the reply is not valid JSON (${firstProblem})` };
}

// scans for the first balanced object, skipping braces inside JSON strings
function firstObjectSpan(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start === -1) return undefined;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (escaped) escaped = false;
      else if (character === '\\') escaped = true;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '{') depth += 1;
    else if (character === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, index + 1);
    }
  }
  return undefined;
}
