"""The phones' face keeps no data of its own: the night's rows live in ``bunco.models``."""
