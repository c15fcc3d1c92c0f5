"""The Gizmos card set: the schema (G2, G3), the loader and the compiled card table ``T``.

``load_card_set()`` reads ``configs/gizmos/cards.yaml`` (the project's original default set) or
any file of the same shape, checks every card against the schema and returns a :class:`CardSet`
whose ``table`` is the int64 array the jitted engine reads (``T_*`` offsets of
:mod:`electrify_env.gizmos.engine.gz_layout`).  A set that breaks the schema raises
:class:`CardSetError` with one line naming the file, the card and the field::

    configs/gizmos/x.yaml: card L1-07: field 'cost': must be a whole number from 0 (got -1)

The file holds ``name``, ``rules`` (marble counts, row size, display sizes, the level-III cut,
base limits, end conditions, round cap) and ``cards``, a list of mappings::

    {id: L2-05, level: 2, type: build, colour: blue, cost: 3, points: 3,
     trigger: [blue, black], effect: research}

Effects by type: file machines ``pick``, ``{tokens: N}``, ``{draw: N}`` (trigger: none, every
File); pick machines ``{draw: 1}`` (trigger: one or two colours); build machines ``pick``,
``two_picks``, ``file``, ``research``, ``free_build``, ``{tokens: N}`` (trigger: one or two
colours, ``level2`` or ``archive``); upgrades ``{upgrade: {storage: N, archive: N, research: N,
special: S}}`` with S one of ``no_file``, ``research_discount``, ``archive_discount``,
``level2_discount``, ``no_research``, ``score_storage``, ``score_tokens`` (optional); converters
``{convert: [OPTION]}`` or two options ``{convert: ["double X", "double Y"]}``, OPTION one of
``"double X"``, ``"wild X"``, ``"wild2 X"``, ``"any"`` (X a colour).
"""
from __future__ import annotations

import functools
import hashlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..paths import CONFIGS_DIR
from ..yamlio import display_path, read_yaml_mapping
from .engine import gz_layout as L

DEFAULT_CARDS = CONFIGS_DIR / "gizmos" / "cards.yaml"

COLOURS = ("red", "yellow", "blue", "black")
COLOUR_CODE = {"red": L.COL_RED, "yellow": L.COL_YELLOW, "blue": L.COL_BLUE, "black": L.COL_BLACK,
               "any": L.COL_ANY, "none": L.COL_NONE}
COLOUR_NAME = {v: k for k, v in COLOUR_CODE.items()}
TYPES = {"upgrade": L.TY_UPGRADE, "converter": L.TY_CONVERTER, "file": L.TY_FILE,
         "pick": L.TY_PICK, "build": L.TY_BUILD}
TYPE_NAME = {v: k for k, v in TYPES.items()}
SPECIALS = {"no_file": L.UP_NO_FILE, "research_discount": L.UP_RESEARCH_DISCOUNT,
            "archive_discount": L.UP_ARCHIVE_DISCOUNT, "level2_discount": L.UP_L2_DISCOUNT,
            "no_research": L.UP_NO_RESEARCH, "score_storage": L.UP_SCORE_STORAGE,
            "score_tokens": L.UP_SCORE_TOKENS}
SPECIAL_NAME = {v: k for k, v in SPECIALS.items()}
CONVERTERS = {"double": L.CV_DOUBLE, "wild": L.CV_WILD, "wild2": L.CV_WILD2, "any": L.CV_ANY}
CONVERTER_NAME = {v: k for k, v in CONVERTERS.items()}
#: plain-word effects, and effects with a number, allowed per machine type
_WORD_EFFECTS = {"file": {"pick": L.EF_PICK},
                 "build": {"pick": L.EF_PICK, "two_picks": L.EF_TWO_PICKS, "file": L.EF_FILE,
                           "research": L.EF_RESEARCH, "free_build": L.EF_FREE_BUILD}}
_NUMBER_EFFECTS = {"file": {"tokens": L.EF_TOKENS, "draw": L.EF_DRAW}, "pick": {"draw": L.EF_DRAW},
                   "build": {"tokens": L.EF_TOKENS}}
EFFECT_NAME = {L.EF_PICK: "pick", L.EF_TOKENS: "tokens", L.EF_DRAW: "draw", L.EF_TWO_PICKS: "two_picks",
               L.EF_FILE: "file", L.EF_RESEARCH: "research", L.EF_FREE_BUILD: "free_build",
               L.EF_UPGRADE: "upgrade", L.EF_CONVERTER: "convert"}
RULE_DEFAULTS = {"marbles": {c: 13 for c in COLOURS}, "row": 6, "display": [4, 3, 2], "level3_keep": 16,
                 "storage": 5, "archive": 1, "research": 3, "end_built": 16, "end_level3": 4,
                 "max_rounds": 100}
CARD_FIELDS = ("id", "level", "type", "colour", "cost", "points", "trigger", "effect")


class CardSetError(ValueError):
    """A card set that breaks the schema; the one-line message names the file, card and field."""


@dataclass(frozen=True, eq=False)
class CardSet:
    """A validated Gizmos card set and its compiled, read-only card table."""

    name: str
    path: Path | None
    table: np.ndarray
    ids: tuple[str, ...]
    cards: tuple[dict, ...]
    rules: dict
    hash: str

    @property
    def n_cards(self) -> int:
        """Cards in the set."""
        return len(self.ids)

    def index(self, card: int | str) -> int:
        """The card index of an id (``"L1-07"``) or index; CardSetError naming an unknown one."""
        if isinstance(card, str):
            try:
                return self.ids.index(card)
            except ValueError:
                raise CardSetError(f"unknown card {card!r}") from None
        if isinstance(card, bool) or not hasattr(card, "__index__") or not 0 <= int(card) < len(self.ids):
            raise CardSetError(f"unknown card {card!r}")
        return int(card)

    def describe(self, card: int | str) -> str:
        """One line in words: ``L2-05 (II, blue build, cost 3, 3 points): when you build blue or
        black, research``."""
        c = self.index(card)
        T = self.table
        lv = ("0", "I", "II", "III")[T[L.T_LEVEL + c]]
        colour = COLOUR_NAME[int(T[L.T_COLOUR + c])]
        head = f"{self.ids[c]} ({lv}, {colour} {TYPE_NAME[int(T[L.T_TYPE + c])]}, cost {T[L.T_COST + c]}, {T[L.T_POINTS + c]} points)"
        return f"{head}: {effect_words(T, c)}"


def _colours_words(mask: int) -> str:
    return " or ".join(COLOUR_NAME[k] for k in range(4) if (mask >> k) & 1)


def effect_words(T: np.ndarray, c: int) -> str:
    """The effect of card ``c`` of table ``T`` in words."""
    ef = int(T[L.T_EFFECT + c])
    n = int(T[L.T_EFF_N + c])
    tr = int(T[L.T_TRIG + c])
    what = {L.EF_PICK: "do a Pick", L.EF_TOKENS: f"gain {n} token{'s' * (n != 1)}",
            L.EF_DRAW: f"draw {n} marble{'s' * (n != 1)} blind", L.EF_TWO_PICKS: "do two Picks",
            L.EF_FILE: "do a File", L.EF_RESEARCH: "do a Research",
            L.EF_FREE_BUILD: "build a level-I machine for free"}.get(ef)
    if ef == L.EF_UPGRADE:
        parts = [f"+{T[off + c]} {name}" for off, name in ((L.T_UP_STORAGE, "storage"),
                 (L.T_UP_ARCHIVE, "archive"), (L.T_UP_RESEARCH, "research")) if T[off + c]]
        sp = int(T[L.T_UP_SPECIAL + c])
        if sp:
            parts.append(SPECIAL_NAME[sp].replace("_", " "))
        return "upgrade: " + ", ".join(parts)
    if ef == L.EF_CONVERTER:
        opts = []
        for k in range(int(T[L.T_CV_N + c])):
            kind = int(T[L.T_CV_KIND + 2 * c + k])
            col = COLOUR_NAME[int(T[L.T_CV_COL + 2 * c + k])]
            opts.append({L.CV_DOUBLE: f"one {col} counts as two {col}", L.CV_WILD: f"one {col} counts as any colour",
                         L.CV_WILD2: f"up to two {col} count as any colour",
                         L.CV_ANY: "any marble counts as another colour"}[kind])
        return "converter: " + "; or ".join(opts)
    if T[L.T_TYPE + c] == L.TY_FILE:
        return f"when you File, {what}"
    if T[L.T_TYPE + c] == L.TY_PICK:
        return f"when you pick {_colours_words(int(T[L.T_TRIG_MASK + c]))}, {what}"
    cond = {L.TR_COLOURS: f"when you build {_colours_words(int(T[L.T_TRIG_MASK + c]))}",
            L.TR_LEVEL2: "when you build a level-II machine",
            L.TR_ARCHIVE: "when you build from your archive"}.get(tr, "")
    return f"{cond}, {what}"


# ----------------------------------------------------------------------------------------------
# Schema
# ----------------------------------------------------------------------------------------------
def _whole(v: Any, lo: int = 0) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= lo


class _Card:
    """Checks one card mapping and writes it into the table (errors name the card and field)."""

    def __init__(self, where: str, raw: Any, index: int) -> None:
        self.where = where
        self.raw = raw
        self.label = f"card #{index + 1}"

    def fail(self, fld: str, msg: str) -> None:
        raise CardSetError(f"{self.where}: {self.label}: field {fld!r}: {msg}")

    def check(self) -> dict:
        raw = self.raw
        if not isinstance(raw, dict):
            raise CardSetError(f"{self.where}: {self.label}: must be a mapping of {', '.join(CARD_FIELDS)}")
        cid = raw.get("id")
        if not isinstance(cid, str) or not cid.strip():
            self.fail("id", f"must be a non-empty name (got {cid!r})")
        self.label = f"card {cid}"
        for key in raw:
            if key not in CARD_FIELDS:
                self.fail(str(key), f"unknown field (fields: {', '.join(CARD_FIELDS)})")
        level = raw.get("level")
        if level not in (0, 1, 2, 3) or isinstance(level, bool):
            self.fail("level", f"must be 0, 1, 2 or 3 (got {level!r})")
        typ = raw.get("type")
        if typ not in TYPES:
            self.fail("type", f"must be one of {', '.join(TYPES)} (got {typ!r})")
        colour = raw.get("colour", "none" if level == 0 else None)
        if level == 0:
            if colour != "none":
                self.fail("colour", f"a level-0 card has no colour: give none or leave it out (got {colour!r})")
        elif colour not in COLOURS + ("any",):
            self.fail("colour", f"must be one of {', '.join(COLOURS)}, any (got {colour!r})")
        cost = raw.get("cost")
        if not _whole(cost):
            self.fail("cost", f"must be a whole number from 0 (got {cost!r})")
        if level == 0 and cost != 0:
            self.fail("cost", f"a level-0 card costs 0 (got {cost!r})")
        points = raw.get("points")
        if not _whole(points):
            self.fail("points", f"must be a whole number from 0 (got {points!r})")
        out = {"id": cid, "level": level, "type": typ, "colour": colour, "cost": cost, "points": points,
               "trigger": L.TR_NONE, "mask": 0, "effect": L.EF_NONE, "n": 0,
               "up": (0, 0, 0, 0), "cv": ()}
        self._trigger(raw.get("trigger"), typ, out)
        self._effect(raw.get("effect"), typ, out)
        return out

    def _trigger(self, trig: Any, typ: str, out: dict) -> None:
        if typ in ("upgrade", "converter", "file"):
            if trig not in (None, "none"):
                self.fail("trigger", f"a {typ} card has no trigger (got {trig!r})")
            out["trigger"] = L.TR_ALWAYS if typ == "file" else L.TR_NONE
            return
        if typ == "build" and trig in ("level2", "archive"):
            out["trigger"] = L.TR_LEVEL2 if trig == "level2" else L.TR_ARCHIVE
            return
        allowed = "one or two colours" + (", level2 or archive" if typ == "build" else "")
        if not isinstance(trig, list) or not 1 <= len(trig) <= 2 or any(t not in COLOURS for t in trig) \
                or len(set(trig)) != len(trig):
            self.fail("trigger", f"must be {allowed} (got {trig!r})")
        out["trigger"] = L.TR_COLOURS
        out["mask"] = sum(1 << COLOURS.index(t) for t in trig)

    def _effect(self, eff: Any, typ: str, out: dict) -> None:
        if typ == "upgrade":
            if not isinstance(eff, dict) or set(eff) != {"upgrade"} or not isinstance(eff["upgrade"], dict):
                self.fail("effect", f"an upgrade's effect is {{upgrade: {{storage: N, archive: N, research: N, special: S}}}} (got {eff!r})")
            up = eff["upgrade"]
            for key in up:
                if key not in ("storage", "archive", "research", "special"):
                    self.fail("effect", f"unknown upgrade part {key!r} (storage, archive, research, special)")
            vals = []
            for key in ("storage", "archive", "research"):
                v = up.get(key, 0)
                if not _whole(v):
                    self.fail("effect", f"upgrade {key} must be a whole number from 0 (got {v!r})")
                vals.append(v)
            sp = up.get("special", "none")
            if sp != "none" and sp not in SPECIALS:
                self.fail("effect", f"upgrade special must be one of {', '.join(SPECIALS)} (got {sp!r})")
            spc = SPECIALS.get(sp, L.UP_NONE)
            if not any(vals) and spc == L.UP_NONE:
                self.fail("effect", "an upgrade must raise a limit or have a special")
            out["effect"] = L.EF_UPGRADE
            out["up"] = (*vals, spc)
            return
        if typ == "converter":
            opts = eff.get("convert") if isinstance(eff, dict) and set(eff) == {"convert"} else None
            if not isinstance(opts, list) or not 1 <= len(opts) <= 2:
                self.fail("effect", f"a converter's effect is {{convert: [one or two options]}} (got {eff!r})")
            parsed = []
            for o in opts:
                words = o.split() if isinstance(o, str) else []
                if words == ["any"]:
                    parsed.append((L.CV_ANY, 0))
                elif len(words) == 2 and words[0] in ("double", "wild", "wild2") and words[1] in COLOURS:
                    parsed.append((CONVERTERS[words[0]], COLOURS.index(words[1])))
                else:
                    self.fail("effect", f"converter option must be 'double X', 'wild X', 'wild2 X' or 'any' "
                                        f"with X one of {', '.join(COLOURS)} (got {o!r})")
            if len(parsed) == 2 and (parsed[0][0] != L.CV_DOUBLE or parsed[1][0] != L.CV_DOUBLE
                                     or parsed[0][1] == parsed[1][1]):
                self.fail("effect", "a two-option converter is 'double X' and 'double Y' with X and Y different")
            out["effect"] = L.EF_CONVERTER
            out["cv"] = tuple(parsed)
            return
        words = _WORD_EFFECTS.get(typ, {})
        numbers = _NUMBER_EFFECTS.get(typ, {})
        choices = ", ".join(list(words) + [f"{{{k}: N}}" for k in numbers])
        if isinstance(eff, str) and eff in words:
            out["effect"] = words[eff]
            return
        if isinstance(eff, dict) and len(eff) == 1:
            (key, n), = eff.items()
            if key in numbers:
                if not _whole(n, 1):
                    self.fail("effect", f"{key} takes a whole number from 1 (got {n!r})")
                if typ == "pick" and n != 1:
                    self.fail("effect", f"a pick machine draws 1 marble (got {n!r})")
                out["effect"] = numbers[key]
                out["n"] = n
                return
        self.fail("effect", f"a {typ} machine's effect is one of {choices} (got {eff!r})")


def _rules(where: str, raw: Any) -> dict:
    rules = {k: (dict(v) if isinstance(v, dict) else v) for k, v in RULE_DEFAULTS.items()}
    if raw is None:
        return rules
    if not isinstance(raw, dict):
        raise CardSetError(f"{where}: field 'rules': must be a mapping (got {raw!r})")
    for key, v in raw.items():
        if key not in RULE_DEFAULTS:
            raise CardSetError(f"{where}: field 'rules.{key}': unknown rule (rules: {', '.join(RULE_DEFAULTS)})")
        rules[key] = v
    m = rules["marbles"]
    if not isinstance(m, dict) or set(m) != set(COLOURS) or not all(_whole(m[c]) for c in COLOURS):
        raise CardSetError(f"{where}: field 'rules.marbles': must give a whole number from 0 for each of {', '.join(COLOURS)}")
    d = rules["display"]
    if not isinstance(d, list) or len(d) != 3 or not all(_whole(x, 1) and x <= L.MAX_DISPLAY for x in d):
        raise CardSetError(f"{where}: field 'rules.display': must be three numbers 1..{L.MAX_DISPLAY} (levels I, II, III)")
    for key, lo in (("row", 1), ("level3_keep", 0), ("storage", 0), ("archive", 0), ("research", 1),
                    ("end_built", 1), ("end_level3", 1), ("max_rounds", 1)):
        if not _whole(rules[key], lo):
            raise CardSetError(f"{where}: field 'rules.{key}': must be a whole number from {lo} (got {rules[key]!r})")
    return rules


def compile_card_set(data: Any, where: str = "<card set>", path: Path | None = None) -> CardSet:
    """Check a card-set mapping (the parsed file) and compile its table; CardSetError otherwise."""
    if not isinstance(data, dict):
        raise CardSetError(f"{where}: the card set must be a mapping of name, rules, cards")
    for key in data:
        if key not in ("name", "rules", "cards"):
            raise CardSetError(f"{where}: field {key!r}: unknown field (name, rules, cards)")
    name = data.get("name", "unnamed")
    if not isinstance(name, str):
        raise CardSetError(f"{where}: field 'name': must be a string (got {name!r})")
    rules = _rules(where, data.get("rules"))
    raw_cards = data.get("cards")
    if not isinstance(raw_cards, list) or not raw_cards:
        raise CardSetError(f"{where}: field 'cards': must be a non-empty list of cards")
    if len(raw_cards) > L.MAX_CARDS:
        raise CardSetError(f"{where}: field 'cards': at most {L.MAX_CARDS} cards (got {len(raw_cards)})")
    cards = [_Card(where, c, i).check() for i, c in enumerate(raw_cards)]
    seen: dict[str, int] = {}
    for c in cards:
        if c["id"] in seen:
            raise CardSetError(f"{where}: card {c['id']}: field 'id': listed twice")
        seen[c["id"]] = 1
    per_level = [sum(1 for c in cards if c["level"] == lv) for lv in range(4)]
    if per_level[0] < L.MAX_PLAYERS:
        raise CardSetError(f"{where}: field 'cards': needs {L.MAX_PLAYERS} level-0 starting cards (got {per_level[0]})")
    for lv in (1, 2, 3):
        if per_level[lv] > L.MAX_DECK:
            raise CardSetError(f"{where}: field 'cards': at most {L.MAX_DECK} level-{lv} cards (got {per_level[lv]})")
    arch = rules["archive"] + sum(c["up"][1] for c in cards)
    res = rules["research"] + sum(c["up"][2] for c in cards)
    if arch > L.MAX_ARCHIVE:
        raise CardSetError(f"{where}: field 'cards': base archive plus every archive upgrade is {arch}, above the engine's {L.MAX_ARCHIVE}")
    if res > L.MAX_RESEARCH:
        raise CardSetError(f"{where}: field 'cards': base research plus every research upgrade is {res}, above the engine's {L.MAX_RESEARCH}")
    T = np.zeros(L.T_SIZE, dtype=np.int64)
    T[L.T_N_CARDS] = len(cards)
    for k, col in enumerate(COLOURS):
        T[L.T_MARBLES + k] = rules["marbles"][col]
    T[L.T_ROW_SIZE] = rules["row"]
    T[L.T_DISPLAY:L.T_DISPLAY + 3] = rules["display"]
    T[L.T_L3_KEEP] = rules["level3_keep"]
    T[L.T_BASE_STORAGE] = rules["storage"]
    T[L.T_BASE_ARCHIVE] = rules["archive"]
    T[L.T_BASE_RESEARCH] = rules["research"]
    T[L.T_END_BUILT] = rules["end_built"]
    T[L.T_END_L3] = rules["end_level3"]
    T[L.T_MAX_ROUNDS] = rules["max_rounds"]
    for i, c in enumerate(cards):
        T[L.T_LEVEL + i] = c["level"]
        T[L.T_TYPE + i] = TYPES[c["type"]]
        T[L.T_COLOUR + i] = COLOUR_CODE[c["colour"]]
        T[L.T_COST + i] = c["cost"]
        T[L.T_POINTS + i] = c["points"]
        T[L.T_EFFECT + i] = c["effect"]
        T[L.T_EFF_N + i] = c["n"]
        T[L.T_TRIG + i] = c["trigger"]
        T[L.T_TRIG_MASK + i] = c["mask"]
        T[L.T_UP_STORAGE + i], T[L.T_UP_ARCHIVE + i], T[L.T_UP_RESEARCH + i], T[L.T_UP_SPECIAL + i] = c["up"]
        T[L.T_CV_N + i] = len(c["cv"])
        for k, (kind, col) in enumerate(c["cv"]):
            T[L.T_CV_KIND + 2 * i + k] = kind
            T[L.T_CV_COL + 2 * i + k] = col
    T.flags.writeable = False
    digest = hashlib.sha256(T.tobytes()).hexdigest()[:16]
    return CardSet(name, path, T, tuple(c["id"] for c in cards), tuple(cards), rules, digest)


@functools.lru_cache(maxsize=16)
def _load(path: Path, mtime: int) -> CardSet:
    where = display_path(path)
    return compile_card_set(read_yaml_mapping(path, CardSetError), where, path)


def load_card_set(path: str | Path | None = None) -> CardSet:
    """Load and validate a card-set file (None: the default set ``configs/gizmos/cards.yaml``)."""
    p = Path(DEFAULT_CARDS if path is None else path).resolve()
    try:
        mtime = p.stat().st_mtime_ns
    except OSError:
        raise CardSetError(f"{display_path(p)}: file not found") from None
    return _load(p, mtime)
