// The page's address: which session is open and which view shows, in the URL's fragment, so
// that a reload comes back to it, Back and Forward move between sessions and views, and a
// bookmark or a link opens them:
//
//   #/session/<id>                          the session's chat
//   #/session/<id>/flows                    a view opened from the header (flows, agents,
//                                           providers, adk-servers, tool-servers, backup,
//                                           security, memory, prompts, knowledge)
//   #/session/<id>/trace/<invocationId>     the Trace view of one of its turns
//
// In the fragment, not the path: a static host serves the app at `/` only (no fallback to
// index.html for /session/…), the service worker precaches `/` and serves it offline whatever
// the fragment, and an installed app's start_url `/` and scope `/` hold every address. A
// fragment never reaches a server, so a session's id is never sent anywhere.

import type { MainView } from './MainViews.tsx';

export interface Address {
  sessionId: string;
  view: MainView;
  /** The turn whose trace the Trace view shows. */
  invocationId?: string;
}

/** Each view's name in the address (the chat has none). */
const SLUGS: Record<Exclude<MainView, 'chat' | 'trace'>, string> = {
  flows: 'flows',
  agents: 'agents',
  providers: 'providers',
  adk: 'adk-servers',
  tools: 'tool-servers',
  backup: 'backup',
  security: 'security',
  memory: 'memory',
  prompts: 'prompts',
  knowledge: 'knowledge',
};
const VIEWS = new Map(Object.entries(SLUGS).map(([view, slug]) => [slug, view as MainView]));

/** The address a fragment names, or undefined for any other fragment (none, `#top`, garbage). */
export function addressOf(hash: string): Address | undefined {
  const match = /^#\/session\/([^/]+)(?:\/([^/]+)(?:\/([^/]+))?)?\/?$/.exec(hash);
  if (!match) return undefined;
  const [, id, slug, rest] = match;
  const sessionId = decoded(id!);
  if (!sessionId) return undefined;
  if (slug === undefined) return rest === undefined ? { sessionId, view: 'chat' } : undefined;
  if (slug === 'trace') {
    const invocationId = rest === undefined ? undefined : decoded(rest);
    return invocationId ? { sessionId, view: 'trace', invocationId } : undefined;
  }
  const view = VIEWS.get(slug);
  return view && rest === undefined ? { sessionId, view } : undefined;
}

/** The fragment of an address (a trace without its turn is the session's chat). */
export function hashOf({ sessionId, view, invocationId }: Address): string {
  const session = `#/session/${encodeURIComponent(sessionId)}`;
  if (view === 'chat') return session;
  if (view === 'trace')
    return invocationId ? `${session}/trace/${encodeURIComponent(invocationId)}` : session;
  return `${session}/${SLUGS[view]}`;
}

function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined; // A malformed escape (`%E0%A4%A`): not an address.
  }
}
