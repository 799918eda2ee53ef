// A user's attachments kept as session artifacts (RunConfig.saveInputBlobsAsArtifacts): saved in
// the same atomic write as the message, which names their versions, so that they show in the
// session's artifacts, rewind with it and are what the model is sent.

import { afterEach, describe, expect, it } from 'vitest';
import {
  InMemoryArtifactService,
  LlmAgent,
  Runner,
  ScriptedModel,
  activeEvents,
  bytesToBase64,
  type Content,
  type LlmRequest,
} from '../../../src/index.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { appName, userId } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]);
const note = new TextEncoder().encode('buy milk');

const message = (
  text: string,
  ...files: { name?: string; mimeType: string; bytes: Uint8Array }[]
): Content => ({
  role: 'user',
  parts: [
    { text },
    ...files.map(({ name, mimeType, bytes }) => ({
      inlineData: { mimeType, data: bytesToBase64(bytes), ...(name ? { displayName: name } : {}) },
    })),
  ],
});

describe.each(serviceKinds)('attachments as artifacts ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp() {
    services = kind.open();
    const model = new ScriptedModel(() => 'Got it.');
    const runner = new Runner({
      appName,
      agent: new LlmAgent({ name: 'reader', model }),
      sessionService: services.sessionService,
      artifactService: services.artifactService,
    });
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    const send = (newMessage: Content) =>
      collect(
        runner.runAsync({
          userId,
          sessionId,
          newMessage,
          runConfig: { saveInputBlobsAsArtifacts: true },
        }),
      );
    const read = async () =>
      (await services.sessionService.getSession({ appName, userId, sessionId }))!;
    const load = (filename: string, version?: number) =>
      services.artifactService.loadArtifact({
        appName,
        userId,
        sessionId,
        filename,
        ...(version === undefined ? {} : { version }),
      });
    return { runner, model, sessionId, send, read, load };
  }

  it('keeps each file of the message as an artifact, named in the message, and sends the files to the model', async () => {
    const { model, send, read, load } = await setUp();
    await send(
      message(
        'Look',
        { name: 'cat.png', mimeType: 'image/png', bytes: png },
        { mimeType: 'text/plain', bytes: note },
      ),
    );
    const session = await read();
    const sent = session.events.find((event) => event.author === 'user')!;
    const unnamed = `artifact_${sent.invocationId}_2`;
    expect(sent.actions.artifactDelta).toEqual({ 'cat.png': 0, [unnamed]: 0 });
    expect((await load('cat.png'))!.inlineData).toMatchObject({
      mimeType: 'image/png',
      data: bytesToBase64(png),
    });
    const text = await load(unnamed);
    expect(
      text?.text ?? new TextDecoder().decode(Buffer.from(text!.inlineData!.data, 'base64')),
    ).toBe('buy milk');
    // The model got the message with its files, not a placeholder.
    const [request] = model.requests as [LlmRequest];
    expect(request.contents[0]!.parts.filter((part) => part.inlineData)).toHaveLength(2);
  });

  it('gives a file sent again its next version, and a rewind takes the session back to the earlier one', async () => {
    const { runner, sessionId, send, read, load } = await setUp();
    await send(message('v0', { name: 'cat.png', mimeType: 'image/png', bytes: png }));
    const other = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 9, 9]);
    await send(message('v1', { name: 'cat.png', mimeType: 'image/png', bytes: other }));
    const second = (await read()).events.filter((event) => event.author === 'user')[1]!;
    expect(second.actions.artifactDelta).toEqual({ 'cat.png': 1 });
    expect((await load('cat.png'))!.inlineData!.data).toBe(bytesToBase64(other));

    await runner.rewindAsync({ userId, sessionId, rewindBeforeInvocationId: second.invocationId });
    expect((await load('cat.png'))!.inlineData!.data).toBe(bytesToBase64(png));
    expect(
      activeEvents((await read()).events).some((e) => e.invocationId === second.invocationId),
    ).toBe(false);
  });

  it('writes nothing when the files cannot be saved in the same write as the message', async () => {
    services = kind.open();
    const runner = new Runner({
      appName,
      agent: new LlmAgent({ name: 'reader', model: new ScriptedModel(() => 'x') }),
      sessionService: services.sessionService,
      // Not the session service's storage: the message and its files could not commit together.
      artifactService: kind.persistent ? new InMemoryArtifactService() : otherKind(),
    });
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    const error = await rejectionOf(
      collect(
        runner.runAsync({
          userId,
          sessionId,
          newMessage: message('x', { name: 'a.png', mimeType: 'image/png', bytes: png }),
          runConfig: { saveInputBlobsAsArtifacts: true },
        }),
      ),
    );
    expect(error.name).toBe('InvalidRequestError');
    const session = await services.sessionService.getSession({ appName, userId, sessionId });
    expect(session!.events).toHaveLength(0);
    expect(await services.sessionService.listRuns({ appName, userId })).toEqual([]);
  });
});

/** An artifact service of the other kind than the in-memory session service's. */
function otherKind() {
  const other = serviceKinds.find((kind) => kind.persistent)!.open();
  return other.artifactService;
}
