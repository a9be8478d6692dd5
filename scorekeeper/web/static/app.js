// hachi-score serve: the page. Plain DOM, no framework, no inline script (the CSP forbids it).
// It draws the round's view model as the server sends it (scorekeeper/questions.py): the steps,
// their status, the choices and what each sends, the labels, the problems, what the round stands
// at. It holds no rule: which steps are asked, who plays, what an answer means and whether it
// checks out are the server's. It sends taps: an answer to a step (card codes, or a choice's
// answer as given), a pile said complete, a save, a discard.
"use strict";

const meta = (name) => (document.querySelector(`meta[name="${name}"]`) || {}).content || "";
const ROLE = meta("hachi-role");
const CSRF = meta("hachi-csrf");
const CAN_WRITE = ROLE === "table";

let S = null;              // the night's state, as the server last pushed it
let me = localStorage.getItem("hachi-me") || "";
const pick = { field: null, hand: null, handOpen: null, who: false, ending: false, dealer: false };  // selections not sent yet
const refused = {};        // key -> {text, card, message}: a tap the server refused (nothing kept)
const local = {};          // key -> the pile as tapped here, while its taps are on their way
const queue = {};          // key -> the latest text waiting to be sent (one request at a time per key)
let busy = 0;

function el(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
    node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return node;
}
const signed = (n) => (n > 0 ? "+" : "") + n;
const cls = (n) => (n > 0 ? "pos" : n < 0 ? "neg" : "");
const words = (m) => (m && m.text) || "";

function pending() { document.body.dataset.pending = String(busy + Object.keys(queue).length); }

async function post(path, body) {
  busy++;
  pending();
  try {
    const r = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Hachi-CSRF": CSRF },
      body: JSON.stringify(body),
    });
    const data = await r.json().catch(() => ({ error: `HTTP ${r.status}` }));
    if (r.ok && data.session) take(data);
    else if (r.ok && data.state) take(data.state);
    return { ok: r.ok, status: r.status, data };
  } finally { busy--; pending(); }
}

// A tap changes the pile here at once; the server gets the whole pile, one request at a time.
function tapPile(key, next) {
  local[key] = next;
  render();
  const idle = !(key in queue);
  queue[key] = next.join(" ");
  pending();
  if (idle) sendPile(key);
}
async function sendPile(key) {
  while (key in queue) {
    const text = queue[key];
    const r = await post("/api/answer", { key, text });
    if (queue[key] === text) delete queue[key];
    if (r.ok) delete refused[key];
    else refused[key] = { text, card: (r.data.problem || {}).card || null, message: r.data.error || `HTTP ${r.status}` };
  }
  if (!refused[key]) delete local[key];
  pending();
  render();
}

const DECK = {};
function take(state) {
  if (state.deck && !Object.keys(DECK).length) for (const m of state.deck) for (const c of m.cards) DECK[c.code] = c;
  if (S && state.version !== undefined && S.version !== undefined && state.version < S.version) return;
  S = state;
  render();
}

// -- live: server-sent events, reconnecting ---------------------------------------------------------
function connect() {
  const live = document.getElementById("live");
  const es = new EventSource("/api/events");
  es.addEventListener("state", (ev) => { live.textContent = "live"; live.className = "live on"; take(JSON.parse(ev.data)); });
  es.addEventListener("bye", () => { live.textContent = "the server stopped"; live.className = "live off"; es.close(); });
  es.onerror = () => { live.textContent = "reconnecting…"; live.className = "live off"; };
}

// -- the round's view model -------------------------------------------------------------------------
const R = () => S.round;
const step = (key) => R().steps.find((s) => s.key === key) || null;
const stepsOf = (kind) => R().steps.filter((s) => s.kind === kind);
const shownProblem = (s) => (refused[s.key] ? refused[s.key] : s.problem && !s.problem.soft ? s.problem : null);

async function answer(key, text) {
  const r = await post("/api/answer", { key, text });
  if (r.ok) delete refused[key];
  else refused[key] = { text, card: (r.data.problem || {}).card || null, message: r.data.error || `HTTP ${r.status}` };
  render();
  return r;
}

function choice(c, onClick, attrs = {}) {
  return el("button", { class: c.on ? "on" : "", "aria-pressed": c.on ? "true" : "false",
    on: { click: onClick || (() => answer(attrs.key, c.answer)) }, ...attrs, key: null }, words(c.label));
}

function problemLine(s, id) {  // nothing (an empty fragment) when the step has no problem to show
  const p = shownProblem(s);
  return p ? el("p", { class: "problem", id }, p.message || p.text) : document.createDocumentFragment();
}

// -- the card grid --------------------------------------------------------------------------------
// selected: a list of codes (a kasu may repeat); taken: code -> owner letters; bad: a code to mark.
function grid(selected, onTap, { taken = {}, bad = null, id = "" } = {}) {
  const count = {};
  for (const c of selected) count[c] = (count[c] || 0) + 1;
  const wrap = el("div", { class: "grid", id });
  for (const m of S.deck) {
    const seen = {};
    const row = el("div", { class: "month" }, el("div", { class: "mlabel" }, el("b", {}, `${m.n}`), m.ja, el("span", {}, m.reading)));
    for (const c of m.cards) {
      seen[c.code] = (seen[c.code] || 0) + 1;
      const on = seen[c.code] <= (count[c.code] || 0);
      const owners = (taken[c.code] || []).slice();
      const isTaken = !on && owners.length >= seen[c.code];
      const isBad = bad === c.code && on;
      row.append(el("button", {
        class: "card" + (on ? " on" : "") + (isTaken ? " taken" : "") + (isBad ? " bad" : ""),
        "data-code": c.code, "aria-pressed": on ? "true" : "false", title: `${c.code} ${c.ja} (${c.romaji})`,
        on: { click: () => onTap(c.code, on) },
      }, el("span", { class: "ja" }, c.ja), el("span", { class: "code" }, isTaken ? `${c.code} · ${owners[seen[c.code] - 1]}` : c.code)));
    }
    wrap.append(row);
  }
  return wrap;
}
function toggle(list, code, on) {
  const out = list.slice();
  if (on) out.splice(out.lastIndexOf(code), 1); else out.push(code);
  return out;
}
const cardsText = (codes) => (codes || []).map((c) => `${c} ${(DECK[c] || {}).ja || ""}`).join(" · ");

// -- the parts of the page ------------------------------------------------------------------------
function renderHead() {
  document.getElementById("title").textContent = S.session.name;
  document.getElementById("sub").textContent = `${S.header}${ROLE === "view" ? " · view only" : ""}`;
}

function renderStandings() {
  const sec = document.getElementById("standings");
  const rows = S.session.players.map((p) => el("tr", {},
    el("td", { class: "name" }, p), el("td", { class: cls(S.totals[p]) }, signed(S.totals[p]) + "文"), el("td", {}, S.kan[p])));
  const pays = S.settlement.map((s) => `${s.from} → ${s.to} ${s.mon}文`).join(" · ");
  sec.replaceChildren(el("h2", {}, `Standings · ${S.session.rounds} round${S.session.rounds === 1 ? "" : "s"}`),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", {}, "文"), el("th", {}, "貫"))), el("tbody", {}, rows)),
    el("p", { class: "small" }, pays ? `settle: ${pays}` : "all square"));
}

function renderChart() {
  const sec = document.getElementById("chart");
  const holder = el("div", {});
  holder.innerHTML = S.chart;  // drawn on the server; names escaped there
  sec.replaceChildren(el("h2", {}, "Running totals"), holder);
}

function renderHistory() {
  const sec = document.getElementById("history");
  const ps = S.session.players;
  const head = el("tr", {}, el("th", {}, "#"), el("th", {}, "親"), el("th", {}, "場"), ...ps.map((p) => el("th", {}, p)));
  const rows = S.history.slice().reverse().map((h) => el("tr", {},
    el("td", {}, h.round), el("td", { class: "name" }, h.dealer), el("td", {}, `${h.field_class}×${h.multiplier}`),
    ...ps.map((p) => el("td", { class: cls(h.mon[p]) }, signed(h.mon[p])))));
  const wide = ps.length > 3 ? " wide" : "";  // four to six players: narrower cells, scrolled inside the box
  sec.replaceChildren(el("h2", {}, "Rounds"), el("div", { class: "scroll" + wide, id: "history-table" },
    el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
}

// The steps as chips: each question's name (the server's words) and where it stands.
function statusList() {
  const chip = (s, text) => el("li", { class: s.status === "answered" ? "done" : s.status === "refused" ? "bad"
    : s.status === "typing" || (s.status === "waiting" && s.text !== null) ? "typing" : "" }, text);
  const items = [];
  for (const s of R().steps) {
    if (s.kind === "dealer" || s.kind === "seat" || s.kind === "how" || s.kind === "sage") continue;
    if (s.kind === "pile") {
      const n = s.rest ? "rest" : (s.value || []).length;
      const what = s.text === null ? "waiting" : s.status === "answered" ? `done (${n})` : `typing… ${n}`;
      items.push(chip(s, `${s.player}: ${what}`));
    } else items.push(chip(s, words(s.said)));
  }
  return el("ul", { class: "status", id: "status" }, items);
}

function standBox() {
  const st = R().stand;
  const lines = [words(st.line), ...st.fees.map((f) => `${f.player} 逃げ料 ${f.mon}文`)];
  if (st.pot) lines.push(`pot ${st.pot}文`);
  return el("p", { class: "small", id: "stand" }, lines.filter(Boolean).join(" · "));
}

function fieldBox() {
  const s = step("field");
  const box = el("div", { class: "box", id: "field-box" }, el("h3", {}, words(s.label)));
  if (s.status === "answered" && !refused.field) {
    box.append(el("p", { class: "chosen" }, cardsText(s.value)));
    if (CAN_WRITE) box.append(el("div", { class: "row" }, el("button", { on: { click: () => answer("field", null) } }, "change the field")));
    return box;
  }
  if (!CAN_WRITE) { box.append(el("p", { class: "note" }, "not entered yet")); return box; }
  const sel = pick.field || (refused.field ? refused.field.text.split(" ") : []);
  box.append(el("p", { class: "note" }, `tap the six cards (${sel.length}/6); anyone at the table may`));
  box.append(grid(sel, (code, on) => { pick.field = toggle(sel, code, on); delete refused.field; render(); },
    { bad: refused.field && refused.field.card, id: "field-grid" }));
  box.append(problemLine(s));
  box.append(el("div", { class: "row sticky" }, el("button", {
    class: "primary", id: "set-field", disabled: sel.length !== 6 ? true : null,
    on: { click: async () => { const r = await answer("field", sel.join(" ")); if (r.ok) pick.field = null; } },
  }, "set the field")));
  return box;
}

function whoBox() {
  const ps = S.session.players;
  if (me && ps.includes(me) && !pick.who)
    return el("div", { class: "box row", id: "who" }, el("p", { class: "chosen" }, `You are `, el("b", {}, me)),
      el("button", { on: { click: () => { pick.who = true; render(); } } }, "not me"));
  return el("div", { class: "box", id: "who" }, el("h3", {}, "Who are you?"),
    el("div", { class: "row" }, ps.map((p) => el("button", { class: p === me ? "on" : "", "data-player": p,
      on: { click: () => { me = p; pick.who = false; localStorage.setItem("hachi-me", p); render(); } } }, p))));
}

function handBox(s) {
  const forced = s.role === "forced_out", player = s.player, open = pick.handOpen === player;
  const box = el("div", { class: "box", id: forced ? null : "hand-box", "data-hand": player }, el("h3", {}, words(s.label)));
  if (s.status === "answered" && !refused[s.key] && !open) {
    const on = s.choices.find((c) => c.on);
    box.append(el("p", { class: "chosen" }, s.shown || (on ? words(on.label) : "")),
      el("div", { class: "row" }, el("button", { on: { click: () => answer(s.key, null) } }, "change")));
    return box;
  }
  box.append(el("div", { class: "row" },
    s.choices.map((c, i) => choice(c, null, { key: s.key, id: i === 0 && !forced ? "hand-none" : null, "data-none": i === 0 ? player : null })),
    el("button", { class: open ? "on" : "", "data-cards": player, on: { click: () => { pick.handOpen = open ? null : player; pick.hand = null; render(); } } },
      "by the dealt cards")));
  box.append(problemLine(s));
  if (s.note) box.append(el("p", { class: "note" }, words(s.note).trim()));
  if (open) {
    const sel = pick.hand || [];
    box.append(el("p", { class: "note" }, `tap the seven dealt cards (${sel.length}/7)`));
    box.append(grid(sel, (code, on) => { pick.hand = toggle(sel, code, on); render(); },
      { bad: refused[s.key] && refused[s.key].card, id: `hand-grid-${S.session.players.indexOf(player)}` }));
    box.append(el("div", { class: "row sticky" }, el("button", {
      class: "primary", disabled: sel.length !== 7 ? true : null, "data-set-hand": player,
      on: { click: async () => { const r = await answer(s.key, sel.join(" ")); if (r.ok) { pick.hand = null; pick.handOpen = null; render(); } } },
    }, "set the hand")));
  }
  return box;
}

// Play or drop: each seat from the 親 in turn, as the server lays them out (TRADITIONAL §7).
function seatsBox() {
  const rows = R().seats, Z = R().seating;
  const box = el("div", { class: "box", id: "seats" }, el("h3", {}, "席 play or drop, from the 親 in turn"));
  const next = stepsOf("seat").find((s) => s.status === "open");
  for (const row of rows) {
    const line = el("div", { class: "seat", "data-seat": row.player },
      el("span", { class: "who" }, row.player, row.dealer ? el("small", {}, " 親") : null));
    const s = row.key ? step(row.key) : null;
    if (row.state === "forced") line.append(el("span", { class: "tag forced" }, "forced out 追い込み"));
    else if (row.state === "must") line.append(el("span", { class: "tag" }, "plays (may not drop)"));
    else if (s && CAN_WRITE) {
      line.append(el("span", { class: "toggles" }, s.choices.map((c) => el("button", {
        class: c.on ? "on" : s === next && c.default ? "primary" : "", "aria-pressed": c.on ? "true" : "false",
        "data-choice": c.answer, on: { click: () => answer(s.key, c.answer) } }, words(c.label)))));
    } else if (s) {
      const on = s.choices.find((c) => c.on);
      line.append(el("span", { class: "tag" }, on ? words(on.label) : "…"));
    } else line.append(el("span", { class: "tag muted" }, row.state === "unasked" ? "–" : "waiting"));
    box.append(line);
  }
  for (const s of stepsOf("seat")) box.append(problemLine(s));
  if (next && CAN_WRITE) box.append(el("p", { class: "note" }, `${next.player}: ${words(next.label)}`));
  if (Z && Z.settled) {
    box.append(el("p", { class: "chosen", id: "seating" }, words(Z.line)));
    if (Z.forced_line) box.append(el("p", { class: "note" }, words(Z.forced_line)));
  }
  return box;
}

function endingBox() {
  const ended = step("ended"), sage = step("sage"), how = step("how");
  const parts = [ended, sage, how].filter(Boolean);
  const box = el("div", { class: "box", id: "ending" }, el("h3", {}, "How the round ended"));
  const answered = parts.every((s) => s.status === "answered" && !refused[s.key]);
  const onLabels = (s) => s.choices.filter((c) => c.on).map((c) => words(c.label)).join(", ");
  if (answered && !pick.ending) {
    box.append(el("p", { class: "chosen" }, parts.map(onLabels).join(" · ")),
      el("div", { class: "row" }, el("button", { on: { click: () => { pick.ending = true; render(); } } }, "change")));
    return box;
  }
  if (answered) box.append(el("div", { class: "row" }, el("button", { class: "on", on: { click: () => { pick.ending = false; render(); } } }, "close")));
  box.append(el("p", { class: "note" }, words(ended.label)));
  box.append(el("div", { class: "row" }, ended.choices.map((c) => choice(c, null,
    { key: "ended", id: c.player ? null : "ended-out", "data-ended": c.player }))));
  box.append(el("p", { class: "note" }, words(sage.label)));
  box.append(el("div", { class: "row" }, sage.choices.map((c) => choice(c, null,
    { key: "sage", id: c.player ? null : "sage-none", "data-sage": c.player }))));
  if (how) box.append(el("div", { class: "row" }, how.choices.map((c) => choice(c, null, { key: "how" }))));
  for (const s of parts) box.append(problemLine(s));
  return box;
}

function takenBy(except) {
  const taken = {};
  for (const s of stepsOf("pile")) {
    if (s.player === except || !s.value || s.rest) continue;
    for (const c of s.value) (taken[c] = taken[c] || []).push(s.player.slice(0, 2));
  }
  return taken;
}

function pileBox(s) {
  const key = s.key;
  const sel = local[key] || (refused[key] ? refused[key].text.split(" ").filter(Boolean) : s.rest ? [] : s.value || []);
  const box = el("div", { class: "box", id: "pile-box" },
    el("h3", {}, `${words(s.label)} · ${s.rest ? "rest" : sel.length === 1 ? "1 card" : sel.length + " cards"}`));
  box.append(problemLine(s, "pile-problem"));
  const bad = (refused[key] && refused[key].card) || (s.problem && !s.problem.soft && s.problem.card) || null;
  box.append(grid(sel, (code, on) => tapPile(key, toggle(sel, code, on)), { taken: takenBy(s.player), bad, id: "pile-grid" }));
  const done = s.done && s.status !== "typing";
  box.append(el("div", { class: "row sticky" },
    s.choices.map((c) => choice(c, () => { delete local[key]; answer(key, c.answer); }, { id: c.label.id === "a.rest" ? "rest" : null })),
    el("button", { class: s.done ? "on" : "primary", id: "pile-done", on: { click: () => post("/api/done", { player: s.player, done: !s.done }) } },
      s.done ? "done ✓ (tap to reopen)" : "my pile is complete")));
  if (!done && s.status === "typing" && s.problem) box.append(el("p", { class: "note" }, "checked once you say the pile is complete"));
  return box;
}

function resultBox() {
  const res = R().result, ps = S.session.players;
  const box = el("div", { class: "box", id: "result" }, el("h3", {}, `Round ${R().number}: the result`));
  if (res.redeal) {
    box.append(el("p", {}, "場四 (ばし): a redeal. Nothing is scored or saved."));
  } else {
    box.append(el("p", { class: "small" }, `${words(R().stand.line)} · next 親 ${res.next_dealer}`));
    const rows = ps.map((p) => {
      const r = res.players[p];
      const yaku = [...(r.teyaku_all || []), ...r.dekiyaku, ...r.special, ...(r.bonuses || [])].join("・") || "–";
      return el("tr", {}, el("td", { class: "name" }, p), el("td", {}, yaku), el("td", {}, r.card_points), el("td", { class: cls(r.mon) }, signed(r.mon)));
    });
    box.append(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", {}, "役"), el("th", {}, "点"), el("th", {}, "文"))), el("tbody", {}, rows)));
    box.append(el("p", { class: "small" }, res.payments.map((x) => `${x.from}→${x.to} ${x.mon} ${x.reason}`).join(" · ")));
  }
  if (CAN_WRITE) {
    box.append(el("div", { class: "row" },
      res.redeal ? null : el("button", { class: "primary", id: "save", on: { click: async () => {
        const r = await post("/api/save", { revision: R().revision });
        if (!r.ok) { box.append(el("p", { class: "problem" }, r.data.error)); }
      } } }, "save the round"),
      el("button", { id: "discard", on: { click: () => post("/api/discard", {}) } }, res.redeal ? "next round" : "discard")));
  }
  return box;
}

// The 親 is the last round's winner; another (who really dealt) needs the yes the server words.
function dealerRow() {
  const s = step("dealer");
  if (!pick.dealer) return el("div", { class: "row" }, el("button", { id: "dealer-change", on: { click: () => { pick.dealer = true; render(); } } }, "another 親?"));
  return el("div", { class: "row", id: "dealer" }, s.choices.map((c) => el("button", {
    class: c.on ? "on" : "", "data-dealer": c.answer, on: { click: () => {
      if (c.confirm && !window.confirm(words(c.confirm).trim())) return;
      pick.dealer = false;
      answer("dealer", c.answer);
    } } }, `親 ${c.answer}`)));
}

function renderRound() {
  const sec = document.getElementById("round");
  const V = R(), dealer = step("dealer");
  const kids = [el("h2", {}, `Round ${V.number} · 親 ${dealer ? dealer.value : S.session.dealer}`), standBox(), statusList()];
  if (CAN_WRITE && !V.complete) kids.push(dealerRow());
  const playing = V.order, settled = !V.seating || V.seating.settled;
  if (V.complete) {
    if (CAN_WRITE && V.seats.length && !playing.length) kids.push(seatsBox());  // nothing played: the seats may still change
    kids.push(resultBox());
  } else if (!CAN_WRITE) {
    kids.push(el("p", { class: "note" }, "the players are entering the round…"));
  } else {
    kids.push(fieldBox());
    if (step("field").status === "answered" && V.seats.length) {
      kids.push(seatsBox());
      for (const s of stepsOf("hand").filter((h) => h.role === "forced_out")) kids.push(handBox(s));
    }
    if (step("field").status === "answered" && settled && playing.length) {
      kids.push(whoBox());
      if (me && playing.includes(me)) kids.push(handBox(step(`hand:${me}`)), endingBox(), pileBox(step(`pile:${me}`)));
      else if (me && S.session.players.includes(me)) kids.push(el("p", { class: "note", id: "not-playing" }, `${me} does not play this round: the piles and the ending are for ${playing.join(", ")}`));
    }
    if (shownProblem(step("dealer"))) kids.push(problemLine(step("dealer")));
    for (const s of stepsOf("pile")) if (s.player !== me && s.problem && !s.problem.soft) kids.push(problemLine(s));
    for (const p of V.problems) kids.push(el("p", { class: "problem" }, p.text));
  }
  sec.replaceChildren(...kids);
}

function render() {
  if (!S) return;
  renderHead(); renderStandings(); renderRound(); renderChart(); renderHistory();
  document.body.dataset.ready = "1";
  if (!document.body.dataset.pending) document.body.dataset.pending = "0";
  document.body.dataset.round = String(S.session.rounds);
  document.body.dataset.version = String(S.version);
}

fetch("/api/state", { credentials: "same-origin" }).then((r) => r.json()).then(take).finally(connect);
