// Keeps the page's address (address.ts) and what the page shows in step, both ways:
// - what the page shows → the address: a new entry in the tab's history for each session or
//   view the user goes to (so Back comes back to it); the first write replaces (the page's own
//   load is not a step back);
// - the address → what the page shows: Back, Forward, or an address typed or followed.
//
// What must stay true:
// - while the page goes where the address says (a session opens: an async step), it writes
//   nothing, or it would push the half-way state (the old session in the new view) in between;
// - when it cannot go there (no such session), the address is put back to what it shows, in
//   place (no new entry);
// - Back or Forward before the page is ready (a view shows before the sessions are read) is
//   followed once it is, not overwritten by what the page first shows.

import { useEffect, useRef } from 'preact/hooks';
import { addressOf, hashOf, type Address } from './address.ts';

/**
 * `shown`: what the page shows (undefined until it is ready); `go`: goes where an address says,
 * resolving once done or given up.
 */
export function useAddress(shown: Address | undefined, go: (address: Address) => Promise<void>) {
  const shownHash = shown && hashOf(shown);
  const current = useRef(shownHash);
  current.current = shownHash;
  const go_ = useRef(go);
  go_.current = go;
  /** The address the page is going to, until it gets there. */
  const following = useRef<string | undefined>(undefined);
  const written = useRef(false);
  /** Back or Forward before the page was ready: followed once it is. */
  const movedEarly = useRef(false);

  /** Goes where the address bar says, if it names somewhere else than what the page shows. */
  const follow = useRef(() => {
    const address = addressOf(location.hash);
    const shown = current.current;
    if (shown === undefined) return void (movedEarly.current = true);
    // Any other fragment (an in-page link): the address stays the page's.
    if (!address) return void history.replaceState(history.state, '', shown);
    const target = hashOf(address);
    if (target === following.current) return; // popstate and hashchange, for the same step
    if (target === shown) {
      if (location.hash !== shown) history.replaceState(history.state, '', shown);
      return;
    }
    following.current = target;
    void go_.current(address).finally(() =>
      // After the render of what it did: if the page did not get there, say where it is.
      setTimeout(() => {
        if (following.current !== target) return;
        following.current = undefined;
        if (current.current && location.hash !== current.current)
          history.replaceState(history.state, '', current.current);
      }),
    );
  });

  useEffect(() => {
    if (shownHash === undefined) return;
    if (movedEarly.current) {
      movedEarly.current = false;
      written.current = true;
      return follow.current();
    }
    if (following.current !== undefined) {
      if (shownHash !== following.current) return; // half-way there
      following.current = undefined;
      if (location.hash !== shownHash) history.replaceState(history.state, '', shownHash);
      return;
    }
    if (location.hash !== shownHash) {
      if (written.current) history.pushState(null, '', shownHash);
      else history.replaceState(history.state, '', shownHash);
    }
    written.current = true;
  }, [shownHash]);

  useEffect(() => {
    const onChange = () => follow.current();
    addEventListener('popstate', onChange);
    addEventListener('hashchange', onChange);
    return () => {
      removeEventListener('popstate', onChange);
      removeEventListener('hashchange', onChange);
    };
  }, []);
}
