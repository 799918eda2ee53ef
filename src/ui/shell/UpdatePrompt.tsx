import { useEffect } from 'preact/hooks';
import { useRegisterSW } from 'virtual:pwa-register/preact';
import { NOTICE_MS } from '../common/notice-timeout.ts';

/** Registers the service worker; offers the new version when one is waiting. */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({ immediate: true });
  // "Works offline" is a notice: it goes on its own (notice-timeout.ts). A new version waits.
  useEffect(() => {
    if (!offlineReady) return;
    const timer = setTimeout(() => setOfflineReady(false), NOTICE_MS);
    return () => clearTimeout(timer);
  }, [offlineReady]);
  if (needRefresh) {
    return (
      <div class="banner update" role="status">
        A new version of Trellis is available.{' '}
        <button type="button" class="primary" onClick={() => void updateServiceWorker(true)}>
          Update
        </button>{' '}
        <button type="button" class="quiet" onClick={() => setNeedRefresh(false)}>
          Later
        </button>
      </div>
    );
  }
  if (offlineReady) {
    return (
      <div class="banner offline" role="status">
        Trellis now works offline.{' '}
        <button type="button" class="quiet" onClick={() => setOfflineReady(false)}>
          OK
        </button>
      </div>
    );
  }
  return null;
}
