/*
 * The web app's service worker (issue #47): the app shell offline. A reload without a connection
 * shows the app, which opens the person's kept state and command queue from IndexedDB.
 *
 * - The page (/app/ and every app path, which all answer index.html): network first, so a new
 *   build is picked up at once; the last copy when the network fails.
 * - Vite's hashed files (/app/assets/): cache first; a name's bytes never change.
 * - Installing caches index.html and the files it names, so the shell works offline from the
 *   first visit on. Nothing else is touched: the APIs, the push channel and the account pages
 *   always go to the network (the app has its own offline path for them: the queue).
 * A new build's worker takes over at once and drops the old caches.
 *
 * Requests outside /app/ never reach this worker where the browser can route them itself (the
 * static routing API, Chromium 123+): an API call, the token, an upload then cost no worker start
 * (an idle worker is stopped after about 30 s and a fetch event wakes it), and they meet the
 * network exactly as an uncontrolled page's would. Elsewhere the fetch handler lets them pass.
 */
const CACHE = 'doable-shell-v1';
const SHELL = '/app/';

self.addEventListener('install', (event) => {
  if (typeof event.addRoutes === 'function') {
    // A browser that rejects the rule keeps the fetch handler's pass-through: not worth failing the install.
    event.waitUntil(event.addRoutes([{ condition: { not: { urlPattern: { pathname: '/app/*' } } }, source: 'network' }]).catch(() => undefined));
  }
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      const page = await fetch(SHELL, { cache: 'no-cache' });
      if (!page.ok) return;
      const html = await page.clone().text();
      await cache.put(SHELL, page);
      const assets = [...html.matchAll(/(?:src|href)="(\/app\/[^"]+)"/g)].map((match) => match[1]);
      await cache.addAll([...new Set(assets)]);
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) if (name !== CACHE) await caches.delete(name);
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin || !url.pathname.startsWith('/app/')) return;
  if (url.pathname.startsWith('/app/assets/')) {
    event.respondWith(cacheFirst(request));
    return;
  }
  if (request.mode === 'navigate') event.respondWith(pageNetworkFirst(request));
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  const kept = await cache.match(request);
  if (kept) return kept;
  const answer = await fetch(request);
  if (answer.ok) await cache.put(request, answer.clone());
  return answer;
}

async function pageNetworkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    // Every app path is the same page: kept under one key.
    if (answer.ok) await cache.put(SHELL, answer.clone());
    return answer;
  } catch (err) {
    const kept = await cache.match(SHELL);
    if (kept) return kept;
    throw err;
  }
}
