"""Human play: a game with seats for people and bots (:mod:`.session`), what a seat may see
(:mod:`.view`), the board picture as SVG and as an RGB array (:mod:`.board`), the web app
(:mod:`.web`, ``electrify serve``) and the terminal UI (``electrify play``)."""
