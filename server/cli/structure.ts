/**
 * clinic-desk structure --template <id> [--codify] [--locale L] [--mode dictation|consultation] [--warnings] [--jsonl]
 *
 * Reads a transcript on stdin and prints the template's JSON. The warnings are those the service puts in
 * data.output[].warnings for the same template: each safety flag as "CODE /pointer: message" (DOSE_UNIT,
 * ALLERGY_CONFLICT, …; the pointer is into the service_emr_template JSON) and, with --codify, the diagnoses left
 * without a code. Where they go:
 *   default      the template's JSON on stdout; each warning on stderr as "warning: <warning>"
 *   --warnings   {"output": <template JSON>, "warnings": [<warning>, …]} on stdout, nothing on stderr
 *   --jsonl      reads lines {"id","transcript","locale"?,"mode"?} and writes one line per input line:
 *                {"id","output","warnings"} (warnings always present, [] when none), or {"id","error"} for a line
 *                that cannot be read (exit 1 if any); nothing on stderr
 * --mode (or a line's "mode") is the request's mode: an unlabelled consultation is then read turn by turn.
 * Runnable directly: npx tsx server/cli/structure.ts --template service_emr_template < note.txt
 */
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, TEMPLATE_IDS, type Language, type TemplateId } from '../scribe/contracts.js';
import { TEMPLATE_ALIASES } from '../scribe/formats.js';
import { structure } from '../clinical-nlp/structure.js';
import { renderTemplate } from '../scribe/templates/render.js';

const MODES = ['dictation', 'consultation'] as const;

const USAGE = `usage: clinic-desk structure --template <${TEMPLATE_IDS.join('|')}> [--codify] [--locale L] [--mode ${MODES.join('|')}] [--warnings] [--jsonl]
(eka_emr_template is accepted as service_emr_template)
  warnings (safety flags as "CODE /pointer: message", uncoded diagnoses) go to stderr, one per line;
  --warnings   print {"output": <template>, "warnings": [...]} instead, nothing on stderr
  --jsonl      stdin lines {"id","transcript","locale"?,"mode"?} -> stdout lines {"id","output","warnings"} or {"id","error"}`;

const isMode = (m: unknown): m is string => typeof m === 'string' && (MODES as readonly string[]).includes(m);

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

interface Request {
  template: TemplateId;
  locale: string;
  mode: string;
  codify: boolean;
}

function render(text: string, r: Request): { json: Record<string, unknown>; warnings: string[] } {
  const language = ((LANGUAGES as readonly string[]).includes(r.locale) ? r.locale : 'en-IN') as Language;
  const transcript = { text, language, engine: 'text', segments: [] };
  return renderTemplate(r.template, { transcript, facts: structure(text, { locale: r.locale, mode: r.mode }), codify: r.codify });
}

export async function runStructureCli(
  argv: string[],
  stdin: NodeJS.ReadableStream,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream = process.stderr,
): Promise<number> {
  const args = argv[0] === 'structure' ? argv.slice(1) : argv;
  let template: string | undefined;
  let locale = 'en-IN';
  let mode = 'dictation';
  let codify = false;
  let jsonl = false;
  let inline = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--template') template = args[++i];
    else if (a === '--locale') locale = args[++i] ?? locale;
    else if (a === '--mode') {
      const m = args[++i];
      if (!isMode(m)) {
        stderr.write(`--mode must be ${MODES.join(' or ')}\n${USAGE}\n`);
        return 2;
      }
      mode = m;
    } else if (a === '--codify') codify = true;
    else if (a === '--jsonl') jsonl = true;
    else if (a === '--warnings') inline = true;
    else if (a === '--help' || a === '-h') {
      stdout.write(`${USAGE}\n`);
      return 0;
    } else {
      stderr.write(`unknown argument: ${a}\n${USAGE}\n`);
      return 2;
    }
  }
  const id = template === undefined || !Object.hasOwn(TEMPLATE_ALIASES, template) ? undefined : TEMPLATE_ALIASES[template]!;
  if (!id) {
    stderr.write(`${template ? `unknown template: ${template}\n` : ''}${USAGE}\n`);
    return 2;
  }
  if (!jsonl) {
    const { json, warnings } = render((await readAll(stdin)).trim(), { template: id, locale, mode, codify });
    if (inline) {
      stdout.write(`${JSON.stringify({ output: json, warnings })}\n`);
      return 0;
    }
    for (const w of warnings) stderr.write(`warning: ${w}\n`);
    stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  // Line by line, so a long file streams through a pipe instead of waiting for its end.
  let failed = 0;
  const fail = (rowId: unknown, error: string) => {
    failed++;
    stdout.write(`${JSON.stringify({ id: rowId ?? null, error })}\n`);
  };
  for await (const line of createInterface({ input: stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let row: { id?: unknown; transcript?: unknown; locale?: unknown; mode?: unknown };
    try {
      row = JSON.parse(line);
    } catch {
      fail(null, 'line is not JSON');
      continue;
    }
    if (typeof row.transcript !== 'string') {
      fail(row.id, 'transcript must be a string');
      continue;
    }
    if (row.mode !== undefined && !isMode(row.mode)) {
      fail(row.id, `mode must be ${MODES.join(' or ')}`);
      continue;
    }
    const { json, warnings } = render(row.transcript, {
      template: id,
      locale: typeof row.locale === 'string' ? row.locale : locale,
      mode: row.mode ?? mode,
      codify,
    });
    stdout.write(`${JSON.stringify({ id: row.id ?? null, output: json, warnings })}\n`);
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  void runStructureCli(process.argv.slice(2), process.stdin, process.stdout).then((code) => {
    process.exitCode = code;
  });
}
