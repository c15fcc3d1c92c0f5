"""Solo scenarios as data: the YAML schema, the loader and the compiled scenario table ``SC``.

Solo play (rulebook "Solo Mode", rulings R20-R23 of ``docs/rules.md``) is scenario based.  Each scenario is one file in
``configs/scenarios/`` (the file stem is its id); ``configs/scenarios/README.md`` documents every
field, the challenge vocabulary and the design of the shipped scenarios.

>>> from electrify_env.scenarios import list_scenarios, load_scenario
>>> list_scenarios()[0]
'first_light'
>>> sc = load_scenario("first_light")          # or a path to a YAML file
>>> sc.table.shape                             # (layout.SC_SIZE,), int64, read-only

Every problem in a file raises :class:`ScenarioError` with one message that names the file, the item
and the field, e.g.::

    configs/scenarios/x.yaml: challenge 2: field 'n': is required for condition 'cards_on_sector'
    configs/scenarios/x.yaml: stars[3]: field 'X': R+6 can reach round 13 (R can be level VII); ...

The table is written only through the ``SC_*`` offsets of :mod:`electrify_env.engine.layout`.
"""
from __future__ import annotations

import functools
import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Union

import numpy as np
import pydantic
from pydantic import BaseModel, ConfigDict, Field, PlainValidator, model_validator

from electrify_env.paths import CONFIGS_DIR, DATA_ROOT
from electrify_env.yamlio import display_path, pydantic_error_text, read_yaml_mapping
from electrify_env.engine import layout as L

REPO_ROOT = DATA_ROOT      # file names in messages are relative to it (electrify_env.paths)
SCENARIOS_DIR = CONFIGS_DIR / "scenarios"

LEVEL_NAMES = ("I", "II", "III", "IV", "V", "VI", "VII")
MIN_GEARS, MAX_GEARS = 1, 4
MAX_TARGET = 200            # energy points a scenario may ask for
MAX_STAR_POINTS = 100       # energy points one entry of a star table may give
MIN_STAR_ROUND = 2          # a star above round 1 would be lost before the first action
MAX_GRID_CUBES = 20         # largest n of grid_cubes
MAX_CLEAN_TOKENS = 20       # the box holds 20 clean breakthrough tokens
MAX_POINTS_CHALLENGE = 200  # largest n of points
RANDOM_LEVEL = "R"
_RPLUS = re.compile(r"^R\+(-?\d+)$")


class ScenarioError(ValueError):
    """A scenario that cannot be loaded; the message names the file, the item and the field."""


class _Issue(ValueError):
    """A validation failure at ``loc`` (keys and indexes below the model that raised it)."""

    def __init__(self, loc: tuple[str | int, ...], message: str) -> None:
        super().__init__(message)
        self.loc = tuple(loc)
        self.message = message


# ----------------------------------------------------------------------------------------------
# The challenge vocabulary (R23)
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Param:
    """One parameter of a challenge condition: its YAML key, its range and whether "any" is allowed.

    ``offset`` is subtracted before the value goes into the table (levels and groups are written
    1-based in YAML and stored 0-based); ``any`` is stored as -1.
    """

    key: str
    lo: int
    hi: int
    any_ok: bool = False
    offset: int = 0

    def what(self) -> str:
        """The allowed values in words, for error messages."""
        return f"an integer {self.lo}..{self.hi}" + (" or 'any'" if self.any_ok else "")

    def encode(self, v: int | str) -> int:
        """The table value of a validated parameter value."""
        return -1 if v == "any" else int(v) - self.offset


@dataclass(frozen=True)
class _Condition:
    """A challenge condition: its ``CH_*`` code, the parameter stored in ``SC_CH_A`` and in ``SC_CH_B``."""

    code: int
    a: _Param
    b: _Param | None = None

    @property
    def params(self) -> tuple[_Param, ...]:
        """The parameters, ``a`` first."""
        return (self.a,) if self.b is None else (self.a, self.b)


CONDITIONS: dict[str, _Condition] = {
    "cards_on_sector": _Condition(L.CH_CARDS_ON_SECTOR, _Param("n", 1, L.MAX_SLOTS)),
    "grid_cubes": _Condition(L.CH_GRID_CUBES, _Param("n", 1, MAX_GRID_CUBES),
                             _Param("column", 0, L.N_COLS - 1, any_ok=True)),
    "demands_in_round": _Condition(L.CH_DEMANDS_IN_ROUND, _Param("n", 1, L.N_LEVELS)),
    "group_complete": _Condition(L.CH_GROUP_COMPLETE,
                                 _Param("group", 1, L.N_BT_GROUPS, any_ok=True, offset=1)),
    "sector_in_column": _Condition(L.CH_SECTOR_IN_COLUMN, _Param("column", 0, L.N_COLS - 1)),
    "side_b": _Condition(L.CH_SIDE_B, _Param("n", 1, L.N_SECTORS)),
    "clean_tokens": _Condition(L.CH_CLEAN_TOKENS, _Param("n", 1, MAX_CLEAN_TOKENS)),
    "fulfilled": _Condition(L.CH_FULFILLED, _Param("n", 1, L.N_LEVELS)),
    "breakthroughs": _Condition(L.CH_BREAKTHROUGHS, _Param("n", 1, L.N_BT_SPACES)),
    "level_fulfilled": _Condition(L.CH_LEVEL_FULFILLED, _Param("level", 1, L.N_LEVELS, offset=1)),
    "points": _Condition(L.CH_POINTS, _Param("n", 1, MAX_POINTS_CHALLENGE)),
}
CONDITION_NAMES = tuple(CONDITIONS)
_PARAM_KEYS = ("n", "column", "group", "level")
_CODE_NAME = {c.code: name for name, c in CONDITIONS.items()}

assert sorted(c.code for c in CONDITIONS.values()) == list(range(1, L.N_CH_CODES))


# ----------------------------------------------------------------------------------------------
# Pydantic models of a scenario file
# ----------------------------------------------------------------------------------------------
def _int(v: object, what: str) -> int:
    """Return ``v`` if it is a real int (YAML ``3``), else raise; bools, floats and strings are refused."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"must be {what} (got {v!r})")
    return v


def _ranged(lo: int, hi: int):
    """A plain validator: a YAML integer in ``lo..hi``."""

    def check(v: object) -> int:
        n = _int(v, f"an integer {lo}..{hi}")
        if not lo <= n <= hi:
            raise ValueError(f"must be between {lo} and {hi} (got {n})")
        return n

    return PlainValidator(check)


def _text(v: object) -> str:
    """A non-empty string (surrounding spaces removed)."""
    if not isinstance(v, str) or not v.strip():
        raise ValueError(f"must be a non-empty string (got {v!r})")
    return v.strip()


def _param_value(v: object) -> int | str | None:
    """A raw challenge parameter: an int or ``"any"``; the condition checks the range."""
    if v is None or v == "any":
        return v
    return _int(v, "an integer or 'any'")


def _bonus_level(v: object) -> int | str:
    """A bonus level: ``1..7`` (I..VII) or ``"R"``."""
    if v == RANDOM_LEVEL:
        return v
    n = _int(v, f"a level 1..{L.N_LEVELS} or 'R'")
    if not 1 <= n <= L.N_LEVELS:
        raise _Issue(("level",), f"must be a level 1..{L.N_LEVELS} (I..VII) or 'R' (got {n})")
    return n


def _star(v: object) -> int | str:
    """A star: a round ``2..12``, or ``"R+X"`` with ``X >= 1`` (normalised to ``"R+X"``)."""
    what = f"a round {MIN_STAR_ROUND}..{L.N_ROUNDS} or 'R+X' (X >= 1)"
    if isinstance(v, str):
        m = _RPLUS.match(v.replace(" ", ""))
        if m is None:
            raise _Issue(("round",), f"must be {what} (got {v!r})")
        x = int(m.group(1))
        if x < 1:
            raise _Issue(("X",), f"X of R+X must be at least 1 (got {v!r})")
        return f"R+{x}"
    n = _int(v, what)
    if not MIN_STAR_ROUND <= n <= L.N_ROUNDS:
        raise _Issue(("round",), f"must be a round {MIN_STAR_ROUND}..{L.N_ROUNDS} (got {n}); "
                                 f"a star is lost when the round marker reaches its round")
    return n


def _star_points(v: object) -> int:
    """One entry of a star table: ``0..MAX_STAR_POINTS`` energy points."""
    n = _int(v, f"an integer 0..{MAX_STAR_POINTS}")
    if not 0 <= n <= MAX_STAR_POINTS:
        raise _Issue(("points",), f"must be between 0 and {MAX_STAR_POINTS} (got {n})")
    return n


Text = Annotated[str, PlainValidator(_text)]
ParamValue = Annotated[Union[int, str, None], PlainValidator(_param_value)]
BonusLevel = Annotated[Union[int, str], PlainValidator(_bonus_level)]
Star = Annotated[Union[int, str], PlainValidator(_star)]
StarPoints = Annotated[int, PlainValidator(_star_points)]


class ChallengeModel(BaseModel):
    """One challenge: a condition of the vocabulary, its parameters and the text shown to people."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    condition: str
    n: ParamValue = None
    column: ParamValue = None
    group: ParamValue = None
    level: ParamValue = None
    text: Text

    @model_validator(mode="after")
    def _check(self) -> "ChallengeModel":
        """The condition is known; it gets exactly its parameters, each in range."""
        cond = CONDITIONS.get(self.condition)
        if cond is None:
            raise _Issue(("condition",), f"unknown condition {self.condition!r}; "
                                         f"known: {', '.join(CONDITION_NAMES)}")
        wanted = {p.key: p for p in cond.params}
        for key in _PARAM_KEYS:
            v = getattr(self, key)
            p = wanted.get(key)
            if p is None:
                if v is not None:
                    takes = ", ".join(wanted)
                    raise _Issue((key,), f"condition {self.condition!r} takes no {key!r} "
                                         f"(it takes: {takes})")
                continue
            if v is None:
                raise _Issue((key,), f"is required for condition {self.condition!r} ({p.what()})")
            if v == "any" and not p.any_ok:
                raise _Issue((key,), f"must be {p.what()} for condition {self.condition!r} (got 'any')")
            if v != "any" and not p.lo <= v <= p.hi:
                raise _Issue((key,), f"must be {p.what()} for condition {self.condition!r} (got {v})")
        return self

    def encode(self) -> tuple[int, int, int]:
        """``(CH_* code, a, b)`` as written to ``SC_CH_COND``, ``SC_CH_A``, ``SC_CH_B``."""
        cond = CONDITIONS[self.condition]
        a = cond.a.encode(getattr(self, cond.a.key))
        b = cond.b.encode(getattr(self, cond.b.key)) if cond.b is not None else 0
        return cond.code, a, b


class ScenarioModel(BaseModel):
    """A whole scenario file; the checks across fields run after each field is valid on its own."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Text
    gears: Annotated[int, _ranged(MIN_GEARS, MAX_GEARS)]
    target: Annotated[int, _ranged(1, MAX_TARGET)]
    bonus_levels: list[BonusLevel] = Field(max_length=L.N_LEVELS + 1)
    stars: list[Star] = Field(max_length=L.MAX_SCENARIO_STARS)
    star_points: list[StarPoints]
    challenges: list[ChallengeModel] = Field(min_length=1, max_length=L.MAX_CHALLENGES)

    @model_validator(mode="after")
    def _check(self) -> "ScenarioModel":
        """Levels unique, at most one R with a level left for it, R+X stars possible, star table sound."""
        seen: dict[int | str, int] = {}
        for i, lv in enumerate(self.bonus_levels):
            if lv in seen:
                what = "'R' may appear only once" if lv == RANDOM_LEVEL else \
                    f"level {lv} ({LEVEL_NAMES[lv - 1]}) is listed twice"
                raise _Issue(("bonus_levels", i, "level"), f"{what} (also bonus_levels[{seen[lv]}])")
            seen[lv] = i
        free = self.random_candidates()
        if RANDOM_LEVEL in seen and not free:
            raise _Issue(("bonus_levels", seen[RANDOM_LEVEL], "level"),
                         "'R' needs a level that is not listed, but all seven are")
        for i, st in enumerate(self.stars):
            if isinstance(st, int):
                continue
            x = int(st[2:])
            if RANDOM_LEVEL not in seen:
                raise _Issue(("stars", i, "round"),
                             f"{st} needs a random level: add 'R' to bonus_levels or use a fixed round")
            if max(free) + x > L.N_ROUNDS:
                raise _Issue(("stars", i, "X"),
                             f"{st} can reach round {max(free) + x} (R can be level "
                             f"{LEVEL_NAMES[max(free) - 1]}); every R+X must be at most {L.N_ROUNDS}, "
                             f"so X <= {L.N_ROUNDS - max(free)} here")
        if len(self.star_points) != len(self.stars) + 1:
            raise _Issue(("star_points",),
                         f"must have {len(self.stars) + 1} entries, the points for 0..{len(self.stars)} "
                         f"stars (got {len(self.star_points)})")
        for k in range(1, len(self.star_points)):
            if self.star_points[k] < self.star_points[k - 1]:
                raise _Issue(("star_points", k, "points"),
                             f"must not decrease: {self.star_points[k]} points for {k} stars is less "
                             f"than {self.star_points[k - 1]} for {k - 1}")
        keys = [c.encode() for c in self.challenges]
        for i, key in enumerate(keys):
            if key in keys[:i]:
                raise _Issue(("challenges", i, "condition"),
                             f"the same condition and parameters as challenge {keys.index(key) + 1}")
        return self

    def random_candidates(self) -> tuple[int, ...]:
        """The levels (1..7) that R can take: those not listed."""
        return tuple(lv for lv in range(1, L.N_LEVELS + 1) if lv not in self.bonus_levels)


# ----------------------------------------------------------------------------------------------
# The loaded scenario
# ----------------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class Scenario:
    """A validated solo scenario and its compiled table ``SC`` (read-only).

    Levels are 0-based here (0..6 = I..VII), as in the engine; the YAML writes them 1..7.
    """

    id: str                                        # the file stem
    name: str
    gears: int                                     # difficulty 1..4
    target: int                                    # energy points (score + star points) to win
    bonus_levels: tuple[int, ...]                  # demand levels 0..6 with a bonus token, file order
    bonus_random: bool                             # one more token on a random unlisted level R
    stars: tuple[tuple[int, bool], ...]            # (round, False) or (X, True) for R+X, file order
    star_points: tuple[int, ...]                   # energy points for 0, 1, ... stars
    challenges: tuple[tuple[int, int, int, str], ...]  # (CH_* code, a, b, text)
    table: np.ndarray                              # int64, shape (layout.SC_SIZE,), read-only
    hash: str                                      # sha256 of the canonical JSON of the content
    path: Path
    model: ScenarioModel = field(repr=False)

    def random_levels(self) -> tuple[int, ...]:
        """The levels (0..6) that the random level R can take; empty without R."""
        if not self.bonus_random:
            return ()
        return tuple(lv - 1 for lv in self.model.random_candidates())

    def star_text(self, k: int) -> str:
        """Star ``k`` as written in the file: ``"7"`` or ``"R+5"``."""
        v, rplus = self.stars[k]
        return f"R+{v}" if rplus else str(v)

    def challenge_text(self, k: int) -> str:
        """Challenge ``k`` (0-based): its text and, in brackets, the condition with its parameters."""
        c = self.model.challenges[k]
        cond = CONDITIONS[c.condition]
        params = ", ".join(f"{p.key}={getattr(c, p.key)}" for p in cond.params)
        return f"{c.text} [{c.condition}({params})]"

    def describe(self) -> str:
        """One paragraph for people: gears, target, bonus levels, stars, star table and challenges."""
        levels = [LEVEL_NAMES[lv] for lv in self.bonus_levels]
        if self.bonus_random:
            levels.append("R (a random level among " +
                          ", ".join(LEVEL_NAMES[lv] for lv in self.random_levels()) + ")")
        stars = ", ".join(self.star_text(k) for k in range(len(self.stars))) or "none"
        table = ", ".join(f"{k}: {p}" for k, p in enumerate(self.star_points))
        chal = "; ".join(f"({k + 1}) {self.challenge_text(k)}" for k in range(len(self.challenges)))
        return (f"{self.name} ({self.id}), {self.gears} gear{'s' if self.gears != 1 else ''}: "
                f"score at least {self.target} energy points (score plus star points) by the end of "
                f"round {L.N_ROUNDS}. Bonus reward tokens on demand level"
                f"{'s' if len(levels) != 1 else ''} {', '.join(levels) or 'none'}. "
                f"Bonus stars above round{'s' if len(self.stars) != 1 else ''} {stars} "
                f"(a star is lost when the round marker reaches its round). "
                f"Stars to points: {table}. Challenges: {chal}.")


def list_scenarios() -> list[str]:
    """The ids (file stems) of the scenarios in :data:`SCENARIOS_DIR`, sorted by gears, then name.

    Raises :class:`ScenarioError` if any file there does not load.
    """
    scenarios = [load_scenario(p) for p in _scenario_files()]
    scenarios.sort(key=lambda s: (s.gears, s.name, s.id))
    return [s.id for s in scenarios]


def load_scenario(name_or_path: str | Path) -> Scenario:
    """Load, validate and compile a scenario: an id of :data:`SCENARIOS_DIR` or a path to a YAML file.

    A string without a path separator and without a ``.yaml``/``.yml`` suffix is an id.  Cached: the
    key is the resolved path with the file's modification time and size, so an edited file is read
    again.  Raises :class:`ScenarioError` on any problem; an unknown id lists the available ones.
    """
    path = _resolve(name_or_path)
    try:
        st = path.stat()
    except OSError:
        raise ScenarioError(f"{_display(path)}: file not found") from None
    return _load_cached(path, st.st_mtime_ns, st.st_size)


def scenarios_table() -> str:
    """A text table of all scenarios (id, gears, target, stars, challenges); the ``electrify scenarios`` command."""
    rows = [load_scenario(sid) for sid in list_scenarios()]
    head = ("id", "name", "gears", "target", "stars", "challenges")
    cells = [(s.id, s.name, str(s.gears), str(s.target), str(len(s.stars)),
              "; ".join(c[3] for c in s.challenges)) for s in rows]
    widths = [max(len(r[i]) for r in [head, *cells]) for i in range(len(head) - 1)]
    lines = []
    for r in [head, *cells]:
        lines.append("  ".join(r[i].ljust(widths[i]) if i in (0, 1) else r[i].rjust(widths[i])
                               for i in range(len(head) - 1)) + "  " + r[-1])
    lines.insert(1, "  ".join("-" * w for w in widths) + "  " + "-" * len(head[-1]))
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------
# Loading
# ----------------------------------------------------------------------------------------------
def _scenario_files() -> list[Path]:
    """The scenario files of :data:`SCENARIOS_DIR` (``*.yaml``), sorted by name."""
    return sorted(p for p in SCENARIOS_DIR.glob("*.yaml") if p.is_file())


def _resolve(name_or_path: str | Path) -> Path:
    """The file of an id or a path; an unknown id raises with the list of available ids."""
    s = str(name_or_path)
    if "\x00" in s:   # os.path would raise a plain ValueError
        raise ScenarioError(f"{s!r}: not a valid scenario id or path (it holds a NUL byte)")
    if isinstance(name_or_path, Path):
        return name_or_path.resolve()
    if "/" in s or "\\" in s or s.endswith((".yaml", ".yml")):
        return Path(s).resolve()
    path = SCENARIOS_DIR / f"{s}.yaml"
    if not path.is_file():
        ids = ", ".join(p.stem for p in _scenario_files()) or "none"
        raise ScenarioError(f"unknown scenario {s!r}; available: {ids}")
    return path.resolve()


@functools.lru_cache(maxsize=64)
def _load_cached(path: Path, mtime_ns: int, size: int) -> Scenario:
    """Build the scenario of ``path`` (``mtime_ns`` and ``size`` only key the cache)."""
    raw = _read_yaml(path)
    try:
        model = ScenarioModel.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise ScenarioError(_validation_message(path, raw, exc)) from None
    table = _compile(model)
    table.flags.writeable = False
    canonical = json.dumps(model.model_dump(mode="json"), sort_keys=True, separators=(",", ":"),
                           ensure_ascii=True)
    return Scenario(
        id=path.stem,
        name=model.name,
        gears=model.gears,
        target=model.target,
        bonus_levels=tuple(lv - 1 for lv in model.bonus_levels if lv != RANDOM_LEVEL),
        bonus_random=RANDOM_LEVEL in model.bonus_levels,
        stars=tuple((st, False) if isinstance(st, int) else (int(st[2:]), True) for st in model.stars),
        star_points=tuple(model.star_points),
        challenges=tuple((*c.encode(), c.text) for c in model.challenges),
        table=table,
        hash=hashlib.sha256(canonical.encode("ascii")).hexdigest(),
        path=path,
        model=model,
    )


def _display(path: Path) -> str:
    """The path as shown in messages: relative to the repository root when inside it, quoted
    (``repr``) when it holds a control character such as a newline, so a message stays one line."""
    text = display_path(path, REPO_ROOT)
    return text if text.isprintable() else repr(text)


def _read_yaml(path: Path) -> dict[str, Any]:
    """Parse one YAML file into a mapping, or raise :class:`ScenarioError`."""
    data = read_yaml_mapping(path, ScenarioError, _display)
    return data


def _validation_message(path: Path, raw: dict[str, Any], exc: pydantic.ValidationError) -> str:
    """``FILE: ITEM: field 'FIELD': TEXT`` for the first pydantic error (plus a count of the rest)."""
    errors = exc.errors()
    first = errors[0]
    loc = tuple(first["loc"])
    issue = first.get("ctx", {}).get("error")
    if isinstance(issue, _Issue):
        loc += issue.loc
    item, fld = _locate(loc)
    more = f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})" if len(errors) > 1 else ""
    return f"{_display(path)}: {item}: field '{fld}': {_error_text(first)}{more}"


def _locate(loc: tuple) -> tuple[str, str]:
    """Split an error location into the item (``scenario``, ``challenge 2``, ``stars[3]``) and the field."""
    if not loc:
        return "scenario", "?"
    head, rest = loc[0], loc[1:]
    idx = rest[0] if rest and isinstance(rest[0], int) else None
    if idx is None:
        return "scenario", str(head)
    tail = [str(p) for p in rest[1:] if not isinstance(p, int)]
    if head == "challenges":
        return f"challenge {idx + 1}", ".".join(tail) or "condition"
    default = {"bonus_levels": "level", "stars": "round", "star_points": "points"}.get(head, str(head))
    return f"{head}[{idx}]", ".".join(tail) or default


def _error_text(err: dict[str, Any]) -> str:
    """The human part of one pydantic error."""
    return pydantic_error_text(err)


# ----------------------------------------------------------------------------------------------
# Compiling the scenario table
# ----------------------------------------------------------------------------------------------
def _compile(model: ScenarioModel) -> np.ndarray:
    """Write a validated scenario into a fresh table ``SC`` through the ``SC_*`` offsets only."""
    SC = np.zeros(L.SC_SIZE, dtype=np.int64)
    SC[L.SC_TARGET] = model.target
    for lv in model.bonus_levels:
        if lv == RANDOM_LEVEL:
            SC[L.SC_BONUS_RANDOM] = 1
        else:
            SC[L.SC_BONUS] |= 1 << (lv - 1)
    SC[L.SC_NSTARS] = len(model.stars)
    for k, st in enumerate(model.stars):
        if isinstance(st, int):
            SC[L.SC_STAR_ROUND + k] = st
        else:
            SC[L.SC_STAR_ROUND + k] = int(st[2:])
            SC[L.SC_STAR_RPLUS + k] = 1
    for k, pts in enumerate(model.star_points):
        SC[L.SC_STAR_POINTS + k] = pts
    SC[L.SC_NCH] = len(model.challenges)
    for k, c in enumerate(model.challenges):
        code, a, b = c.encode()
        SC[L.SC_CH_COND + k] = code
        SC[L.SC_CH_A + k] = a
        SC[L.SC_CH_B + k] = b
    return SC
