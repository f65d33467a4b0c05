import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { verifySignature } from '../webhooks/signing.js';

/**
 * `npm run webhook-receiver -- --port N [--host H] [--signing-key K] [--tolerance S]`: a small webhook receiver for
 * trying deliveries out. It verifies the signature over the raw request bytes (constant-time compare, timestamp
 * within the tolerance), prints each delivery, and answers 200, or 400 when the signature is missing or wrong.
 * Without --signing-key it accepts unsigned deliveries. A Webhook-Id seen before is answered 200 and marked as a
 * duplicate, as a real receiver should deduplicate.
 */
function main() {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'signing-key': { type: 'string' },
        tolerance: { type: 'string' },
      },
      strict: true,
    }));
  } catch (e) {
    console.error(`webhook-receiver: ${(e as Error).message}`);
    process.exit(2);
  }
  const port = Number(values.port ?? 4811);
  const tolerance = Number(values.tolerance ?? 300);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error('webhook-receiver: --port must be 0-65535');
    process.exit(2);
  }
  if (!Number.isFinite(tolerance) || tolerance < 0) {
    console.error('webhook-receiver: --tolerance must be a number of seconds');
    process.exit(2);
  }
  const key = values['signing-key'] ?? process.env.WEBHOOK_SIGNING_KEY ?? null;
  const host = values.host ?? '127.0.0.1';
  const seen = new Set<string>();
  let count = 0;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= 1024 * 1024) chunks.push(c);
    });
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const id = String(req.headers['webhook-id'] ?? '');
      const answer = (status: number, body: object) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (req.method !== 'POST') return answer(405, { error: 'POST only' });
      if (size > 1024 * 1024) return answer(413, { error: 'body too large' });
      let verdict = 'unsigned (no --signing-key)';
      if (key !== null) {
        const header = req.headers['eka-webhook-signature'] ?? req.headers['webhook-signature'];
        const v = verifySignature(Array.isArray(header) ? header[0] : header, raw, key, { nowS: Date.now() / 1000, toleranceS: tolerance });
        if (!v.ok) {
          console.log(`${new Date().toISOString()} REJECTED ${id || '(no Webhook-Id)'}: ${v.reason}`);
          return answer(400, { error: v.reason });
        }
        if (req.headers['webhook-timestamp'] !== undefined && req.headers['webhook-timestamp'] !== String(v.t)) {
          console.log(`${new Date().toISOString()} REJECTED ${id}: Webhook-Timestamp differs from the signed t`);
          return answer(400, { error: 'Webhook-Timestamp differs from the signed timestamp' });
        }
        verdict = 'signature verified';
      }
      const duplicate = id !== '' && seen.has(id);
      if (id) seen.add(id);
      let shown: string;
      try {
        shown = JSON.stringify(JSON.parse(raw.toString('utf8')), null, 2);
      } catch {
        shown = raw.toString('utf8');
      }
      count += 1;
      console.log(`${new Date().toISOString()} #${count} Webhook-Id ${id || '(none)'} ${verdict}${duplicate ? ' (DUPLICATE: already received)' : ''}`);
      console.log(shown);
      return answer(200, { received: true, duplicate });
    });
  });
  server.listen(port, host, () => {
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    console.log(`webhook-receiver listening on http://${host.includes(':') ? `[${host}]` : host}:${actual} `
      + `(${key !== null ? 'verifying signatures' : 'NOT verifying signatures: no --signing-key'})`);
  });
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main();
