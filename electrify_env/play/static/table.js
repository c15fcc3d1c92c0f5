// The table page of a game whose GameDef names a play module (Gizmos): draws the state the
// server sends (/api/tables/{id}) and plays the options it lists by clicks.
"use strict";
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const GAME = params.get("game") || "gizmos";
const AGENTS = ["policy", "greedy", "gumbel", "random"];
let current = null;   // {id, token, state}

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
  }
  for (const k of kids) if (k !== null && k !== undefined) e.append(k);
  return e;
}

async function api(method, url, body) {
  const r = await fetch(url, {method, headers: {"content-type": "application/json"},
                              body: body === undefined ? undefined : JSON.stringify(body)});
  const data = await r.json();
  if (!r.ok) throw new Error(data.error || r.statusText);
  return data;
}

function marble(m) {
  return el("span", {class: `marble m-${m.colour}`, title: m.colour, "aria-label": m.colour + " marble", text: m.letter});
}

function card(c) {
  if (!c) return el("div", {class: "card empty", text: "(empty)"});
  const d = el("div", {class: `card c-${c.colour}` + (c.waiting ? " waiting" : "") + (c.used ? " used" : ""),
                       "data-card": c.id},
    el("div", {class: "head"}, el("span", {text: c.id}), el("span", {text: `${c.points} pt`})),
    el("div", {text: `${c.colour} ${c.type}, cost ${c.cost}`}),
    el("div", {class: "eff", text: c.effect}));
  if (c.waiting) d.append(el("div", {text: "waiting"}));
  return d;
}

function optButton(o) {
  const b = el("button", {class: "opt", type: "button", "data-action": String(o.action), text: o.text});
  b.addEventListener("click", () => play(o.action));
  return b;
}

function placeKey(p) { return p ? p.join(":") : ""; }

function render() {
  const st = current.state, v = st.view, you = st.seat;
  document.body.dataset.decisions = String(v.log.length);
  document.body.dataset.humanToMove = String(!!v.prompt);
  document.body.dataset.done = String(v.done);
  $("setup").hidden = true; $("play").hidden = false;
  const spots = {};   // place key -> element that takes the option buttons
  // display triangle, level III first
  const disp = $("display"); disp.replaceChildren();
  const lv = {III: 3, II: 2, I: 1};
  for (const tier of v.display) {
    const row = el("div", {class: "tier"}, el("h3", {text: `Level ${tier.level} (deck ${tier.deck})`}));
    spots[placeKey(["deck", lv[tier.level]])] = row.firstChild;
    for (const c of tier.cards) {
      const e = card(c); row.append(e);
      if (c) spots[placeKey(["display", lv[tier.level], c.slot])] = e;
    }
    disp.append(row);
  }
  const rowEl = $("row"); rowEl.replaceChildren(...v.row.map(marble));
  const res = $("research"); res.replaceChildren();
  if (v.researching.length) {
    res.append(el("h3", {text: "Researched (only you see these)"}));
    const r = el("div", {class: "tier"});
    for (const c of v.researching) { const e = card(c); r.append(e); spots[placeKey(["research", c.index])] = e; }
    res.append(r);
  }
  const pbox = $("players-box"); pbox.replaceChildren();
  for (const p of v.players) {
    const box = el("div", {class: "player" + (v.to_move === p.seat ? " turn" : ""), "data-seat": String(p.seat)});
    const who = `Player ${p.seat} (${v.seats[p.seat].agent}${p.seat === you ? ", you" : ""})`;
    box.append(el("h3", {text: `${who}: ${p.score} points, ${p.tokens} tokens`}));
    const store = el("div", {}, el("span", {text: `Marbles (limit ${p.limits.storage}): `}), ...p.marbles.map(marble));
    box.append(store);
    const dash = el("div", {class: "dash"});
    for (const [col, cards] of Object.entries(p.columns)) {
      const c = el("div", {class: "col"}, el("h4", {text: col}));
      for (const m of cards) { const e = card(m); c.append(e); spots[placeKey(["machine", p.seat, m.machine])] = e; }
      dash.append(c);
    }
    box.append(dash);
    if (p.archive.length || p.seat === you) {
      const a = el("div", {}, el("h4", {text: `Archive (limit ${p.limits.archive})`}));
      p.archive.forEach((c, i) => { const e = card(c); a.append(e); spots[placeKey(["archive", p.seat, i])] = e; });
      box.append(a);
    }
    if (p.seat === v.to_move) spots["storage"] = store;
    pbox.append(box);
  }
  // the prompt and its options: on the board where they stand, else in the prompt
  const pr = $("prompt"); pr.replaceChildren();
  const opts = el("div", {class: "opts"});
  if (v.done) pr.append(el("span", {text: "The game is over."}));
  else if (!v.prompt) pr.append(el("span", {text: `Player ${v.to_move} (${v.seats[v.to_move].agent}) is on turn.`}));
  else {
    pr.append(el("span", {text: `Your decision: ${v.prompt.text}`}));
    if (v.prompt.waiting) pr.append(el("div", {class: "sub", text: "Waiting: " + v.prompt.waiting.map((c) => c.id).join(", ")
      + (v.prompt.chain.length ? "; chain so far: " + v.prompt.chain.join(", ") : "")}));
    if (v.prompt.paying) {
      const pay = v.prompt.paying;
      pr.append(el("div", {class: "sub", text: `Paying ${pay.owed} for ${pay.card.id}; converters used: `
        + (pay.converters.join(", ") || "none")}, ...pay.spent.map((m) => el("span", {}, marble(m), `×${m.count} `))));
    }
    for (const o of v.options) {
      let spot = o.place && (o.place[0] === "row" || o.place[0] === "storage") ? null : spots[placeKey(o.place)];
      if (spot) spot.append(optButton(o)); else opts.append(optButton(o));
    }
    pr.append(opts);
  }
  // the log: one line per turn, its decisions under it
  const log = $("log"); log.replaceChildren();
  for (const t of v.turns) {
    const d = el("details", {}, el("summary", {text: `round ${t.round}: ${t.text}`}),
                 el("div", {class: "steps", text: t.steps.map((s) => s.text).join("; ")}));
    log.append(el("li", {}, d));
  }
  const end = $("end");
  end.hidden = !v.end;
  if (v.end) {
    const s = v.end, src = s.points_by_source;
    const head = el("tr", {}, el("th", {text: "player"}), ...src.sources.map((x) => el("th", {text: x.label})), el("th", {text: "total"}));
    const rows = s.scores.map((sc, p) => el("tr", {"data-seat": String(p)}, el("td", {text: `${p} (${v.seats[p].agent})`}),
      ...src.sources.map((x) => el("td", {text: String(src.players[p][x.key] || 0)})), el("td", {class: "total", text: String(sc)})));
    end.replaceChildren(el("h2", {text: `Game over after ${s.rounds} rounds (${s.ended_by}): player ${s.winners.join(", ")} wins`}),
                        el("table", {id: "end-scores"}, head, ...rows),
                        el("p", {text: `Seed ${s.seed_text}: the same deal again with this seed.`}));
  }
}

async function play(action) {
  $("message").textContent = "";
  try {
    current.state = await api("POST", `/api/tables/${current.id}/move`, {action, token: current.token});
    render();
  } catch (e) { $("message").textContent = e.message; }
}

function fillOpponents() {
  const n = +$("players").value, sel = $("opponent");
  sel.replaceChildren(...AGENTS.filter((a) => a !== "policy" || n === 2).map((a) => el("option", {value: a, text: a})));
  sel.value = n === 2 ? "policy" : "greedy";
}

$("players").addEventListener("change", fillOpponents);
$("nav-new").addEventListener("click", () => { $("setup").hidden = false; $("play").hidden = true; });
$("new-form").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const n = +$("players").value, seats = ["human"].concat(Array(n - 1).fill($("opponent").value));
  const body = {game: GAME, seats};
  if ($("seed").value !== "") body.seed = +$("seed").value;
  $("start").disabled = true;
  try {
    const r = await api("POST", "/api/tables", body);
    current = {id: r.id, token: r.tokens["0"], state: r};
    render();
  } catch (e) { alert(e.message); }
  $("start").disabled = false;
});
fillOpponents();
