"""Every progress bar ends at its total: training rollouts that pass the step budget raise the
bar's total to the work done, and the arena's bar counts its games."""
import io

import pytest
import tqdm as tqdm_module

from electrify_env.training.progress import advance


class Recording(tqdm_module.tqdm):
    """A tqdm bar that remembers every instance (written to a string, never to the terminal)."""

    made: list = []

    def __init__(self, *a, **kw):
        kw["file"] = io.StringIO()
        kw.pop("disable", None)
        super().__init__(*a, **kw)
        Recording.made.append(self)


@pytest.fixture
def bars(monkeypatch):
    """The tqdm bars made while the test runs (``from tqdm import tqdm`` inside a function gets
    the recording class)."""
    Recording.made = []
    monkeypatch.setattr(tqdm_module, "tqdm", Recording)
    return Recording.made


def test_advance_raises_the_total_to_the_work_done():
    bar = tqdm_module.tqdm(total=10, file=io.StringIO())
    advance(bar, 8)
    assert (bar.n, bar.total) == (8, 10)
    advance(bar, 8)
    assert (bar.n, bar.total) == (16, 16)
    advance(None, 3)        # no bar: nothing to do


def test_the_train_bar_ends_at_its_total(tmp_path, bars):
    pytest.importorskip("torch")
    from electrify_env.training.config import TrainConfig
    from electrify_env.training.selfplay import train

    # budgets that are not multiples of a rollout (16 games x 32 decisions = 512 per rollout)
    cfg = TrainConfig(n_players=2, num_envs=16, rollout=512, minibatch=256, bc_steps=300, total_steps=700,
                      eval_games=2, eval_every=512, output_dir=str(tmp_path), tensorboard=False,
                      progress_bar=True, hidden=[16], snapshot_every=512)
    summary = train(cfg, log=lambda *a: None)
    (bar,) = [b for b in bars if b.unit == "dec"]
    assert summary["decisions"] > cfg.bc_steps + cfg.total_steps      # the rollouts passed the budget
    assert bar.n == bar.total == summary["decisions"]


def test_the_sb3_bar_ends_at_its_total(tmp_path, bars):
    pytest.importorskip("sb3_contrib")
    from electrify_env.training.config import load_config
    from electrify_env.training.train_solo import train

    cfg = load_config(None, overrides={"total_timesteps": 200, "vec_env": "dummy", "n_envs": 2, "n_steps": 64,
                                       "batch_size": 64, "n_epochs": 1, "eval_every": 0,
                                       "final_eval_episodes": 1, "features_dim": 16, "net_arch": [],
                                       "progress_bar": True, "output_dir": str(tmp_path)})
    summary = train(cfg, log=lambda *a: None)
    (bar,) = [b for b in bars if b.unit == "step"]
    assert summary["steps"] == 256 and bar.n == bar.total == 256


def test_the_arena_bar_ends_at_its_total(bars):
    from electrify_env.agents.arena import ArenaConfig, run_arena

    res = run_arena(ArenaConfig(agents=["random", "greedy"], players=2, games=4, seed=2, progress=True))
    (bar,) = bars
    assert bar.n == bar.total == len(res["records"]) == 4
