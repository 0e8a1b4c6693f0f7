// cfplay's cross-origin-isolation service worker, for static hosts that cannot send the
// COOP/COEP headers (GitHub Pages, plain object storage…). Z3's wasm build needs
// SharedArrayBuffer, which needs a cross-origin-isolated page. index.html registers this
// worker (top-level pages only, unless `?nosw`), and reloads once so the page is served
// through it. It re-serves same-origin responses with
//   Cross-Origin-Opener-Policy: same-origin
//   Cross-Origin-Embedder-Policy: require-corp
//   Cross-Origin-Resource-Policy: cross-origin   (other sites may embed the playground)
// and leaves everything else untouched. It caches nothing. To remove it, unregister it in
// the browser's devtools or delete this file from the host (the next update check then
// uninstalls it: a missing script makes the registration fail and the page falls back to
// replay).
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return; // not ours: the network as usual
  // A devtools quirk: only-if-cached requests must be same-origin.
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith(
    fetch(request).then((response) => {
      if (response.status === 0 || response.type === 'opaque') return response;
      const headers = new Headers(response.headers);
      headers.set('Cross-Origin-Opener-Policy', 'same-origin');
      headers.set('Cross-Origin-Embedder-Policy', 'require-corp');
      headers.set('Cross-Origin-Resource-Policy', 'cross-origin');
      return new Response(response.body, {
        status: response.status,
        statusText: response.statusText,
        headers,
      });
    }),
  );
});
