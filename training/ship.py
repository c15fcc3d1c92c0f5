"""Copy a trained policy into ``policies/`` (float16 weights, metadata kept).

    python -m training.ship runs/final_2p/policy.pt policies/electrify-2p.pt

The policy is loaded and checked as any agent would load it (layout, card set), then saved again
through :func:`training.net.save_policy`, so the shipped file has the current file format and
its metadata sidecar records where it came from (``shipped_from``)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from electrify_env.policy_meta import policy_metadata

from .net import ALGORITHM, load_policy, save_policy


def ship(src: str | Path, dest: str | Path) -> Path:
    """Load ``src`` and save it as ``dest`` (``.pt``) with the same metadata; returns ``dest``."""
    net, meta = load_policy(src)
    base = set(policy_metadata("", "")) | {"algorithm", "arch"}
    extra = {k: v for k, v in meta.items() if k not in base}
    extra["shipped_from"] = str(src)
    return save_policy(net, dest, meta["card_set_hash"], meta["env_id"],
                       algorithm=meta.get("algorithm", ALGORITHM), **extra)


def main(argv: list[str] | None = None) -> int:
    """Command line: ``python -m training.ship SRC DEST``."""
    ap = argparse.ArgumentParser(prog="python -m training.ship", description=__doc__.split("\n")[0])
    ap.add_argument("src", help="a policy .pt saved by electrify train")
    ap.add_argument("dest", help="where to ship it (.pt), e.g. policies/electrify-2p.pt")
    args = ap.parse_args(argv)
    try:
        out = ship(args.src, args.dest)
    except ValueError as err:
        print(f"python -m training.ship: error: {err}", file=sys.stderr)
        return 2
    print(f"shipped {out} ({out.stat().st_size / 1e6:.2f} MB)")
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
