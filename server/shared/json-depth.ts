/**
 * One nesting limit for every JSON document the service takes (request bodies, the scribe's sidecar, extra_data),
 * checked without recursion. Recursive code over a document (JSON.stringify, schema validators, our own walks) runs
 * out of stack at a depth that depends on how warm the JIT is, so a limit found that way would move between a cold
 * and a warm service; no real document of the interface comes near this one.
 */
export const MAX_JSON_DEPTH = 64;

export const TOO_DEEP_MESSAGE = `JSON may be nested at most ${MAX_JSON_DEPTH} levels deep (objects and arrays)`;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text (UTF-8 bytes; the structural characters are ASCII and never part of a multi-byte sequence)
 * nests deeper than `limit`. Brackets inside strings do not count; text that is not JSON at all is left to the parser.
 */
export function jsonTextTooDeep(bytes: Uint8Array, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/** Whether a value (arrays and plain objects) nests deeper than `limit`, for what arrives already parsed (IPC, tools). */
export function valueTooDeep(value: unknown, limit = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
