"""The host's face: the pages and posts that set up, run and correct a night."""
