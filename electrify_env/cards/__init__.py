"""Card sets as data: the YAML schema, the loader and the compiled card table ``T``.

>>> from electrify_env.cards import load_card_set
>>> cs = load_card_set()            # configs/cards/base.yaml
>>> cs.table.shape                  # (layout.T_SIZE,)
"""
from electrify_env.cards.loader import (
    DEFAULT_CARD_SET,
    DEFAULT_CARDS_DIR,
    CardSet,
    CardSetError,
    card_set_stats,
    load_card_set,
    validate_summary,
)

__all__ = [
    "DEFAULT_CARD_SET",
    "DEFAULT_CARDS_DIR",
    "CardSet",
    "CardSetError",
    "card_set_stats",
    "load_card_set",
    "validate_summary",
]
