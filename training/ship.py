"""Copy a trained policy into ``policies/`` (float16 weights, metadata kept).

    python -m training.ship runs/final_2p/policy.pt policies/electrify-2p.pt
    python -m training.ship policies/electrify-3p.pt policies/electrify-3p.pt --prior greedy --prior-scale 2

The policy is loaded and checked as any agent would load it (layout, card set), then saved again
through :func:`training.net.save_policy`, so the shipped file has the current file format and
its metadata sidecar records where it came from (``shipped_from``).  ``--prior greedy`` ships a
network trained without a logit prior with greedy's one-ply values added to its logits
(``PolicyValueNet(prior="greedy")``, the same weights); the metadata records it as
``prior_added`` (the network was not trained with it) and keeps the network's ``shipped_from``."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from electrify_env.policy_meta import policy_metadata

from .net import ALGORITHM, PRIORS, PolicyValueNet, load_policy, save_policy


def ship(src: str | Path, dest: str | Path, prior: str | None = None, prior_scale: float = 2.0) -> Path:
    """Load ``src`` and save it as ``dest`` (``.pt``) with the same metadata; returns ``dest``.
    ``prior="greedy"``: add greedy's one-ply values x ``prior_scale`` to the logits of a network
    that has no prior (ValueError if it has one)."""
    net, meta = load_policy(src)
    base = set(policy_metadata("", "")) | {"algorithm", "arch"}
    extra = {k: v for k, v in meta.items() if k not in base}
    if prior in (None, "none") or "shipped_from" not in extra:   # adding a prior keeps the network's origin
        extra["shipped_from"] = str(src)
    if prior not in (None, "none"):
        if net.prior != "none":
            raise ValueError(f"{src} already adds the {net.prior!r} prior")
        wrapped = PolicyValueNet(net.n_players, net.hidden, init=False, prior=prior, prior_scale=prior_scale,
                                 critic=[c.config() for c in net.critics])
        wrapped.load_state_dict(net.state_dict())
        net = wrapped.eval()
        extra["prior_added"] = {"prior": prior, "prior_scale": float(prior_scale), "from": str(src)}
    return save_policy(net, dest, meta["card_set_hash"], meta["env_id"],
                       algorithm=meta.get("algorithm", ALGORITHM), **extra)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m training.ship SRC DEST``."""
    ap = argparse.ArgumentParser(prog="python -m training.ship", description=__doc__.split("\n")[0])
    ap.add_argument("src", help="a policy .pt saved by electrify train")
    ap.add_argument("dest", help="where to ship it (.pt), e.g. policies/electrify-2p.pt")
    ap.add_argument("--prior", choices=PRIORS, default=None,
                    help="add this logit prior to a network trained without one (greedy: greedy's one-ply values)")
    ap.add_argument("--prior-scale", type=float, default=2.0, help="weight of the added prior (default 2)")
    args = ap.parse_args(argv)
    try:
        out = ship(args.src, args.dest, args.prior, args.prior_scale)
    except ValueError as err:
        print(f"python -m training.ship: error: {err}", file=sys.stderr)
        return 2
    print(f"shipped {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
