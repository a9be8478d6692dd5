// hachi-score serve: the page. Plain DOM, no framework, no inline script (the CSP forbids it).
// It draws the round's view model as the server sends it (scorekeeper/questions.py): the steps,
// their status, the choices and what each sends, the labels, the problems, what the round stands
// at. It holds no rule: which steps are asked, who plays, what an answer means and whether it
// checks out are the server's. It sends taps (an answer to a step: card codes, or a choice's
// answer as given; a pile said complete) through an outbox kept in the phone's storage, and a
// save, a discard or a restore when asked.
//
// It holds no English sentence of its own either: every word it shows is _("…") (or n_("…", "…", n)),
// worded from the catalog of the page's language, which the server hands it (/api/words), and
// every message of the view model (an English template and its arguments: the server sends one
// view to every phone) is worded here from the same catalog. The language: the one chosen on the
// page (kept on the phone), else the one the phone's Accept-Language asks for, else English.
"use strict";

const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content || "";
const ROLE = meta("hachi-role");
const CSRF = meta("hachi-csrf");
const CAN_WRITE = ROLE === "table";

// -- the words: the page's language, its catalog, and the view model's messages worded -------------
const LANGS = { ja: "日本語", en: "English" };  // each language in its own words, on the switch
const LANG_KEY = "hachi-lang";
let LANG = (() => {
  const kept = localStorage.getItem(LANG_KEY);
  if (kept && LANGS[kept]) return kept;
  const told = meta("hachi-lang");  // the server's reading of this phone's Accept-Language
  return LANGS[told] ? told : "en";
})();
let CAT = {};      // English template -> its words in LANG (English: empty, the templates are the words)
let PLURALS = {};  // English singular -> its forms in LANG
let worded = false;  // the catalog is in (or can't be had: then English)
let wordsSeen = 0;   // how many times the page's words changed (every part is drawn again in them)
const _ = (text) => CAT[text] || text;
function n_(one, many, n) {
  const forms = PLURALS[one];
  if (forms && forms.length) return forms[forms.length === 1 ? 0 : n === 1 ? 0 : Math.min(1, forms.length - 1)];
  return n === 1 ? one : many;
}

// A Python str.format template filled in: {name}, {name!r}, {name:spec} ({n:,} {n:2d} {m:+d}), {{ }}.
function fmt(template, args) {
  return String(template).replace(/\{\{|\}\}|\{(\w+)(?:!([rsa]))?(?::([^{}]*))?\}/g, (all, key, conv, spec) => {
    if (all === "{{") return "{";
    if (all === "}}") return "}";
    if (!args || !(key in args)) return all;
    const v = args[key];
    const text = conv === "r" ? pyRepr(typeof v === "string" ? v : say(v))
      : typeof v === "number" ? number(v, spec || "") : say(v);
    return pad(text, spec || "", typeof v === "number" && !conv);
  });
}
function pyRepr(s) {  // as Python's repr of a str
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  return q + s.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\t/g, "\\t").split(q).join("\\" + q) + q;
}
const SPEC = /^(?:(.)?([<>^=]))?([+\- ])?#?(0)?(\d+)?([,_])?(?:\.(\d+))?([a-zA-Z%])?$/;
function number(v, spec) {
  const m = SPEC.exec(spec) || [];
  let s = m[7] !== undefined ? Math.abs(v).toFixed(Number(m[7])) : String(Math.abs(v));
  if (m[6]) { const [whole, frac] = s.split("."); s = whole.replace(/\B(?=(\d{3})+(?!\d))/g, m[6]) + (frac ? "." + frac : ""); }
  return (v < 0 ? "-" : m[3] === "+" ? "+" : m[3] === " " ? " " : "") + s;
}
function pad(text, spec, numeric) {
  const m = SPEC.exec(spec) || [];
  const width = Number(m[5] || 0);
  if (text.length >= width) return text;
  const fill = m[1] || (m[4] ? "0" : " "), align = m[2] || (numeric ? ">" : "<"), room = width - text.length;
  if (align === "<") return text + fill.repeat(room);
  if (align === "^") return fill.repeat(Math.floor(room / 2)) + text + fill.repeat(Math.ceil(room / 2));
  return fill.repeat(room) + text;
}
// A message of the view model in this page's language: {t: English template, args} worded from the
// catalog (its args may be messages, or lists of them, joined as the language joins a list); its
// text as sent only when it has no template; a list joined; any other value as it is.
function say(m) {
  if (m === null || m === undefined) return "";
  if (Array.isArray(m)) return m.map(say).join(_(", "));
  if (typeof m !== "object") return String(m);
  if (typeof m.t !== "string") return m.text === undefined || m.text === null ? "" : String(m.text);
  return fmt(_(m.t), m.args || {});
}
// A template filled in with nodes (a name that is an element, say), as a list of kids for el().
function nodes(template, args) {
  const out = [];
  let at = 0;
  template.replace(/\{(\w+)\}/g, (all, key, i) => {
    out.push(template.slice(at, i), key in args ? args[key] : all);
    at = i + all.length;
    return all;
  });
  out.push(template.slice(at));
  return out.filter((x) => x !== "");
}
// A line the server keeps as text in the shared view (a problem's, the header) but sends with its
// template too (``NAME_m``): worded from the template where there is one.
const lineOf = (o, key) => (o ? say(o[`${key}_m`] || o[key]) : "");

async function loadWords(language) {
  let words = {}, plurals = {};
  if (language !== "en") {
    try {
      const r = await fetch(`/api/words?lang=${encodeURIComponent(language)}&v=${encodeURIComponent(meta("hachi-words"))}`,
        { credentials: "same-origin" });
      if (!r.ok) throw new Error(String(r.status));
      const data = await r.json();
      words = data.words || {};
      plurals = data.plurals || {};
    } catch (e) {  // no catalog (no server just now): English, until it can be had
      if (!worded) { worded = true; render(); }
      return false;
    }
  }
  LANG = language;
  CAT = words;
  PLURALS = plurals;
  worded = true;
  wordsSeen++;
  document.documentElement.lang = LANG;
  document.body.dataset.lang = LANG;
  renderStatic();
  render();
  return true;
}

// The switch: the other language at once, kept on this phone (and told to the server, for the
// pages it serves when this phone navigates: a reload, a link).
function chooseLang(language) {
  if (!LANGS[language]) return;
  localStorage.setItem(LANG_KEY, language);
  document.cookie = `${LANG_KEY}=${language}; path=/; max-age=31536000; samesite=lax`;
  loadWords(language);
}
function renderStatic() {  // the page's own words outside the view model
  const label = { standings: _("standings"), round: _("the round being entered"), chart: _("running totals"), history: _("rounds") };
  for (const [id, text] of Object.entries(label)) { const sec = document.getElementById(id); if (sec) sec.setAttribute("aria-label", text); }
  const box = document.getElementById("lang");
  if (!box) return;
  box.setAttribute("aria-label", _("language"));
  update(box, Object.entries(LANGS).map(([code, nameOf]) => el("button", {
    class: code === LANG ? "on" : "", lang: code, "data-lang": code, "aria-pressed": code === LANG ? "true" : "false",
    on: { click: () => chooseLang(code) } }, nameOf)));
}

let S = null;              // the night's state, as the server last pushed it
let me = localStorage.getItem("hachi-me") || "";
// What this phone holds of the round being typed, beside the server's: its picks not sent yet, the
// taps the server refused, the taps another phone overtook. Each belongs to one round (its number
// and draft): forgotten the moment the round changes, never carried into the next (a field picked
// here but set by another phone came back picked in the next round, one tap from being set).
let heldFor = "";          // the round they belong to (roundKey)
let pick, refused, stale;  // selections not sent yet; key -> {text, card, message}: a tap refused (nothing
                           // kept); the outbox entry's id -> {key, id, path, body, message}: a tap sent after another
                           // phone changed that answer, shown until its player sends it again or leaves it
let saveSaid = "";         // why the round was not saved, when it was not
function forget(round) {
  heldFor = round;
  pick = { field: null, hand: null, handOpen: null, who: false, ending: false, dealer: false, toggles: {}, counts: {} };
  refused = {};
  stale = {};
  saveSaid = "";
}
forget("");
const roundKey = (state) => `${state.session.session}/${state.round.number}/${state.round.draft}`;
let missed = [];           // the lines of taps refused once their round was gone (saved meanwhile): in the bar
let saved = null;          // the number of a round saved while this page was open: said in the bar
let busy = 0;
let offline = false;       // the last request found no server
let gone = "";             // the server's own word that this page can't go on (new links: scan the new code)

// An element: its attributes, its handlers (``on``: kept on the node, called by one listener of
// the page's for each kind of event, so that a node kept when the page is drawn again takes the
// new tree's handlers), its kids.
function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "on") { node._on = v; for (const type of Object.keys(v)) listen(type); }
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat(Infinity)) if (kid !== null && kid !== undefined && kid !== false)
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return node;
}
const listening = new Set();
function listen(type) {  // one listener for each kind of event: it calls each node's own handler, bubbling
  if (listening.has(type)) return;
  listening.add(type);
  document.addEventListener(type, (ev) => {
    for (let n = ev.target; n && n !== document && !ev.cancelBubble; n = n.parentNode) {
      const fn = n._on && n._on[type];
      if (fn) fn.call(n, ev);
    }
  });
}

// -- the page drawn again in place ----------------------------------------------------------------
// Each part is built anew as the state says, then the live page is brought to it: each live node
// is kept where the new tree has its like (the same id or data-key, else the next of its tag), its
// attributes and text brought up to date and its handlers swapped, and only what differs is
// touched. So a push never takes away what a person is typing, the focus, the selection, the
// scroll, nor the node under a finger. A node built as ``same(live)`` is one that has not changed
// since it was drawn: it is left as it is.
const keyOf = (n) => (n.nodeType === 1 ? n.id || n.getAttribute("data-key") || "" : "");
function same(live) {  // the live node, unchanged: a stand-in the update leaves it for
  const stand = live.nodeType === 1 ? document.createElement(live.nodeName.toLowerCase()) : document.createTextNode("");
  if (live.id) stand.id = live.id;
  else if (live.nodeType === 1 && live.getAttribute("data-key")) stand.setAttribute("data-key", live.getAttribute("data-key"));
  stand._same = live;
  return stand;
}
function patch(live, fresh) {
  if (fresh._same) return;
  if (live.nodeType !== 1) { if (live.data !== fresh.data) live.data = fresh.data; return; }
  for (const a of Array.from(live.attributes)) if (!fresh.hasAttribute(a.name)) live.removeAttribute(a.name);
  for (const a of Array.from(fresh.attributes)) if (live.getAttribute(a.name) !== a.value) live.setAttribute(a.name, a.value);
  live._on = fresh._on;
  live._sig = fresh._sig;
  update(live, Array.from(fresh.childNodes));
}
// ``parent``'s children brought to ``kids`` (nodes; a fragment stands for its children).
function update(parent, kids) {
  kids = kids.flat().filter(Boolean).flatMap((k) => (k.nodeType === 11 ? Array.from(k.childNodes) : [k]));
  const old = Array.from(parent.childNodes), byKey = new Map(), taken = new Set();
  for (const n of old) { const k = keyOf(n); if (k && !byKey.has(k)) byKey.set(k, n); }
  let at = 0;
  const placed = kids.map((kid) => {
    const k = keyOf(kid);
    let match = null;
    if (k) match = byKey.get(k) || null;
    else for (let i = at; i < old.length; i++) {
      if (!taken.has(old[i]) && !keyOf(old[i]) && old[i].nodeName === kid.nodeName) { match = old[i]; at = i + 1; break; }
    }
    if (match && (taken.has(match) || match.nodeName !== kid.nodeName)) match = null;
    if (!match) return kid._same || kid;
    taken.add(match);
    patch(match, kid);
    return match;
  });
  for (const n of old) if (!taken.has(n) && !placed.includes(n)) parent.removeChild(n);
  let cursor = parent.firstChild;
  for (const n of placed) {
    if (n === cursor) cursor = cursor.nextSibling;
    else parent.insertBefore(n, cursor);
  }
}
// A part drawn only when what it shows changed (its inputs, and the page's words).
const drawnFrom = {};
function changed(part, ...inputs) {
  const sig = JSON.stringify([wordsSeen, inputs]);
  if (drawnFrom[part] === sig) return false;
  drawnFrom[part] = sig;
  return true;
}
const signed = (n) => (n > 0 ? "+" : "") + n;
const cls = (n) => (n > 0 ? "pos" : n < 0 ? "neg" : "");
const words = (m) => (m ? say(m) : "");
const titled = (s) => words(s.title || s.label);  // a step's question as the page asks it
const name = (p) => el("span", { class: "nm", title: p, tabindex: "0" }, p);  // cut with … and shown whole on tap

// -- the outbox: every tap kept in the phone's storage until the server has it -------------------
// One entry per answer of a round (a later tap of the same answer replaces its text, and is
// counted: ``taps``), and one per card of a pile (a card tapped on then off before it is sent
// cancels out), sent in order, resent when the connection is back. Each says what the phone had
// seen (``was``; a card: how many of it the pile held, ``seen``) and for which round: the server
// merges the cards tapped on several phones, refuses a tap made against an answer another phone
// changed since, and the page shows that one for tapping again, never dropping it without a word.
const OUTBOX = "hachi-outbox";
let outbox = [];
try { outbox = JSON.parse(localStorage.getItem(OUTBOX) || "[]"); } catch (e) { outbox = []; }
const keep = () => localStorage.setItem(OUTBOX, JSON.stringify(outbox, (k, v) => (k === "sending" ? undefined : v)));
const drop = (e) => { const i = outbox.indexOf(e); if (i >= 0) outbox.splice(i, 1); };
// this round's entry for an answer (a tap kept for a round gone is not this round's answer)
const queued = (id) => outbox.find((e) => e.id === id && e.session === S.session.session && e.body.round === S.round.number) || null;
const taps = () => outbox.reduce((n, e) => n + (e.taps || 1), 0);  // the taps not sent yet, each counted

// What waits on this phone (requests, taps not sent yet): said at once when something does, and
// that nothing does once the page is drawn so (a page marked settled is a page drawn settled).
const waiting = () => ({ pending: String(busy + outbox.length), unsent: String(outbox.length), taps: String(taps()) });
const setData = (name, value) => { if (document.body.dataset[name] !== value) document.body.dataset[name] = value; };
function pending() {
  for (const [name, value] of Object.entries(waiting())) if (value !== "0") setData(name, value);
  render();
}
function said() {
  for (const [name, value] of Object.entries(waiting())) setData(name, value);
  setLive();
}

function send(id, path, body) {
  const old = queued(id);
  if (old) { old.body = { ...old.body, ...body }; old.taps = (old.taps || 1) + 1; }
  else {
    const seen = "text" in body ? { was: S.round.answers[body.key] === undefined ? null : S.round.answers[body.key] } : {};
    outbox.push({ id, path, session: S.session.session, taps: 1, body: { ...body, ...seen, round: S.round.number, draft: S.round.draft } });
  }
  sent();
}
function sent() { keep(); pending(); flush(); }
function answer(key, text) {  // a pile's given whole (its count, rest, its 出来役's names): its cards not sent yet give way
  if (key.startsWith("pile:")) outbox = outbox.filter((e) => e.sending || !(e.body.card && e.body.key === key));
  send(`a:${key}`, "/api/answer", { key, text });
}
const bare = ({ was, round, ...tap }) => tap;  // a tap as tapped: what send adds taken off
const sayDone = (player, done, empty) => send(`d:${player}`, "/api/done", { player, done, ...(empty ? { empty: true } : {}) });
// One card of pile ``key`` tapped (``on``: the button tapped is one of the pile's: one fewer of it;
// else one more), from what this phone has of the pile.
function tapCard(key, code, on) {
  const r = refused[key], had = holding(key, code);
  if (r && r.card === code && on && !had) { delete refused[key]; render(); return; }  // the card refused, untapped
  setCard(key, code, on ? Math.max(0, had - 1) : Math.min(COPIES[code] || 1, had + 1));  // drawn off, held since: held
}
const holding = (key, code) => (pileCards(key) || []).filter((c) => c === code).length;
// Pile ``key`` to hold ``count`` of ``code``: coalesced with a tap of that card not sent yet (tapped
// back to what the server had, nothing is left to send), else a tap of its own.
function setCard(key, code, count) {
  const id = `c:${key}:${code}`, e = queued(id);
  if (e) {
    e.body.count = count;
    e.taps = (e.taps || 1) + 1;
    if (!e.sending && e.body.count === e.body.seen) drop(e);
  } else {
    const had = holding(key, code), was = mine(key) === undefined ? null : mine(key);
    if (had === count) { render(); return; }
    outbox.push({ id, path: "/api/answer", session: S.session.session, taps: 1,
      body: { key, card: code, seen: had, count, was, round: S.round.number, draft: S.round.draft } });
  }
  sent();
}
// A tap another phone overtook, sent again from what the page shows now.
function again(t) {
  delete stale[t.id];
  if (t.body.card) setCard(t.key, t.body.card, t.body.count);
  else send(t.id, t.path, t.body);
}

let flushing = false;
async function flush() {
  if (flushing || !S || !outbox.length) return;  // nothing to send: nothing to draw either
  flushing = true;
  try {
    while (outbox.length) {
      const e = outbox[0];
      if (e.session !== S.session.session) { outbox.shift(); keep(); continue; }  // another night's
      const body = { ...e.body }, tapped = e.taps || 1;
      e.sending = true;
      const r = await post(e.path, body);
      delete e.sending;
      // no server, a server that doesn't know this phone (new links: rejoin), or one that can't
      // write just now: the tap is kept, and resent when that is over
      if (r.status === 0 || r.status === 401 || r.status === 403 || r.status === 429 || r.status >= 500) {
        if (r.status === 403 || r.status === 401) gone = r.data.error || gone;
        break;
      }
      if (r.status === 409) await fetchState();  // overtaken: by a phone, or by a save (then the round is gone)
      if (JSON.stringify(e.body) !== JSON.stringify(body)) {  // tapped again meanwhile: that, next
        if (r.ok && "text" in body) e.body.was = body.text;
        if (r.ok && body.card) e.body.seen = body.count;
        e.taps = Math.max(1, (e.taps || 1) - tapped);
        if (e.body.card && e.body.count === e.body.seen) drop(e);  // tapped back: nothing left
      } else drop(e);
      const key = body.key || `pile:${body.player}`;
      const message = r.data.error || fmt(_("HTTP {status}"), { status: r.status });
      if (r.ok) delete refused[key];
      else if (body.round !== S.round.number) { if (!missed.includes(message)) missed.push(message); }  // its round is gone
      else if (r.status === 409 && r.data.key) stale[e.id] = { key: r.data.key, id: e.id, path: e.path, body: bare(body), message };
      else refused[key] = { text: body.card ? null : body.text || "", card: (r.data.problem || {}).card || body.card || null, message };
      keep();
    }
  } finally { flushing = false; pending(); }
}
setInterval(() => { if (outbox.length) flush(); }, 2000);
window.addEventListener("online", () => flush());

async function post(path, body) {
  busy++;
  pending();
  const told = gone;
  try {
    let r;
    try {
      r = await fetch(path, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-Hachi-CSRF": CSRF, "X-Hachi-Lang": LANG },
        body: JSON.stringify(body),
      });
    } catch (e) { offline = true; return { ok: false, status: 0, data: {} }; }
    offline = false;
    const data = await r.json().catch(() => ({ error: fmt(_("HTTP {status}"), { status: r.status }) }));
    if (r.status === 403 && data.relinked) gone = data.error;
    else if (r.ok) gone = "";
    if (r.ok && data.session) take(data);
    else if (r.ok && data.state) take(data.state);
    return { ok: r.ok, status: r.status, data };
  } finally { busy--; pending(); if (gone !== told) render(); }
}

// The header's line says how the page is connected; what waits on the phone (the taps not sent
// yet, the links made new) is said in the bar at the bottom, in view while tapping.
function setLive() {
  const live = document.getElementById("live");
  if (!live) return;
  const [text, className] = gone ? [gone, "live off"] : crowded && live.dataset.stream === "off" ? [crowded, "live off"]
    : offline || live.dataset.stream === "off"
    ? [_("offline: the last standings"), "live off"] : [_("live"), outbox.length ? "live wait" : "live on"];
  if (live.textContent !== text) live.textContent = text;
  if (live.className !== className) live.className = className;
}

const DECK = {}, COPIES = {};  // each card by its code; how many the deck holds of it
function take(state) {
  if (state.deck && !Object.keys(DECK).length) for (const m of state.deck) for (const c of m.cards) {
    DECK[c.code] = c;
    COPIES[c.code] = (COPIES[c.code] || 0) + 1;
  }
  // an older state of this run's, or the same one again (the answer to a tap, then its push): nothing
  // to draw; another run's (the server restarted, its versions counted from 0 again) always is taken
  if (S && state.version !== undefined && S.version !== undefined && state.run === S.run && state.version <= S.version
      && state.session.session === S.session.session) return;
  const was = S;
  S = state;
  if (roundKey(S) !== heldFor) forget(roundKey(S));
  const sameNight = was && was.session.session === S.session.session;
  if (sameNight && S.session.rounds > was.session.rounds) saved = S.session.rounds;  // on every phone, not only the one that saved
  else if (!sameNight || S.session.rounds < (saved || 0)) saved = null;
  if (!busy) render();
  else if (!owed) owed = setTimeout(() => { owed = 0; render(); }, 250);  // drawn with its answer, due at once
}
let owed = 0;  // a push not drawn yet: this phone's own request is on its way, and its answer is drawn with it

// -- live: server-sent events, reconnecting ---------------------------------------------------------
function connect() {
  const live = document.getElementById("live");
  // the night whole first, then the parts a push changed (a tap: the round's), each taken onto the
  // night as this stream last sent it; one of another base (never: the stream sends in order) asks again
  const es = new EventSource("/api/events?patch=1");
  let streamed = null;
  const got = (state) => { streamed = state; live.dataset.stream = "on"; offline = false; take(state); flush(); };
  es.addEventListener("state", (ev) => got(JSON.parse(ev.data)));
  es.addEventListener("patch", (ev) => {
    const part = JSON.parse(ev.data);
    if (!streamed || streamed.run !== part.run || streamed.version !== part.base) { es.close(); connect(); return; }
    const state = { ...streamed, ...part.set, run: part.run, version: part.version };
    for (const k of part.drop) delete state[k];
    got(state);
  });
  const streamEnded = (again) => () => { live.dataset.stream = "off"; es.close(); setLive(); if (again) setTimeout(connect, 3000); };
  es.addEventListener("bye", streamEnded(true));
  // closed for a newer page of this phone's (each phone holds a few streams): not opened again
  es.addEventListener("replaced", streamEnded(false));
  // crowded out by a table's phone, or a page that came before this one: asked for again soon (a
  // 429 then says the server is full)
  es.addEventListener("crowded", streamEnded(true));
  es.onopen = () => { live.dataset.stream = "on"; offline = false; crowded = ""; setLive(); flush(); };
  es.onerror = () => { live.dataset.stream = "off"; setLive(); ask(); if (es.readyState === EventSource.CLOSED) refusedWhy(); };
}
// A stream refused (not dropped: the browser opens that one again itself) says nothing of why: asked
// once, a server with too many live pages open says so (429, in its words: not "offline"), and the
// stream is asked for again later; any other refusal but the links made new, soon.
let crowded = "";  // the server's line when it had no room for this page's stream
async function refusedWhy() {
  const stop = new AbortController();
  let status = 0;
  try {
    const r = await fetch("/api/events?limit=1", { credentials: "same-origin", headers: { "X-Hachi-Lang": LANG }, signal: stop.signal });
    status = r.status;
    crowded = status === 429 ? ((await r.json().catch(() => ({}))).error || fmt(_("HTTP {status}"), { status })) : "";
  } catch (e) { crowded = ""; }
  stop.abort();
  setLive();
  if (status !== 401 && status !== 403) setTimeout(connect, status === 429 ? 15000 : 3000);
}

// A stream that fails says nothing of why: the state, asked once in a while, says whether the
// server is gone, or its links were made new (then its one line: scan the new code).
let asked = 0;
function ask() {
  if (Date.now() - asked < 3000) return;
  asked = Date.now();
  fetchState();
}
function fetchState() {
  return fetch("/api/state", { credentials: "same-origin", headers: { "X-Hachi-Lang": LANG } }).then(async (r) => {
    const data = await r.json().catch(() => ({}));
    if (r.status === 403 && data.relinked) { gone = data.error; render(); }
    else if (r.ok) { gone = ""; offline = false; take(data); }
  }).catch(() => { offline = true; setLive(); });
}

// -- the round's view model -------------------------------------------------------------------------
const R = () => S.round;
const step = (key) => R().steps.find((s) => s.key === key) || null;
const stepsOf = (kind) => R().steps.filter((s) => s.kind === kind);
const staleOf = (key) => Object.values(stale).filter((t) => t.key === key);
const shownProblem = (s) => (refused[s.key] ? refused[s.key] : staleOf(s.key).length ? staleOf(s.key)[0]
  : s.problem && !s.problem.soft ? s.problem : null);
// An answer as this phone has it: a tap not sent yet, else the server's.
function mine(key) {
  const e = queued(`a:${key}`);
  return e ? e.body.text : S.round.answers[key];
}
const unsent = (key) => !!queued(`a:${key}`);
const cardTaps = (key) => outbox.filter((e) => e.body.card && e.body.key === key && e.session === S.session.session && e.body.round === S.round.number);
// A pile's cards as the server has them (null: given otherwise: its count, rest, its 出来役's names).
function serverCards(key) {
  const s = step(key), text = S.round.answers[key];
  if (text === undefined || text === null || !text.trim()) return [];
  return s && Array.isArray(s.value) && !s.rest ? s.value.slice() : null;
}
// A pile's cards as this phone has them: the server's with its taps not sent yet (null: given
// otherwise; the cards tapped since replace that answer).
function pileCards(key) {
  const whole = queued(`a:${key}`);
  let codes = whole ? (whole.body.text && whole.body.text.trim() ? null : []) : serverCards(key);
  const taps = cardTaps(key);
  if (taps.length && codes === null) codes = [];
  for (const e of taps) {
    const code = e.body.card;
    let now = codes.filter((c) => c === code).length;
    for (; now < e.body.count; now++) codes.push(code);
    for (; now > e.body.count; now--) codes.splice(codes.lastIndexOf(code), 1);
  }
  return codes;
}

// A choice of step ``attrs.key``: as this phone has it (its tap not sent yet marked so). Keyed by what
// it answers: a button drawn again for another answer is another button.
function choice(c, onClick, attrs = {}) {
  if (c.toggle !== undefined) return toggleChoice(c, attrs);
  const late = unsent(attrs.key), on = late ? mine(attrs.key) === c.answer : c.on;
  return el("button", { class: (on ? "on" : "") + (on && late ? " unsent" : ""), "aria-pressed": on ? "true" : "false",
    on: { click: onClick || (() => answer(attrs.key, c.answer)) }, "data-key": `${attrs.key}=${c.answer}`, ...attrs, key: null },
  on && late ? clock() : null, words(c.label));
}

// A choice that adds or takes away one item of a set (several 下げ callers, a pile's 出来役 by
// name). The set is this phone's: its taps not sent yet included (``pick.toggles``: key -> the
// items as last tapped), so that two taps made before the first is answered, or while offline,
// both count; else the server's.
function toggledSet(key) {
  const s = step(key);
  return unsent(key) && pick.toggles[key] ? pick.toggles[key] : s.choices.filter((c) => c.toggle !== undefined && c.on).map((c) => c.toggle);
}
function toggleChoice(c, attrs) {
  const key = attrs.key, on = toggledSet(key).includes(c.toggle), late = unsent(key);
  const tap = () => {  // from the set as it is now: two taps before the page is drawn again both count
    const now = toggledSet(key), was = now.includes(c.toggle);
    const after = was ? now.filter((x) => x !== c.toggle) : [...now, c.toggle];  // in the order tapped: 下げ's calls
    pick.toggles[key] = after;
    answer(key, after.join(after.some((x) => x.includes(" ")) ? ", " : " "));
  };
  return el("button", { class: (on ? "on" : "") + (on && late ? " unsent" : ""), "aria-pressed": on ? "true" : "false",
    on: { click: tap }, "data-key": `${key}+${c.toggle}`, ...attrs, key: null }, on && late ? clock() : null, words(c.label));
}

// The step's problem (nothing, an empty fragment, when it has none to show); a tap another phone
// overtook: its line, the tap that wasn't taken, and one tap to send it again or leave it.
// Each such tap is shown until its player chooses: their next taps never take it away.
function problemLine(s, id) {
  const ts = staleOf(s.key);
  if (ts.length) return el("div", { class: "overtaken", "data-overtaken": s.key, "data-key": `overtaken:${s.key}` },
    ts.map((t, i) => [
      el("p", { class: "problem", id: i === 0 ? id : null }, t.message),
      el("p", { class: "note" }, ...nodes(_("your tap, not taken: {tap}"), { tap: el("b", {}, tapWords(s, t.body)) })),
      el("div", { class: "row" },
        el("button", { "data-again": s.key, on: { click: () => again(t) } }, _("send it again")),
        el("button", { "data-leave": s.key, on: { click: () => { delete stale[t.id]; render(); } } }, _("leave it")))]));
  const o = overruled(s.key);
  if (o) return el("div", { class: "overtaken", "data-overruled": s.key, "data-key": `overruled:${s.key}` },
    el("p", { class: "problem", id }, words(o.line)),
    el("div", { class: "row" },
      el("button", { "data-again": s.key, on: { click: () => answer(s.key, o.text) } }, _("send it again")),
      el("button", { "data-leave": s.key, on: { click: () => { left.add(overruledId(s.key, o)); render(); } } }, _("leave it"))));
  const p = shownProblem(s);
  return p ? el("p", { class: "problem", id }, lineOf(p, "message") || lineOf(p, "text")) : document.createDocumentFragment();
}
// An answer of the phones' that the terminal replaced (kept there over it): said where its question
// is, until it is answered again or its player leaves it (on this phone).
const left = new Set();
const overruledId = (key, o) => `${S.round.draft}/${key}/${o.text}`;
function overruled(key) {
  const o = (R().overruled || {})[key];
  return o && !left.has(overruledId(key, o)) ? o : null;
}
function tapWords(s, tap) {  // a tap as the page shows it: the choice's label, the cards, the text
  if ("done" in tap) return tap.done ? _("my pile is complete") : _("my pile reopened");
  if (tap.card) return fmt(tap.count > tap.seen ? _("{card}, tapped on") : _("{card}, tapped off"), { card: cardsText([tap.card]) });
  if (tap.text === null || tap.text === undefined) return _("the answer taken back");
  const c = (s.choices || []).find((x) => x.answer === tap.text);
  const codes = codesOf(tap.text);
  return c ? words(c.label) : codes.every((x) => DECK[x]) ? cardsText(codes) : tap.text;
}
// The mark of what is not sent yet (a small clock), beside the dashed outline (style.css).
function clock() {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "clock");
  svg.setAttribute("data-key", "clock");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  for (const [tag, attrs] of [["circle", { cx: 8, cy: 8, r: 6.5 }], ["path", { d: "M8 4.5V8l2.5 1.5" }]]) {
    const part = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) part.setAttribute(k, v);
    svg.append(part);
  }
  return svg;
}
const notSent = (key) => (unsent(key) ? el("p", { class: "note unsent" }, offline ? _("not sent yet: kept on this phone") : _("sending…")) : document.createDocumentFragment());

// -- the card grid --------------------------------------------------------------------------------
// selected: a list of codes (a kasu may repeat); taken: code -> owner letters; bad: a code to mark.
function cardName(ja) {  // breaks between words, never inside one: after に, の
  const at = ja.search(/[にの]/);
  return at < 0 ? [ja] : [ja.slice(0, at + 1), el("wbr"), ja.slice(at + 1)];
}
const SVG = "http://www.w3.org/2000/svg";
function picture(code) {  // the card's own picture, from the sprite (scripts/make_card_sprite.py)
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", "pic");
  svg.setAttribute("viewBox", "0 0 64 96");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `#card-${code}`);  // the sprite, read once into the page (loadSprite)
  svg.append(use);
  return svg;
}
// sent: the codes the server has, when some tap of them is not sent yet (each card that differs
// is marked unsent); now: the selection as it is at a tap (else ``selected``). A card tapped calls
// the grid's ``onTap`` as last drawn (the card, whether it is one of the selection now, the
// selection); a card (or the whole grid) that shows what it showed is left as it is drawn.
const gridTaps = {};  // a grid's id -> what a tap of its cards does, as last drawn
function grid(selected, onTap, { taken = {}, bad = null, id = "", sent = null, now = () => selected } = {}) {
  gridTaps[id] = { tap: onTap, now };
  const live = document.getElementById(id), fresh = changed(`grid:${id}`, selected, taken, bad, sent);
  if (live && !fresh) return same(live);
  const count = {}, had = {}, drawn = {};
  for (const c of selected) count[c] = (count[c] || 0) + 1;
  for (const c of sent || []) had[c] = (had[c] || 0) + 1;
  if (live) for (const b of live.querySelectorAll(".month, button.card")) drawn[b.dataset.key] = b;
  const wrap = el("div", { class: "grid", id });
  for (const m of S.deck) {
    const seen = {}, cards = [];
    for (const c of m.cards) {
      seen[c.code] = (seen[c.code] || 0) + 1;
      const on = seen[c.code] <= (count[c.code] || 0);
      const owners = (taken[c.code] || []).slice();
      const isTaken = !on && owners.length >= seen[c.code];
      const isBad = bad === c.code && on;
      const late = sent !== null && on !== (seen[c.code] <= (had[c.code] || 0));
      const nth = seen[c.code], cardKey = `${c.code}.${nth}`;
      const sig = JSON.stringify([wordsSeen, on, isTaken, isTaken && owners[seen[c.code] - 1], isBad, late]);
      if (drawn[cardKey] && drawn[cardKey]._sig === sig) { cards.push(same(drawn[cardKey])); continue; }
      const button = el("button", {
        class: "card" + (on ? " on" : "") + (isTaken ? " taken" : "") + (isBad ? " bad" : "") + (late ? " unsent" : ""),
        "data-code": c.code, "data-key": cardKey, "aria-pressed": on ? "true" : "false",
        title: `${c.code} ${c.ja} (${c.romaji})` + (late ? " · " + _("not sent yet") : ""),
        on: { click: () => {  // on or off as the card is now: two taps before the page is drawn again both count
          const g = gridTaps[id], cur = g.now();
          g.tap(c.code, cur.filter((x) => x === c.code).length >= nth, cur);
        } },
      }, late ? clock() : null, picture(c.code), el("span", { class: "ja" }, cardName(c.ja)),
      el("span", { class: "code" }, isTaken ? `${c.code} · ${owners[seen[c.code] - 1]}` : c.code));
      button._sig = sig;
      cards.push(button);
    }
    const monthKey = `month:${m.n}`, drawnRow = drawn[monthKey];  // a month whose cards are all as drawn: left as it is
    if (drawnRow && cards.every((b) => b._same && b._same.parentNode === drawnRow)) { wrap.append(same(drawnRow)); continue; }
    wrap.append(el("div", { class: "month", "data-key": monthKey },
      el("div", { class: "mlabel" }, el("b", {}, `${m.n}`), m.ja, el("span", {}, m.reading)), cards));
  }
  return wrap;
}
function toggle(list, code, on) {
  const out = list.slice();
  if (on) out.splice(out.lastIndexOf(code), 1); else out.push(code);
  return out;
}
const potted = (x) => (x === "pot" ? _("pot") : x);  // the pot in a payment (CONTRACT: no player is named pot)
const cardsText = (codes) => (codes || []).map((c) => `${c} ${(DECK[c] || {}).ja || ""}`).join(" · ");
const codesOf = (text) => (text || "").split(/\s+/).filter(Boolean);

// -- the bar at the bottom of the screen, always in view: what waits on this phone, and the one ---
// -- action of the moment, under the thumb ---------------------------------------------------------
let barAction = null;  // {label, id, attrs, on, disabled, primary}
function offer(action) { if (!barAction) barAction = action; }
function renderBar() {
  const bar = document.getElementById("bar");
  if (!bar) return;
  const a = barAction, kids = barLines();
  if (a) kids.push(el("button", { class: a.primary === false ? "on" : a.plain ? "" : "primary", id: a.id, disabled: a.disabled ? true : null,
    ...(a.attrs || {}), on: { click: a.on } }, a.label));
  update(bar, kids);
  if (bar.hidden !== !kids.length) bar.hidden = !kids.length;
  if (document.body.classList.contains("has-bar") !== kids.length > 0) document.body.classList.toggle("has-bar", kids.length > 0);
}
// The page scrolls clear of the bar: its height, told once the page is laid out (never asked for
// while drawing, which would lay the whole page out again on every draw).
new ResizeObserver(([seen]) => {
  const clear = `${seen.target.hidden ? 0 : seen.target.offsetHeight}px`;
  if (document.body.style.getPropertyValue("--bar") !== clear) document.body.style.setProperty("--bar", clear);
}).observe(document.getElementById("bar"));
// The links made new (scan the new code); the taps refused once their round was saved; how many
// taps wait on this phone; a round just saved, with its result and the way to the standings.
function barLines() {
  const lines = [];
  if (gone) lines.push(el("p", { class: "problem", id: "gone" }, gone));
  for (const line of missed) lines.push(el("div", { class: "problem line missed" }, el("span", {}, line),
    el("button", { on: { click: () => { missed = missed.filter((m) => m !== line); render(); } } }, _("close"))));
  const n = taps();
  if (n) lines.push(el("p", { class: "note unsent", id: "unsent" }, clock(), fmt(n_("{n} tap not sent yet", "{n} taps not sent yet", n), { n })));
  const h = S.history[S.history.length - 1];
  // a round just saved, until the next one is begun (its first answer given) or the bar closed
  const begun = Object.keys(R().answers || {}).some((k) => k !== "dealer");
  if (saved && h && h.round === saved && !R().complete && !begun && !ended() && !BOARD) lines.push(el("div", { class: "line saved", id: "saved", role: "status" },
    el("span", {}, el("b", {}, fmt(_("Round {number} saved"), { number: saved })), " ",
      S.session.players.map((p) => el("span", { class: "mon" }, name(p), " ", el("b", { class: cls(h.mon[p]) }, signed(h.mon[p]) + "文")))),
    el("button", { id: "to-standings", on: { click: () => document.getElementById("standings").scrollIntoView() } }, _("standings")),
    el("button", { id: "saved-ok", on: { click: () => { saved = null; render(); } } }, _("close"))));
  return lines;
}

// -- the parts of the page ------------------------------------------------------------------------
function renderHead() {
  const set = (id, text) => { const e = document.getElementById(id); if (e.textContent !== text) e.textContent = text; };
  set("title", S.session.name);
  set("sub", (ended() ? endTitle(S.end.figures) : lineOf(S, "header")) + (ROLE === "view" ? _(" · view only") : ""));
}

function renderStandings() {
  if (!changed("standings", S.session.players, S.totals, S.kan, S.settlement, S.session.pot, S.session.rounds, S.end.figures)) return;
  const sec = document.getElementById("standings");
  const F = S.end.figures, money = F.rate_text !== null, moneyFor = (p) => F.standings.find((s) => s.player === p).money_text;
  const rows = S.session.players.map((p) => el("tr", {},
    el("td", { class: "name" }, name(p)), el("td", { class: cls(S.totals[p]) }, signed(S.totals[p]) + "文"), el("td", { class: "kan" }, S.kan[p]),
    money ? el("td", { class: cls(S.totals[p]) }, moneyFor(p)) : null));
  const pays = F.settlement.map(payLine).join(" · ");
  const pot = S.session.pot ? el("p", { class: "small", id: "pot" }, fmt(_("pot {mon}文: the settlement pays it back to who paid in"), { mon: S.session.pot })) : null;
  const n = S.session.rounds;
  update(sec, [el("h2", {}, fmt(n_("Standings · {n} round", "Standings · {n} rounds", n), { n })),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, _("player")), el("th", {}, "文"), el("th", {}, "貫"), money ? el("th", {}, _("money")) : null)), el("tbody", {}, rows)),
    pot, el("p", { class: "small", id: "settle" }, pays ? fmt(_("settle: {payments}"), { payments: pays }) : _("all square"))].filter(Boolean));
}

function renderChart() {
  if (!changed("chart", S.chart)) return;
  const sec = document.getElementById("chart");
  const holder = el("div", {});
  holder.innerHTML = S.chart;  // drawn on the server; names escaped there
  const svg = holder.querySelector("svg");  // its words, drawn in English for every phone: in this page's
  if (svg) svg.setAttribute("aria-label", _("running totals"));
  for (const t of holder.querySelectorAll("[data-round]")) t.textContent = fmt(_("round {n}"), { n: Number(t.dataset.round) });
  sec.replaceChildren(el("h2", {}, _("Running totals")), holder);  // drawn anew: its inputs changed
}

function renderHistory() {
  if (!changed("history", S.history, S.session.players)) return;
  const sec = document.getElementById("history");
  const ps = S.session.players;
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, "親"), el("th", {}, "場"), ...ps.map((p) => el("th", {}, name(p))));
  const rows = S.history.slice().reverse().map((h) => el("tr", {},
    el("td", {}, h.round), el("td", { class: "name" }, name(h.dealer)), el("td", { class: "field" }, `${h.field_class}×${h.multiplier}`),
    ...ps.map((p) => el("td", { class: cls(h.mon[p]) }, signed(h.mon[p]))))).flatMap((row, i) => [row, yakuRow(S.history[S.history.length - 1 - i], 3 + ps.length)]);
  const wide = ps.length > 3 ? " wide" : "";  // four to six players: narrower cells, scrolled inside the box
  update(sec, [el("h2", {}, _("Rounds")), el("div", { class: "scroll" + wide, id: "history-table" },
    el("table", {}, el("thead", {}, head), el("tbody", {}, rows)))]);
}

// A round's yaku as the terminal's rounds table has them: who and which (``Ben 三本``), then its
// 下げ callers (``(下げ Aki)``).
// A line under the round's numbers, across the table (a column of its own squeezed the numbers on a phone).
function yakuRow(h, span) {
  const said = (h.yaku || []).map((y) => `${y.player} ${y.yaku}`);
  if (h.sage && h.sage.length) said.push(fmt(_("(下げ {callers})"), { callers: h.sage.join("→") }));
  return said.length ? el("tr", { class: "yaku-row" }, el("td", { class: "yaku", colspan: String(span) }, el("b", {}, "役"), said.join(_(", ")))) : null;
}


// The steps as chips: each question's name (the server's words) and where it stands. The 親, the
// seats, 下げ and 勝負 or cancel have none: the heading, the seats box and the ending's chip say them.
const CHIPLESS = new Set(["dealer", "seat", "sage", "how"]);
function statusList() {
  const chip = (s, text) => el("li", { class: unsent(s.key) ? "unsent" : s.status === "answered" ? "done" : s.status === "refused" ? "bad"
    : s.status === "typing" || (s.status === "waiting" && s.text !== null) ? "typing" : "" }, text);
  const items = [];
  for (const s of R().steps) {
    if (CHIPLESS.has(s.kind)) continue;
    if (s.box === "pile") {
      const n = s.rest ? _("rest") : Array.isArray(s.value) ? s.value.length : s.shown;  // cards, or points / names said
      const what = s.text === null ? _("waiting") : s.status === "answered" ? fmt(_("done ({n})"), { n }) : fmt(_("typing… {n}"), { n });
      items.push(chip(s, fmt(_("{player}: {what}"), { player: s.player, what })));
    } else items.push(chip(s, words(s.said)));
  }
  return el("ul", { class: "status", id: "status" }, items);
}

function standBox() {
  const st = R().stand;
  const lines = [words(st.line), ...st.fees.map((f) => words(f.line))];
  if (st.pot) lines.push(words(st.pot_line));
  return el("p", { class: "small", id: "stand" }, lines.filter(Boolean).join(" · "));
}

// The field: its six cards, or its 光 alone (they alone set the multiplier), sent as "=" and them.
const isLight = (code) => /h$/.test(code);
// The field's cards picked on this phone (else as it has them: its tap not sent yet, or the server's).
const fieldPicked = () => pick.field || codesOf((refused.field ? refused.field.text : mine("field") || "").replace(/^[=＝]/, ""));
function fieldBox() {
  const s = step("field");
  const lights = s.value && !Array.isArray(s.value) ? s.value.lights : null;
  const box = el("div", { class: "box", id: "field-box" }, el("h3", {}, titled(s)));
  if (s.status === "answered" && !refused.field && !unsent("field")) {
    box.append(el("p", { class: "chosen", id: "field-chosen" }, !lights ? cardsText(s.value)
      : lights.length ? fmt(_("光 only: {cards}"), { cards: cardsText(lights) }) : _("no 光 (its cards not typed)")));
    if (CAN_WRITE) box.append(problemLine(s), el("div", { class: "row" }, el("button", { on: { click: () => answer("field", null) } }, _("change the field"))));
    return box;
  }
  if (!CAN_WRITE) { box.append(el("p", { class: "note" }, _("not entered yet"))); return box; }
  const sel = fieldPicked();
  box.append(el("p", { class: "note" }, fmt(_("tap the six cards ({n}/6), or only its 光; anyone at the table may"), { n: sel.length })));
  box.append(el("div", { class: "row" }, el("button", { id: "set-field-lights", disabled: sel.every(isLight) ? null : true,
    on: { click: () => { answer("field", "=" + fieldPicked().join(" ")); pick.field = null; } } },
    sel.length ? _("only these 光: the multiplier needs no more") : _("no 光 on the field (小場)"))));
  box.append(grid(sel, (code, on, now) => { pick.field = toggle(now, code, on); delete refused.field; render(); },
    { bad: refused.field && refused.field.card, id: "field-grid", now: fieldPicked,
      sent: !pick.field && unsent("field") ? (Array.isArray(s.value) ? s.value : lights || []) : null }));
  box.append(problemLine(s), notSent("field"));
  offer({ label: _("set the field"), id: "set-field", disabled: sel.length !== 6,
    on: () => { answer("field", fieldPicked().join(" ")); pick.field = null; } });
  return box;
}

function whoBox() {
  const ps = S.session.players;
  if (me && ps.includes(me) && !pick.who)
    return el("div", { class: "box row", id: "who" }, el("p", { class: "chosen" }, ...nodes(_("You are {name}"), { name: el("b", {}, name(me)) })),
      el("button", { on: { click: () => { pick.who = true; render(); } } }, _("not me")));
  return el("div", { class: "box", id: "who" }, el("h3", {}, _("Who are you?")),
    el("div", { class: "row" }, ps.map((p) => el("button", { class: p === me ? "on" : "", "data-player": p, "data-key": `who:${p}`,
      on: { click: () => { me = p; pick.who = false; localStorage.setItem("hachi-me", p); render(); } } }, name(p)))));
}

function handBox(s) {
  const forced = s.role === "forced_out", player = s.player, open = pick.handOpen === player;
  const box = el("div", { class: "box", id: forced ? null : "hand-box", "data-hand": player, "data-key": `hand:${player}` }, el("h3", {}, titled(s)));
  if (s.status === "answered" && !refused[s.key] && !unsent(s.key) && !open) {
    const on = s.choices.find((c) => c.on);
    box.append(el("p", { class: "chosen" }, s.shown || (on ? words(on.label) : "")), problemLine(s),
      el("div", { class: "row" }, el("button", { on: { click: () => answer(s.key, null) } }, _("change"))));
    return box;
  }
  box.append(el("div", { class: "row" },
    s.choices.map((c, i) => choice(c, null, { key: s.key, id: i === 0 && !forced ? "hand-none" : null, "data-none": i === 0 ? player : null })),
    el("button", { class: open ? "on" : "", "data-cards": player, on: { click: () => { pick.handOpen = open ? null : player; pick.hand = null; render(); } } },
      _("by the dealt cards"))));
  box.append(problemLine(s), notSent(s.key));
  if (s.note) box.append(el("p", { class: "note" }, words(s.note).trim()));
  if (open) {  // the one grid on the page while it is open: the pile's gives way
    const sel = pick.hand || [];
    box.append(el("p", { class: "note" }, fmt(_("tap the seven dealt cards ({n}/7)"), { n: sel.length })));
    box.append(grid(sel, (code, on, now) => { pick.hand = toggle(now, code, on); render(); },
      { bad: refused[s.key] && refused[s.key].card, id: `hand-grid-${S.session.players.indexOf(player)}`, now: () => pick.hand || [] }));
    barAction = { label: _("set the hand"), attrs: { "data-set-hand": player }, disabled: sel.length !== 7,
      on: () => { answer(s.key, (pick.hand || []).join(" ")); pick.hand = null; pick.handOpen = null; render(); } };
  }
  return box;
}

// Play or drop: each seat from the 親 in turn, as the server lays them out (TRADITIONAL §7).
function seatsBox() {
  const rows = R().seats, Z = R().seating;
  const box = el("div", { class: "box", id: "seats" }, el("h3", {}, _("席 play or drop, from the 親 in turn")));
  const next = stepsOf("seat").find((s) => s.status === "open" && !unsent(s.key));
  for (const row of rows) {
    const line = el("div", { class: "seat", "data-seat": row.player, "data-key": `seat:${row.player}` },
      el("span", { class: "who" }, name(row.player), row.dealer ? el("small", {}, " 親") : null));
    const s = row.key ? step(row.key) : null;
    if (row.state === "forced") line.append(el("span", { class: "tag forced" }, _("forced out 追い込み")));
    else if (row.state === "blank") line.append(el("span", { class: "tag muted" }, _("白札: sits out")));
    else if (row.state === "must") line.append(el("span", { class: "tag" }, _("plays (may not drop)")));
    else if (s && CAN_WRITE) {
      line.append(el("span", { class: "toggles" }, s.choices.map((c) => {
        const b = choice(c, null, { key: s.key, "data-choice": c.answer });
        if (!b.classList.contains("on") && s === next && c.default) b.classList.add("primary");
        return b;
      })));
    } else if (s) {
      const on = s.choices.find((c) => c.on);
      line.append(el("span", { class: "tag" }, on ? words(on.label) : "…"));
    } else line.append(el("span", { class: "tag muted" }, row.state === "unasked" ? "–" : _("waiting")));
    box.append(line);
  }
  for (const s of stepsOf("seat")) box.append(problemLine(s), notSent(s.key));
  if (next && CAN_WRITE) box.append(el("p", { class: "note" }, fmt(_("{player} speaks next"), { player: next.player })));
  if (Z && Z.settled) {
    box.append(el("p", { class: "chosen", id: "seating" }, words(Z.line)));
    if (Z.forced_line) box.append(el("p", { class: "note" }, words(Z.forced_line)));
  }
  return box;
}

function endingBox() {
  const ended = step("ended"), sage = step("sage"), how = step("how");
  const parts = [ended, sage, how].filter(Boolean);
  const box = el("div", { class: "box", id: "ending" }, el("h3", {}, _("How the round ended")));
  const answered = parts.every((s) => s.status === "answered" && !refused[s.key] && !unsent(s.key));
  const onLabels = (s) => s.choices.filter((c) => c.on).map((c) => words(c.label)).join(_(", "));
  if (answered && !pick.ending) {
    box.append(el("p", { class: "chosen" }, parts.map(onLabels).join(" · ")), ...parts.map((s) => problemLine(s)),
      el("div", { class: "row" }, el("button", { on: { click: () => { pick.ending = true; render(); } } }, _("change"))));
    return box;
  }
  if (answered) box.append(el("div", { class: "row" }, el("button", { class: "on", on: { click: () => { pick.ending = false; render(); } } }, _("close"))));
  const row = (s, ids) => el("div", { class: "row" }, s.choices.map((c) => choice(c, null, { key: s.key, ...ids(c) })));
  box.append(el("p", { class: "note" }, titled(ended)), row(ended, (c) => ({ id: c.player ? null : "ended-out", "data-ended": c.player })));
  box.append(el("p", { class: "note" }, titled(sage)), row(sage, (c) => ({ id: c.player ? null : "sage-none", "data-sage": c.player })));
  if (how) box.append(row(how, () => ({})));
  for (const s of parts) box.append(problemLine(s), notSent(s.key));
  return box;
}

// A question with no box of its own (its step's ``box`` is "choice": any kind the server adds): its
// title, a row of its choices, its problem. Drawn where it is the table's or this phone's player's.
function choiceBox(s) {
  return el("div", { class: "box choice", id: `choice-${s.key.replace(":", "-")}`, "data-step": s.key },
    el("h3", {}, titled(s)),
    el("div", { class: "row" }, s.choices.map((c) => choice(c, null, { key: s.key, "data-choice": c.answer }))),
    problemLine(s), notSent(s.key));
}
const choiceSteps = () => R().steps.filter((s) => s.box === "choice" && s.status !== "waiting" && (!s.player || s.player === me));

function takenBy(except) {
  const taken = {};
  for (const s of stepsOf("pile")) {
    if (s.player === except || !Array.isArray(s.value) || s.rest) continue;  // a counted or named pile names no card
    for (const c of s.value) (taken[c] = taken[c] || []).push(s.player.slice(0, 2));
  }
  return taken;
}

// A card of pile ``key`` refused (another's, say): shown tapped, and marked, until untapped.
function refusedCard(key, cards) {
  const r = refused[key];
  return r && r.card && !(cards || []).includes(r.card) ? [r.card] : [];
}
function pileBox(s) {
  const key = s.key, typed = mine(key), cards = pileCards(key), late = unsent(key);
  // given otherwise than by its cards: rest, its counted points, its 出来役's names
  const given = cards === null;
  const rest = given && (late ? s.choices.some((c) => c.label.id === "a.rest" && c.answer === typed) : !!s.rest);
  const points = given && !rest ? (late ? Number((/^[=＝]\s*(\d+)$/.exec(typed || "") || [])[1]) : typeof s.value === "number" ? s.value : NaN) : NaN;
  const counted = !Number.isNaN(points);
  const named = given && !rest && !counted ? (late ? toggledSet(key) : (s.value && s.value.dekiyaku) || []) : null;
  const wrong = refusedCard(key, cards), sel = (cards || []).concat(wrong);
  const box = el("div", { class: "box", id: "pile-box" },
    el("h3", {}, titled(s) + " · " + (rest ? _("rest") : counted ? fmt(_("{points} points, counted"), { points })
      : named ? fmt(_("出来役 by name: {yaku}"), { yaku: named.join("・") })
      : fmt(n_("1 card", "{n} cards", cards.length), { n: cards.length }))));
  box.append(problemLine(s, "pile-problem"), notSent(key));  // a card not sent yet is marked on itself, and counted in the bar: no line comes and goes above the cards as they are tapped
  const byName = s.choices.some((c) => c.label.id === "a.dekiyaku");  // the ender's, or a 下げ caller's
  const choices = el("div", { class: "row", id: "pile-choices" },
    s.choices.map((c) => choice(c, null, { key, id: c.label.id === "a.rest" ? "rest" : null, "data-yaku": c.label.id === "a.dekiyaku" ? c.label.args.name : null })));
  if (byName) box.append(el("p", { class: "note" }, _("its 出来役 by name, or every card below:")), choices);  // one tap, above the 48 cards
  const bad = (refused[key] && refused[key].card) || (s.problem && !s.problem.soft && s.problem.card) || null;
  const now = () => { const c = pileCards(key); return (c || []).concat(refusedCard(key, c)); };
  if (pick.handOpen === null) box.append(grid(sel, (code, on) => tapCard(key, code, on),
    { taken: takenBy(s.player), bad, id: "pile-grid", sent: (serverCards(key) || []).concat(wrong), now }));  // a count, or names, holds no card
  else box.append(el("p", { class: "note" }, _("the pile's cards: once the hand is set")));
  if (!byName) box.append(choices);
  if (s.need === "points") box.append(...countRow("pile-points", _("or its counted card points"), (n) => answer(key, `=${n}`), _("count")).filter(Boolean));
  if (s.status === "typing" && s.problem) box.append(el("p", { class: "note" }, _("checked once you say the pile is complete")));
  const done = queued(`d:${s.player}`) ? queued(`d:${s.player}`).body.done : s.done;
  const empty = !done && cards !== null && cards.length === 0;  // holds no card: asked first, never the big button
  offer({ label: done ? _("done ✓ (tap to reopen)") : _("my pile is complete"), id: "pile-done", primary: !done, plain: empty,
    on: () => {
      if (empty && !window.confirm(fmt(_("{player}'s pile holds no cards. Is it complete, empty?"), { player: s.player }))) return;
      sayDone(s.player, !done, empty);
    } });
  return box;
}

// A number typed rather than tapped (a pile's counted points, a kasu count): a field and its button,
// and why the button did nothing, if it did nothing. What is typed stays through any push.
function countRow(id, label, send, button) {
  const go = () => {
    const field = document.getElementById(id), n = field ? field.value.trim() : "";
    if (!/^[0-9]+$/.test(n)) { pick.counts[id] = true; if (field) field.focus(); render(); return; }
    delete pick.counts[id];
    field.value = "";
    send(Number(n));
  };
  return [el("div", { class: "row count", id: `${id}-row` }, el("label", { for: id, class: "note" }, label),
    el("input", { id, type: "text", inputmode: "numeric", pattern: "[0-9]*", size: "4", "aria-label": label,
      "aria-invalid": pick.counts[id] ? "true" : null, on: { keydown: (e) => { if (e.key === "Enter") go(); } } }),
    el("button", { id: `${id}-set`, on: { click: go } }, button)),
  pick.counts[id] ? el("p", { class: "problem", id: `${id}-problem` }, _("type the number first: its digits")) : null];
}

// 素十六 needs the kasu count of a pile given by its points: asked of its player once the piles are in.
function kasuBox(s) {
  const box = el("div", { class: "box", id: "kasu-box" }, el("h3", {}, titled(s)));
  box.append(problemLine(s, "kasu-problem"));
  if (s.status === "answered") box.append(el("p", { class: "note" }, s.value ? fmt(_("{player}: {n} kasu"), { player: s.value[0], n: s.value[1] }) : _("fewer than 16")));
  box.append(el("div", { class: "row" }, el("button", { id: "kasu-fewer", on: { click: () => answer("kasu", "") } }, _("fewer than 16"))));
  box.append(...countRow("kasu-count", _("the kasu in my pile"), (n) => answer("kasu", `${me} ${n}`), _("set")).filter(Boolean));
  return box;
}

function resultBox() {
  const res = R().result, ps = S.session.players;
  const box = el("div", { class: "box", id: "result" }, el("h3", {}, fmt(_("Round {number}: the result"), { number: R().number })));
  if (res.redeal) {
    box.append(el("p", {}, _("場四 (ばし): a redeal. Nothing is scored or saved.")));
  } else {
    box.append(el("p", { class: "small" }, fmt(_("{stand} · next 親 {dealer}"), { stand: words(R().stand.line), dealer: res.next_dealer })));
    const rows = ps.map((p) => {
      const r = res.players[p], voided = r.void || [];
      // each yaku named, a void one (赤 in a 特殊役 round) marked as the terminal marks it, never as paid
      const yaku = [...(r.teyaku_all || []), ...r.dekiyaku, ...r.special, ...(r.bonuses || [])].flatMap((y, i) => [
        i ? "・" : null, voided.includes(y) ? el("span", { class: "void" }, fmt(_("{text} ({note})"), { text: y, note: _("void") })) : y]);
      // a seat that sat out: no pile to count; a pile not asked or given by name: no points (null), never 0
      const points = r.role !== "played" ? "" : r.points === null || r.points === undefined ? "–" : r.points;
      return el("tr", {}, el("td", { class: "name" }, name(p)), el("td", {}, ...(yaku.length ? yaku : ["–"])), el("td", {}, points), el("td", { class: cls(r.mon) }, signed(r.mon)));
    });
    box.append(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, _("player")), el("th", {}, "役"), el("th", {}, "点"), el("th", {}, "文"))), el("tbody", {}, rows)));
    box.append(el("ul", { class: "pays", id: "payments" }, res.payments.map((x) => el("li", {}, `${potted(x.from)} → ${potted(x.to)} ${x.mon}文 ${potted(x.reason)}`))));
    if (res.pot) box.append(el("p", { class: "small" }, fmt(_("pot after the round: {mon}文"), { mon: res.pot })));
  }
  if (saveSaid) box.append(el("p", { class: "problem", id: "save-problem" }, saveSaid));
  if (CAN_WRITE && !res.redeal) {
    offer({ label: _("save the round"), id: "save", on: async () => {
      const r = await post("/api/save", { revision: R().revision });
      saveSaid = r.ok ? "" : r.data.error || _("not saved: no server");
      render();
    } });
  } else if (CAN_WRITE) offer({ label: _("next round"), id: "next", on: () => post("/api/save", { revision: R().revision }) });
  return box;
}

// Throwing the round away: far from save, asked in the server's words, and undone as long as no
// round was saved since.
function discardRow() {
  const V = R();
  if (V.discard) return el("div", { class: "row away" }, el("button", { id: "discard", class: "quiet", on: { click: () => {
    if (window.confirm(words(V.discard))) post("/api/discard", {});
  } } }, _("throw this round away…")));
  if (V.restorable) return el("div", { class: "box", id: "restorable" }, el("p", { class: "note" }, words(V.restorable)),
    el("button", { id: "restore", on: { click: () => post("/api/restore", {}) } }, _("bring it back")));
  return null;
}

// The 親 is the last round's winner; another (who really dealt) needs the yes the server words.
function dealerRow() {
  const s = step("dealer");
  if (!pick.dealer) return el("div", { class: "row" }, el("button", { id: "dealer-change", on: { click: () => { pick.dealer = true; render(); } } }, _("another 親?")));
  return el("div", { class: "row", id: "dealer" }, s.choices.map((c) => el("button", {
    class: c.on ? "on" : "", "data-dealer": c.answer, "data-key": `dealer:${c.answer}`, on: { click: () => {
      if (c.confirm && !window.confirm(words(c.confirm).trim())) return;
      pick.dealer = false;
      answer("dealer", c.answer);
    } } }, `親 ${c.answer}`)));
}

function renderRound() {
  const sec = document.getElementById("round");
  const V = R(), dealer = step("dealer");
  const kids = [el("h2", {}, fmt(_("Round {number} · 親 {dealer}"), { number: V.number, dealer: dealer ? dealer.value : S.session.dealer })),
    standBox(), statusList()];
  if (CAN_WRITE && !V.complete) kids.push(dealerRow());
  const playing = V.order, settled = !V.seating || V.seating.settled;
  if (V.complete) {
    if (CAN_WRITE && V.seats.length && !playing.length) kids.push(seatsBox());  // nothing played: the seats may still change
    kids.push(resultBox());
  } else if (!CAN_WRITE) {
    kids.push(el("p", { class: "note" }, _("the players are entering the round…")));
  } else {
    // a question the model asks before the field (the 白札's holder, §11.5) is drawn above it
    const fieldAt = V.steps.findIndex((s) => s.key === "field"), early = choiceSteps().filter((s) => V.steps.indexOf(s) < fieldAt);
    kids.push(...early.map(choiceBox), fieldBox());
    if (step("field").status === "answered" && V.seats.length) {
      kids.push(seatsBox());
      for (const s of stepsOf("hand").filter((h) => h.role === "forced_out")) kids.push(handBox(s));
    }
    if (step("field").status === "answered" && settled && playing.length) {
      kids.push(whoBox());
      if (me && playing.includes(me)) kids.push(handBox(step(`hand:${me}`)), endingBox(), step(`pile:${me}`) ? pileBox(step(`pile:${me}`))
        : el("p", { class: "note", id: "pile-unasked" }, _("your pile is not asked: in a round of 出来役 (ended by one, or after 下げ) it can't change the money")),
        step("kasu") && typeof (step(`pile:${me}`) || {}).value === "number" ? kasuBox(step("kasu")) : null);
      else if (me && S.session.players.includes(me)) kids.push(el("p", { class: "note", id: "not-playing" },
        fmt(_("{player} does not play this round: the piles and the ending are for {players}"), { player: me, players: playing })));
    }
    if (step("field").status === "answered") kids.push(...choiceSteps().filter((s) => !early.includes(s)).map(choiceBox));
    if (shownProblem(step("dealer"))) kids.push(problemLine(step("dealer")));
    for (const s of stepsOf("pile")) if (s.player !== me && s.problem && !s.problem.soft) kids.push(problemLine(s));
    for (const p of V.problems) kids.push(el("p", { class: "problem" }, lineOf(p, "message") || lineOf(p, "text")));
  }
  if (CAN_WRITE) kids.push(discardRow());
  update(sec, kids);
}

// -- the night's end (scorekeeper/night_end.py): once the planned rounds are played, or the night --
// -- ended on a phone, every page shows the final standings in 文, 貫 and money, the settlement, ----
// -- each player's best round, and the choices; shared as a picture drawn here and as text --------
const BOARD = ROLE === "view" && new URLSearchParams(location.search).has("board");  // a tablet or TV at the table
if (BOARD) document.body.classList.add("board");
const ended = () => !!(S && S.end && S.end.shown);
const moneyOf = (x) => (x.money_text === null || x.money_text === undefined ? "" : ` = ${x.money_text}`);
const payLine = (x) => fmt(_("{payer} → {payee} {mon}文"), { payer: potted(x.from), payee: potted(x.to), mon: x.mon }) + moneyOf(x);
const bestLine = (b) => (b.round === null ? _("no round won")
  : fmt(_("round {round}: {mon}文"), { round: b.round, mon: signed(b.mon) }) + (b.yaku.length ? " " + b.yaku.join("・") : ""));
function endTitle(F) {
  return `八八 ${F.name} · ` + fmt(n_("{n} round", "{n} rounds", F.rounds), { n: F.rounds })
    + (F.rate_text === null ? "" : " · " + fmt(_("rate {money} per 文"), { money: F.rate_text }));
}
// The night in a few lines, in this page's language, for a chat.
function shareText(F) {
  const lines = [endTitle(F)];
  for (const s of F.standings) lines.push(`${s.rank}. ${s.player} ${signed(s.mon)}文 (${s.kan})` + moneyOf(s));
  lines.push(F.settlement.length ? fmt(_("settle: {payments}"), { payments: F.settlement.map(payLine).join(" · ") }) : _("all square"));
  return lines.join("\n");
}
let endShare = null;  // what is offered to share: "text", or "image"

function choose(what) {
  if (what === "end" && !window.confirm(_("End the night? The phones show its end until someone reopens it; no round is changed."))) return;
  post("/api/end", { do: what });
}

function renderEnd() {
  const sec = document.getElementById("end");
  if (!changed("end", S.end, endShare)) return;
  if (!ended()) {
    if (!sec.hidden) { sec.hidden = true; sec.replaceChildren(); endShare = null; }
    document.body.classList.remove("at-end");
    return;
  }
  sec.hidden = false;
  document.body.classList.add("at-end");
  const F = S.end.figures, money = F.rate_text !== null;
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, _("player")), el("th", {}, "文"), el("th", {}, "貫"), money ? el("th", {}, _("money")) : null);
  const rows = F.standings.map((s) => el("tr", { class: s.rank === 1 ? "first" : "" }, el("td", {}, String(s.rank)), el("td", { class: "name" }, name(s.player)),
    el("td", { class: cls(s.mon) }, signed(s.mon) + "文"), el("td", { class: "kan" }, s.kan), money ? el("td", { class: cls(s.mon) }, s.money_text) : null));
  const kids = [el("h2", { class: S.end.ended ? "over" : "" }, S.end.ended ? _("The night is over") : fmt(_("The night's end: the planned {planned} played"), { planned: F.planned_rounds })),
    el("table", { id: "final" }, el("thead", {}, head), el("tbody", {}, rows)),
    el("div", { class: "end-more" }, el("h3", {}, _("settlement")),
    F.settlement.length ? el("ul", { class: "pays", id: "final-settle" }, F.settlement.map((x) => el("li", {}, payLine(x))))
      : el("p", { id: "final-settle" }, _("all square")),
    F.pot ? el("p", { class: "small" }, fmt(_("pot {mon}文: the settlement pays it back to who paid in"), { mon: F.pot })) : null,
    el("h3", {}, _("best rounds")),
    el("ul", { class: "pays", id: "best" }, F.best.map((b) => el("li", {}, name(b.player), " ", bestLine(b)))))];
  if (CAN_WRITE) {
    kids.push(S.end.ended
      ? el("div", { class: "row", id: "end-choices" }, el("button", { id: "reopen", on: { click: () => choose("reopen") } }, _("reopen the night")))
      : el("div", { class: "row", id: "end-choices" },
        el("button", { id: "one-more", on: { click: () => choose("more") } }, _("one more round")),
        el("button", { id: "end-night", class: "primary", on: { click: () => choose("end") } }, _("end the night"))));
  }
  if (!BOARD) {
    kids.push(el("div", { class: "row", id: "share" },
      el("button", { id: "share-image", class: endShare === "image" ? "on" : "", on: { click: () => { endShare = "image"; render(); } } }, _("share as a picture")),
      el("button", { id: "share-text", class: endShare === "text" ? "on" : "", on: { click: () => { endShare = "text"; render(); } } }, _("share as text"))));
    if (endShare === "text") kids.push(textBox(F));
    if (endShare === "image") kids.push(imageBox(F));
  }
  sec.replaceChildren(...kids.filter(Boolean));  // drawn anew: its figures or what is shared changed (a canvas is never patched)
}

// The text in a box to select and copy by hand (the Clipboard API is not there over plain HTTP).
function textBox(F) {
  const text = shareText(F);
  const area = el("textarea", { id: "share-words", readonly: true, rows: String(text.split("\n").length + 1), "aria-label": _("share as text") });
  area.value = text;
  const pick = () => { area.focus(); area.select(); area.setSelectionRange(0, text.length); };
  return el("div", { class: "box", id: "share-text-box" }, el("p", { class: "note" }, _("select the text, copy it and paste it in the chat")), area,
    el("div", { class: "row" }, el("button", { id: "select-text", on: { click: pick } }, _("select the text"))));
}

// The end as a picture: drawn on a canvas in the page's font, downloaded as a PNG by a link (a
// data URL: no Web Share over plain HTTP). What it is handed is kept on it (data-figures).
function imageBox(F) {
  const canvas = el("canvas", { id: "share-canvas", "aria-label": _("share as a picture") });
  drawEnd(canvas, F);
  const file = `hachi-${F.session}.png`;
  const link = el("a", { id: "save-image", class: "button primary", download: file, href: canvas.toDataURL("image/png") }, _("save the picture"));
  return el("div", { class: "box", id: "share-image-box" }, canvas, el("div", { class: "row" }, link));
}

const INK = { bg: "#fbf8f1", fg: "#1d1b18", muted: "#6b655c", line: "#d9d1c3", accent: "#b3262d", pos: "#1f7a3d", neg: "#c0182b",
  players: ["#b3262d", "#1f5fa8", "#2f8a3b", "#8a5a00", "#7b3fa0", "#0f7c80"] };
// The layout of scorekeeper/night_image.py, line for line: 1080 px wide, as tall as the night needs.
function drawEnd(canvas, F) {
  const W = 1080, pad = 56, row = 84, line = 52, chartH = 300, family = getComputedStyle(document.body).fontFamily;
  const H = 150 + 60 + row * F.standings.length + 40 + 60 + line * Math.max(1, F.settlement.length) + 40 + 60 + line * F.best.length + 40 + chartH + 70;
  canvas.width = W; canvas.height = H;
  canvas.dataset.figures = JSON.stringify(F);
  const g = canvas.getContext("2d");
  const text = (t, x, y, size, color, weight = "", align = "left", room = W - 2 * pad) => {
    g.font = `${weight} ${size}px ${family}`.trim(); g.fillStyle = color; g.textAlign = align; g.textBaseline = "alphabetic";
    let cut = t;  // a long name cut with … to its room
    while (cut.length > 1 && g.measureText(cut === t ? t : cut + "…").width > room) cut = cut.slice(0, -1);
    g.fillText(cut === t ? t : cut + "…", x, y);
  };
  g.fillStyle = INK.bg; g.fillRect(0, 0, W, H);
  g.fillStyle = INK.accent; g.fillRect(0, 0, W, 150);
  text(`八八 ${F.name}`, pad, 82, 56, "#ffffff", "bold");
  text(endTitle(F).replace(`八八 ${F.name} · `, ""), pad, 128, 30, "#ffffff");
  let y = 150 + 60;
  for (const s of F.standings) {
    y += row;
    text(String(s.rank), pad, y - 24, 44, INK.muted, "bold");
    const right = F.rate_text === null ? W - pad : W - pad - 260;
    g.font = `bold 44px ${family}`;
    const room = right - 200 - g.measureText(`${signed(s.mon)}文`).width - 24 - pad - 64;  // up to the 文
    let size = 44;  // a long name in smaller type (down to 30 px), then cut
    for (; size > 30; size -= 2) { g.font = `bold ${size}px ${family}`; if (g.measureText(s.player).width <= room) break; }
    text(s.player, pad + 64, y - 24, size, INK.fg, "bold", "left", room);
    text(`${signed(s.mon)}文`, right - 200, y - 24, 44, s.mon > 0 ? INK.pos : s.mon < 0 ? INK.neg : INK.fg, "bold", "right");
    text(s.kan, right, y - 24, 30, INK.muted, "", "right");
    if (F.rate_text !== null) text(s.money_text, W - pad, y - 24, 44, s.mon > 0 ? INK.pos : s.mon < 0 ? INK.neg : INK.fg, "bold", "right");
    g.fillStyle = INK.line; g.fillRect(pad, y - 4, W - 2 * pad, 2);
  }
  y += 40 + 60;
  text(_("settlement"), pad, y - 16, 32, INK.accent, "bold");
  for (const x of F.settlement.length ? F.settlement.map(payLine) : [_("all square")]) { y += line; text(x, pad, y - 14, 34, INK.fg); }
  y += 40 + 60;
  text(_("best rounds"), pad, y - 16, 32, INK.accent, "bold");
  for (const b of F.best) { y += line; text(`${b.player}  ${bestLine(b)}`, pad, y - 14, 34, INK.fg); }
  y += 40;
  const values = [0, ...Object.values(F.running).flat()], hi = Math.max(...values), lo = Math.min(...values), span = hi - lo || 1;
  const n = Math.max(1, ...Object.values(F.running).map((v) => v.length - 1)), cx = (i) => pad + 80 + (W - 2 * pad - 80) * i / n;
  const cy = (v) => y + 10 + (chartH - 20) * (hi - v) / span;
  g.fillStyle = INK.line; g.fillRect(pad + 80, cy(0) - 1, W - 2 * pad - 80, 2);
  text(signed(hi), pad + 70, cy(hi) + 10, 24, INK.muted, "", "right");
  text("0", pad + 70, cy(0) + 10, 24, INK.muted, "", "right");
  text(signed(lo), pad + 70, cy(lo) + 10, 24, INK.muted, "", "right");
  F.players.forEach((p, i) => {
    g.strokeStyle = INK.players[i % INK.players.length]; g.lineWidth = 6; g.lineJoin = "round"; g.beginPath();
    F.running[p].forEach((v, j) => (j ? g.lineTo(cx(j), cy(v)) : g.moveTo(cx(j), cy(v))));
    g.stroke();
  });
  y += chartH + 50;
  const key = (W - 2 * pad) / F.players.length;
  F.players.forEach((p, i) => text(`● ${p}`, pad + i * key, y, 28, INK.players[i % INK.players.length], "bold", "left", key - 12));
}

// A tap is a press and a release on one button: a page drawn again between the two (another
// phone's answer, or this one's own, arriving meanwhile) could move the button away under the
// finger and lose the tap. So drawing waits while a finger or the mouse is down, and is done once
// it is lifted (after its click: the next task), or if a press is never released.
let pressed = null, drawLater = false;
function released() {
  if (pressed === null) return;
  clearTimeout(pressed);
  pressed = null;
  if (drawLater) { drawLater = false; setTimeout(render, 0); }
}
document.addEventListener("pointerdown", () => { clearTimeout(pressed); pressed = setTimeout(released, 2000); }, true);
for (const type of ["pointerup", "pointercancel", "blur"]) (type === "blur" ? window : document).addEventListener(type, released, true);

// A tap on a page drawn for a round that is gone since (saved, thrown away, while the finger was
// down) is not a tap of the round now shown: it is dropped, and the page drawn again.
let drawnFor = "";
document.addEventListener("click", (ev) => {
  if (!S || drawnFor === roundKey(S) || !(ev.target.closest && ev.target.closest("#round, #bar"))) return;
  ev.stopPropagation();
  ev.preventDefault();
  render();
}, true);

// The page is drawn once a frame at most, however many taps, answers and pushes came meanwhile.
let frame = 0;
function render() {
  if (!frame) frame = requestAnimationFrame(draw);
}
function draw() {
  frame = 0;
  if (owed) { clearTimeout(owed); owed = 0; }
  if (!S || !worded) return;
  if (pressed !== null) { drawLater = true; return; }
  drawnFor = roundKey(S);
  barAction = null;
  const typing = document.activeElement, at = typing && typing.tagName === "INPUT" ? [typing.selectionStart, typing.selectionEnd] : null;
  renderHead(); renderEnd(); renderStandings(); if (ended()) update(document.getElementById("round"), []); else renderRound();
  renderChart(); renderHistory(); renderBar();
  if (at && typing.isConnected && document.activeElement !== typing) {  // moved, never rebuilt: in it still
    typing.focus({ preventScroll: true });
    typing.setSelectionRange(...at);
  }
  said();
  setData("ready", "1");
  setData("round", String(S.session.rounds));
  setData("version", String(S.version));
}

// The cards' pictures: the sprite read once and kept in the page, so that a grid drawn again (as
// the phones tap) never waits for it.
function loadSprite() {
  fetch("/static/cards.svg", { credentials: "same-origin" }).then((r) => (r.ok ? r.text() : "")).then((text) => {
    if (!text) return;
    const holder = el("div", { id: "sprite", hidden: true, "aria-hidden": "true" });
    holder.innerHTML = text;  // symbols only: no script, no event attributes (tests/test_card_sprite.py)
    document.body.prepend(holder);
  }).catch(() => {});
}
loadSprite();

document.addEventListener("click", (ev) => {  // a name cut short is shown whole on tap
  const nm = ev.target.closest && ev.target.closest(".nm");
  if (nm) nm.classList.toggle("whole");
});
renderStatic();
loadWords(LANG);
fetchState().finally(() => { connect(); flush(); });
