"""What a seat sees, as data and as pictures: :mod:`~electrify_env.render.view` (the JSON-ready
view of one seat, hidden information left out) and :mod:`~electrify_env.render.board` (that view
drawn as a scene, SVG or an RGB array).  Part of the core: the envs' ``render_mode="rgb_array"``
and the play table both draw with it."""
