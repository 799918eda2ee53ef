// ADK's saveInputBlobsAsArtifacts (see RunConfig): the files of a user's message, as the
// artifacts to keep in the same write as the message.

import type { Event } from '../core/event.ts';
import { isUserArtifact, type BaseArtifactService } from '../store/artifact-service.ts';
import type { AppendedArtifacts } from '../store/session-service.ts';

/**
 * Each `inlineData` part of the user's message `event` as a file, named by its `displayName`
 * (else ADK's `artifact_<invocation>_<part>`; never a `user:` name, which would leave the
 * session's scope); `undefined` when it has none or there is no artifact service.
 */
export function inputBlobs(
  event: Event,
  artifactService: BaseArtifactService | undefined,
): AppendedArtifacts | undefined {
  if (!artifactService || event.author !== 'user') return undefined;
  const files = (event.content?.parts ?? []).flatMap((part, index) => {
    const data = part.inlineData;
    if (!data) return [];
    const named = data.displayName?.trim();
    const filename =
      named && !isUserArtifact(named) ? named : `artifact_${event.invocationId}_${index}`;
    return [{ filename, artifact: { inlineData: { ...data } } }];
  });
  return files.length > 0 ? { files, artifactService } : undefined;
}
