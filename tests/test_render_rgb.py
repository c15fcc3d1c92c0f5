"""``render_mode="rgb_array"`` of the Gymnasium and PettingZoo envs, drawn from the board picture
(electrify_env/render/board.py); Gymnasium's RecordVideo and SB3's make_vec_env use it."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
pytest.importorskip("PIL")

import electrify_env.envs  # noqa: E402,F401  (registers the envs)
from electrify_env import Game  # noqa: E402
from electrify_env.envs.solo import ElectrifySoloEnv  # noqa: E402
from electrify_env.render.board import build_scene, game_rgb, to_rgb, to_svg  # noqa: E402
from electrify_env.render.view import seat_view_dict  # noqa: E402


def _first_legal(env) -> int:
    return int(np.flatnonzero(env.get_wrapper_attr("action_masks")())[0])


def test_solo_frames_have_one_size_for_the_whole_episode():
    env = ElectrifySoloEnv(scenario="blackout", render_mode="rgb_array")
    blank = env.render()                                    # before reset: a blank frame
    env.reset(seed=0)
    frames = [env.render()]
    rng = np.random.default_rng(0)
    term = False
    while not term:
        legal = env.legal_actions()
        _, _, term, _, _ = env.step(int(legal[rng.integers(len(legal))]))
        if rng.random() < 0.1 or term:
            frames.append(env.render())
    shapes = {f.shape for f in frames} | {blank.shape}
    assert len(shapes) == 1
    h, w, c = shapes.pop()
    assert c == 3 and h % 2 == 0 and w % 2 == 0 and h > 500 and w > 1000
    assert all(f.dtype == np.uint8 for f in frames)
    assert not np.array_equal(frames[0], frames[-1]) and frames[-1].std() > 10


def test_seat_env_and_pettingzoo_render_rgb():
    env = gym.make("Electrify-v0", n_players=3, render_mode="rgb_array")
    env.reset(seed=1)
    a = env.render()
    assert a.ndim == 3 and a.shape[2] == 3 and a.dtype == np.uint8
    pz = pytest.importorskip("pettingzoo")
    assert pz
    from electrify_env.envs import electrify_v0
    aec = electrify_v0.raw_env(n_players=2, render_mode="rgb_array")
    aec.reset(seed=0)
    first = aec.render()
    for _ in range(30):
        obs, *_ = aec.last()
        aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
    later = aec.render()
    assert first.shape == later.shape and first.dtype == np.uint8 and not np.array_equal(first, later)


def test_pettingzoo_frame_is_the_public_table():
    """R26: the PettingZoo frame shows no hand: it equals the spectator picture."""
    from electrify_env.envs import electrify_v0
    aec = electrify_v0.raw_env(n_players=2, render_mode="rgb_array")
    aec.reset(seed=3)
    assert np.array_equal(aec.render(), game_rgb(aec.game, seat=-1))
    assert not np.array_equal(game_rgb(aec.game, seat=0), game_rgb(aec.game, seat=-1))


def test_make_vec_env_without_arguments():
    from stable_baselines3.common.env_util import make_vec_env
    vec = make_vec_env("Electrify-Solo-v0", n_envs=2, seed=0)
    vec.reset()
    images = vec.get_images()
    assert len(images) == 2 and all(i.ndim == 3 and i.dtype == np.uint8 for i in images)
    vec.close()


def test_record_video_writes_a_file(tmp_path):
    pytest.importorskip("moviepy", reason="moviepy is needed by gymnasium's RecordVideo")
    env = gym.make("Electrify-Solo-v0", scenario="first_light", render_mode="rgb_array")
    env = gym.wrappers.RecordVideo(env, str(tmp_path), episode_trigger=lambda e: True,
                                   disable_logger=True)
    env.reset(seed=0)
    term = trunc = False
    steps = 0
    while not (term or trunc):
        _, _, term, trunc, _ = env.step(_first_legal(env))
        steps += 1
    env.close()
    videos = list(tmp_path.glob("*.mp4"))
    assert len(videos) == 1 and videos[0].stat().st_size > 10_000 and steps > 10


def test_svg_and_rgb_come_from_the_same_scene():
    g = Game(n_players=2, seed=5)
    scene = build_scene(seat_view_dict(g, 0))
    svg = to_svg(scene)
    root = ET.fromstring(svg)                    # well-formed XML
    places = [el for el in root.iter() if el.get("data-place")]
    assert len(places) == sum(1 for it in scene["items"] if "place" in it)
    assert {el.get("data-place") for el in places} >= {"sector,0,0", "hand,0", "demand,6", "breakthrough,13"}
    rgb = to_rgb(scene)
    assert rgb.shape == (scene["height"], scene["width"], 3)
    half = to_rgb(scene, scale=0.5)
    assert half.shape[0] == scene["height"] // 2
