import { useEffect, useRef, useState } from 'preact/hooks';
import type { PendingApproval } from '../chat/approvals-model.ts';
import type { ChatItem } from '../chat/chat-model.ts';

interface Props {
  sessionId: string | undefined;
  chat: ChatItem[];
  approvals: PendingApproval[];
}

/**
 * A polite live region that tells screen-reader users what arrived while they were elsewhere: a
 * finished reply (not every streamed chunk), a failure, an approval that waits for them. It says
 * who and what, not the text itself, which the chat (focusable, last message at the end) holds:
 * read out whole, a long answer would drown everything else. What a session already held when
 * it was opened is not read out.
 */
export function Announcer({ sessionId, chat, approvals }: Props) {
  const [text, setText] = useState('');
  const seen = useRef<{ sessionId: string | undefined; ids: Set<string> }>({
    sessionId: undefined,
    ids: new Set(),
  });
  useEffect(() => {
    const ids = [...chat.map((item) => item.id), ...approvals.map((a) => a.requestId)];
    if (seen.current.sessionId !== sessionId) {
      seen.current = { sessionId, ids: new Set(ids) };
      return;
    }
    const known = seen.current.ids;
    const news: string[] = [];
    for (const item of chat) {
      if (known.has(item.id)) continue;
      if (item.kind === 'message' && !item.fromUser)
        news.push(
          item.cut ? `${item.author} stopped before it finished.` : `${item.author} answered.`,
        );
      if (item.kind === 'error') news.push(`${item.author} failed.`);
    }
    for (const approval of approvals) {
      if (!known.has(approval.requestId))
        news.push(`${approval.author} waits for your approval to call ${approval.toolName}.`);
    }
    ids.forEach((id) => known.add(id));
    if (news.length > 0) setText(news.join('. '));
  }, [sessionId, chat, approvals]);
  return (
    <div class="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {text}
    </div>
  );
}
