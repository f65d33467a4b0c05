/**
 * Text that remembers where each of its characters came from in the transcript. The structurer rewrites what it
 * reads (lower case, "six fifty" → 650, "c b c" → cbc, voice commands → punctuation, self-corrections), and every
 * fact it prints must still point at the words that were said: each character keeps the [start, end) of the
 * transcript text it stands for, so a rewritten span maps back to the whole original phrase.
 */
export class Mapped {
  private constructor(
    readonly text: string,
    /** Per character: where its source starts and ends in the transcript. */
    private readonly from: Int32Array,
    private readonly to: Int32Array,
  ) {}

  /** A transcript's own text, character i standing for itself; `offset` places a piece of a longer transcript. */
  static of(text: string, offset = 0): Mapped {
    const from = new Int32Array(text.length);
    const to = new Int32Array(text.length);
    for (let i = 0; i < text.length; i++) {
      from[i] = offset + i;
      to[i] = offset + i + 1;
    }
    return new Mapped(text, from, to);
  }

  get length(): number {
    return this.text.length;
  }

  /** The transcript range [start, end) that text[a, b) came from. */
  source(a: number, b: number): { start: number; end: number } {
    const lo = Math.max(0, Math.min(a, this.text.length - 1));
    const hi = Math.max(lo + 1, Math.min(b, this.text.length));
    if (!this.text.length) return { start: 0, end: 0 };
    let start = this.from[lo]!;
    let end = this.to[hi - 1]!;
    // A replacement's characters all stand for the whole phrase it replaced; min/max keep the span whole.
    for (let i = lo; i < hi; i++) {
      if (this.from[i]! < start) start = this.from[i]!;
      if (this.to[i]! > end) end = this.to[i]!;
    }
    return { start, end };
  }

  slice(a: number, b = this.text.length): Mapped {
    // A view, not a copy: no Mapped writes to its arrays once made (every rewrite fills new ones).
    return new Mapped(this.text.slice(a, b), this.from.subarray(a, b), this.to.subarray(a, b));
  }

  trim(): Mapped {
    const lead = this.text.length - this.text.trimStart().length;
    const kept = this.text.trim().length;
    return this.slice(lead, lead + kept);
  }

  /** Length-preserving lower case (a character whose lower case is longer keeps its own form). */
  lower(): Mapped {
    // ASCII text lower-cases character by character whole; only other letters need the per-character rule.
    if (ASCII.test(this.text)) return new Mapped(this.text.toLowerCase(), this.from, this.to);
    let out = '';
    for (const ch of this.text) {
      const l = ch.toLowerCase();
      out += l.length === ch.length ? l : ch;
    }
    return new Mapped(out, this.from, this.to);
  }

  /**
   * String.prototype.replace with the same arguments; each replacement's characters stand for the whole match.
   * An empty replacement of an empty match changes nothing.
   */
  replace(re: RegExp, replacer: string | ((match: string, ...rest: any[]) => string)): Mapped {
    const edits: { at: number; len: number; out: string }[] = [];
    const text = this.text;
    // Matched as String.prototype.replace would (every match of a global pattern, else the first), without building
    // the replaced string this class builds its own way: the structurer runs about a thousand of these a transcript.
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.global ? re.exec(text) : null) {
      const match = m[0];
      if (!match.length && re.global) re.lastIndex = m.index + (re.unicode && (text.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
      const args: any[] = [...m, m.index, text];
      if (m.groups) args.push(m.groups);
      const out = typeof replacer === 'string' ? expand(replacer, args) : replacer(...(args as [string, ...any[]]));
      // A match replaced by itself is no edit: the text and its sources stay as they are.
      if (out !== match) edits.push({ at: m.index, len: match.length, out });
    }
    if (!edits.length) return this;
    return this.apply(edits);
  }

  private apply(edits: { at: number; len: number; out: string }[]): Mapped {
    let length = this.text.length;
    for (const e of edits) length += e.out.length - e.len;
    const from = new Int32Array(length);
    const to = new Int32Array(length);
    const pieces: string[] = [];
    let k = 0;
    let pos = 0;
    const keep = (a: number, b: number): void => {
      pieces.push(this.text.slice(a, b));
      from.set(this.from.subarray(a, b), k);
      to.set(this.to.subarray(a, b), k);
      k += b - a;
    };
    for (const e of edits) {
      keep(pos, e.at);
      if (e.out === this.text.slice(e.at, e.at + e.len)) keep(e.at, e.at + e.len);
      else {
        // An insertion (empty match) stands for the character before it, or after it at the very start.
        const src = e.len ? this.source(e.at, e.at + e.len) : this.source(Math.max(0, e.at - 1), Math.max(1, e.at));
        pieces.push(e.out);
        from.fill(src.start, k, k + e.out.length);
        to.fill(src.end, k, k + e.out.length);
        k += e.out.length;
      }
      pos = e.at + e.len;
    }
    keep(pos, this.text.length);
    return new Mapped(pieces.join(''), from, to);
  }

  /** Splits at each match of `re` (global), dropping the separators, like String.prototype.split. */
  split(re: RegExp): Mapped[] {
    const g = new RegExp(re.source, re.flags.includes('g') ? re.flags : `${re.flags}g`);
    const out: Mapped[] = [];
    let pos = 0;
    for (let m = g.exec(this.text); m; m = g.exec(this.text)) {
      if (m[0].length === 0) {
        g.lastIndex++;
        continue;
      }
      out.push(this.slice(pos, m.index));
      pos = m.index + m[0].length;
    }
    out.push(this.slice(pos));
    return out;
  }

  static concat(parts: Mapped[]): Mapped {
    const text = parts.map((p) => p.text).join('');
    const from = new Int32Array(text.length);
    const to = new Int32Array(text.length);
    let k = 0;
    for (const p of parts) {
      from.set(p.from, k);
      to.set(p.to, k);
      k += p.text.length;
    }
    return new Mapped(text, from, to);
  }

  /** Literal text standing for the source of `like[a, b)`: words a rewrite inserts. */
  static literal(text: string, like: Mapped, a: number, b: number): Mapped {
    const src = like.length ? like.source(a, Math.max(a + 1, b)) : { start: 0, end: 0 };
    return new Mapped(text, new Int32Array(text.length).fill(src.start), new Int32Array(text.length).fill(src.end));
  }
}

const ASCII = /^[\x00-\x7f]*$/;

/** "$1"-style references in a string replacement. */
function expand(pattern: string, args: any[]): string {
  if (!pattern.includes('$')) return pattern;
  return pattern.replace(/\$(\d)|\$&/g, (_match, n) => (n === undefined ? args[0] : (args[Number(n)] ?? '')));
}
