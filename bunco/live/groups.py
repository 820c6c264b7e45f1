"""Channels group names, in one place."""


def host(night_id: int) -> str:
    return f"host_{night_id}"


def tv(night_id: int) -> str:
    return f"tv_{night_id}"


def table(night_id: int, number: int) -> str:
    return f"table_{night_id}_{number}"


def table_number(group: str | None) -> int | None:
    """The table a table's group is for (None for no group)."""
    return int(group.rsplit("_", 1)[1]) if group else None


def player(player_id: int) -> str:
    return f"player_{player_id}"
