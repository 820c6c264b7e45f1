"""The night's core: the log's rows (``events``), the fold of the log into the night as it
stands (``fold``, pure Python), the commands that write it (``services``: one runner over the
append-only log), the reads (``selectors``), and the rules for names and for which phone is a
player's (``names``, ``devices``). The models are ``bunco.models``, where Django looks for
them."""
