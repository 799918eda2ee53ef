// What every message of the open session's chat is given (ChatMessage's MessageContext): its
// actions, the versions of turns, which answers may be regenerated, whether the session is
// locked, and the names its authors are shown by. Made once per change of any of them, so that
// the message list draws again only when it must.

import { useMemo } from 'preact/hooks';
import type { AgentInfo } from '../../../workers/protocol.ts';
import type { AppActions } from '../shell/app-actions.ts';
import type { MessageContext } from '../chat/ChatMessage.tsx';
import type { EditTarget } from '../chat/Composer.tsx';
import type { TurnVersions } from '../history/history-model.ts';
import { answerSources } from '../knowledge/answer-sources.ts';
import { authorNames, lastAnswerId, turnAnswerIds } from './open-session-model.ts';
import type { SessionView } from './session-view.ts';

interface Inputs {
  session: SessionView | undefined;
  actions: AppActions;
  agent: AgentInfo | undefined;
  running: boolean;
  locked: boolean;
  /** A session on an ADK server: rewind only. */
  remote: boolean;
  /** The message being edited in place, and how to open or close its editor. */
  editing: EditTarget | undefined;
  onEdit: (target: EditTarget | undefined) => void;
  onShowEvent: (eventId: string) => void;
  onTrace?: (invocationId: string) => void;
}

const NO_VERSIONS: ReadonlyMap<string, TurnVersions> = new Map();

export function useMessageContext({
  session,
  actions,
  agent,
  running,
  locked,
  remote,
  editing,
  onEdit,
  onShowEvent,
  onTrace,
}: Inputs): MessageContext {
  const messageActions = useMemo(
    () => ({
      onEdit,
      onSaveEdit: actions.edit,
      onRewind: actions.rewind,
      onSwitch: actions.switchToBranch,
      onRegenerate: actions.regenerate,
      onShowEvent,
      ...(onTrace ? { onTrace } : {}),
    }),
    [actions, onEdit, onShowEvent, onTrace],
  );
  const chatItems = session?.chat;
  const lastAnswer = useMemo(() => lastAnswerId(chatItems), [chatItems]);
  const turnAnswers = useMemo(() => turnAnswerIds(chatItems), [chatItems]);
  const authors = useMemo(() => authorNames(agent), [agent]);
  const active = session?.active;
  const sources = useMemo(() => answerSources(active ?? [], chatItems), [active, chatItems]);
  return useMemo(
    () => ({
      actions: messageActions,
      versions: session?.versions ?? NO_VERSIONS,
      turnAnswers,
      lastAnswerId: running ? undefined : lastAnswer,
      locked,
      rewindOnly: remote,
      authors,
      editing: editing?.invocationId,
      sources,
    }),
    [
      messageActions,
      session?.versions,
      turnAnswers,
      lastAnswer,
      running,
      locked,
      remote,
      authors,
      editing?.invocationId,
      sources,
    ],
  );
}
