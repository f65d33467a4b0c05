import { describe, expect, it } from 'vitest';
import { ForbiddenSender, createHandlers } from '../main/ipc.js';

const RENDERER = 'file:///opt/clinic-desk/resources/app.asar/dist/renderer/index.html';
const frame = (url: string) => ({ senderFrame: { url } }) as never;

describe('IPC handlers', () => {
  const handlers = createHandlers(RENDERER, { baseUrl: 'http://127.0.0.1:4810', version: '1.0' });

  it('answers our own renderer', async () => {
    await expect(handlers.serviceInfo(frame(RENDERER))).resolves.toEqual({ baseUrl: 'http://127.0.0.1:4810', version: '1.0' });
  });

  it.each([
    ['a web page', 'https://evil.example/index.html'],
    ['another local file', 'file:///tmp/evil.html'],
    ['a lookalike path', 'file:///opt/clinic-desk/resources/app.asar/dist/renderer/index.html.evil'],
  ])('refuses a call from %s', async (_what, url) => {
    await expect(handlers.serviceInfo(frame(url))).rejects.toThrow(ForbiddenSender);
  });

  it('refuses a call without a sender frame', async () => {
    await expect(handlers.serviceInfo({ senderFrame: null } as never)).rejects.toThrow(ForbiddenSender);
  });
});
