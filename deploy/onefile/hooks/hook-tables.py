"""``tables`` here is Bunco's own package (the phones' face), not PyTables, whose hook (in
pyinstaller-hooks-contrib) would look for its compression modules: nothing to add."""
