"""The preset names as the rule tests use them, grouped as RULES.md's tables group them."""

NODDY, DUCOEUR, HOLME, MODERN, FIVE, CRIB = (
    "noddy", "noddy-ducoeur", "noddy-holme", "noddy-modern", "five-card-cribbage", "cribbage",
)
NODDY_PRESETS = (NODDY, DUCOEUR, HOLME)
CRIBBAGE_LIKE = (MODERN, FIVE, CRIB)
ALL = NODDY_PRESETS + CRIBBAGE_LIKE
