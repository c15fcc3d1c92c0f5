"""Copy a trained policy into ``policies/`` (float16 weights, metadata kept).

    python -m electrify_env.training.ship runs/final_2p/policy.pt policies/electrify-2p.pt
    python -m electrify_env.training.ship policies/electrify-3p.pt policies/electrify-3p.pt --prior greedy --prior-scale 2
    python -m electrify_env.training.ship runs/d/student-3000000.pt policies/electrify-2p-net.pt --average runs/d/student-4000000.pt

The policy is loaded and checked as any agent would load it (layout, card set), then saved again
through :func:`electrify_env.agents.net.save_policy`, so the shipped file has the current file format and
its metadata sidecar records where it came from (``shipped_from``).  ``--prior greedy`` ships a
network trained without a logit prior with greedy's one-ply values added to its logits
(``PolicyValueNet(prior="greedy")``, the same weights); the metadata records it as
``prior_added`` (the network was not trained with it) and keeps the network's ``shipped_from``.
``--average MORE...`` ships the mean of the weights of ``SRC`` and ``MORE`` (a uniform weight
average of checkpoints of one architecture, e.g. the students of a run and of its sibling runs
from the same start: :func:`average_weights`); the metadata is ``SRC``'s, with ``averaged_from``
listing every file averaged.  ``--lookahead FRAMES`` ships the policy with a
:class:`electrify_env.agents.net.RolloutLookahead` at those decision types (the policy's best candidates
compared by greedy rollouts at play time: ``--lookahead-top-k``, ``--lookahead-rollouts``,
``--lookahead-horizon``, ``--lookahead-max-target``; defaults those of
``mcts:iters=36:top_k=3:horizon=2``), beside any lookahead the policy has (a file may have
several, each for its own decision types; e.g. a second one with a ``--lookahead-max-target``);
an afterstate critic deciding any of those types is dropped (the lookahead takes its
decisions); the metadata records both as ``lookahead_added`` (a list, one item per addition).
Paths in the metadata that point inside the repository are
written relative to it (:func:`portable_paths`)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from electrify_env.paths import SOURCE_ROOT
from electrify_env.agents.policy_meta import policy_metadata
from electrify_env.yamlio import display_path

from electrify_env.agents.net import ALGORITHM, PRIORS, PolicyValueNet, load_policy, save_policy


def average_weights(net: PolicyValueNet, others: list[str | Path], card_set_hash: str | None = None) -> PolicyValueNet:
    """``net`` with every weight replaced by its mean over ``net`` and the policies ``others``
    (uniform; the same architecture: hidden sizes, player count, prior and critics, else
    ValueError naming the file; saved for ``card_set_hash`` when given, else
    :class:`~electrify_env.agents.policy_meta.PolicyMismatchError`).  Returns ``net``."""
    import torch

    state = {k: v.clone() for k, v in net.state_dict().items()}
    for path in others:
        other, _ = load_policy(path, card_set_hash=card_set_hash)
        if other.arch() != net.arch():
            raise ValueError(f"cannot average {path}: its architecture {other.arch()} is not {net.arch()}")
        for k, v in other.state_dict().items():
            state[k] += v
    with torch.no_grad():
        net.load_state_dict({k: v / (1 + len(others)) for k, v in state.items()})
    return net


def portable_paths(value, root: str | Path = SOURCE_ROOT):
    """``value`` (metadata: dicts, lists, strings...) with every absolute path string that points
    inside ``root`` (the repository; also through a symbolic link that is a direct child of it,
    such as ``runs`` -> a runs folder elsewhere) written relative to it (``/home/me/electrify/runs/d``
    -> ``runs/d``), so shipped metadata names the files as the docs' commands do, on any machine.
    Other values are returned unchanged."""
    root = Path(root)
    bases = [(root.resolve(), Path("."))]
    for child in root.iterdir() if root.is_dir() else ():
        if child.is_symlink() and child.is_dir():
            bases.append((child.resolve(), Path(child.name)))
    bases.sort(key=lambda b: -len(str(b[0])))       # the deepest base first

    def fix(v):
        if isinstance(v, dict):
            return {k: fix(x) for k, x in v.items()}
        if isinstance(v, list):
            return [fix(x) for x in v]
        if isinstance(v, str) and v.startswith("/"):
            for base, name in bases:
                shown = display_path(Path(v), base)     # relative to base when inside it
                if not Path(shown).is_absolute():
                    return (name / shown).as_posix()
        return v
    return fix(value)


def with_lookahead(net: PolicyValueNet, lookahead: dict) -> tuple[PolicyValueNet, list[dict]]:
    """A copy of ``net`` (the same weights, prior and lookaheads) that also searches with a
    :class:`~electrify_env.agents.net.RolloutLookahead` of the fields ``lookahead``, without the afterstate
    critics that decide any of its decision types; returns it and the configs of the critics
    dropped.  ValueError if one of its types is a lookahead's that ``net`` has already."""
    from electrify_env.agents.net import RolloutLookahead

    la = RolloutLookahead(**lookahead)
    kept = [c for c in net.critics if not c.frame_codes & la.frame_codes]
    out = PolicyValueNet(net.n_players, net.hidden, init=False, prior=net.prior, prior_scale=net.prior_scale,
                         prior_weights=net.prior_weights, critic=[c.config() for c in kept],
                         lookahead=[x.config() for x in net.lookaheads] + [la.config()])
    for name in ("trunk", "pi", "v"):
        getattr(out, name).load_state_dict(getattr(net, name).state_dict())
    for old, mine in zip(kept, out.critics):
        mine.load_state_dict(old.state_dict())
    return out.eval(), [c.config() for c in net.critics if c not in kept]


def ship(src: str | Path, dest: str | Path, prior: str | None = None, prior_scale: float = 2.0,
         average: list[str | Path] | None = None, lookahead: dict | None = None) -> Path:
    """Load ``src`` and save it as ``dest`` (``.pt``) with the same metadata; returns ``dest``.
    ``prior="greedy"``: add greedy's one-ply values x ``prior_scale`` to the logits of a network
    that has no prior (ValueError if it has one).  ``average``: ship the mean of ``src``'s and
    these policies' weights (:func:`average_weights`), recorded as ``averaged_from``.
    ``lookahead``: the fields of a :class:`~electrify_env.agents.net.RolloutLookahead` to add
    (:func:`with_lookahead`), recorded as ``lookahead_added``.  A plain copy keeps the source's
    ``evaluation`` rows; a changed network (prior, average, lookahead) ships without them."""
    net, meta = load_policy(src)
    base = set(policy_metadata("", "")) | {"algorithm", "arch"}
    extra = {k: v for k, v in meta.items() if k not in base}
    if (prior in (None, "none") and lookahead is None) or "shipped_from" not in extra:
        # adding a prior or a lookahead keeps the network's origin
        extra["shipped_from"] = str(src)
    if average or prior not in (None, "none") or lookahead is not None:
        # a changed network has not been evaluated: its source's results do not describe it
        extra.pop("evaluation", None)
    if average:
        net = average_weights(net, list(average), meta["card_set_hash"])
        extra["averaged_from"] = [str(src)] + [str(p) for p in average]
    if prior not in (None, "none"):
        if net.prior != "none":
            raise ValueError(f"{src} already adds the {net.prior!r} prior")
        wrapped = PolicyValueNet(net.n_players, net.hidden, init=False, prior=prior, prior_scale=prior_scale,
                                 critic=[c.config() for c in net.critics],
                                 lookahead=[la.config() for la in net.lookaheads])
        wrapped.load_state_dict(net.state_dict())
        net = wrapped.eval()
        extra["prior_added"] = {"prior": prior, "prior_scale": float(prior_scale), "from": str(src)}
    if lookahead is not None:
        net, dropped = with_lookahead(net, lookahead)
        la = net.lookaheads[-1].config()
        added = extra.get("lookahead_added", [])
        extra["lookahead_added"] = (added if isinstance(added, list) else [added]) + [
            {"lookahead": {k: v for k, v in la.items() if k != "weights"}, "dropped_critics": dropped,
             "from": str(src)}]
    return save_policy(net, dest, meta["card_set_hash"], meta["env_id"],
                       algorithm=meta.get("algorithm", ALGORITHM), **portable_paths(extra))


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m electrify_env.training.ship SRC DEST``."""
    ap = argparse.ArgumentParser(prog="python -m electrify_env.training.ship", description=__doc__.split("\n")[0])
    ap.add_argument("src", help="a policy .pt saved by electrify train")
    ap.add_argument("dest", help="where to ship it (.pt), e.g. policies/electrify-2p.pt")
    ap.add_argument("--prior", choices=PRIORS, default=None,
                    help="add this logit prior to a network trained without one (greedy: greedy's one-ply values)")
    ap.add_argument("--prior-scale", type=float, default=2.0, help="weight of the added prior (default 2)")
    ap.add_argument("--average", nargs="+", default=None, metavar="MORE",
                    help="ship the mean of the weights of SRC and these policies (same architecture)")
    ap.add_argument("--lookahead", default=None, metavar="FRAMES",
                    help="search at these decision types (electrify_env.decision.FRAME_KINDS names, "
                         "comma-separated) among the policy's best candidates by greedy rollouts")
    ap.add_argument("--lookahead-top-k", type=int, default=3, help="candidates searched (default 3)")
    ap.add_argument("--lookahead-rollouts", type=int, default=36, help="rollouts per searched decision (default 36)")
    ap.add_argument("--lookahead-horizon", type=int, default=2, help="rounds a rollout plays (default 2)")
    ap.add_argument("--lookahead-max-target", type=int, default=0,
                    help="search only in solo games of a target at most this (default 0: every game)")
    args = ap.parse_args(argv)
    la = None if args.lookahead is None else {
        "frames": [f for f in args.lookahead.split(",") if f], "top_k": args.lookahead_top_k,
        "rollouts": args.lookahead_rollouts, "horizon": args.lookahead_horizon,
        "max_target": args.lookahead_max_target}
    try:
        out = ship(args.src, args.dest, args.prior, args.prior_scale, args.average, la)
    except ValueError as err:
        print(f"python -m electrify_env.training.ship: error: {err}", file=sys.stderr)
        return 2
    print(f"shipped {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
