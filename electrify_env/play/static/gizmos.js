// Gizmos' table in the browser: draws a Gizmos state of /api/games/{id} (the view of
// electrify_env/gizmos/table.py) into the page's board box and puts each option of the seat on
// turn where it stands (a display card, a deck, a machine, an archived or researched card), the
// others in the prompt.  app.js does the rest (fetching, bots, undo, hints, the log, the end).
"use strict";
const GizmosTable = (() => {
  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v; else if (k === "text") e.textContent = v; else e.setAttribute(k, v);
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  function marble(m) {
    return el("span", { class: `marble m-${m.colour}`, title: m.colour, "aria-label": m.colour + " marble", text: m.letter });
  }
  function card(c) {
    if (!c) return el("div", { class: "card empty", text: "(empty)" });
    const d = el("div", { class: `card c-${c.colour}` + (c.waiting ? " waiting" : "") + (c.used ? " used" : ""),
                          "data-card": c.id },
      el("div", { class: "head" }, el("span", { text: c.id }), el("span", { text: `${c.points} pt` })),
      el("div", { text: `${c.colour} ${c.type}, cost ${c.cost}` }),
      el("div", { class: "eff", text: c.effect }));
    if (c.waiting) d.append(el("div", { text: "waiting" }));
    return d;
  }
  function optButton(o, play) {
    const b = el("button", { class: "opt opt-" + o.kind, id: "opt-" + o.action, type: "button",
                             "data-action": String(o.action), text: o.text });
    b.addEventListener("click", () => play(o.action));
    return b;
  }
  const key = (p) => (p ? p.join(":") : "");
  const LEVEL = { III: 3, II: 2, I: 1 };

  function prompt(v, st) {
    // the decision of the seat on turn: what it is about, the waiting machines, the payment
    const pr = el("div", { id: "gz-prompt", role: "status" });
    if (v.is_over) { pr.append(el("span", { text: "The game is over." })); return pr; }
    if (!v.prompt) {
      pr.append(el("span", { text: `Player ${v.to_move} (${v.seats[v.to_move].agent}) is on turn.` }));
      return pr;
    }
    pr.append(el("span", { text: `Your decision: ${v.prompt.text}` }));
    if (v.prompt.waiting) {
      pr.append(el("div", { class: "sub", text: "Waiting: " + (v.prompt.waiting.map((c) => c.id).join(", ") || "none")
        + (v.prompt.chain.length ? "; chain so far: " + v.prompt.chain.join(", ") : "") }));
    }
    if (v.prompt.paying) {
      const pay = v.prompt.paying;
      pr.append(el("div", { class: "sub", text: `Paying ${pay.owed} for ${pay.card.id}; converters used: `
        + (pay.converters.join(", ") || "none") + "; spent: " }, ...pay.spent.map((m) => el("span", {}, marble(m), `\u00d7${m.count} `))));
    }
    return pr;
  }

  function draw(box, st, play) {
    const v = st.view, you = st.seat;
    const spots = {};   // place key -> the element that takes its option buttons
    const pr = prompt(v, st);
    // the display triangle, level III first, and the decks
    const disp = el("div", { id: "gz-display" });
    for (const tier of v.display) {
      const row = el("div", { class: "tier" }, el("h3", { text: `Level ${tier.level} (deck ${tier.deck})` }));
      spots[key(["deck", LEVEL[tier.level]])] = row.firstChild;
      for (const c of tier.cards) {
        const e = card(c); row.append(e);
        if (c) spots[key(["display", LEVEL[tier.level], c.slot])] = e;
      }
      disp.append(row);
    }
    const rowBox = el("div", { id: "gz-row-box" }, el("h3", { text: "Energy row" }),
                      el("div", { id: "gz-row" }, ...v.row.map(marble)));
    const centre = el("div", { id: "gz-centre" }, disp, rowBox);
    if (v.researching.length) {
      const r = el("div", { class: "tier" });
      for (const c of v.researching) { const e = card(c); r.append(e); spots[key(["research", c.index])] = e; }
      centre.append(el("h3", { text: "Researched (only you see these)" }), r);
    }
    // each player's dashboard in its five columns, archive and marbles
    const players = el("div", { id: "gz-players" });
    for (const p of v.players) {
      const pbox = el("div", { class: "gz-player" + (v.to_move === p.seat ? " on-turn" : ""), "data-seat": String(p.seat) });
      const who = `Player ${p.seat} (${v.seats[p.seat].agent}${p.seat === you ? ", you" : ""})`;
      pbox.append(el("h3", { text: `${who}: ${p.score} points, ${p.tokens} tokens` }));
      const store = el("div", {}, el("span", { text: `Marbles (limit ${p.limits.storage}): ` }), ...p.marbles.map(marble));
      pbox.append(store);
      const dash = el("div", { class: "dash" });
      for (const [col, cards] of Object.entries(p.columns)) {
        const c = el("div", { class: "col" }, el("h4", { text: col }));
        for (const m of cards) { const e = card(m); c.append(e); spots[key(["machine", p.seat, m.machine])] = e; }
        dash.append(c);
      }
      pbox.append(dash);
      if (p.archive.length || p.seat === you) {
        const a = el("div", {}, el("h4", { text: `Archive (limit ${p.limits.archive})` }));
        p.archive.forEach((c, i) => { const e = card(c); a.append(e); spots[key(["archive", p.seat, i])] = e; });
        pbox.append(a);
      }
      players.append(pbox);
    }
    // the options: on the board where they stand, else in the prompt
    const opts = el("div", { class: "opts" });
    for (const o of v.options) {
      const spot = o.place && (o.place[0] === "row" || o.place[0] === "storage") ? null : spots[key(o.place)];
      (spot || opts).append(optButton(o, play));
    }
    pr.append(opts);
    box.replaceChildren(pr, el("div", { id: "gz-table" }, centre, players));
  }
  return { draw };
})();
