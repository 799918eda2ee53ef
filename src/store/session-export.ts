// What a session file carries of a session's artifacts: the bytes of each session-scoped version
// an event's artifactDelta names, in that event's customMetadata (see core/artifact-payloads), so
// that importing the file restores them. `user:` artifacts belong to the user and stay out.

import { withArtifactPayloads, type ArtifactPayloads } from '../core/artifact-payloads.ts';
import type { Event } from '../core/event.ts';
import { sessionArtifactDelta } from '../core/rewind.ts';
import { setOwn } from '../core/state.ts';
import type { BaseArtifactService } from './artifact-service.ts';
import type { Session } from './session-service.ts';

/**
 * The session with the bytes of the artifact versions its events name. A version that has none
 * (removed, or a rewind's tombstone) is left out, and is imported as a tombstone.
 */
export async function withArtifactBytes(
  session: Session,
  artifactService: Pick<BaseArtifactService, 'loadArtifact'>,
): Promise<Session> {
  const { appName, userId, id: sessionId } = session;
  const events: Event[] = [];
  for (const event of session.events) {
    const named = sessionArtifactDelta(event.actions.artifactDelta);
    if (!named) {
      events.push(event);
      continue;
    }
    const payloads: ArtifactPayloads = {};
    for (const [filename, version] of Object.entries(named)) {
      const part = await artifactService.loadArtifact({
        appName,
        userId,
        sessionId,
        filename,
        version,
      });
      if (part) setOwn(payloads, filename, part);
    }
    events.push(withArtifactPayloads(event, payloads));
  }
  return { ...session, events };
}
