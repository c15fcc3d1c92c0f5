"""Load a card-set config (plus optional tech packs), validate it and compile the card table ``T``.

``load_card_set()`` reads ``configs/cards/base.yaml`` by default and returns a :class:`CardSet`
whose ``table`` is the int64 array of :mod:`electrify_env.engine.layout` (``T_*`` offsets) that the
jitted engine reads.  Every problem in a config raises :class:`CardSetError` with one message that
names the file, the card and the field, e.g.::

    configs/cards/x.yaml: production card P07: field 'cost': must be between 1 and 8 (got 12)

Face ids (layout.py): industry card ``c`` -> ``FACE_IND + c`` (production cards in file order, then
infrastructure, then tech-pack cards in load order); basic card ``b`` face ``f`` ->
``FACE_BASIC + 2*b + f``; sector ``s`` side ``k`` (0 = A, 1 = B) -> ``FACE_SECTOR + 2*s + k``.
"""
from __future__ import annotations

import functools
import hashlib
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np
import pydantic

from electrify_env.cards import schema as S
from electrify_env.paths import CONFIGS_DIR, DATA_ROOT
from electrify_env.yamlio import display_path, pydantic_error_text, read_yaml_mapping
from electrify_env.engine import layout as L

REPO_ROOT = DATA_ROOT      # file names in messages are relative to it (electrify_env.paths)
DEFAULT_CARDS_DIR = CONFIGS_DIR / "cards"
DEFAULT_CARD_SET = DEFAULT_CARDS_DIR / "base.yaml"

LEVEL_NAMES = ("I", "II", "III", "IV", "V", "VI", "VII")
_ACT_NAME = {code: name for name, code in S.ACT_CODE.items()}
_MULT_NAME = {code: name for name, code in S.MULT_CODE.items()}
_REWARD_NAME = {code: name for name, code in S.REWARD_CODE.items()}
_KIND_DECK = {"production": L.KIND_PRODUCTION, "infrastructure": L.KIND_INFRASTRUCTURE}


class CardSetError(ValueError):
    """A card-set or tech-pack config that cannot be loaded; the message names file, card and field."""


# ----------------------------------------------------------------------------------------------
# The loaded card set
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class CardSet:
    """A validated card set (base file plus tech packs) and its compiled card table.

    ``table`` is read-only; tuples stand where a list would be mutable, since loaded sets are cached
    and shared.
    """

    name: str                          # the set's ``name``
    paths: tuple[Path, ...]            # resolved files: the base set first, then each tech pack
    table: np.ndarray                  # int64, shape (layout.T_SIZE,), read-only
    face_names: tuple[str, ...]        # MAX_FACES entries, "" for unused faces
    card_ids: tuple[str, ...]          # YAML id of each industry card index
    demand_names: tuple[str, ...]      # YAML id of each demand card index
    sector_names: tuple[str, ...]      # the five sectors, R2 order
    column_names: tuple[str, ...]      # the seven columns, R1 order
    pack_names: tuple[str, ...]        # names of the loaded tech packs (pack k is pack_names[k-1])
    n_ind: int
    n_basic: int
    n_demand: int
    hash: str                          # sha256 of the canonical JSON of the validated models
    model: S.CardSetModel = field(repr=False)
    packs: tuple[S.TechPackModel, ...] = field(repr=False, default=())

    def __setstate__(self, state: dict) -> None:
        """Unpickling (``copy.deepcopy``, ``pickle``, worker processes) keeps the table read-only:
        a writable copy would make numba compile a second version of every engine function."""
        self.__dict__.update(state)
        self.table.flags.writeable = False

    @property
    def path(self) -> Path:
        """The base card-set file."""
        return self.paths[0]

    def describe_face(self, face_id: int) -> str:
        """Compact text of a face as the engine sees it (read back from ``table``).

        Example: ``"P12 Coal Plant (cost 3): produce Fossil Fuel x2, transmit; arrows left"``.
        """
        T = self.table
        if not 0 <= face_id < L.MAX_FACES or T[L.T_F_KIND + face_id] == L.KIND_NONE:
            raise ValueError(f"face {face_id} is not a face of card set {self.name!r}")
        icons = ", ".join(self.icon_text(face_id, i) for i in range(int(T[L.T_F_NICONS + face_id])))
        head = self.face_names[face_id]
        if T[L.T_F_KIND + face_id] != L.KIND_SECTOR:
            head += f" (cost {int(T[L.T_F_COST + face_id])})"
        arrows = [name for name, bit in S.ARROW_BIT.items() if T[L.T_F_ARROWS + face_id] & bit]
        return f"{head}: {icons}" + (f"; arrows {','.join(arrows)}" if arrows else "")

    def describe_demand(self, d: int) -> str:
        """Compact text of demand card ``d`` as the engine sees it (read back from ``table``).

        Example: ``"D3b (level III): requires 3 Natural Gas + 2 Geothermal; basic: 2 points,
        industry <=5; priority: 3 points, sector flip"``.
        """
        if not 0 <= d < self.n_demand:
            raise ValueError(f"demand card {d} is not in card set {self.name!r} (0..{self.n_demand - 1})")
        T = self.table
        req = []
        for j in range(L.MAX_REQ):
            col = int(T[L.T_D_REQ_COL + d * L.MAX_REQ + j])
            if col >= 0:
                req.append(f"{int(T[L.T_D_REQ_N + d * L.MAX_REQ + j])} {self.column_names[col]}")
        nb, npri = int(T[L.T_D_NREW + 2 * d]), int(T[L.T_D_NREW + 2 * d + 1])
        base = d * L.MAX_REWARDS
        rew = [self.reward_text(L.T_D_REW_KIND, L.T_D_REW_VAL, L.T_D_REW_ARG, base + j)
               for j in range(nb + npri)]
        level = LEVEL_NAMES[int(T[L.T_D_LEVEL + d])]
        return (f"{self.demand_names[d]} (level {level}): requires {' + '.join(req)}; "
                f"basic: {', '.join(rew[:nb]) or '-'}; priority: {', '.join(rew[nb:]) or '-'}")

    def describe_research(self) -> list[str]:
        """One line per research breakthrough space and group bonus, read back from ``table``."""
        T = self.table
        out = []
        for k in range(L.N_BT_SPACES):
            rew = [self.reward_text(L.T_BT_REW_KIND, L.T_BT_REW_VAL, L.T_BT_REW_ARG,
                                     k * L.MAX_BT_REWARDS + j) for j in range(int(T[L.T_BT_NREW + k]))]
            out.append(f"space {k} (group {int(T[L.T_BT_GROUP + k])}): {', '.join(rew) or 'blank'}")
        for g in range(L.N_BT_GROUPS):
            rew = [self.reward_text(L.T_G_REW_KIND, L.T_G_REW_VAL, L.T_G_REW_ARG,
                                     g * L.MAX_BT_REWARDS + j) for j in range(int(T[L.T_G_NREW + g]))]
            out.append(f"group {g} bonus: {', '.join(rew) or '-'}")
        return out

    def icon_text(self, face_id: int, i: int) -> str:
        """Plain words for icon ``i`` of face ``face_id`` (what it does and its arguments)."""
        T = self.table
        k = face_id * L.MAX_ICONS + i
        act, arg, arg2 = int(T[L.T_F_ICON_ACT + k]), int(T[L.T_F_ICON_ARG + k]), int(T[L.T_F_ICON_ARG2 + k])
        mk, mv = int(T[L.T_F_ICON_MK + k]), int(T[L.T_F_ICON_MV + k])
        if act == L.ACT_PRODUCE:
            text = "produce here" if arg == L.PRODUCE_HERE else f"produce {self.column_names[arg]}"
        elif act == L.ACT_ONGOING:
            return f"ongoing {_ACT_NAME[arg]} -> {_ACT_NAME[arg2]}"
        else:
            text = _ACT_NAME[act]
        if mk == L.MULT_SIMPLE:
            return text if mv == 1 else f"{text} x{mv}"
        return f"{text} x {_MULT_NAME[mk]}"

    def reward_text(self, kind_off: int, val_off: int, arg_off: int, k: int) -> str:
        """Plain words for reward ``k`` of a card table block (demand, breakthrough or group
        bonus), given the block's kind / value / argument offsets in :attr:`table`."""
        T = self.table
        kind, val, arg = int(T[kind_off + k]), int(T[val_off + k]), int(T[arg_off + k])
        if kind == L.RW_POINTS:
            return f"{val} point" + ("s" if val != 1 else "")
        if kind == L.RW_CLEAN:
            return f"{val} clean token" + ("s" if val != 1 else "")
        if kind == L.RW_INDUSTRY:
            return f"industry <={val}"
        if kind == L.RW_SECTOR:
            return "sector flip"
        return f"produce {val} {self.column_names[arg]}"


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------
def load_card_set(path: str | Path | None = None, tech_packs: Iterable[str | Path] = ()) -> CardSet:
    """Load, validate and compile a card set; cached, so equal arguments return the same object.

    ``path`` defaults to ``configs/cards/base.yaml`` of the repository.  ``tech_packs`` are pack
    files whose cards are appended, in order, to the industry decks (pack ``k`` gets
    ``T_IND_PACK == k``).  The cache key is the resolved paths plus each file's modification time and
    size, so an edited file is read again.  Raises :class:`CardSetError` on any problem.
    """
    files = [Path(path) if path is not None else DEFAULT_CARD_SET, *(Path(p) for p in tech_packs)]
    key = []
    for f in files:
        if "\x00" in str(f):   # os.path would raise a plain ValueError
            raise CardSetError(f"{_display(f)}: not a valid path (it holds a NUL byte)")
        resolved = f.resolve()
        try:
            st = resolved.stat()
        except OSError:
            raise CardSetError(f"{_display(f)}: file not found") from None
        key.append((resolved, st.st_mtime_ns, st.st_size))
    return _load_cached(tuple(key))


@functools.lru_cache(maxsize=32)
def _load_cached(key: tuple[tuple[Path, int, int], ...]) -> CardSet:
    """Build the card set of ``key`` (resolved path, mtime, size per file); see :func:`load_card_set`."""
    paths = tuple(k[0] for k in key)
    model = _validate(paths[0], S.CardSetModel, _read_yaml(paths[0], want_pack=False))
    packs = tuple(_validate(p, S.TechPackModel, _read_yaml(p, want_pack=True)) for p in paths[1:])
    _check_union(model, packs, paths)
    table, face_names, card_ids = _compile(model, packs)
    table.flags.writeable = False
    canonical = json.dumps([model.model_dump(mode="json"), *(p.model_dump(mode="json") for p in packs)],
                           sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return CardSet(
        name=model.name,
        paths=paths,
        table=table,
        face_names=tuple(face_names),
        card_ids=tuple(card_ids),
        demand_names=tuple(d.id for d in model.demand),
        sector_names=tuple(s.name for s in model.sectors),
        column_names=tuple(c.name for c in model.columns),
        pack_names=tuple(p.pack.name for p in packs),
        n_ind=len(card_ids),
        n_basic=len(model.basic),
        n_demand=len(model.demand),
        hash=hashlib.sha256(canonical.encode("ascii")).hexdigest(),
        model=model,
        packs=packs,
    )


def _display(path: Path) -> str:
    """The path as shown in messages: relative to the repository root when inside it, quoted
    (``repr``) when it holds a control character such as a newline, so a message stays one line."""
    text = display_path(path, REPO_ROOT)
    return text if text.isprintable() else repr(text)


def _read_yaml(path: Path, want_pack: bool) -> dict[str, Any]:
    """Parse one YAML file into a mapping, or raise :class:`CardSetError`.

    A tech-pack file (it has a ``pack:`` header) given as a card set, or the other way round, is
    refused with a message that says so.
    """
    data = read_yaml_mapping(path, CardSetError, _display)
    if want_pack and "pack" not in data:
        raise CardSetError(f"{_display(path)}: tech pack: field 'pack': is required "
                           f"(a tech-pack file starts with a 'pack: {{name: ...}}' header)")
    if not want_pack and "pack" in data:
        raise CardSetError(f"{_display(path)}: card set: field 'pack': this is a tech-pack file; "
                           f"load it through tech_packs on top of a card set")
    return data


def _validate(path: Path, model_cls: type[pydantic.BaseModel], raw: dict[str, Any]):
    """Validate ``raw`` against ``model_cls``; turn the first pydantic error into a CardSetError."""
    try:
        return model_cls.model_validate(raw)
    except pydantic.ValidationError as exc:
        errors = exc.errors()
        first = errors[0]
        loc, message = tuple(first["loc"]), _error_text(first)
        issue = first.get("ctx", {}).get("error")
        if isinstance(issue, S.ConfigIssue):
            loc += issue.loc
        more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
        raise CardSetError(_message(path, raw, loc, message, model_cls is S.TechPackModel) + more) from None


def _error_text(err: dict[str, Any]) -> str:
    """The human part of one pydantic error."""
    return pydantic_error_text(err)


def _message(path: Path, raw: dict[str, Any], loc: tuple, text: str, is_pack: bool) -> str:
    """``FILE: CARD: field 'FIELD': TEXT`` for an error at ``loc`` in the raw YAML data ``raw``."""
    where, rest = _locate(raw, loc, is_pack)
    fld = _field_text(rest)
    return f"{_display(path)}: {where}: " + (f"field '{fld}': " if fld else "") + text


def _raw_item(raw: Any, part: str, i: int) -> Any:
    """``raw[part][i]`` when it exists, else None."""
    seq = raw.get(part) if isinstance(raw, dict) else None
    return seq[i] if isinstance(seq, list) and 0 <= i < len(seq) else None


def _card_label(raw: Any, part: str, i: int) -> str:
    """The id of ``raw[part][i]`` or, lacking one, ``#i``."""
    item = _raw_item(raw, part, i)
    cid = item.get("id") if isinstance(item, dict) else None
    return str(cid) if isinstance(cid, (str, int)) and str(cid) else f"#{i}"


def _locate(raw: dict[str, Any], loc: tuple, is_pack: bool) -> tuple[str, tuple]:
    """Split an error location into the thing it names (a card, a sector side...) and the field."""
    if not loc:
        return ("tech pack" if is_pack else "card set"), ()
    head = loc[0]
    idx = loc[1] if len(loc) > 1 and isinstance(loc[1], int) else None
    if is_pack:
        if head == "cards" and idx is not None:
            return f"pack card {_card_label(raw, 'cards', idx)}", loc[2:]
        if head == "pack":
            return "pack header", loc[1:]
        return "tech pack", loc
    if idx is None:
        return "card set", loc
    if head in ("production", "infrastructure"):
        return f"{head} card {_card_label(raw, head, idx)}", loc[2:]
    if head == "basic":
        label = _card_label(raw, "basic", idx)
        if len(loc) > 3 and loc[2] == "faces" and isinstance(loc[3], int):
            return f"basic card {label} face {loc[3]}", loc[4:]
        return f"basic card {label}", loc[2:]
    if head == "demand":
        return f"demand {_card_label(raw, 'demand', idx)}", loc[2:]
    if head == "columns":
        item = _raw_item(raw, "columns", idx)
        name = item.get("name") if isinstance(item, dict) else None
        return f"column {idx}" + (f" {name!r}" if isinstance(name, str) else ""), loc[2:]
    if head == "sectors":
        item = _raw_item(raw, "sectors", idx)
        name = item.get("name") if isinstance(item, dict) else None
        label = f"sector {name!r}" if isinstance(name, str) else f"sector {idx}"
        if len(loc) > 2 and loc[2] in ("A", "B"):
            return f"{label} side {loc[2]}", loc[3:]
        return label, loc[2:]
    if head == "research":
        if len(loc) > 3 and loc[2] == "spaces" and isinstance(loc[3], int):
            return f"research group {idx} space {loc[3]}", ("rewards", *loc[4:])
        if len(loc) > 2 and loc[2] == "bonus":
            return f"research group {idx} bonus", ("rewards", *loc[3:])
        return f"research group {idx}", loc[2:]
    return "card set", loc


def _field_text(loc: Sequence) -> str:
    """Render a field path: ``icons[1].mult``, ``requires[7]``."""
    out = ""
    for part in loc:
        if part == "[key]":
            continue
        if isinstance(part, int):
            out += f"[{part}]"
        elif not str(part).isidentifier():
            out += f"[{part!r}]"
        else:
            out += ("." if out else "") + str(part)
    return out


# ----------------------------------------------------------------------------------------------
# Checks across files
# ----------------------------------------------------------------------------------------------
def _check_union(model: S.CardSetModel, packs: Sequence[S.TechPackModel], paths: Sequence[Path]) -> None:
    """Ids unique over the base set and every pack; the whole set fits the capacities of layout.py."""
    seen = {card.id: _display(paths[0]) for part in ("production", "infrastructure", "basic", "demand")
            for card in getattr(model, part)}
    deck_n = Counter({"production": len(model.production), "infrastructure": len(model.infrastructure)})
    n_ind = len(model.production) + len(model.infrastructure)
    for bad, cap, what in ((deck_n["production"], L.MAX_DECK, "MAX_DECK (production deck)"),
                           (deck_n["infrastructure"], L.MAX_DECK, "MAX_DECK (infrastructure deck)"),
                           (n_ind, L.MAX_IND, "MAX_IND (industry cards)"),
                           (len(model.basic), L.MAX_BASIC, "MAX_BASIC (basic cards)"),
                           (len(model.demand), L.MAX_DEMAND, "MAX_DEMAND (demand cards)")):
        if bad > cap:
            raise CardSetError(f"{_display(paths[0])}: card set: {bad} cards exceed the capacity "
                               f"{what} = {cap} of layout.py")
    for pack, path in zip(packs, paths[1:]):
        for card in pack.cards:
            where = f"{_display(path)}: pack card {card.id}"
            if card.id in seen:
                raise CardSetError(f"{where}: field 'id': duplicate id {card.id!r} (also in {seen[card.id]})")
            seen[card.id] = _display(path)
            deck_n[card.deck] += 1
            n_ind += 1
            if deck_n[card.deck] > L.MAX_DECK:
                raise CardSetError(f"{where}: field 'deck': the {card.deck} deck would hold "
                                   f"{deck_n[card.deck]} cards, over MAX_DECK = {L.MAX_DECK}")
            if n_ind > L.MAX_IND:
                raise CardSetError(f"{where}: field 'id': the set would hold {n_ind} industry cards, "
                                   f"over MAX_IND = {L.MAX_IND}")


# ----------------------------------------------------------------------------------------------
# Compiling the card table
# ----------------------------------------------------------------------------------------------
def _compile(model: S.CardSetModel, packs: Sequence[S.TechPackModel]) -> tuple[np.ndarray, list[str], list[str]]:
    """Write the validated models into a fresh card table ``T``; return it, face names and card ids."""
    T = np.zeros(L.T_SIZE, dtype=np.int64)
    face_names = [""] * L.MAX_FACES
    for c, col in enumerate(model.columns):
        T[L.T_COL_DEPOT + c] = col.depot
        T[L.T_COL_GRID + c] = col.grid
        T[L.T_COL_CLEAN + c] = col.clean
        T[L.T_COL_DIRTY + c] = col.dirty

    industry = [(card, "production", 0) for card in model.production]
    industry += [(card, "infrastructure", 0) for card in model.infrastructure]
    industry += [(card, card.deck, k) for k, pack in enumerate(packs, start=1) for card in pack.cards]
    for c, (card, deck, pack_k) in enumerate(industry):
        T[L.T_IND_DECK + c] = S.DECK_NAMES.index(deck)
        T[L.T_IND_PACK + c] = pack_k
        _write_face(T, L.FACE_IND + c, _KIND_DECK[deck], card.cost, card.icons, card.arrows)
        face_names[L.FACE_IND + c] = f"{card.id} {card.name}"
    for b, card in enumerate(model.basic):
        for f, face in enumerate(card.faces):
            _write_face(T, L.FACE_BASIC + 2 * b + f, L.KIND_BASIC, face.cost, face.icons, face.arrows)
            face_names[L.FACE_BASIC + 2 * b + f] = f"{card.id}{' ' + card.name if card.name else ''} face {f}"
    for s, sector in enumerate(model.sectors):
        for k, side in enumerate((sector.A, sector.B)):
            _write_face(T, L.FACE_SECTOR + 2 * s + k, L.KIND_SECTOR, 0, side.icons, [])
            face_names[L.FACE_SECTOR + 2 * s + k] = f"{sector.name} side {'AB'[k]}"
    T[L.T_N_IND] = len(industry)
    T[L.T_N_BASIC] = len(model.basic)
    T[L.T_N_DEMAND] = len(model.demand)

    T[L.T_D_REQ_COL:L.T_D_REQ_COL + L.MAX_DEMAND * L.MAX_REQ] = -1
    for d, card in enumerate(model.demand):
        T[L.T_D_LEVEL + d] = card.level - 1
        for j, col in enumerate(sorted(card.requires)):
            T[L.T_D_REQ_COL + d * L.MAX_REQ + j] = col
            T[L.T_D_REQ_N + d * L.MAX_REQ + j] = card.requires[col]
        T[L.T_D_NREW + 2 * d] = len(card.basic)
        T[L.T_D_NREW + 2 * d + 1] = len(card.priority)
        _write_rewards(T, L.T_D_REW_KIND, L.T_D_REW_VAL, L.T_D_REW_ARG, d * L.MAX_REWARDS,
                       [*card.basic, *card.priority])

    k = 0
    for g, group in enumerate(model.research):
        for space in group.spaces:
            T[L.T_BT_GROUP + k] = g
            T[L.T_BT_NREW + k] = len(space)
            _write_rewards(T, L.T_BT_REW_KIND, L.T_BT_REW_VAL, L.T_BT_REW_ARG, k * L.MAX_BT_REWARDS, space)
            k += 1
        T[L.T_G_NREW + g] = len(group.bonus)
        _write_rewards(T, L.T_G_REW_KIND, L.T_G_REW_VAL, L.T_G_REW_ARG, g * L.MAX_BT_REWARDS, group.bonus)
    return T, face_names, [card.id for card, _, _ in industry]


def _write_face(T: np.ndarray, face: int, kind: int, cost: int, icons: Sequence[S.Icon],
                arrows: Sequence[str]) -> None:
    """Write one face: kind, cost, arrow bits and its icons."""
    T[L.T_F_KIND + face] = kind
    T[L.T_F_COST + face] = cost
    T[L.T_F_ARROWS + face] = sum(S.ARROW_BIT[a] for a in arrows)
    T[L.T_F_NICONS + face] = len(icons)
    for i, icon in enumerate(icons):
        k = face * L.MAX_ICONS + i
        T[L.T_F_ICON_ACT + k] = S.ACT_CODE[icon.action]
        if icon.action == "produce":
            T[L.T_F_ICON_ARG + k] = L.PRODUCE_HERE if icon.column == "here" else icon.column
        elif icon.action == "ongoing":
            T[L.T_F_ICON_ARG + k] = S.ACT_CODE[icon.left]
            T[L.T_F_ICON_ARG2 + k] = S.ACT_CODE[icon.right]
        if isinstance(icon.mult, int):
            T[L.T_F_ICON_MK + k] = L.MULT_SIMPLE
            T[L.T_F_ICON_MV + k] = icon.mult
        else:
            T[L.T_F_ICON_MK + k] = S.MULT_CODE[icon.mult]


def _write_rewards(T: np.ndarray, kind_off: int, val_off: int, arg_off: int, base: int,
                   rewards: Sequence[S.Reward]) -> None:
    """Write rewards at ``base + j``: kind code, value, argument (the column of a produce reward)."""
    for j, r in enumerate(rewards):
        T[kind_off + base + j] = S.REWARD_CODE[r.kind]
        T[val_off + base + j] = r.value
        T[arg_off + base + j] = r.column if r.column is not None else 0


# ----------------------------------------------------------------------------------------------
# Summary (the `electrify cards validate PATH` command)
# ----------------------------------------------------------------------------------------------
def card_set_stats(cs: CardSet) -> dict[str, Any]:
    """Counts over the compiled table: kinds, costs, icons, multipliers, arrows, demand per level."""
    T = cs.table
    kinds = Counter(int(T[L.T_F_KIND + f]) for f in range(L.MAX_FACES))
    ind_faces = range(L.FACE_IND, L.FACE_IND + cs.n_ind)
    basic_faces = range(L.FACE_BASIC, L.FACE_BASIC + 2 * cs.n_basic)
    sector_faces = range(L.FACE_SECTOR, L.FACE_SECTOR + 2 * L.N_SECTORS)
    icons: Counter = Counter()
    produce: Counter = Counter()
    mults: Counter = Counter()
    for f in (*ind_faces, *basic_faces, *sector_faces):
        for i in range(int(T[L.T_F_NICONS + f])):
            k = f * L.MAX_ICONS + i
            act, mk = int(T[L.T_F_ICON_ACT + k]), int(T[L.T_F_ICON_MK + k])
            icons[_ACT_NAME[act]] += 1
            if act == L.ACT_PRODUCE:
                arg = int(T[L.T_F_ICON_ARG + k])
                produce["here" if arg == L.PRODUCE_HERE else cs.column_names[arg]] += 1
            mults["simple" if mk == L.MULT_SIMPLE else _MULT_NAME[mk]] += 1
    arrows: Counter = Counter()
    for f in (*ind_faces, *basic_faces):
        bits = int(T[L.T_F_ARROWS + f])
        for name, bit in S.ARROW_BIT.items():
            arrows[name] += bool(bits & bit)
        arrows["faces with two or more"] += bin(bits).count("1") >= 2
    per_level: Counter = Counter()
    cubes: dict[int, list[int]] = {}
    demand_rewards: Counter = Counter()
    for d in range(cs.n_demand):
        lvl = int(T[L.T_D_LEVEL + d])
        per_level[lvl] += 1
        cubes.setdefault(lvl, []).append(int(T[L.T_D_REQ_N + d * L.MAX_REQ:L.T_D_REQ_N + (d + 1) * L.MAX_REQ].sum()))
        n = int(T[L.T_D_NREW + 2 * d] + T[L.T_D_NREW + 2 * d + 1])
        for j in range(n):
            demand_rewards[_REWARD_NAME[int(T[L.T_D_REW_KIND + d * L.MAX_REWARDS + j])]] += 1
    return {
        "faces": {"production": kinds[L.KIND_PRODUCTION], "infrastructure": kinds[L.KIND_INFRASTRUCTURE],
                  "basic": kinds[L.KIND_BASIC], "sector": kinds[L.KIND_SECTOR]},
        "industry_costs": Counter(int(T[L.T_F_COST + f]) for f in ind_faces),
        "basic_costs": Counter(int(T[L.T_F_COST + f]) for f in basic_faces),
        "icons": icons,
        "produce": produce,
        "mults": mults,
        "arrows": arrows,
        "demand_per_level": per_level,
        "demand_mean_cubes": {lvl: sum(v) / len(v) for lvl, v in sorted(cubes.items())},
        "demand_rewards": demand_rewards,
        "blank_spaces": int(sum(T[L.T_BT_NREW + k] == 0 for k in range(L.N_BT_SPACES))),
    }


def validate_summary(path: str | Path | None = None, tech_packs: Iterable[str | Path] = ()) -> str:
    """Load ``path`` (and packs) and return a multi-line summary; raises :class:`CardSetError`."""
    cs = load_card_set(path, tech_packs)
    st = card_set_stats(cs)

    def hist(counter: Counter) -> str:
        return " ".join(f"{k}:{counter[k]}" for k in sorted(counter))

    def counts(counter: Counter, order: Iterable[str]) -> str:
        return ", ".join(f"{k} {counter[k]}" for k in order if counter[k])

    cols = "; ".join(f"{c.name} depot {c.depot} grid {c.grid} clean {c.clean} dirty {c.dirty}"
                     for c in cs.model.columns)
    f = st["faces"]
    lines = [
        f"card set {cs.name!r}: " + ", ".join(_display(p) for p in cs.paths),
        f"  tech packs: {', '.join(cs.pack_names) or 'none'}",
        f"  industry cards: {cs.n_ind} (production {f['production']}, infrastructure {f['infrastructure']}); "
        f"basic cards: {cs.n_basic} ({f['basic']} faces); demand cards: {cs.n_demand}; "
        f"sector faces: {f['sector']}; research spaces: {L.N_BT_SPACES} ({st['blank_spaces']} blank)",
        f"  industry costs: {hist(st['industry_costs'])}",
        f"  basic face costs: {hist(st['basic_costs'])}",
        f"  icons: {counts(st['icons'], S.ACTION_NAMES)}",
        f"  produce columns: {counts(st['produce'], (*cs.column_names, 'here'))}",
        f"  multipliers: {counts(st['mults'], ('simple', *S.MULT_NAMES))}",
        f"  arrows: {counts(st['arrows'], (*S.ARROW_NAMES, 'faces with two or more'))}",
        "  demand per level: " + " ".join(f"{LEVEL_NAMES[k]}:{st['demand_per_level'][k]}"
                                          for k in sorted(st["demand_per_level"])),
        "  mean cubes per level: " + " ".join(f"{LEVEL_NAMES[k]}:{v:.2f}"
                                              for k, v in st["demand_mean_cubes"].items()),
        f"  demand rewards: {counts(st['demand_rewards'], S.REWARD_NAMES)}",
        f"  columns: {cols}",
        f"  hash: {cs.hash}",
    ]
    return "\n".join(lines)
