// One contract for both artifact services: in memory and IndexedDB.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bytesToBase64, type BaseArtifactService, type Part } from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const scope = { appName: 'app', userId: 'ada', sessionId: 's1' };
const text = (value: string): Part => ({ text: value });
const bytes = (values: number[], mimeType = 'application/octet-stream'): Part => ({
  inlineData: { mimeType, data: bytesToBase64(new Uint8Array(values)) },
});

describe.each(serviceKinds)('artifact service contract ($name)', (kind) => {
  let services: Services;
  let service: BaseArtifactService;

  beforeEach(() => {
    services = kind.open();
    service = services.artifactService;
  });
  afterEach(() => services.close());

  it('numbers the versions of a file 0, 1, 2 and loads any of them', async () => {
    expect(await service.saveArtifact({ ...scope, filename: 'a.txt', artifact: text('one') })).toBe(
      0,
    );
    expect(await service.saveArtifact({ ...scope, filename: 'a.txt', artifact: text('two') })).toBe(
      1,
    );
    expect(await service.saveArtifact({ ...scope, filename: 'b.txt', artifact: text('b') })).toBe(
      0,
    );
    expect(await service.loadArtifact({ ...scope, filename: 'a.txt' })).toEqual(text('two'));
    expect(await service.loadArtifact({ ...scope, filename: 'a.txt', version: 0 })).toEqual(
      text('one'),
    );
    expect(await service.loadArtifact({ ...scope, filename: 'a.txt', version: 7 })).toBeUndefined();
    expect(await service.loadArtifact({ ...scope, filename: 'nope' })).toBeUndefined();
    expect(await service.listVersions({ ...scope, filename: 'a.txt' })).toEqual([0, 1]);
    expect(await service.listVersions({ ...scope, filename: 'nope' })).toEqual([]);
  });

  it('saves once for a savedBy while its version is the latest, and again after any other', async () => {
    const save = (value: string, savedBy?: string) =>
      service.saveArtifact({
        ...scope,
        filename: 'a.txt',
        artifact: text(value),
        ...(savedBy ? { savedBy } : {}),
      });
    expect(await save('one', 'call-1')).toBe(0);
    // Made again (a tool run again on resume): the version it saved, nothing written.
    expect(await save('one', 'call-1')).toBe(0);
    expect(await service.listVersions({ ...scope, filename: 'a.txt' })).toEqual([0]);
    expect(await save('two', 'call-2')).toBe(1);
    expect(await save('three')).toBe(2);
    // Its version is no longer the latest: a new one.
    expect(await save('two', 'call-2')).toBe(3);
    await service.deleteArtifact({ ...scope, filename: 'a.txt' });
    expect(await save('two', 'call-2')).toBe(0);
    expect(await service.loadArtifact({ ...scope, filename: 'a.txt' })).toEqual(text('two'));
  });

  it('keeps binary data exact', async () => {
    const all = Array.from({ length: 256 }, (_, i) => i);
    const part = bytes(all, 'image/png');
    await service.saveArtifact({ ...scope, filename: 'img.png', artifact: part });
    expect(await service.loadArtifact({ ...scope, filename: 'img.png' })).toEqual(part);
  });

  it('shares user: files across the user’s sessions, and keeps session files apart', async () => {
    await service.saveArtifact({ ...scope, filename: 'user:profile', artifact: text('Ada') });
    await service.saveArtifact({ ...scope, filename: 'notes', artifact: text('s1 notes') });
    const otherSession = { ...scope, sessionId: 's2' };
    expect(await service.loadArtifact({ ...otherSession, filename: 'user:profile' })).toEqual(
      text('Ada'),
    );
    expect(await service.loadArtifact({ ...otherSession, filename: 'notes' })).toBeUndefined();
    expect(
      await service.loadArtifact({ ...scope, userId: 'bob', filename: 'user:profile' }),
    ).toBeUndefined();
    expect(await service.listArtifactKeys(scope)).toEqual(['notes', 'user:profile']);
    expect(await service.listArtifactKeys(otherSession)).toEqual(['user:profile']);
    expect(await service.listArtifactKeys({ ...scope, userId: 'bob' })).toEqual([]);
  });

  it('deletes every version of a file', async () => {
    await service.saveArtifact({ ...scope, filename: 'a', artifact: text('1') });
    await service.saveArtifact({ ...scope, filename: 'a', artifact: text('2') });
    await service.saveArtifact({ ...scope, filename: 'b', artifact: text('b') });
    await service.deleteArtifact({ ...scope, filename: 'a' });
    expect(await service.loadArtifact({ ...scope, filename: 'a' })).toBeUndefined();
    expect(await service.listVersions({ ...scope, filename: 'a' })).toEqual([]);
    expect(await service.listArtifactKeys(scope)).toEqual(['b']);
  });

  it.each([
    ['an empty file name', { filename: '', artifact: text('x') }],
    ['a part with neither text nor inline data', { filename: 'a', artifact: {} }],
    [
      'inline data that is not base64',
      { filename: 'a', artifact: { inlineData: { mimeType: 'x/y', data: '@@@' } } },
    ],
    [
      'inline data without a mime type',
      { filename: 'a', artifact: { inlineData: { data: 'AAAA' } as never } },
    ],
  ])('rejects %s and saves nothing', async (_, request) => {
    const error = await rejectionOf(service.saveArtifact({ ...scope, ...request }));
    expect(error.name).toBe('InvalidRequestError');
    expect(await service.listArtifactKeys(scope)).toEqual([]);
  });

  it('rejects a version that is not a whole number', async () => {
    const error = await rejectionOf(service.loadArtifact({ ...scope, filename: 'a', version: -1 }));
    expect(error.name).toBe('InvalidRequestError');
  });

  it.runIf(kind.persistent)('keeps every version across a restart', async () => {
    await service.saveArtifact({ ...scope, filename: 'a', artifact: text('1') });
    await service.saveArtifact({ ...scope, filename: 'a', artifact: bytes([1, 2, 3]) });
    services = await services.restart();
    const after = services.artifactService;
    expect(await after.listVersions({ ...scope, filename: 'a' })).toEqual([0, 1]);
    expect(await after.loadArtifact({ ...scope, filename: 'a', version: 0 })).toEqual(text('1'));
    expect(await after.loadArtifact({ ...scope, filename: 'a' })).toEqual(bytes([1, 2, 3]));
  });
});
