"""The board picture: one scene built from a seat's view, drawn as SVG (web) or as an RGB array
(``render_mode="rgb_array"``, videos).

:func:`build_scene` turns the JSON-ready dict of :func:`electrify_env.render.view.seat_view_dict`
(or :meth:`PlaySession.view <electrify_env.play.session.PlaySession.view>`) into a flat list of
drawing items; :func:`to_svg` and :func:`to_rgb` draw the same items, so the web page and a
recorded video show the same picture.  Because the scene is built from a seat's view, it can
show only what that seat may see (other hands as counts, decks as sizes).

Items are dicts with ``t`` in ``rect`` (x, y, w, h, fill, stroke, rx), ``text`` (x, y, text,
size, fill, anchor ``start``/``middle``/``end``, bold), ``circle`` (x, y, r, fill, stroke) and
``poly`` (points, fill).  An item with ``place`` (the :class:`PlayOption.place
<electrify_env.play.session.PlayOption>` of a board element, as a comma-joined string such as
``"sector,0,2"``) is a click target in the web page; ``title`` is its tooltip.

What is drawn: round and scores; each player's seven columns (depot and grid cubes, values),
five sector tiles (side A/B, charge marker, icons) in their columns with their cards in slot
order (cost, icons with multipliers, arrows, charge markers), research marker, breakthroughs,
clean tokens, hand (face up for the viewing seat, a count for the others); the seven demand
cards (requirements, basic and priority rewards, who fulfilled them); the research track's 14
breakthrough spaces with groups and rewards; decks and discard sizes; the basic supply; solo
stars and challenges.
"""
from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

from ..engine import layout as L

__all__ = ["build_scene", "to_svg", "to_rgb", "game_rgb", "COLUMN_COLORS"]

#: one colour per column (R1 order: Fossil Fuel .. Solar)
COLUMN_COLORS = ("#5b5b5b", "#7fb3d5", "#6aa84f", "#e69138", "#3d85c6", "#a2c4c9", "#f1c232")
PLAYER_COLORS = ("#c0392b", "#2471a3", "#229954", "#8e44ad")
ICON_LETTERS = {"produce": "P", "develop": "D", "transmit": "T", "research": "R", "invest": "I",
                "plan": "L", "ongoing": "O"}
BG = "#f4f1ea"
CARD = "#fffdf7"
CHARGE = "#f4d03f"

COL_W = 118          # width of one column of a player's board
SLOT_H = 30          # height of a card on a sector
TILE_H = 36          # height of a sector tile
LEFT = 10            # x of the player boards
RIGHT_X = LEFT + 7 * COL_W + 20   # x of the right-hand panel
RIGHT_W = 470
WIDTH = RIGHT_X + RIGHT_W + 10


def _rect(x, y, w, h, fill="none", stroke="#333", rx=3, place=None, title=None, sw=1):
    it = {"t": "rect", "x": x, "y": y, "w": w, "h": h, "fill": fill, "stroke": stroke, "rx": rx, "sw": sw}
    if place is not None:
        it["place"] = ",".join(str(v) for v in place)
    if title:
        it["title"] = title
    return it


def _text(x, y, text, size=11, fill="#222", anchor="start", bold=False):
    return {"t": "text", "x": x, "y": y, "text": str(text), "size": size, "fill": fill, "anchor": anchor,
            "bold": bold}


def _circle(x, y, r, fill, stroke="#333", place=None, title=None):
    it = {"t": "circle", "x": x, "y": y, "r": r, "fill": fill, "stroke": stroke}
    if place is not None:
        it["place"] = ",".join(str(v) for v in place)
    if title:
        it["title"] = title
    return it


def _icons(items: list, face: dict, x: float, y: float, cols: list[str], max_w: float) -> None:
    """Icons of a face as letter discs with their multiplier, left to right from (x, y)."""
    cx = x
    for ic in face["icons"]:
        fill = "#ddd"
        if ic["action"] == "produce" and ic["column"] not in (None, "here") and ic["column"] in cols:
            fill = COLUMN_COLORS[cols.index(ic["column"])]
        items.append(_circle(cx + 7, y, 7, fill, title=ic["text"]))
        items.append(_text(cx + 7, y + 4, ICON_LETTERS.get(ic["action"], "?"), 9, "#000", "middle", True))
        m = ic["mult"]
        label = "" if m == 1 else (f"x{m}" if isinstance(m, int) else f"x{m[:2]}")
        if ic["action"] == "produce" and ic["column"] == "here":
            label = "h" + label
        if label:
            items.append(_text(cx + 15, y + 4, label, 8))
        cx += 16 + 6 * len(label)
        if cx > x + max_w - 14:
            break


def _arrows(items: list, face: dict, x: float, y: float, h: float) -> None:
    """Arrow marks on the left edge of a card (R8): left, left-up, left-down."""
    mid = y + h / 2
    for a in face["arrows"]:
        dy = {"left": 0, "up": -h / 3, "down": h / 3}[a]
        items.append({"t": "poly", "points": [(x - 1, mid + dy), (x + 6, mid + dy - 4), (x + 6, mid + dy + 4)],
                      "fill": "#c0392b"})


def _card(items, face, x, y, w, h, cols, place=None, charged=False, label_prefix=""):
    items.append(_rect(x, y, w, h, CARD, place=place, title=face["text"]))
    name = face["name"]
    if face["kind"] == "basic" and " face " in name:
        name = name.rsplit(" face ", 1)[0]
    items.append(_text(x + 9, y + 11, (label_prefix + name)[:22], 9, bold=True))
    if face.get("cost") is not None:
        items.append(_circle(x + w - 9, y + 9, 7, "#fff", "#888"))
        items.append(_text(x + w - 9, y + 12, face["cost"], 9, "#000", "middle", True))
    _icons(items, face, x + 8, y + h - 9, cols, w - 10)
    _arrows(items, face, x, y, h)
    if charged:
        items.append(_circle(x + w - 9, y + h - 9, 5, CHARGE, title="charged"))


def _player_board(items, view, p, y0) -> float:
    pl = view["players"][p]
    cols = [c["name"] for c in view["columns"]]
    me = view["seat"] == p
    color = PLAYER_COLORS[p % len(PLAYER_COLORS)]
    who = next((s["who"] for s in view.get("seats", []) if s["seat"] == p), f"player {p}")
    head = (f"{who}{' - you' if me else ''}: {pl['score']} points, research {pl['research']}/6, "
            f"{len(pl['breakthroughs'])} breakthroughs, {pl['clean_tokens']} clean tokens, "
            f"{pl['fulfilled']} demands, hand {pl['hand_count']}")
    if pl.get("chosen") is not None:
        head += f", chose {view['players'][p]['sectors'][pl['chosen']]['name']}"
    if me and pl.get("plan") is not None:
        head += f", secret plan: {pl['sectors'][pl['plan']]['name']}"
    if view.get("to_move") == p:
        head += "  << on turn"
    items.append(_rect(LEFT - 4, y0, 7 * COL_W + 8, 22, color, color, 4))
    items.append(_text(LEFT + 2, y0 + 15, head, 11, "#fff", bold=True))
    y = y0 + 26
    # research marker track (a click target for "research")
    items.append(_rect(LEFT, y, 7 * COL_W, 14, "none", "none", place=("research", p), title="research track"))
    for k in range(view["research"]["track"] + 1):
        items.append(_rect(LEFT + 60 + k * 18, y + 1, 16, 12, "#fff" if k != pl["research"] else color, "#999", 2))
    items.append(_text(LEFT, y + 11, "research", 9))
    y += 18
    # column heads: depot and grid cubes
    for c, col in enumerate(view["columns"]):
        x = LEFT + c * COL_W
        items.append(_rect(x + 1, y, COL_W - 2, 16, COLUMN_COLORS[c], "#333", 2))
        items.append(_text(x + COL_W / 2, y + 12, col["name"], 9, "#fff" if c in (0, 4) else "#000", "middle", True))
        items.append(_rect(x + 1, y + 18, COL_W / 2 - 2, 20, "#fff", "#666", 2, place=("depot", p, c),
                           title=f"{col['name']} depot (cube value {col['depot_value']})"))
        items.append(_text(x + COL_W / 4, y + 32, f"D {pl['depot'][c]}", 10, "#000", "middle", True))
        items.append(_rect(x + COL_W / 2 + 1, y + 18, COL_W / 2 - 2, 20, "#eef", "#666", 2, place=("grid", p, c),
                           title=f"{col['name']} grid (research value {col['grid_value']})"))
        items.append(_text(x + 3 * COL_W / 4, y + 32, f"G {pl['grid'][c]}", 10, "#000", "middle", True))
    y += 42
    height = TILE_H + 5 * SLOT_H + 6
    for sec in pl["sectors"]:
        x = LEFT + sec["column"] * COL_W + 2
        w = COL_W - 4
        tile = sec["tile"]
        items.append(_rect(x, y, w, TILE_H, "#e8daef" if sec["side"] == "B" else "#d6eaf8", "#333",
                           place=("sector", p, sec["sector"]), title=tile["text"], sw=2))
        items.append(_text(x + 4, y + 12, f"{sec['name'][:17]} ({sec['side']})", 9, bold=True))
        _icons(items, tile, x + 4, y + TILE_H - 9, cols, w - 18)
        if sec["charged"]:
            items.append(_circle(x + w - 8, y + 9, 5, CHARGE, title="charged"))
        if sec.get("solo_token"):
            items.append(_text(x + w - 4, y + TILE_H - 4, sec["solo_token"][0].upper(), 9, "#7d3c98", "end", True))
        for card in sec["cards"]:
            _card(items, card, x, y + TILE_H + 2 + card["slot"] * SLOT_H, w, SLOT_H - 2, cols,
                  place=("slot", p, sec["sector"], card["slot"]), charged=card["charged"])
        # one more slot target below the last card (insert at the bottom)
        n = len(sec["cards"])
        if n < 5:
            items.append(_rect(x + 6, y + TILE_H + 2 + n * SLOT_H, w - 12, 10, "none", "#bbb", 2,
                               place=("slot", p, sec["sector"], n), title=f"slot {n} of {sec['name']}"))
    return y + height + 8


def _right_panel(items, view, fixed: bool = False) -> float:
    x0, w = RIGHT_X, RIGHT_W
    y = 10
    over = view["is_over"]
    seed = "" if view["seed"] is None else f", seed {view['seed']}"     # the view has it once the game is over
    title = f"Electrify - round {view['round']}/{view['rounds']}{seed}"
    items.append(_text(x0, y + 14, title, 14, bold=True))
    y += 22
    scores = ", ".join(f"P{i}: {s}" for i, s in enumerate(view["scores"]))
    items.append(_text(x0, y + 12, "scores " + scores + ("   GAME OVER" if over else ""), 11, bold=over))
    y += 18
    if over and view.get("result"):
        res = view["result"]
        line = f"winner(s): {', '.join('player %d' % p for p in res['winners']) or 'none'}"
        if res.get("solo"):
            so = res["solo"]
            line = (f"final score {so['final_score']} (target {so['target']}): "
                    f"{'WON' if so['won'] else 'lost'}")
        items.append(_text(x0, y + 12, line, 11, "#b03a2e", bold=True))
        y += 18
    elif fixed:
        y += 18
    pend = view["pending"]["text"]
    items.append(_text(x0, y + 12, pend[:78], 10, "#1a5276"))
    y += 18
    # demand cards
    items.append(_text(x0, y + 12, "Demand cards", 11, bold=True))
    y += 16
    cols = [c["name"] for c in view["columns"]]
    for d in view["demand"]:
        h = 34
        fill = "#fdebd0" if d.get("solo_bonus") else CARD
        items.append(_rect(x0, y, w, h, fill, place=("demand", d["level"]), title=d["text"]))
        items.append(_text(x0 + 4, y + 12, f"{d['level_name']}", 11, bold=True))
        rx = x0 + 34
        for r in d["requirements"]:
            items.append(_rect(rx, y + 3, 12, 12, COLUMN_COLORS[r["column"]], "#333", 2))
            items.append(_text(rx + 15, y + 13, f"{r['count']}", 10, bold=True))
            rx += 30
        basic = ", ".join(r["text"] for r in d["basic"]) or "-"
        prio = ", ".join(r["text"] for r in d["priority"]) or "-"
        items.append(_text(x0 + 34, y + 28, f"basic: {basic} | priority: {prio}"[:70], 9))
        for i, p in enumerate(d["fulfilled_by"]):
            items.append(_circle(x0 + w - 10 - 14 * i, y + 10, 5, PLAYER_COLORS[p % 4], title=f"player {p}"))
        y += h + 3
    # research breakthrough spaces
    y += 4
    items.append(_text(x0, y + 12, "Research breakthrough spaces (group: rewards)", 11, bold=True))
    y += 16
    sw = (w - 6) / 7
    for sp in view["research"]["spaces"]:
        k = sp["space"]
        sx, sy = x0 + (k % 7) * sw, y + (k // 7) * 40
        txt = ", ".join(r["text"] for r in sp["rewards"]) or "blank"
        items.append(_rect(sx, sy, sw - 3, 37, ["#fcf3cf", "#d5f5e3", "#d6eaf8", "#fadbd8", "#e8daef"][sp["group"] % 5],
                           place=("breakthrough", k), title=f"space {k} (group {sp['group']}): {txt}"))
        items.append(_text(sx + 3, sy + 11, f"{k} g{sp['group']}", 9, bold=True))
        items.append(_text(sx + 3, sy + 23, txt[:13], 8))
        items.append(_text(sx + 3, sy + 33, txt[13:26], 8))
        for i, p in enumerate(sp["covered_by"]):
            items.append(_circle(sx + sw - 10 - 9 * i, sy + 9, 4, PLAYER_COLORS[p % 4]))
    y += 82
    groups = "; ".join(f"g{g['group']}: " + (", ".join(r["text"] for r in g["rewards"]) or "-")
                       for g in view["research"]["groups"])
    items.append(_text(x0, y + 10, ("group bonus " + groups)[:86], 9))
    y += 16
    # decks and basic supply
    for d in view["decks"]:
        items.append(_rect(x0 + d["deck"] * (w / 2), y, w / 2 - 4, 20, "#eee", place=("deck", d["deck"]),
                           title=f"{d['name']} deck"))
        items.append(_text(x0 + d["deck"] * (w / 2) + 4, y + 14,
                           f"{d['name']}: deck {d['size']}, discard {d['discard_size']}", 10))
    y += 26
    items.append(_text(x0, y + 12, f"Basic supply ({len(view['basic'])} cards)", 11, bold=True))
    y += 16
    bw = (w - 6) / 4
    for i, b in enumerate(view["basic"]):
        bx, by = x0 + (i % 4) * bw, y + (i // 4) * 60
        for f, face in enumerate(b["faces"]):
            _card(items, face, bx, by + f * 29, bw - 4, 27, cols, place=("basic", b["basic"], f),
                  label_prefix="AB"[f] + " ")
    n_basic = max(len(view["basic"]), L.MAX_BASIC if fixed else 0)
    y += 60 * ((n_basic + 3) // 4) + 4
    # the viewer's hand
    me = view["seat"]
    if 0 <= me < len(view["players"]):
        hand = view["players"][me]["hand"] or []
        items.append(_text(x0, y + 12, f"Your hand ({len(hand)} cards)", 11, bold=True))
        y += 16
        hw = (w - 6) / 3
        for i, card in enumerate(hand):
            _card(items, card, x0 + (i % 3) * hw, y + (i // 3) * 36, hw - 4, 33, cols,
                  place=("hand", card["hand_slot"]))
        y += 36 * ((max(len(hand), L.MAX_HAND if fixed else 0) + 2) // 3) + 4
    if view.get("solo"):
        so = view["solo"]
        items.append(_text(x0, y + 12, f"Solo: {so['name']} ({so['gears']} gears), target {so['target']}, "
                                       f"star points {so['star_points']}", 11, bold=True))
        y += 16
        for i, st in enumerate(so["stars"]):
            fill = {"open": "#fff", "claimed": CHARGE, "lost": "#999"}[st["state"]]
            items.append(_circle(x0 + 8 + 22 * i, y + 8, 7, fill, title=f"star of round {st['round']}: {st['state']}"))
            items.append(_text(x0 + 8 + 22 * i, y + 26, st["round"], 8, anchor="middle"))
        y += 32
        for ch in so["challenges"]:
            items.append(_text(x0, y + 11, ("[met] " if ch["met"] else "[open] ") + ch["text"][:70], 10))
            y += 14
        if fixed:
            y += 14 * max(0, L.MAX_CHALLENGES - len(so["challenges"]))
    return y


def build_scene(view: dict[str, Any], fixed: bool = False) -> dict[str, Any]:
    """The board of a seat's view as ``{"width", "height", "items"}`` (see the module docs).
    ``fixed=True`` reserves room for the largest basic supply and hand, so that every frame of
    a game has the same (even) size (videos need that)."""
    items: list[dict] = []
    y = 10
    for p in range(view["n_players"]):
        y = _player_board(items, view, p, y)
    y_right = _right_panel(items, view, fixed)
    height = int(max(y, y_right) + 10)
    height += height % 2
    return {"width": WIDTH, "height": height,
            "items": [_rect(0, 0, WIDTH, height, BG, "none", 0)] + items}


def to_svg(scene: dict[str, Any]) -> str:
    """The scene as an SVG document (click targets carry ``data-place`` and class ``place``)."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {scene["width"]} {scene["height"]}" '
           f'width="{scene["width"]}" height="{scene["height"]}" font-family="DejaVu Sans, Arial, sans-serif">']
    for it in scene["items"]:
        extra = ""
        if "place" in it:
            extra = f' class="place" data-place="{escape(it["place"])}"'
        title = f"<title>{escape(it['title'])}</title>" if it.get("title") else ""
        t = it["t"]
        if t == "rect":
            body = (f'<rect x="{it["x"]:.1f}" y="{it["y"]:.1f}" width="{it["w"]:.1f}" height="{it["h"]:.1f}" '
                    f'rx="{it["rx"]}" fill="{it["fill"]}" stroke="{it["stroke"]}" stroke-width="{it["sw"]}"{extra}')
        elif t == "circle":
            body = (f'<circle cx="{it["x"]:.1f}" cy="{it["y"]:.1f}" r="{it["r"]}" fill="{it["fill"]}" '
                    f'stroke="{it["stroke"]}"{extra}')
        elif t == "poly":
            pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in it["points"])
            body = f'<polygon points="{pts}" fill="{it["fill"]}"{extra}'
        else:
            weight = ' font-weight="bold"' if it["bold"] else ""
            out.append(f'<text x="{it["x"]:.1f}" y="{it["y"]:.1f}" font-size="{it["size"]}" fill="{it["fill"]}" '
                       f'text-anchor="{it["anchor"]}"{weight} pointer-events="none">{escape(it["text"])}</text>')
            continue
        out.append(body + (f">{title}</{ 'rect' if t == 'rect' else 'circle' if t == 'circle' else 'polygon'}>"
                           if title else "/>"))
    out.append("</svg>")
    return "\n".join(out)


_FONTS: dict[tuple[int, bool], Any] = {}


def _font(size: int, bold: bool):
    from PIL import ImageFont
    key = (size, bold)
    if key not in _FONTS:
        try:
            _FONTS[key] = ImageFont.truetype("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf", size)
        except OSError:
            _FONTS[key] = ImageFont.load_default(size=size)
    return _FONTS[key]


def to_rgb(scene: dict[str, Any], scale: float = 1.0) -> np.ndarray:
    """The scene drawn with Pillow as an ``(H, W, 3)`` uint8 array (``scale`` resizes it)."""
    from PIL import Image, ImageDraw
    W, H = int(scene["width"] * scale), int(scene["height"] * scale)
    img = Image.new("RGB", (W, H), BG)
    d = ImageDraw.Draw(img)
    s = scale
    for it in scene["items"]:
        t = it["t"]
        if t == "rect":
            fill = None if it["fill"] == "none" else it["fill"]
            outline = None if it["stroke"] == "none" else it["stroke"]
            if fill is None and outline is None:
                continue
            d.rounded_rectangle([it["x"] * s, it["y"] * s, (it["x"] + it["w"]) * s, (it["y"] + it["h"]) * s],
                                radius=it["rx"] * s, fill=fill, outline=outline, width=max(1, int(it["sw"] * s)))
        elif t == "circle":
            r = it["r"] * s
            d.ellipse([it["x"] * s - r, it["y"] * s - r, it["x"] * s + r, it["y"] * s + r],
                      fill=it["fill"], outline=it["stroke"])
        elif t == "poly":
            d.polygon([(x * s, y * s) for x, y in it["points"]], fill=it["fill"])
        else:
            mask, dx, dy = _text_mask(it["text"], max(6, int(it["size"] * s)), it["bold"], it["anchor"])
            if mask is not None:
                img.paste(it["fill"], (int(round(it["x"] * s)) + dx, int(round(it["y"] * s)) + dy), mask)
    return np.asarray(img, dtype=np.uint8)


_MASKS: dict[tuple, tuple] = {}
_MASKS_MAX = 20_000


def _text_mask(text: str, size: int, bold: bool, anchor: str):
    """A text's grey-level mask and its offset from the anchor point, cached: the same labels
    come back in every frame, and drawing text is most of a frame's cost."""
    key = (text, size, bold, anchor)
    hit = _MASKS.get(key)
    if hit is not None:
        return hit
    from PIL import Image, ImageDraw
    font = _font(size, bold)
    anc = {"start": "ls", "middle": "ms", "end": "rs"}[anchor]
    x0, y0, x1, y1 = font.getbbox(text, anchor=anc)
    if x1 <= x0 or y1 <= y0:
        out = (None, 0, 0)
    else:
        mask = Image.new("L", (x1 - x0, y1 - y0), 0)
        ImageDraw.Draw(mask).text((-x0, -y0), text, fill=255, font=font, anchor=anc)
        out = (mask, x0, y0)
    if len(_MASKS) >= _MASKS_MAX:
        _MASKS.clear()
    _MASKS[key] = out
    return out


def game_rgb(game, seat: int = -1, scale: float = 1.0, n_players: int = 2) -> np.ndarray:
    """The board of ``game`` as ``seat`` sees it (-1: the public table) as an RGB array of a
    fixed size per player count (``render_mode="rgb_array"`` of the envs); ``game`` None gives
    a blank frame of the ``n_players`` size."""
    from .view import seat_view_dict
    if game is None:
        from ..game import Game
        blank = Game(scenario="first_light") if n_players == 1 else Game(n_players=n_players, seed=0)
        scene = build_scene(seat_view_dict(blank, seat), fixed=True)   # the size of seat's frames
        scene["items"] = scene["items"][:1] + [_text(20, 40, "no game yet: call reset()", 20)]
        return to_rgb(scene, scale)
    return to_rgb(build_scene(seat_view_dict(game, seat), fixed=True), scale)
