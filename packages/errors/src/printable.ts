// C0 and C1 controls, DEL, and the Unicode line and paragraph separators: none may reach a terminal
function isControl(code: number): boolean {
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

const escapes: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * Text made safe to quote in a one-line message: control characters become escapes (`\n`, `\t`,
 * `\u0000`, …), so a quoted input can neither break the line nor drive the terminal; text longer
 * than `maxLength` is cut with `…`.
 */
export function printable(text: string, maxLength = Number.POSITIVE_INFINITY): string {
  let escaped = '';
  for (const character of text) {
    const code = character.charCodeAt(0);
    escaped += isControl(code)
      ? (escapes[character] ?? `\\u${code.toString(16).padStart(4, '0')}`)
      : character;
  }
  return escaped.length > maxLength ? `${escaped.slice(0, Math.max(0, maxLength - 1))}…` : escaped;
}

/**
 * Whether bytes look like binary data rather than text: a NUL byte, or more than one in ten of
 * them control bytes other than tab, line feed, carriage return and form feed.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  let controls = 0;
  for (const byte of bytes) {
    if (byte === 0) return true;
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) {
      controls += 1;
    }
  }
  return bytes.length > 0 && controls / bytes.length > 0.1;
}

/**
 * A line without the byte-order mark some editors write at the start of a file: the mark is not
 * part of the text (nor of the JSON on a file's first line).
 */
export function withoutByteOrderMark(line: string): string {
  return line.charCodeAt(0) === 0xfeff ? line.slice(1) : line;
}
