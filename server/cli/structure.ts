/**
 * clinic-desk structure --template <id> [--codify] [--locale L] [--jsonl]
 *
 * Reads a transcript on stdin and prints the template's JSON. With --jsonl, reads lines {"id","transcript","locale"}
 * and writes lines {"id","output"} (or {"id","error"} for a line that cannot be read). Warnings go to stderr.
 * Runnable directly: npx tsx server/cli/structure.ts --template service_emr_template < note.txt
 */
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { LANGUAGES, TEMPLATE_IDS, type Language, type TemplateId } from '../scribe/contracts.js';
import { TEMPLATE_ALIASES } from '../scribe/formats.js';
import { structure } from '../scribe/structure/structure.js';
import { renderTemplate } from '../scribe/templates/render.js';

const USAGE = `usage: clinic-desk structure --template <${TEMPLATE_IDS.join('|')}> [--codify] [--locale L] [--jsonl]\n(eka_emr_template is accepted as service_emr_template)`;

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function render(template: TemplateId, text: string, locale: string, codify: boolean): { json: Record<string, unknown>; warnings: string[] } {
  const language = ((LANGUAGES as readonly string[]).includes(locale) ? locale : 'en-IN') as Language;
  const transcript = { text, language, engine: 'text', segments: [] };
  return renderTemplate(template, { transcript, facts: structure(text, { locale }), codify });
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
  let codify = false;
  let jsonl = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--template') template = args[++i];
    else if (a === '--locale') locale = args[++i] ?? locale;
    else if (a === '--codify') codify = true;
    else if (a === '--jsonl') jsonl = true;
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
    const { json, warnings } = render(id, (await readAll(stdin)).trim(), locale, codify);
    for (const w of warnings) stderr.write(`warning: ${w}\n`);
    stdout.write(`${JSON.stringify(json)}\n`);
    return 0;
  }
  // Line by line, so a long file streams through a pipe instead of waiting for its end.
  let failed = 0;
  for await (const line of createInterface({ input: stdin, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    let row: { id?: unknown; transcript?: unknown; locale?: unknown };
    try {
      row = JSON.parse(line);
    } catch {
      failed++;
      stdout.write(`${JSON.stringify({ id: null, error: 'line is not JSON' })}\n`);
      continue;
    }
    if (typeof row.transcript !== 'string') {
      failed++;
      stdout.write(`${JSON.stringify({ id: row.id ?? null, error: 'transcript must be a string' })}\n`);
      continue;
    }
    const { json, warnings } = render(id, row.transcript, typeof row.locale === 'string' ? row.locale : locale, codify);
    for (const w of warnings) stderr.write(`warning: ${String(row.id)}: ${w}\n`);
    stdout.write(`${JSON.stringify({ id: row.id ?? null, output: json })}\n`);
  }
  return failed ? 1 : 0;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runStructureCli(process.argv.slice(2), process.stdin, process.stdout).then((code) => {
    process.exitCode = code;
  });
}
