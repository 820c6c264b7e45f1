"""Domain exceptions raised by the rules engine."""


class RulesError(ValueError):
    """A house-rules value is invalid. ``field`` names the offending dimension."""

    def __init__(self, field: str, message: str):
        self.field = field
        super().__init__(f"{field}: {message}")


class IllegalMove(ValueError):
    """A command does not fit the current state of play (e.g. a roll after the round ended)."""
