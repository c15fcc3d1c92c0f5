"""Pydantic models of a card-set config (``configs/cards/*.yaml``) and of a tech-pack file.

The models check everything one card, one column or one research group can check on its own
(types, ranges, which fields an icon or reward may carry) and, on :class:`CardSetModel`, the rules
of a whole set (exact counts of R3, the sector order of R2, non-decreasing tracks of R1, unique
ids, plan icons only on Business Operations).  ``configs/cards/README.md`` documents every field.

A check that fails raises :class:`ConfigIssue`, a ``ValueError`` that carries the location of the
offending field *relative to the model that raised it*; :mod:`electrify_env.cards.loader` joins it
to pydantic's error location and turns the whole into one message naming file, card and field.
"""
from __future__ import annotations

from collections import Counter
from typing import Annotated, Literal, Union

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainValidator, model_validator

from electrify_env.engine import layout as L

# ----------------------------------------------------------------------------------------------
# Vocabulary
# ----------------------------------------------------------------------------------------------
ACTION_NAMES = ("produce", "develop", "transmit", "research", "invest", "plan", "ongoing")
ONGOING_SIDE_NAMES = ("develop", "transmit", "research", "invest")
MULT_NAMES = ("clean", "dirty", "sectors", "discard")
ARROW_NAMES = ("left", "up", "down")
REWARD_NAMES = ("points", "clean", "industry", "sector", "produce")
DEMAND_REWARD_NAMES = ("points", "clean", "industry", "sector")  # R16
DECK_NAMES = ("production", "infrastructure")

ACT_CODE = {
    "produce": L.ACT_PRODUCE, "develop": L.ACT_DEVELOP, "transmit": L.ACT_TRANSMIT,
    "research": L.ACT_RESEARCH, "invest": L.ACT_INVEST, "plan": L.ACT_PLAN,
    "ongoing": L.ACT_ONGOING,
}
MULT_CODE = {"clean": L.MULT_CLEAN, "dirty": L.MULT_DIRTY, "sectors": L.MULT_SECTORS,
             "discard": L.MULT_DISCARD}
ARROW_BIT = {"left": L.ARROW_LEFT, "up": L.ARROW_UP, "down": L.ARROW_DOWN}
REWARD_CODE = {"points": L.RW_POINTS, "clean": L.RW_CLEAN, "industry": L.RW_INDUSTRY,
               "sector": L.RW_SECTOR, "produce": L.RW_PRODUCE}

SECTOR_NAMES = ("Energy Production", "Transmission", "Research & Development", "Investments",
                "Business Operations")
PLAN_SECTOR = "Business Operations"   # the only sector whose faces may print a plan icon

# Exact counts of a card set (R3).  They are not configurable: every set must meet them.
N_PRODUCTION = 52
N_INFRASTRUCTURE = 52
N_BASIC_CARDS = 24
N_DEMAND_CARDS = 28
DEMAND_PER_LEVEL = 4
RESEARCH_GROUP_SIZES = (3, 3, 3, 3, 2)

# Value ranges.
MIN_COST, MAX_COST = 1, 8
MAX_SIMPLE_MULT = 9
MAX_TRACK_VALUE = 9
MAX_CUBES_REQUIRED = 20
MAX_POINTS_REWARD = 30
MAX_CLEAN_REWARD = 3
MIN_INDUSTRY_REWARD, MAX_INDUSTRY_REWARD = 2, 8
MAX_PRODUCE_REWARD = 9

assert len(RESEARCH_GROUP_SIZES) == L.N_BT_GROUPS and sum(RESEARCH_GROUP_SIZES) == L.N_BT_SPACES
assert len(SECTOR_NAMES) == L.N_SECTORS


class ConfigIssue(ValueError):
    """A validation failure at ``loc`` (a path of keys and indexes below the raising model)."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc = tuple(loc)
        self.message = message


def _between(lo: int, hi: int):
    """An after-validator: the int must lie in ``lo..hi``."""

    def check(v: int) -> int:
        if not lo <= v <= hi:
            raise ValueError(f"must be between {lo} and {hi} (got {v})")
        return v

    return AfterValidator(check)


def _int(v: object, what: str) -> int:
    """Return ``v`` if it is a real int (YAML ``3``), else raise; bools and floats are refused."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"must be {what} (got {v!r})")
    return v


def _parse_mult(v: object) -> int | str:
    """Multiplier: an int ``1..9`` (simple) or one of ``clean, dirty, sectors, discard``."""
    what = f"an integer 1..{MAX_SIMPLE_MULT} or one of {', '.join(MULT_NAMES)}"
    if isinstance(v, str):
        if v in MULT_NAMES:
            return v
        raise ValueError(f"must be {what} (got {v!r})")
    n = _int(v, what)
    if not 1 <= n <= MAX_SIMPLE_MULT:
        raise ValueError(f"must be {what} (got {n})")
    return n


def _parse_column(v: object) -> int | str | None:
    """Produce column: an int ``0..6`` or ``"here"`` (the column the icon's sector stands in)."""
    if v is None:
        return None
    what = f"a column 0..{L.N_COLS - 1} or 'here'"
    if isinstance(v, str):
        if v == "here":
            return v
        raise ValueError(f"must be {what} (got {v!r})")
    n = _int(v, what)
    if not 0 <= n < L.N_COLS:
        raise ValueError(f"must be {what} (got {n})")
    return n


Count = Annotated[int, Field(strict=True)]
Mult = Annotated[Union[int, str], PlainValidator(_parse_mult)]
ColumnRef = Annotated[Union[int, str, None], PlainValidator(_parse_column)]
Name = Annotated[str, Field(min_length=1)]
Id = Annotated[str, Field(min_length=1, max_length=24, pattern=r"^\S+$")]


class _Model(BaseModel):
    """Common config: strict types, unknown keys refused, immutable."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


# ----------------------------------------------------------------------------------------------
# Icons and rewards
# ----------------------------------------------------------------------------------------------
class Icon(_Model):
    """One action icon: ``{action, column (produce only), mult, left/right (ongoing only)}``."""

    action: Literal[ACTION_NAMES]
    column: ColumnRef = None
    mult: Mult = 1
    left: Literal[ONGOING_SIDE_NAMES] | None = None
    right: Literal[ONGOING_SIDE_NAMES] | None = None

    @model_validator(mode="after")
    def _fields_fit_action(self) -> "Icon":
        if self.action == "produce" and self.column is None:
            raise ConfigIssue(("column",), "a produce icon needs a column (0..6 or 'here')")
        if self.action != "produce" and self.column is not None:
            raise ConfigIssue(("column",), f"only produce icons take a column "
                                           f"(got {self.column!r} on {self.action})")
        if self.action == "ongoing":
            for side in ("left", "right"):
                if getattr(self, side) is None:
                    raise ConfigIssue((side,), "an ongoing icon needs a left and a right action")
            if self.mult != 1:
                raise ConfigIssue(("mult",), f"an ongoing icon takes no multiplier (got {self.mult!r})")
        else:
            for side in ("left", "right"):
                if getattr(self, side) is not None:
                    raise ConfigIssue((side,), f"only ongoing icons take '{side}' (got it on {self.action})")
        return self


Icons = Annotated[list[Icon], Field(min_length=1, max_length=L.MAX_ICONS)]
Arrows = list[Literal[ARROW_NAMES]]


def _check_card_face(icons: list[Icon], arrows: list[str]) -> None:
    """Rules of a card face (industry or basic): no arrow twice, no plan icon."""
    for i, a in enumerate(arrows):
        if a in arrows[:i]:
            raise ConfigIssue(("arrows", i), f"arrow {a!r} is listed twice")
    for i, icon in enumerate(icons):
        if icon.action == "plan":
            raise ConfigIssue(("icons", i, "action"),
                              f"plan icons appear only on the {PLAN_SECTOR} sector, not on cards")


class Reward(_Model):
    """A reward: ``{kind, value, column (produce only)}``."""

    kind: Literal[REWARD_NAMES]
    value: Count = 1
    column: Annotated[int, Field(strict=True)] | None = None

    @model_validator(mode="after")
    def _value_fits_kind(self) -> "Reward":
        lo, hi = {
            "points": (1, MAX_POINTS_REWARD),
            "clean": (1, MAX_CLEAN_REWARD),
            "industry": (MIN_INDUSTRY_REWARD, MAX_INDUSTRY_REWARD),
            "sector": (1, 1),
            "produce": (1, MAX_PRODUCE_REWARD),
        }[self.kind]
        if not lo <= self.value <= hi:
            rng = f"must be {lo}" if lo == hi else f"must be between {lo} and {hi}"
            raise ConfigIssue(("value",), f"{rng} for {self.kind} rewards (got {self.value})")
        if self.kind == "produce":
            if self.column is None:
                raise ConfigIssue(("column",), "a produce reward needs a column 0..6")
            if not 0 <= self.column < L.N_COLS:
                raise ConfigIssue(("column",), f"must be between 0 and {L.N_COLS - 1} (got {self.column})")
        elif self.column is not None:
            raise ConfigIssue(("column",), f"only produce rewards take a column (got it on {self.kind})")
        return self


# ----------------------------------------------------------------------------------------------
# Cards
# ----------------------------------------------------------------------------------------------
class IndustryCard(_Model):
    """A production or infrastructure card: ``{id, name, cost, icons, arrows, deck?}``.

    ``deck`` is implied by the list a base card stands in (and must match it if given); a tech-pack
    card must name it.
    """

    id: Id
    name: Name
    cost: Annotated[int, Field(strict=True), _between(MIN_COST, MAX_COST)]
    icons: Icons
    arrows: Arrows = []
    deck: Literal[DECK_NAMES] | None = None

    @model_validator(mode="after")
    def _card_rules(self) -> "IndustryCard":
        _check_card_face(self.icons, self.arrows)
        return self


class BasicFace(_Model):
    """One face of a basic card: ``{cost, icons, arrows}``."""

    cost: Annotated[int, Field(strict=True), _between(MIN_COST, MAX_COST)]
    icons: Icons
    arrows: Arrows = []

    @model_validator(mode="after")
    def _face_rules(self) -> "BasicFace":
        _check_card_face(self.icons, self.arrows)
        return self


class BasicCard(_Model):
    """A double-sided basic card: ``{id, name?, faces: [face0, face1]}``; a buyer picks a face."""

    id: Id
    name: str = ""
    faces: Annotated[list[BasicFace], Field(min_length=2, max_length=2)]


class SectorFace(_Model):
    """One side of a sector tile: icons only (no cost, no arrows)."""

    icons: Icons


class Sector(_Model):
    """A sector tile: ``{name, A, B}``."""

    name: Name
    A: SectorFace
    B: SectorFace


class Column(_Model):
    """One column's numbers (R1): depot purchase value, grid research value, clean and dirty track."""

    name: Name
    depot: Annotated[int, Field(strict=True), _between(1, MAX_TRACK_VALUE)]
    grid: Annotated[int, Field(strict=True), _between(0, MAX_TRACK_VALUE)]
    clean: Annotated[int, Field(strict=True), _between(0, MAX_TRACK_VALUE)]
    dirty: Annotated[int, Field(strict=True), _between(0, MAX_TRACK_VALUE)]


DemandRewards = Annotated[list[Reward], Field(max_length=L.MAX_DEMAND_REWARDS)]


class DemandCard(_Model):
    """A demand card: ``{id, level 1..7, requires {column: count}, basic [...], priority [...]}``."""

    id: Id
    level: Annotated[int, Field(strict=True), _between(1, L.N_LEVELS)]
    requires: dict[int, int]
    basic: DemandRewards = []
    priority: DemandRewards = []

    @model_validator(mode="after")
    def _demand_rules(self) -> "DemandCard":
        if not 1 <= len(self.requires) <= L.MAX_REQ:
            raise ConfigIssue(("requires",), f"must name between 1 and {L.MAX_REQ} columns "
                                             f"(got {len(self.requires)})")
        for col, n in self.requires.items():
            if not 0 <= col < L.N_COLS:
                raise ConfigIssue(("requires", col), f"column must be between 0 and {L.N_COLS - 1} (got {col})")
            if not 1 <= n <= MAX_CUBES_REQUIRED:
                raise ConfigIssue(("requires", col), f"count must be between 1 and {MAX_CUBES_REQUIRED} (got {n})")
        for part in ("basic", "priority"):
            for j, r in enumerate(getattr(self, part)):
                if r.kind not in DEMAND_REWARD_NAMES:
                    raise ConfigIssue((part, j, "kind"), f"demand rewards are one of "
                                      f"{', '.join(DEMAND_REWARD_NAMES)} (got {r.kind!r})")
        if not self.basic and not self.priority:
            raise ConfigIssue(("basic",), "a demand card needs at least one reward")
        return self


BtRewards = Annotated[list[Reward], Field(max_length=L.MAX_BT_REWARDS)]


class ResearchGroup(_Model):
    """A research breakthrough group: ``{spaces: [[rewards], ...], bonus: [rewards]}``; ``[]`` = blank."""

    spaces: Annotated[list[BtRewards], Field(min_length=1)]
    bonus: BtRewards = []


# ----------------------------------------------------------------------------------------------
# Files
# ----------------------------------------------------------------------------------------------
class CardSetModel(_Model):
    """A whole card-set file (one YAML document)."""

    name: Name
    columns: list[Column]
    sectors: list[Sector]
    production: list[IndustryCard]
    infrastructure: list[IndustryCard]
    basic: list[BasicCard]
    demand: list[DemandCard]
    research: list[ResearchGroup]

    @model_validator(mode="after")
    def _set_rules(self) -> "CardSetModel":
        self._check_columns()
        self._check_sectors()
        for deck in DECK_NAMES:
            cards = getattr(self, deck)
            want = N_PRODUCTION if deck == "production" else N_INFRASTRUCTURE
            if len(cards) != want:
                raise ConfigIssue((deck,), f"must hold exactly {want} cards (got {len(cards)})")
            for i, card in enumerate(cards):
                if card.deck is not None and card.deck != deck:
                    raise ConfigIssue((deck, i, "deck"), f"says {card.deck!r} but stands in the {deck} list")
        if len(self.basic) != N_BASIC_CARDS:
            raise ConfigIssue(("basic",), f"must hold exactly {N_BASIC_CARDS} cards (got {len(self.basic)})")
        self._check_demand()
        self._check_research()
        self._check_ids()
        return self

    def _check_columns(self) -> None:
        if len(self.columns) != L.N_COLS:
            raise ConfigIssue(("columns",), f"must list exactly {L.N_COLS} columns, Fossil Fuel .. Solar "
                                            f"(got {len(self.columns)})")
        for track in ("clean", "dirty"):
            for c in range(1, L.N_COLS):
                prev, cur = getattr(self.columns[c - 1], track), getattr(self.columns[c], track)
                if cur < prev:
                    raise ConfigIssue(("columns", c, track), f"the {track} track must be non-decreasing "
                                      f"left to right (got {cur} after {prev})")

    def _check_sectors(self) -> None:
        if len(self.sectors) != L.N_SECTORS:
            raise ConfigIssue(("sectors",), f"must list exactly {L.N_SECTORS} sectors (got {len(self.sectors)})")
        for s, (sector, want) in enumerate(zip(self.sectors, SECTOR_NAMES)):
            if sector.name != want:
                raise ConfigIssue(("sectors", s, "name"), f"sector {s} must be {want!r} (R2 order: "
                                  f"{', '.join(SECTOR_NAMES)}) (got {sector.name!r})")
            if sector.name == PLAN_SECTOR:
                continue
            for side in ("A", "B"):
                for i, icon in enumerate(getattr(sector, side).icons):
                    if icon.action == "plan":
                        raise ConfigIssue(("sectors", s, side, "icons", i, "action"),
                                          f"plan icons appear only on the {PLAN_SECTOR} sector")

    def _check_demand(self) -> None:
        if len(self.demand) != N_DEMAND_CARDS:
            raise ConfigIssue(("demand",), f"must hold exactly {N_DEMAND_CARDS} cards (got {len(self.demand)})")
        per_level = Counter(d.level for d in self.demand)
        for level in range(1, L.N_LEVELS + 1):
            if per_level[level] != DEMAND_PER_LEVEL:
                raise ConfigIssue(("demand",), f"level {level} must have exactly {DEMAND_PER_LEVEL} "
                                  f"cards (got {per_level[level]})")

    def _check_research(self) -> None:
        sizes = tuple(len(g.spaces) for g in self.research)
        if sizes != RESEARCH_GROUP_SIZES:
            raise ConfigIssue(("research",), f"groups must have {list(RESEARCH_GROUP_SIZES)} spaces "
                                             f"(got {list(sizes)})")

    def _check_ids(self) -> None:
        seen: dict[str, str] = {}
        for part in ("production", "infrastructure", "basic", "demand"):
            for i, card in enumerate(getattr(self, part)):
                if card.id in seen:
                    raise ConfigIssue((part, i, "id"), f"duplicate id {card.id!r} (also in {seen[card.id]})")
                seen[card.id] = f"the {part} list, position {i + 1}"


class PackHeader(_Model):
    """The ``pack:`` header of a tech-pack file."""

    name: Name


class PackCard(IndustryCard):
    """A tech-pack card: an industry card that names its ``deck``."""

    deck: Literal[DECK_NAMES]


class TechPackModel(_Model):
    """A tech-pack file: ``{pack: {name}, cards: [...]}``, cards appended to the industry decks."""

    pack: PackHeader
    cards: Annotated[list[PackCard], Field(min_length=1)]

    @model_validator(mode="after")
    def _pack_rules(self) -> "TechPackModel":
        seen: dict[str, int] = {}
        for i, card in enumerate(self.cards):
            if card.id in seen:
                raise ConfigIssue(("cards", i, "id"), f"duplicate id {card.id!r} "
                                                      f"(also in the cards list, position {seen[card.id] + 1})")
            seen[card.id] = i
        return self
