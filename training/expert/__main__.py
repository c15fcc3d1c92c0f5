"""``python -m electrify_env.training.expert CONFIG [key=value ...]``."""
from .trainer import main

main()
