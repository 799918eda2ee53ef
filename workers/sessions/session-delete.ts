// Deleting a session for good (after its Undo window): what it added to memory, its log, its
// session-scoped files (`user:` ones belong to every session of the user), its title and agent,
// and its usage counts. The caller holds the session's lock and broadcasts.
//
// What must stay true: memory goes first, so a session that could not be deleted has lost only
// what it added there.

import type { IndexedDbArtifactService, IndexedDbSessionService } from '../../src/index.ts';
import { isUserArtifact } from '../../src/index.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type { AppMemory } from '../memory/memory.ts';
import { APP_NAME, USER_ID } from './sessions.ts';
import { usageKey } from './usage.ts';

export interface SessionDeleteDeps {
  sessions: IndexedDbSessionService;
  artifacts: IndexedDbArtifactService;
  store: IndexedDbAppStore;
  memory: Pick<AppMemory, 'forgetSession'>;
}

export async function deleteSessionData(deps: SessionDeleteDeps, sessionId: string) {
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  const files = await deps.artifacts.listArtifactKeys(key);
  await deps.memory.forgetSession(sessionId);
  await deps.sessions.deleteSession(key);
  await Promise.all(
    files
      .filter((file) => !isUserArtifact(file))
      .map((filename) => deps.artifacts.deleteArtifact({ ...key, filename })),
  );
  await deps.store.deleteSessionMeta(APP_NAME, USER_ID, sessionId);
  await deps.store.deleteSetting(usageKey(sessionId));
}
