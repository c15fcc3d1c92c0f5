// Electrify and Gizmos in the browser: plain JavaScript over the JSON API of
// electrify_env/play/web.py.  This file holds what every game shares (set-up, fetching, bots,
// undo, hints, the log, the end screen, replays) and Electrify's board (the server's SVG);
// Gizmos' table is drawn by gizmos.js (GizmosTable.draw).
"use strict";
const $ = (id) => document.getElementById(id);
let META = null;
const G = { id: null, tokens: {}, state: null, seat: -1, busy: false, paused: false, timer: null,
            shownSeat: null, replay: null, openTurns: new Set(), fullTurns: null };
const SVGNS = "http://www.w3.org/2000/svg";

async function api(method, path, body) {
  const opt = { method, headers: {} };
  if (body !== undefined) { opt.headers["Content-Type"] = "application/json"; opt.body = JSON.stringify(body); }
  const r = await fetch(path, opt);
  let data = null;
  try { data = await r.json(); } catch (e) { data = { error: "bad answer from the server" }; }
  if (!r.ok) { throw new Error(data.error || ("HTTP " + r.status)); }
  return data;
}
function say(text) { $("message").textContent = text || ""; }
function show(section) {
  for (const s of ["setup", "replay-setup", "play"]) { $(s).hidden = s !== section; }
}
function stored() { try { return JSON.parse(localStorage.getItem("electrify-games") || "{}"); } catch (e) { return {}; } }
function remember(id, tokens, seats) {
  const all = stored(); all[id] = { tokens, seats, at: Date.now() };
  localStorage.setItem("electrify-games", JSON.stringify(all));
}

// ---- setup ------------------------------------------------------------------------------
function chosenGame() { return $("game").value || "electrify"; }
function gameMeta(name) { return META.games.find((g) => g.name === name); }
function packsChosen() { return chosenGame() === "electrify" && document.querySelectorAll(".pack:checked").length > 0; }
function botsFor(n, packs, game) {
  // the bots that can play an n-player game of the game (with tech packs or not): /api/meta says which
  return gameMeta(game || chosenGame()).agents.filter((a) => a.players.includes(n) && (a.tech_packs || !packs));
}
function defaultBot(n, packs) {
  // the game's default opponent where it can play the game, else greedy
  const want = gameMeta(chosenGame()).default_opponent[String(n)];
  return botsFor(n, packs).some((a) => a.spec === want) ? want : "greedy";
}
function levelsFor(n, packs) {
  // the difficulty levels measured for n players whose agent can play this game (Electrify's)
  if (chosenGame() !== "electrify") return [];
  const ok = new Set(botsFor(n, packs).map((a) => a.spec));
  return ((META.levels || {})[String(n)] || []).filter((lv) => ok.has(lv.spec));
}
function levelRow() {
  // "Opponents": a named level (its agent in every bot seat) or "choose each seat"
  const n = parseInt($("players").value, 10);
  const levels = levelsFor(n, packsChosen());
  const sel = $("level"); const was = sel.value; sel.innerHTML = "";
  for (const lv of levels) {
    const o = document.createElement("option"); o.value = lv.spec;
    o.textContent = `${lv.name} (${lv.spec})`; o.title = lv.about; sel.appendChild(o);
  }
  const o = document.createElement("option"); o.value = ""; o.textContent = "choose each seat by agent name";
  sel.appendChild(o);
  const pick = [...sel.options].some((x) => x.value === was) ? was
    : (levels.find((lv) => lv.name === "Intermediate") || levels[0] || { spec: "" }).spec;
  sel.value = pick;
  const lv = levels.find((x) => x.spec === sel.value);
  $("level-about").textContent = lv ? `${lv.about} Rated ${lv.rating.mu.toFixed(1)} \u00b1 ${lv.rating.sigma.toFixed(1)}.` : "";
}
function applyLevel() {
  // put the chosen level's agent in every seat that is not a person
  levelRow();
  const spec = $("level").value;
  if (!spec) return;
  document.querySelectorAll("#seats select").forEach((s) => { if (s.value !== "human") s.value = spec; });
}
function gameRows() {
  // the choice of game: its player counts, its own options (Electrify: scenario, tech packs, levels)
  const gm = gameMeta(chosenGame());
  document.body.classList.toggle("game-gizmos", gm.name === "gizmos");
  $("title").textContent = gm.title; document.title = gm.title;
  for (const o of $("players").options) o.disabled = +o.value < gm.min_players || +o.value > gm.max_players;
  if (+$("players").value < gm.min_players) $("players").value = String(Math.max(2, gm.min_players));
  $("seats").innerHTML = "";
  seatRows(); applyLevel();
}
function seatRows() {
  const n = parseInt($("players").value, 10);
  const packs = packsChosen();
  $("scenario-label").hidden = n !== 1 || chosenGame() !== "electrify";
  levelRow();
  const box = $("seats");
  const before = [...box.querySelectorAll("select")].map((s) => s.value);
  box.innerHTML = "";
  const opts = [{ spec: "human", doc: "a person at this browser (hot-seat) or with the seat link" }].concat(botsFor(n, packs));
  for (let i = 0; i < n; i++) {
    const lab = document.createElement("label");
    lab.textContent = "Seat " + i + " ";
    const sel = document.createElement("select");
    sel.id = "seat-" + i;
    for (const a of opts) {
      const o = document.createElement("option"); o.value = a.spec; o.textContent = a.spec; o.title = a.doc;
      sel.appendChild(o);
    }
    const keep = before[i] !== undefined && opts.some((a) => a.spec === before[i]);
    sel.value = keep ? before[i] : (i === 0 ? "human" : ($("level").value || defaultBot(n, packs)));
    sel.onchange = () => { if (sel.value !== "human" && sel.value !== $("level").value) $("level").value = ""; levelRow(); };
    lab.appendChild(sel); box.appendChild(lab);
  }
}
function hintAgents(view) {
  // the agents that can advise in this game (a policy only where it fits)
  const sel = $("hint-agent"); const was = sel.value; sel.innerHTML = "";
  const bots = botsFor(view.n_players, (view.tech_packs || []).length > 0, view.game);
  for (const a of bots) {
    const o = document.createElement("option"); o.value = a.spec; o.textContent = a.spec; o.title = a.doc; sel.appendChild(o);
  }
  sel.value = bots.some((a) => a.spec === was) ? was : "greedy";
}
async function loadMeta() {
  META = await api("GET", "/api/meta");
  for (const g of META.games) {
    const o = document.createElement("option"); o.value = g.name; o.textContent = g.title; $("game").appendChild(o);
  }
  const asked = new URLSearchParams(location.search).get("game");
  if (asked && gameMeta(asked)) $("game").value = asked;
  $("game").onchange = gameRows;
  for (const s of META.scenarios) {
    const o = document.createElement("option"); o.value = s.id;
    o.textContent = `${s.name} (${s.gears} gears, target ${s.target})`; $("scenario").appendChild(o);
  }
  for (const p of META.tech_packs) {
    const lab = document.createElement("label");
    lab.innerHTML = `<input type="checkbox" class="pack" value="${p}"> tech pack ${p}`;
    lab.querySelector("input").onchange = seatRows;
    $("packs").appendChild(lab);
  }
  $("level").onchange = applyLevel;
  gameRows();
}
async function listGames() {
  const mine = stored();
  const ul = $("my-games"); ul.innerHTML = "";
  let games = [];
  try { games = (await api("GET", "/api/games")).games; } catch (e) { say(e.message); }
  for (const g of games) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    const m = mine[g.id];
    a.href = "#game=" + g.id + (m ? "&tokens=" + encodeURIComponent(tokenText(m.tokens)) : "");
    a.textContent = `${gameMeta(g.game) ? gameMeta(g.game).title : g.game}: ${g.seats.join(" vs ")}${g.seed === null ? "" : ", seed " + g.seed}, round ${g.round}${g.over ? " (over)" : ""}` +
                    (m ? "" : " - watch");
    li.appendChild(a); ul.appendChild(li);
  }
}
function tokenText(tokens) { return Object.entries(tokens).map(([s, t]) => s + ":" + t).join(","); }
function parseTokens(text) {
  const out = {};
  for (const part of (text || "").split(",")) {
    const k = part.indexOf(":"); if (k > 0) out[part.slice(0, k)] = part.slice(k + 1);
  }
  return out;
}
async function startGame(seats) {
  const n = seats.length;
  const body = { game: chosenGame(), seats };
  if (chosenGame() === "electrify") body.tech_packs = [...document.querySelectorAll(".pack:checked")].map((x) => x.value);
  if ($("seed").value !== "") body.seed = parseInt($("seed").value, 10);   // empty: a fresh secret seed
  if (n === 1 && chosenGame() === "electrify") body.scenario = $("scenario").value;
  try {
    const r = await api("POST", "/api/games", body);
    remember(r.id, r.tokens, seats);
    location.hash = "game=" + r.id + "&tokens=" + encodeURIComponent(tokenText(r.tokens));
  } catch (e) { say(e.message); alert(e.message); }
}

// ---- playing ----------------------------------------------------------------------------
function tokenFor(view) {
  // the seat on turn if this browser holds it (hot-seat), else the seat shown last, else any
  if (view && view.to_move !== null && G.tokens[view.to_move]) return G.tokens[view.to_move];
  if (G.seat >= 0 && G.tokens[G.seat]) return G.tokens[G.seat];
  const seats = Object.keys(G.tokens);
  return seats.length ? G.tokens[seats[0]] : null;
}
async function openGame(id, tokens) {
  clearTimeout(G.timer);
  Object.assign(G, { id, tokens, replay: null, paused: false, shownSeat: null, openTurns: new Set(), fullTurns: null });
  $("replay-controls").hidden = true; $("controls").hidden = false;
  show("play");
  const tok = tokenFor(null);
  try { render(await api("GET", `/api/games/${id}` + (tok ? "?token=" + encodeURIComponent(tok) : ""))); }
  catch (e) { say(e.message); }
  $("links").innerHTML = Object.entries(tokens).map(([s, t]) =>
    `<a href="#game=${id}&tokens=${encodeURIComponent(s + ":" + t)}" title="give this link to the person playing seat ${s}">seat ${s} link</a>`).join(" ");
}
async function refresh() {
  const tok = tokenFor(G.state && G.state.view);
  render(await api("GET", `/api/games/${G.id}` + (tok ? "?token=" + encodeURIComponent(tok) : "")));
}
function render(st) {
  const packs = (view) => (view.tech_packs || []).length;
  const first = !G.state || G.state.view.game !== st.view.game || G.state.view.n_players !== st.view.n_players ||
                packs(G.state.view) !== packs(st.view);
  G.state = st; G.seat = st.seat;
  const v = st.view, gizmos = v.game === "gizmos";
  if (first) hintAgents(v);
  document.body.classList.toggle("game-gizmos", gizmos);
  if (gameMeta(v.game)) { $("title").textContent = gameMeta(v.game).title; document.title = gameMeta(v.game).title; }
  document.body.dataset.decisions = v.decisions;       // for tests and scripts: what is shown
  document.body.dataset.humanToMove = v.human_to_move && st.seat === v.to_move;
  document.body.dataset.done = v.is_over;
  if (gizmos) GizmosTable.draw($("board"), st, play);     // its options on the table (gizmos.js)
  else $("board").innerHTML = st.svg;
  const doing = v.is_over ? "" : (!gizmos ? v.pending.text
    : (v.prompt ? v.prompt.text : `player ${v.to_move} (${v.seats[v.to_move].agent}) is on turn`));
  $("pending").textContent = v.is_over ? "The game is over." :
      `Round ${v.round}: ${doing}` + (st.seat >= 0 ? ` (you are player ${st.seat})` : " (watching)");
  const res = $("result");
  if (v.is_over) {
    const r = v.result || v.end;
    res.innerHTML = "";
    const span = document.createElement("span"); span.id = "final-scores";
    span.dataset.scores = JSON.stringify(r.scores);
    span.textContent = "Final scores: " + r.scores.join(", ") +
        "; winner(s): " + (r.winners.length ? r.winners.map((p) => "player " + p).join(", ") : "none");
    res.appendChild(span);
    if (r.solo) res.appendChild(document.createTextNode(
        ` - final score ${r.solo.final_score} with ${r.solo.stars} star(s), target ${r.solo.target}: ${r.solo.won ? "won" : "lost"}`));
    const ex = $("export"); ex.hidden = !!G.replay;
    ex.href = `/api/games/${G.id}/export?token=` + encodeURIComponent(tokenFor(v) || "");
    ex.download = `${v.game}-${G.id}.json`;
  } else { res.textContent = ""; $("export").hidden = true; }
  // options: as a list, and as click targets on the board
  const ol = $("options"); ol.innerHTML = ""; $("menu").hidden = true;
  const byPlace = {};
  for (const o of gizmos ? [] : v.options) {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button"; b.id = "opt-" + o.action; b.className = "option opt-" + o.kind;
    b.textContent = o.text; b.onclick = () => play(o.action);
    li.appendChild(b); ol.appendChild(li);
    if (o.place) { const k = o.place.join(","); (byPlace[k] = byPlace[k] || []).push(o); }
  }
  for (const el of document.querySelectorAll("#board .place")) {
    const opts = byPlace[el.dataset.place];
    if (opts) { el.classList.add("legal"); el.onclick = () => choose(opts); }
  }
  renderLog(v.turns || [], st.seat, v.decisions);
  renderEnd(v);
  // hot-seat: several people at this browser take turns
  const people = Object.keys(G.tokens).length;
  const ho = $("handover");
  ho.hidden = true;
  if (!G.replay && people > 1 && v.human_to_move && G.tokens[v.to_move] && G.shownSeat !== null &&
      G.shownSeat !== v.to_move && st.seat !== v.to_move) {
    ho.hidden = false; $("handover-btn").textContent = `Pass the screen to player ${v.to_move}: show their hand`;
  }
  if (!G.replay) { G.shownSeat = st.seat; scheduleBots(); }
}
// ---- the log in players' words -----------------------------------------------------------
function turnKey(t) { return t.round + "," + t.player; }
function fillSteps(ol, steps) {
  ol.innerHTML = "";
  for (const s of steps) {
    const li = document.createElement("li"); li.value = s.index + 1; li.textContent = s.text;
    li.className = "step step-" + s.kind; ol.appendChild(li);
  }
}
async function loadFullTurns(decisions) {
  // every line with its decisions (the state carries them for the last rounds only)
  if (G.fullTurns && G.fullTurns.decisions === decisions) return G.fullTurns.turns;
  const tok = G.replay ? null : tokenFor(G.state && G.state.view);
  const path = G.replay ? null : `/api/games/${G.id}/turns` + (tok ? "?token=" + encodeURIComponent(tok) : "");
  if (!path) return [];
  const r = await api("GET", path);
  G.fullTurns = { decisions, turns: r.turns };
  return r.turns;
}
function renderLog(turns, seat, decisions) {
  // one details element per turn, grouped by round (newest round first), the decisions folded
  const box = $("log"); box.innerHTML = "";
  const rounds = [...new Set(turns.map((t) => t.round))].sort((a, b) => b - a);
  for (const r of rounds) {
    const sec = document.createElement("section"); sec.className = "log-round"; sec.dataset.round = r;
    const h = document.createElement("h4"); h.textContent = r === 0 ? "Setup" : "Round " + r; sec.appendChild(h);
    for (const t of turns.filter((x) => x.round === r)) {
      const d = document.createElement("details");
      d.className = "turn" + (t.player === seat ? " mine" : "") + (t.done ? "" : " current");
      d.dataset.round = t.round; d.dataset.player = t.player;
      const sum = document.createElement("summary"); sum.className = `turn-line p${t.player}`; sum.textContent = t.text;
      d.appendChild(sum);
      const ol = document.createElement("ol"); ol.className = "steps"; d.appendChild(ol);
      if (t.steps) fillSteps(ol, t.steps);
      else { const li = document.createElement("li"); li.textContent = `${t.n_steps} decision(s): open to load`; ol.appendChild(li); }
      const key = turnKey(t);
      if (G.openTurns.has(key)) d.open = true;
      d.ontoggle = async () => {
        if (!d.open) { G.openTurns.delete(key); return; }
        G.openTurns.add(key);
        if (!t.steps) {
          try {
            const full = (await loadFullTurns(decisions)).find((x) => turnKey(x) === key);
            if (full) fillSteps(ol, full.steps);
          } catch (e) { say(e.message); }
        }
      };
      sec.appendChild(d);
    }
    box.appendChild(sec);
  }
}

// ---- the end of the game ----------------------------------------------------------------
const MARKS = ["circle", "square", "triangle", "diamond"];
function mark(kind, x, y, cls) {
  // a marker shape per player, so a line is told apart by more than its colour
  let el;
  if (kind === "circle") { el = document.createElementNS(SVGNS, "circle"); el.setAttribute("cx", x); el.setAttribute("cy", y); el.setAttribute("r", 3.5); }
  else if (kind === "square") { el = document.createElementNS(SVGNS, "rect"); el.setAttribute("x", x - 3.5); el.setAttribute("y", y - 3.5); el.setAttribute("width", 7); el.setAttribute("height", 7); }
  else {
    const pts = kind === "triangle" ? [[x, y - 4.5], [x + 4.5, y + 3.5], [x - 4.5, y + 3.5]]
                                    : [[x, y - 5], [x + 5, y], [x, y + 5], [x - 5, y]];
    el = document.createElementNS(SVGNS, "polygon"); el.setAttribute("points", pts.map((p) => p.join(",")).join(" "));
  }
  el.setAttribute("class", cls); return el;
}
function scoreChart(rows, names) {
  // score at the end of each round, one line per player: inline SVG, no library
  const W = 380, H = 210, L = 34, R = 10, T = 10, B = 34;
  const n = names.length, last = rows.length - 1;
  const top = Math.max(5, ...rows.flat());
  const x = (r) => L + (W - L - R) * r / Math.max(1, last);
  const y = (s) => T + (H - T - B) * (1 - s / top);
  const svg = document.createElementNS(SVGNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`); svg.setAttribute("role", "img"); svg.id = "score-chart";
  svg.setAttribute("aria-label", "score by round: " + names.map((nm, p) => `${nm} ${rows[last][p]}`).join(", "));
  const add = (tag, attrs, text) => {
    const el = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
    if (text !== undefined) el.textContent = text;
    svg.appendChild(el); return el;
  };
  const step = top > 40 ? 20 : (top > 20 ? 10 : 5);
  for (let s = 0; s <= top; s += step) {
    add("line", { x1: L, x2: W - R, y1: y(s), y2: y(s), class: "grid" });
    add("text", { x: L - 4, y: y(s) + 4, "text-anchor": "end", class: "axis" }, String(s));
  }
  for (let r = 0; r <= last; r += (last > 6 ? 2 : 1)) add("text", { x: x(r), y: H - B + 16, "text-anchor": "middle", class: "axis" }, String(r));
  add("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "axis" }, "round");
  for (let p = 0; p < n; p++) {
    const pts = rows.map((row, r) => `${x(r)},${y(row[p])}`).join(" ");
    add("polyline", { points: pts, class: `series p${p}`, "data-player": p });
    rows.forEach((row, r) => { const m = mark(MARKS[p % MARKS.length], x(r), y(row[p]), `dot p${p}`); svg.appendChild(m); });
  }
  return svg;
}
function renderEnd(v) {
  const box = $("end");
  const e = v.end;
  if (!e) { box.hidden = true; return; }
  box.hidden = false;
  const names = v.seats.map((s) => (s.seat === G.seat ? "you" : s.who));
  const short = v.seats.map((s) => (s.seat === G.seat ? "you" : "player " + s.seat));   // column heads
  const tb = $("end-scores").querySelector("tbody"); tb.innerHTML = "";
  for (const r of e.ranking) {
    const tr = document.createElement("tr"); tr.dataset.player = r.player;
    tr.className = `p${r.player}` + (e.winners.includes(r.player) ? " winner" : "");
    for (const c of [r.place === 1 && e.winners.includes(r.player) ? "1 (wins)" : String(r.place), names[r.player], String(r.score)]) {
      const td = document.createElement("td"); td.textContent = c; tr.appendChild(td);
    }
    tb.appendChild(tr);
  }
  $("end-tiebreak").textContent = e.tiebreak ? "Tie-break: " + e.tiebreak.text : "";
  $("end-solo").textContent = e.solo ? `Final score ${e.solo.final_score} (${e.solo.score} points + ${e.solo.star_points} for ${e.solo.stars} star(s)) against a target of ${e.solo.target}: ${e.solo.won ? "won" : "lost"}`
    : (e.ended_by ? `The game ended by the ${e.ended_by} after ${e.rounds} rounds.` : "");
  $("end-seed").textContent = `Seed ${e.seed_text}, ${e.decisions} decisions: the same deal again with this seed.`;
  const src = $("end-sources");
  const head = src.querySelector("thead"); head.innerHTML = "";
  const hr = document.createElement("tr");
  const corner = document.createElement("th"); corner.textContent = "source"; hr.appendChild(corner);
  short.forEach((nm, p) => {
    const th = document.createElement("th"); th.textContent = nm; th.title = names[p]; th.className = `p${p}`; hr.appendChild(th);
  });
  head.appendChild(hr);
  const body = src.querySelector("tbody"); body.innerHTML = "";
  for (const s of e.points_by_source.sources) {
    const tr = document.createElement("tr"); tr.dataset.source = s.key;
    const th = document.createElement("th"); th.textContent = s.label; tr.appendChild(th);
    e.points_by_source.players.forEach((row) => { const td = document.createElement("td"); td.textContent = String(row[s.key] || 0); tr.appendChild(td); });
    body.appendChild(tr);
  }
  const tot = document.createElement("tr"); tot.className = "total";
  const th = document.createElement("th"); th.textContent = "total"; tot.appendChild(th);
  e.points_by_source.players.forEach((row) => {
    const td = document.createElement("td"); td.textContent = String(Object.values(row).reduce((a, b) => a + b, 0)); tot.appendChild(td);
  });
  body.appendChild(tot);
  const chart = $("end-chart"); chart.innerHTML = "";
  chart.appendChild(scoreChart(e.score_by_round, short));
  const legend = document.createElement("ul"); legend.className = "legend";
  names.forEach((nm, p) => {
    const li = document.createElement("li"); li.className = `p${p}`;
    li.textContent = `${["\u25cf", "\u25a0", "\u25b2", "\u25c6"][p % 4]} ${short[p]}: ${e.scores[p]}`; li.title = nm;
    legend.appendChild(li);
  });
  chart.appendChild(legend);
  $("end-buttons").hidden = !!G.replay;
  const tok = tokenFor(v) || "";
  $("end-save").href = `/api/games/${G.id}/export?token=` + encodeURIComponent(tok);
  $("end-save").download = `${v.game}-${G.id}.json`;
}

function choose(opts) {
  if (opts.length === 1) { play(opts[0].action); return; }
  const m = $("menu"); m.innerHTML = ""; m.hidden = false;
  for (const o of opts) {
    const b = document.createElement("button"); b.type = "button"; b.textContent = o.text;
    b.className = "menu-option"; b.onclick = () => play(o.action); m.appendChild(b);
  }
}
async function play(action) {
  if (G.busy) return;
  G.busy = true; say("");
  try {
    const tok = tokenFor(G.state.view);
    render((await api("POST", `/api/games/${G.id}/move`, { token: tok, action })).state);
  } catch (e) { say(e.message); }
  finally { G.busy = false; }
}
function scheduleBots() {
  clearTimeout(G.timer);
  const v = G.state.view;
  if (v.is_over || v.human_to_move || G.paused) return;
  G.timer = setTimeout(botStep, parseInt($("speed").value, 10));
}
async function botStep() {
  if (G.busy) { G.timer = setTimeout(botStep, 50); return; }
  G.busy = true;
  try {
    const tok = tokenFor(G.state.view);
    const r = await api("POST", `/api/games/${G.id}/bot`, tok ? { token: tok } : {});
    G.busy = false;
    render(r.state);
  } catch (e) { G.busy = false; say(e.message); }
}

// ---- replays ----------------------------------------------------------------------------
async function openReplay(text, index) {
  try { await showReplay(await api("POST", "/api/replays", { text, game: index })); }
  catch (e) { say(e.message); alert(e.message); }
}
async function showReplay(r) {
  // the replay viewer over a replay id (an arena record, or a finished game of this server)
  clearTimeout(G.timer);
  G.replay = r; G.replay.step = 0; G.tokens = {}; G.id = null; G.openTurns = new Set(); G.fullTurns = null;
  const sel = $("rp-round"); sel.innerHTML = "";
  for (const [round, step] of Object.entries(r.rounds)) {
    const o = document.createElement("option"); o.value = step; o.textContent = round; sel.appendChild(o);
  }
  $("replay-controls").hidden = false; $("controls").hidden = true;
  show("play"); await replayTo(0);
}
async function replayTo(step) {
  const R = G.replay;
  step = Math.max(0, Math.min(R.steps, step));
  const st = await api("GET", `/api/replays/${R.id}?step=${step}`);
  R.step = step;
  $("rp-pos").textContent = `decision ${step} / ${R.steps} (${R.lineup.join(" vs ")})`;
  render(st);
}

// ---- wiring -----------------------------------------------------------------------------
async function route() {
  const h = new URLSearchParams(location.hash.slice(1));
  if (h.get("game")) {
    const id = h.get("game");
    const tokens = Object.assign({}, (stored()[id] || {}).tokens || {}, parseTokens(h.get("tokens")));
    await openGame(id, tokens);
  } else { clearTimeout(G.timer); show("setup"); listGames(); }
}
window.addEventListener("hashchange", route);
$("players").onchange = () => { $("seats").innerHTML = ""; seatRows(); };
$("new-form").onsubmit = (ev) => {
  ev.preventDefault();
  const n = parseInt($("players").value, 10);
  startGame([...Array(n).keys()].map((i) => $("seat-" + i).value));
};
$("spectate").onclick = () => {
  const n = parseInt($("players").value, 10);
  const bot = defaultBot(n, packsChosen());
  startGame([...Array(n).keys()].map((i) => { const s = $("seat-" + i).value; return s === "human" ? bot : s; }));
};
$("nav-new").onclick = () => { location.hash = ""; show("setup"); listGames(); };
$("nav-replay").onclick = () => { clearTimeout(G.timer); show("replay-setup"); };
$("replay-open").onclick = async () => {
  const f = $("replay-file").files[0];
  if (!f) { alert("choose a games.jsonl first"); return; }
  openReplay(await f.text(), parseInt($("replay-index").value || "0", 10));
};
$("import").onclick = async () => {
  const f = $("import-file").files[0];
  if (!f) { alert("choose a save file first"); return; }
  try {
    const r = await api("POST", "/api/games/import", { save: JSON.parse(await f.text()) });
    remember(r.id, r.tokens, r.state.view.seats.map((s) => s.agent));
    location.hash = "game=" + r.id + "&tokens=" + encodeURIComponent(tokenText(r.tokens));
  } catch (e) { alert(e.message); }
};
$("undo").onclick = async () => {
  try {
    const r = await api("POST", `/api/games/${G.id}/undo`, { token: tokenFor(G.state.view) });
    say(`took back ${r.undone} decision(s)`); render(r.state);
  } catch (e) { say(e.message); }
};
$("hint").onclick = async () => {
  try {
    const r = await api("POST", `/api/games/${G.id}/hint`, { token: tokenFor(G.state.view), agent: $("hint-agent").value });
    say(`${r.agent} would play: ${r.hint.text}`);
    const b = $("opt-" + r.hint.action); if (b) b.focus();
  } catch (e) { say(e.message); }
};
$("pause").onclick = () => {
  G.paused = !G.paused; $("pause").textContent = G.paused ? "Run bots" : "Pause bots";
  if (!G.paused) scheduleBots();
};
$("handover-btn").onclick = () => refresh();
$("end-replay").onclick = async () => {
  try {
    const tok = tokenFor(G.state.view);
    await showReplay(await api("POST", `/api/games/${G.id}/replay`, tok ? { token: tok } : {}));
  } catch (e) { say(e.message); }
};
$("end-again").onclick = async () => {
  try {
    const tok = tokenFor(G.state.view);
    const r = await api("POST", `/api/games/${G.id}/again`, tok ? { token: tok } : {});
    remember(r.id, r.tokens, r.state.view.seats.map((s) => s.agent));
    location.hash = "game=" + r.id + "&tokens=" + encodeURIComponent(tokenText(r.tokens));
  } catch (e) { say(e.message); }
};
$("rp-first").onclick = () => replayTo(0);
$("rp-back").onclick = () => replayTo(G.replay.step - 1);
$("rp-next").onclick = () => replayTo(G.replay.step + 1);
$("rp-last").onclick = () => replayTo(G.replay.steps);
$("rp-round").onchange = () => replayTo(parseInt($("rp-round").value, 10));
loadMeta().then(route).catch((e) => say(e.message));
