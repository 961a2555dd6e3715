// Table talk at a room: the chat panel (folded away on phones; a sheet at a table), the quick reactions bar,
// reactions shown briefly beside the sender's seat, and the host's moderation. Messages
// are other people's words: they are only ever put on the page as text, never as HTML.
// Frames: server/web/PROTOCOL.md, "Table talk".

import { addStrings, lang, t } from "./i18n.js";
import { el, seatLabel } from "./components.js";

export const REACTIONS = ["nice", "oops", "thinking", "hurry", "gg", "thanks"];
const EMOJI = { nice: "👍", oops: "😅", thinking: "🤔", hurry: "⏩", gg: "🤝", thanks: "🙏" };
const MAX_TEXT = 200;
const KEPT = 200;
const SHOWN_MS = 3500; // how long a reaction stays beside its seat
const WIDE = "(min-width: 760px)";

addStrings({
  en: {
    talk_title: "Table talk",
    talk_new: "{n} new",
    talk_empty: "No messages yet. Say hello!",
    talk_placeholder: "Message (up to 200 characters)",
    talk_input_label: "Chat message",
    talk_send: "Send",
    talk_reactions: "Quick reactions",
    talk_spectator: "Spectator",
    talk_muted_you: "The host has muted you.",
    talk_muted_spectators: "The host has muted spectators.",
    talk_quiet_deal: "No table talk during a Hachinin Meri deal: reactions only.",
    talk_host_controls: "Host controls",
    talk_mute_seat: "Mute {name}",
    talk_mute_spectators: "Mute spectators",
    talk_deal_text: "Allow text chat during deals",
    talk_reacted: "{name}: {reaction}",
    react_nice: "Nice",
    react_oops: "Oops",
    react_thinking: "Thinking",
    react_hurry: "Hurry",
    react_gg: "Good game",
    react_thanks: "Thanks",
    err_muted: "The host has muted you.",
    err_chat_off: "No table talk during this deal: reactions only.",
    err_bad_chat: "That message cannot be sent (empty, or over 200 characters).",
  },
  ja: {
    talk_title: "卓の会話",
    talk_new: "新着{n}件",
    talk_empty: "まだメッセージはありません。あいさつしてみましょう。",
    talk_placeholder: "メッセージ（200文字まで）",
    talk_input_label: "チャットのメッセージ",
    talk_send: "送信",
    talk_reactions: "リアクション",
    talk_spectator: "観戦者",
    talk_muted_you: "ホストがあなたをミュートしました。",
    talk_muted_spectators: "ホストが観戦者をミュートしました。",
    talk_quiet_deal: "八人メリの配り中は会話なし。リアクションのみです。",
    talk_host_controls: "ホストの設定",
    talk_mute_seat: "{name}をミュート",
    talk_mute_spectators: "観戦者をミュート",
    talk_deal_text: "配り中の文字チャットを許可",
    talk_reacted: "{name}：{reaction}",
    react_nice: "ナイス",
    react_oops: "しまった",
    react_thinking: "考え中",
    react_hurry: "お早めに",
    react_gg: "お疲れさま",
    react_thanks: "ありがとう",
    err_muted: "ホストがあなたをミュートしました。",
    err_chat_off: "この配りの間は会話できません。リアクションのみです。",
    err_bad_chat: "このメッセージは送れません（空か、200文字を超えています）。",
  },
});

/** "👍 Nice" in the current language. */
export function reactionText(reaction) {
  return `${EMOJI[reaction] || ""} ${t("react_" + reaction)}`.trim();
}

/**
 * The room's table talk. `send(frame)` sends a frame on the room's socket. The page
 * hands every frame to `onFrame` and calls `update(ctx)` after each render with
 * {message (the latest view), you, seats}; `node` is the panel to place on the page.
 */
export function createTalk({ send }) {
  const talk = { messages: [], unread: 0, ctx: null, controlsKey: "", reactions: new Map() };
  const log = el("ol", { class: "talk-log", id: "talk-log", "aria-live": "polite", "aria-relevant": "additions" });
  const input = el("input", {
    id: "talk-input", "data-key": "talk-input", type: "text", maxlength: String(MAX_TEXT),
    autocomplete: "off", enterkeyhint: "send",
  });
  const sendButton = el("button", { type: "submit", id: "talk-send", "data-key": "talk-send" });
  const form = el("form", { class: "talk-form", id: "talk-form" }, input, sendButton);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    send({ t: "chat", text });
    input.value = "";
  });
  const note = el("p", { class: "talk-note muted", id: "talk-note", role: "status" });
  const reactionsBar = el("div", { class: "talk-reactions", id: "talk-reactions", role: "group" });
  const strip = el("p", { class: "talk-strip", id: "talk-strip", "aria-live": "polite" });
  const hostControls = el("div", { class: "talk-host", id: "talk-host" });
  const summary = el("summary", { id: "talk-summary", "data-key": "talk-summary", "data-icon": "💬" });
  // At a table the panel opens as a sheet over it (chat.css): the reactions go with it.
  const panel = el("details", { class: "panel talk", id: "talk" }, summary,
    el("div", { class: "talk-sheet" }, reactionsBar, strip, log, note, form, hostControls));
  panel.open = window.matchMedia(WIDE).matches;
  panel.addEventListener("toggle", () => {
    if (panel.open) {
      talk.unread = 0;
      renderSummary();
      log.scrollTop = log.scrollHeight;
    }
  });
  const node = el("div", { class: "talk-area", id: "talk-area" }, panel);
  const layer = el("div", { class: "reaction-layer", id: "reaction-layer", "aria-hidden": "true" });
  document.body.append(layer);

  const ctxYou = () => (talk.ctx ? talk.ctx.you || [] : []);
  const ctxSeats = () => (talk.ctx ? talk.ctx.seats || [] : []);
  const state = () => (talk.ctx && talk.ctx.message && talk.ctx.message.room && talk.ctx.message.room.talk) || {
    text: true, muted: [], spectators_muted: false, deal_text: null,
  };

  function who(seat, name) {
    if (seat === null || seat === undefined) return t("talk_spectator");
    const you = ctxYou();
    if (you.includes(seat) || !name) return seatLabel(ctxSeats(), seat, you);
    return name;
  }

  function clock(at) {
    return new Date(at).toLocaleTimeString(lang() === "ja" ? "ja-JP" : "en-GB", { hour: "2-digit", minute: "2-digit" });
  }

  function line(message) {
    const mine = message.seat !== null && ctxYou().includes(message.seat);
    return el("li", { class: `talk-line${mine ? " mine" : ""}`, "data-speaker": message.seat ?? "" },
      el("span", { class: "talk-who" }, who(message.seat, message.name)),
      el("time", { class: "talk-at muted", datetime: new Date(message.at).toISOString() }, clock(message.at)),
      el("span", { class: "talk-text" }, message.text));
  }

  function renderLog() {
    log.replaceChildren(...(talk.messages.length
      ? talk.messages.map(line)
      : [el("li", { class: "muted talk-empty" }, t("talk_empty"))]));
    log.scrollTop = log.scrollHeight;
  }

  function renderSummary() {
    const unread = talk.unread && !panel.open
      ? [el("span", { class: "badge strong", id: "talk-unread" }, t("talk_new", { n: talk.unread }))] : [];
    summary.replaceChildren(el("span", { class: "lbl" }, t("talk_title")), ...unread);
  }

  function add(message) {
    const atBottom = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
    if (!talk.messages.length) log.replaceChildren();
    talk.messages.push(message);
    log.append(line(message));
    while (talk.messages.length > KEPT) {
      talk.messages.shift();
      log.firstChild.remove();
    }
    if (!panel.open) {
      talk.unread += 1;
      renderSummary();
    } else if (atBottom || ctxYou().includes(message.seat)) {
      log.scrollTop = log.scrollHeight;
    }
  }

  /** Why this browser cannot send text now, or "" when it can. */
  function silenced(s) {
    const you = ctxYou();
    if (!you.length && s.spectators_muted) return t("talk_muted_spectators");
    if (you.length && you.every((seat) => (s.muted || []).includes(seat))) return t("talk_muted_you");
    if (s.text === false) return t("talk_quiet_deal");
    return "";
  }

  function renderControls() {
    const s = state();
    const you = ctxYou();
    const room = (talk.ctx && talk.ctx.message && talk.ctx.message.room) || {};
    const seats = ctxSeats();
    const key = JSON.stringify([lang(), s, you, room.host, seats.map((x) => [x.kind, x.name])]);
    if (key === talk.controlsKey) return;
    talk.controlsKey = key;
    const why = silenced(s);
    const muted = you.length > 0 && you.every((seat) => (s.muted || []).includes(seat));
    input.disabled = Boolean(why);
    sendButton.disabled = Boolean(why);
    input.placeholder = t("talk_placeholder");
    input.setAttribute("aria-label", t("talk_input_label"));
    sendButton.textContent = t("talk_send");
    note.textContent = why;
    note.hidden = !why;
    reactionsBar.setAttribute("aria-label", t("talk_reactions"));
    reactionsBar.replaceChildren(...(you.length ? REACTIONS.map((reaction) => el("button", {
      type: "button", class: "ghost talk-react", "data-key": "react-" + reaction, "data-reaction": reaction,
      disabled: muted, "aria-label": t("react_" + reaction), title: t("react_" + reaction),
      onclick: () => send({ t: "react", reaction }),
    }, el("span", { "aria-hidden": "true" }, EMOJI[reaction]), el("span", { class: "talk-react-label" }, t("react_" + reaction)))) : []));
    reactionsBar.hidden = !you.length;
    renderSummary();
    renderHost(s, room, seats, you);
  }

  function renderHost(s, room, seats, you) {
    if (!you.includes(room.host)) {
      hostControls.replaceChildren();
      return;
    }
    const toggle = (id, label, checked, frame) => el("label", { class: "row talk-toggle" },
      el("input", { type: "checkbox", id, "data-key": id, checked, onchange: (e) => send(frame(e.target.checked)) }),
      label);
    const rows = seats.map((seat, i) => (i === room.host || seat.kind !== "human" ? null
      : toggle(`talk-mute-${i}`, t("talk_mute_seat", { name: seatLabel(seats, i, you) }), (s.muted || []).includes(i),
        (on) => ({ t: "mute", seat: i, muted: on }))));
    rows.push(toggle("talk-mute-spectators", t("talk_mute_spectators"), s.spectators_muted,
      (on) => ({ t: "mute", spectators: true, muted: on })));
    if (s.deal_text !== null && s.deal_text !== undefined) {
      rows.push(toggle("talk-deal-text", t("talk_deal_text"), s.deal_text, (on) => ({ t: "deal_text", allowed: on })));
    }
    hostControls.replaceChildren(el("details", { class: "talk-host-box" },
      el("summary", { "data-key": "talk-host-summary" }, t("talk_host_controls")), rows.filter(Boolean)));
    // Keep the host box open across re-renders once opened.
    const box = hostControls.firstChild;
    box.open = talk.hostOpen || false;
    box.addEventListener("toggle", () => { talk.hostOpen = box.open; });
  }

  function react(frame) {
    const shown = { reaction: frame.reaction, until: Date.now() + SHOWN_MS };
    talk.reactions.set(frame.seat, shown);
    strip.textContent = t("talk_reacted", { name: who(frame.seat, ""), reaction: reactionText(frame.reaction) });
    placeReactions();
    setTimeout(() => {
      if (talk.reactions.get(frame.seat) === shown) talk.reactions.delete(frame.seat);
      if (!talk.reactions.size) strip.textContent = "";
      placeReactions();
    }, SHOWN_MS);
  }

  /** Put each live reaction beside its seat's box on the table (if the table shows one). */
  function placeReactions() {
    const bubbles = [];
    for (const [seat, shown] of talk.reactions) {
      const box = document.querySelector(`#table-root .seat[data-seat="${seat}"]`);
      if (!box) continue;
      const rect = box.getBoundingClientRect();
      bubbles.push(el("span", {
        class: "reaction-bubble", "data-seat": seat, "data-reaction": shown.reaction,
        style: `left:${Math.round(rect.right + window.scrollX - 4)}px;top:${Math.round(rect.top + window.scrollY)}px`,
      }, reactionText(shown.reaction)));
    }
    layer.replaceChildren(...bubbles);
  }

  return {
    node,
    /** A frame from the room's socket: the welcome's history, chat and react frames. */
    onFrame(frame) {
      if (frame.t === "welcome") {
        talk.messages = (frame.chat || []).slice(-KEPT);
        renderLog();
      } else if (frame.t === "chat") {
        add(frame);
      } else if (frame.t === "react") {
        react(frame);
      }
    },
    /** After each page render: the latest view's talk state, seats and names. */
    update(ctx) {
      const langChanged = talk.lang !== lang();
      talk.ctx = ctx;
      renderControls();
      if (langChanged) {
        talk.lang = lang();
        renderLog();
      }
      placeReactions();
    },
    destroy() {
      layer.remove();
    },
  };
}
