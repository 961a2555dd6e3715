// The service worker (scope "/"): the app shell from this device when the network is
// gone, and Web Push "your move" notifications.
//
// Shell: at install it stores every file /app-shell.json lists; after that each file is
// asked of the network first (so an online page is always the server's latest) and the
// stored copy answers only when the network fails. A page (any "/?..." address) falls
// back to the stored "/", so the lobby and "Your rooms" open offline; the API and the
// websocket are never stored, so play says it needs the server.
//
// Push: the server sends {v, kind: "move" | "over", room, seat, game, name, player,
// lang}: the room's code and name, the game, the seat and its player's name, never a
// card. A notification says it in the language the seat holder chose; tapping it
// opens the room (an open Zashiki window goes there, else a new one).

const CACHE = "zashiki-shell";
// Never stored: the API, the probes and the shell list itself.
const NETWORK_ONLY = ["/api/", "/ws", "/metrics", "/healthz", "/livez", "/readyz", "/openapi.json", "/app-shell.json"];
const ROOM_CODE = /^[A-Z0-9]{1,16}$/;

const WORDS = {
  en: {
    move_title: "Your move — {game}",
    move_body: "Room {room}: {player}, it is your move.",
    over_title: "Match over — {game}",
    over_body: "Room {room}: the match is over. See how it ended.",
    other_title: "Zashiki",
    other_body: "Something happened in one of your rooms.",
  },
  ja: {
    move_title: "あなたの番です — {game}",
    move_body: "部屋{room}：{player}の番です。",
    over_title: "対戦終了 — {game}",
    over_body: "部屋{room}：対戦が終わりました。結果を見てみましょう。",
    other_title: "座敷",
    other_body: "参加中の部屋で動きがありました。",
  },
};
const GAMES = {
  usunoro: { en: "Usunoro", ja: "うすのろ" },
  hachinin_meri: { en: "Hachinin Meri", ja: "八人メリ" },
  utsuke: { en: "Utsuke", ja: "ウツケ" },
  kokuto_rum: { en: "Kokuto Rum", ja: "黒糖ラミー" },
  shirokuro_jong: { en: "Shirokuro Jong", ja: "白黒ジャン" },
  junocos: { en: "Junocos", ja: "ジュノコス" },
};

self.addEventListener("install", (event) => {
  event.waitUntil(precache().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(self.clients.claim());
});

/** Store every shell file; one that fails is left for the network-first path to store. */
async function precache() {
  const answer = await fetch("/app-shell.json", { cache: "no-store" });
  const { files } = await answer.json();
  const cache = await caches.open(CACHE);
  await Promise.all(files.map(async (path) => {
    try {
      const file = await fetch(path, { cache: "no-cache" });
      if (file.ok) await cache.put(path, file);
    } catch {
      // Offline in the middle of installing: the next visit stores it.
    }
  }));
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (NETWORK_ONLY.some((prefix) => url.pathname.startsWith(prefix))) return;
  event.respondWith(networkFirst(request, request.mode === "navigate"));
});

/** The network's answer (stored for later), else the stored copy; a page falls back to "/". */
async function networkFirst(request, page) {
  const cache = await caches.open(CACHE);
  try {
    const answer = await fetch(request);
    if (answer.ok && answer.type === "basic") {
      await cache.put(page ? new URL(request.url).pathname : request, answer.clone());
    }
    return answer;
  } catch (err) {
    const kept = await cache.match(request, { ignoreSearch: page });
    if (kept) return kept;
    if (page) {
      const shell = await cache.match("/");
      if (shell) return shell;
    }
    throw err;
  }
}

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

/** The notification for one push's payload (see the top of this file). */
function notice(data) {
  const lang = data.lang === "ja" ? "ja" : "en";
  const words = WORDS[lang];
  const room = typeof data.room === "string" && ROOM_CODE.test(data.room) ? data.room : null;
  const kind = room && (data.kind === "move" || data.kind === "over") ? data.kind : "other";
  const game = (GAMES[data.game] || {})[lang] || "";
  const name = typeof data.name === "string" && data.name ? `${data.name} (${room})` : room;
  const player = typeof data.player === "string" ? data.player : "";
  const seat = Number.isInteger(data.seat) ? data.seat : null;
  return {
    title: fill(words[kind + "_title"], { game }),
    options: {
      body: fill(words[kind + "_body"], { room: name, player }),
      lang,
      tag: room ? `zashiki-${room}-${seat}` : "zashiki",
      renotify: true,
      icon: "/icons/icon-192.png",
      badge: "/icons/badge-96.png",
      data: { url: room ? `/?room=${room}` : "/?rooms=1", room, seat },
    },
  };
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    // Not JSON: the generic notice.
  }
  const { title, options } = notice(data || {});
  event.waitUntil(self.registration.showNotification(title, options));
});

/** A tapped notification: open its room (the page holds the seat's token). */
async function onNoticeClick(notification) {
  notification.close();
  const url = new URL((notification.data && notification.data.url) || "/?rooms=1", self.location.origin).href;
  const windows = await self.clients.matchAll({ type: "window" });
  const same = windows.find((client) => client.url === url);
  for (const client of same ? [same] : windows) {
    try {
      const shown = client.url === url ? client : await client.navigate(url);
      if (shown) {
        await shown.focus().catch(() => {});
        return shown;
      }
    } catch {
      // Not ours to steer: try the next, then a new window.
    }
  }
  return self.clients.openWindow(url);
}

self.addEventListener("notificationclick", (event) => {
  event.waitUntil(onNoticeClick(event.notification));
});
