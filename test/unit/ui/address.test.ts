// The page's address (src/ui/shell/address.ts): every view round-trips through the URL's fragment,
// any session id survives it, and anything else is no address at all.

import { describe, expect, it } from 'vitest';
import { addressOf, hashOf, type Address } from '../../../src/ui/shell/address.ts';

describe('the address of a session and view', () => {
  it.each<[Address, string]>([
    [{ sessionId: 'abc', view: 'chat' }, '#/session/abc'],
    [{ sessionId: 'abc', view: 'flows' }, '#/session/abc/flows'],
    [{ sessionId: 'abc', view: 'agents' }, '#/session/abc/agents'],
    [{ sessionId: 'abc', view: 'providers' }, '#/session/abc/providers'],
    [{ sessionId: 'abc', view: 'adk' }, '#/session/abc/adk-servers'],
    [{ sessionId: 'abc', view: 'tools' }, '#/session/abc/tool-servers'],
    [{ sessionId: 'abc', view: 'backup' }, '#/session/abc/backup'],
    [{ sessionId: 'abc', view: 'memory' }, '#/session/abc/memory'],
    [{ sessionId: 'abc', view: 'trace', invocationId: 'e-1' }, '#/session/abc/trace/e-1'],
    // A session on an ADK server: its id holds colons and the server's address.
    [
      { sessionId: 'adk:http://127.0.0.1:8000/x:app:s 1', view: 'chat' },
      '#/session/adk%3Ahttp%3A%2F%2F127.0.0.1%3A8000%2Fx%3Aapp%3As%201',
    ],
  ])('%j is %s, and back', (address, hash) => {
    expect(hashOf(address)).toBe(hash);
    expect(addressOf(hash)).toEqual(address);
  });

  it('writes a trace without its turn as the chat', () => {
    expect(hashOf({ sessionId: 'abc', view: 'trace' })).toBe('#/session/abc');
  });

  it.each([
    '',
    '#',
    '#top',
    '#/session/',
    '#/session/abc/nope',
    '#/session/abc/trace',
    '#/session/abc/flows/more',
    '#/session/%E0%A4%A',
    '#/other/abc',
  ])('reads %j as no address', (hash) => expect(addressOf(hash)).toBeUndefined());
});
