// hachi-score serve: the page. Plain DOM, no framework, no inline script (the CSP forbids it).
// Every answer is sent keyed and typed as the terminal types it (card codes separated by spaces);
// the server checks it with the terminal's own validator and pushes the night to every phone.
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
const codesOf = (text) => (text || "").split(/[\s,]+/).filter(Boolean);

async function post(path, body) {
  busy++;
  document.body.dataset.pending = String(busy + Object.keys(queue).length);
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
  } finally { busy--; document.body.dataset.pending = String(busy + Object.keys(queue).length); }
}

// A tap changes the pile here at once; the server gets the whole pile, one request at a time.
function tapPile(key, next) {
  local[key] = next;
  render();
  const text = next.join(" ");
  const idle = !(key in queue);
  queue[key] = text;
  document.body.dataset.pending = String(busy + Object.keys(queue).length);
  if (idle) sendPile(key);
}
async function sendPile(key) {
  while (key in queue) {
    const text = queue[key];
    const r = await post("/api/answer", { key, text, player: me || null });
    if (queue[key] === text) delete queue[key];
    if (r.ok) delete refused[key];
    else {
      const prob = (r.data && r.data.problem) || {};
      refused[key] = { text, card: prob.card || null, message: r.data.error || `HTTP ${r.status}` };
    }
  }
  if (!refused[key]) delete local[key];
  document.body.dataset.pending = String(busy);
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
      const b = el("button", {
        class: "card" + (on ? " on" : "") + (isTaken ? " taken" : "") + (isBad ? " bad" : ""),
        "data-code": c.code, "aria-pressed": on ? "true" : "false", title: `${c.code} ${c.ja} (${c.romaji})`,
        on: { click: () => onTap(c.code, on) },
      }, el("span", { class: "ja" }, c.ja), el("span", { class: "code" }, isTaken ? `${c.code} · ${owners[seen[c.code] - 1]}` : c.code));
      row.append(b);
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

function problemOf(key) {
  if (refused[key]) return refused[key];
  return (S.round.problems || {})[key] || null;
}
const SOFT = new Set(["incomplete", "no_dekiyaku", "unclaimed", "odd"]);
function players() { return S.round.seating ? S.round.seating.playing : S.session.players; }
function allDone() { return players().every((p) => S.round.done.includes(p)); }

function statusList() {
  const R = S.round, A = R.answers, ps = S.session.players;
  const item = (label, state) => el("li", { class: state }, label);
  const items = [item("場札 field", "field" in A ? (R.problems.field ? "bad" : "done") : "")];
  if (R.seating) items.push(item("席 seats", R.seating.settled ? "done" : R.steps.some((k) => k.startsWith("seat:") && k in A) ? "typing" : ""));
  if (R.seating && !R.seating.settled) return el("ul", { class: "status", id: "status" }, items);
  for (const p of R.order) {
    const pile = A[`pile:${p}`];
    const n = pile === undefined ? 0 : pile.trim().toLowerCase() === "rest" ? "rest" : codesOf(pile).length;
    const done = R.done.includes(p) || R.complete;
    const bad = R.problems[`pile:${p}`] && !SOFT.has(R.problems[`pile:${p}`].code);
    items.push(item(`${p}: ${pile === undefined ? "waiting" : done ? `done (${n})` : `typing… ${n}`}`,
      bad ? "bad" : done ? "done" : pile === undefined ? "" : "typing"));
  }
  if (R.order.length) items.push(item("ending", "ended" in A && "sage" in A ? "done" : ""));
  return el("ul", { class: "status", id: "status" }, items);
}

function choice(label, on, fn, attrs = {}) {
  return el("button", { class: on ? "on" : "", "aria-pressed": on ? "true" : "false", on: { click: fn }, ...attrs }, label);
}

async function answer(key, text) {
  const r = await post("/api/answer", { key, text, player: me || null });
  if (r.ok) { delete refused[key]; render(); return r; }
  const prob = (r.data && r.data.problem) || {};
  refused[key] = { text, card: prob.card || null, message: r.data.error || `HTTP ${r.status}` };
  render();
  return r;
}

function fieldBox() {
  const R = S.round, A = R.answers;
  const box = el("div", { class: "box", id: "field-box" }, el("h3", {}, "場札 the six field cards"));
  if ("field" in A && !refused.field) {
    box.append(el("p", { class: "chosen" }, codesOf(A.field).map((c) => `${c} ${(DECK[c] || {}).ja || ""}`).join(" · ")));
    if (CAN_WRITE) box.append(el("div", { class: "row" }, el("button", { on: { click: () => answer("field", null) } }, "change the field")));
    return box;
  }
  if (!CAN_WRITE) { box.append(el("p", { class: "note" }, "not entered yet")); return box; }
  const sel = pick.field || (refused.field ? codesOf(refused.field.text) : []);
  box.append(el("p", { class: "note" }, `tap the six cards (${sel.length}/6); anyone at the table may`));
  box.append(grid(sel, (code, on) => { pick.field = toggle(sel, code, on); delete refused.field; render(); },
    { bad: refused.field && refused.field.card, id: "field-grid" }));
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
    el("div", { class: "row" }, ps.map((p) => choice(p, p === me, () => { me = p; pick.who = false; localStorage.setItem("hachi-me", p); render(); }, { "data-player": p }))));
}

function handBox(player, forced = false) {
  const key = `hand:${player}`, A = S.round.answers, open = pick.handOpen === player;
  const box = el("div", { class: "box", id: forced ? null : "hand-box", "data-hand": player },
    el("h3", {}, `手役 ${player}${forced ? " · forced out 追い込み" : ""}`));
  if (key in A && !refused[key] && !open) {
    box.append(el("p", { class: "chosen" }, A[key] ? A[key] : forced ? "no compensation claimed" : "none"),
      el("div", { class: "row" }, el("button", { on: { click: () => answer(key, null) } }, "change")));
    return box;
  }
  if (forced) box.append(el("p", { class: "note" }, "their 7 dealt cards or the 手役's name, for the compensation; anyone may enter it"));
  const names = S.rules.teyaku;
  box.append(el("div", { class: "row" },
    choice(forced ? "no claim なし" : "none なし", false, () => answer(key, ""), { id: forced ? null : "hand-none", "data-none": player }),
    names.map((n) => choice(n, false, () => answer(key, n))),
    choice("by the dealt cards", open, () => { pick.handOpen = open ? null : player; pick.hand = null; render(); }, { "data-cards": player })));
  const p = problemOf(key);
  if (p) box.append(el("p", { class: "problem" }, p.message));
  if (open) {
    const sel = pick.hand || [];
    const gid = `hand-grid-${S.session.players.indexOf(player)}`;
    box.append(el("p", { class: "note" }, `tap ${forced ? `${player}'s` : "your"} seven dealt cards (${sel.length}/7)`));
    box.append(grid(sel, (code, on) => { pick.hand = toggle(sel, code, on); render(); }, { bad: refused[key] && refused[key].card, id: gid }));
    box.append(el("div", { class: "row sticky" }, el("button", {
      class: "primary", disabled: sel.length !== 7 ? true : null, "data-set-hand": player,
      on: { click: async () => { const r = await answer(key, sel.join(" ")); if (r.ok) { pick.hand = null; pick.handOpen = null; render(); } } },
    }, "set the hand")));
  }
  return box;
}

// Play or drop: each seat from the 親 in turn (TRADITIONAL §7); the server says which seats are
// asked (the entry's steps), who must play, who is forced out, and who plays the round out.
function seatsBox() {
  const R = S.round, A = R.answers, Z = R.seating, ps = S.session.players;
  const dealer = A.dealer || S.session.dealer;
  const start = Math.max(0, ps.indexOf(dealer));
  const turns = ps.map((_, i) => ps[(start + i) % ps.length]);
  const next = R.missing.find((k) => k.startsWith("seat:"));
  const box = el("div", { class: "box", id: "seats" }, el("h3", {}, "席 play or drop, from the 親 in turn"));
  const word = (t) => { const w = (t || "").trim().toLowerCase(); return ["drop", "d", "降り", "おり", "降りる", "おりる"].includes(w) ? "drop" : "play"; };
  for (const p of turns) {
    const key = `seat:${p}`;
    const row = el("div", { class: "seat", "data-seat": p }, el("span", { class: "who" }, p, p === dealer ? el("small", {}, " 親") : null));
    if (Z.forced_out.includes(p)) {
      row.append(el("span", { class: "tag forced" }, "forced out 追い込み"));
    } else if (Z.must.includes(p) && !R.steps.includes(key)) {
      row.append(el("span", { class: "tag" }, "plays (may not drop)"));
    } else if (R.steps.includes(key) && CAN_WRITE) {
      const has = key in A, now = has ? word(A[key]) : null, isNext = key === next;
      row.append(el("span", { class: "toggles" },
        choice("play 打つ", now === "play", () => answer(key, "play"), { class: now === "play" ? "on" : isNext ? "primary" : "", "data-choice": "play" }),
        choice("drop 降り", now === "drop", () => answer(key, "drop"), { "data-choice": "drop" })));
    } else if (R.steps.includes(key)) {
      row.append(el("span", { class: "tag" }, key in A ? word(A[key]) : "…"));
    } else {
      row.append(el("span", { class: "tag muted" }, Z.settled ? "–" : "waiting"));
    }
    box.append(row);
  }
  for (const k of R.steps.filter((k) => k.startsWith("seat:"))) { const q = problemOf(k); if (q) box.append(el("p", { class: "problem" }, q.message)); }
  if (next && CAN_WRITE) box.append(el("p", { class: "note" }, `${next.slice(5)} speaks next; play is the default (Enter at the terminal)`));
  if (Z.settled) {
    const v = Z.volunteers;
    const line = !v.length ? "nobody plays: a misdeal; the fees stay in the pot, the same 親 deals again"
      : v.length === 1 ? `${v[0]} alone plays: ${v[0]} takes the pot; nothing is played`
      : !Z.playing.length ? `${v.join(" and ")} play: they split the pot; nothing is played`
      : `${Z.playing.join(", ")} play; ${v[0]} is the round's 親`;
    box.append(el("p", { class: "chosen", id: "seating" }, line));
  }
  return box;
}

function endingBox() {
  const R = S.round, A = R.answers, ps = S.session.players.filter((p) => R.order.includes(p));  // who plays
  const box = el("div", { class: "box", id: "ending" }, el("h3", {}, "How the round ended"));
  const ended = A.ended;
  const answered = "ended" in A && "sage" in A && (!R.steps.includes("how") || "how" in A)
    && !["ended", "sage", "how"].some((k) => R.problems[k]);
  if (answered && !pick.ending) {
    const how = R.steps.includes("how") ? ` · ${A.how}` : "";
    box.append(el("p", { class: "chosen" }, `${ended ? `${ended} stopped` : "played out"} · 下げ ${A.sage || "nobody"}${how}`),
      el("div", { class: "row" }, el("button", { on: { click: () => { pick.ending = true; render(); } } }, "change")));
    return box;
  }
  if (answered) box.append(el("div", { class: "row" }, el("button", { class: "on", on: { click: () => { pick.ending = false; render(); } } }, "close")));
  box.append(el("div", { class: "row" },
    choice("played out", ended === "", () => answer("ended", ""), { id: "ended-out" }),
    ps.map((p) => choice(`${p} stopped`, ended === p, () => answer("ended", p), { "data-ended": p }))));
  const callers = "sage" in A ? (A.sage.includes(",") ? A.sage.split(/\s*,\s*/) : codesOf(A.sage)) : null;
  const many = S.rules.sage_callers !== 1;
  box.append(el("p", { class: "note" }, many ? "下げ: tap the callers in the order they first called" : "下げ declared by"));
  const sageText = (list) => list.some((n) => n.includes(" ")) ? list.join(", ") : list.join(" ");
  box.append(el("div", { class: "row" },
    choice("nobody", callers !== null && callers.length === 0, () => answer("sage", ""), { id: "sage-none" }),
    ps.map((p) => {
      const on = callers !== null && callers.includes(p);
      return choice(`下げ ${p}`, on, () => {
        let next = callers || [];
        if (many) next = on ? next.filter((x) => x !== p) : [...next, p]; else next = on ? [] : [p];
        answer("sage", sageText(next));
      }, { "data-sage": p });
    })));
  if (R.steps.includes("how")) {
    box.append(el("div", { class: "row" },
      choice("勝負", A.how === "勝負" || A.how === "shoubu", () => answer("how", "勝負")),
      choice("cancel", A.how === "cancel", () => answer("how", "cancel"))));
  }
  for (const k of ["ended", "sage", "how"]) { const p = problemOf(k); if (p) box.append(el("p", { class: "problem" }, p.message)); }
  return box;
}

function takenBy(except) {
  const taken = {};
  for (const p of S.session.players) {
    if (p === except) continue;
    const text = S.round.answers[`pile:${p}`];
    if (!text || text.trim().toLowerCase() === "rest") continue;
    for (const c of codesOf(text)) (taken[c] = taken[c] || []).push(p.slice(0, 2));
  }
  return taken;
}

function pileBox() {
  const R = S.round, key = `pile:${me}`, A = R.answers;
  const text = local[key] ? local[key].join(" ") : refused[key] ? refused[key].text : A[key] || "";
  const isRest = text.trim().toLowerCase() === "rest";
  const sel = isRest ? [] : codesOf(text);
  const last = R.order.length === 3 && R.order[R.order.length - 1] === me && A.ended === "";
  const done = R.done.includes(me);
  const box = el("div", { class: "box", id: "pile-box" }, el("h3", {}, `札 ${me}'s pile · ${isRest ? "rest" : sel.length === 1 ? "1 card" : sel.length + " cards"}`));
  const prob = problemOf(key);
  if (prob && (!SOFT.has(prob.code) || (prob.code === "odd" ? done : allDone()))) box.append(el("p", { class: "problem", id: "pile-problem" }, prob.message));
  box.append(grid(sel, (code, on) => tapPile(key, toggle(sel, code, on)),
    { taken: takenBy(me), bad: prob && prob.card, id: "pile-grid" }));
  box.append(el("div", { class: "row sticky" },
    last ? choice("rest 残り", isRest, () => { delete local[key]; answer(key, "rest"); }, { id: "rest" }) : null,
    el("button", { class: done ? "on" : "primary", id: "pile-done", on: { click: async () => {
      if (!(key in A)) await answer(key, "");
      await post("/api/done", { player: me, done: !done });
    } } }, done ? "done ✓ (tap to reopen)" : "my pile is complete")));
  return box;
}

function resultBox() {
  const R = S.round, res = R.result, ps = S.session.players;
  const box = el("div", { class: "box", id: "result" }, el("h3", {}, `Round ${R.number}: the result`));
  if (res.redeal) {
    box.append(el("p", {}, "場四 (ばし): a redeal. Nothing is scored or saved."));
  } else {
    box.append(el("p", { class: "small" }, `×${res.multiplier} · next 親 ${res.next_dealer}`));
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
        const r = await post("/api/save", { revision: R.revision });
        if (!r.ok) { box.append(el("p", { class: "problem" }, r.data.error)); }
      } } }, "save the round"),
      el("button", { id: "discard", on: { click: () => post("/api/discard", {}) } }, res.redeal ? "next round" : "discard")));
  }
  return box;
}

// The 親 is the last round's winner; another (who really dealt) is taken after a yes, as at the terminal.
function dealerRow(dealer) {
  if (!pick.dealer) return el("div", { class: "row" }, el("button", { id: "dealer-change", on: { click: () => { pick.dealer = true; render(); } } }, "another 親?"));
  return el("div", { class: "row", id: "dealer" }, S.session.players.map((p) => choice(`親 ${p}`, p === dealer, () => {
    const chain = S.session.dealer;
    if (p !== chain && !window.confirm(`${chain} won the last round and deals next by the chain: did ${p} deal this round?`)) return;
    pick.dealer = false;
    answer("dealer", p);
  }, { "data-dealer": p })));
}

function renderRound() {
  const sec = document.getElementById("round");
  const R = S.round;
  const dealer = R.answers.dealer || S.session.dealer;
  const kids = [el("h2", {}, `Round ${R.number} · 親 ${dealer}`), statusList()];
  if (CAN_WRITE && !R.complete) kids.push(dealerRow(dealer));
  if (R.complete && R.result) {
    if (CAN_WRITE && R.seating && !R.order.length) kids.push(seatsBox());  // nothing played: the seats may still change
    kids.push(resultBox());
  } else if (!CAN_WRITE) {
    kids.push(el("p", { class: "note" }, "the players are entering the round…"));
  } else {
    kids.push(fieldBox());
    const Z = R.seating;
    if ("field" in R.answers && Z) {
      kids.push(seatsBox());
      for (const p of Z.forced_out) kids.push(handBox(p, true));
    }
    if ("field" in R.answers && (!Z || (Z.settled && R.order.length))) {
      kids.push(whoBox());
      if (me && R.order.includes(me)) kids.push(handBox(me), endingBox(), pileBox());
      else if (me && S.session.players.includes(me)) kids.push(el("p", { class: "note", id: "not-playing" }, `${me} does not play this round: the piles and the ending are for ${R.order.join(", ")}`));
    }
    const loose = Object.entries(R.problems).filter(([k, p]) => !k.startsWith("pile:") && !["ended", "sage", "how"].includes(k));
    for (const [, p] of loose) kids.push(el("p", { class: "problem" }, p.message));
    if (allDone() && !R.complete) for (const [k, p] of Object.entries(R.problems)) if (SOFT.has(p.code) && k !== `pile:${me}`) kids.push(el("p", { class: "problem" }, p.message));
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
